"""`cards lint`: every check of a card database, one module per family, each owning its code.

- files.py: a misnamed or second formats file (C007), no cards at all (C006);
- schema.py: card files and formats.yaml against their schemas, the game named (C001);
- cards.py: set codes (C102), ids (C002), printings (C003, C103), shared names (C101), a set's
  release days (C011);
- formats.py: what formats.yaml names (C005, C104) and its dated changes (C008–C010, C012, C013,
  C105).

A game adds its own card checks (`Game.card_rules`), registered the same way on a
`Rulebook[CardFile]`. F001–F003 are the readers' (core/messages/filecodes.py).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if (
    TYPE_CHECKING
):  # what the room offers, loaded on first use (`check` opens a database, never lints)
    from varz_deck.core.lint._base import CardFile
    from varz_deck.core.lint.run import CARD_CODES, LintResult, lint

__all__ = ["CARD_CODES", "CardFile", "LintResult", "lint"]
_WHERE = {"CARD_CODES": "run", "LintResult": "run", "lint": "run", "CardFile": "_base"}


def __getattr__(name: str) -> object:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{where}"), name)
