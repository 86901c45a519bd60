"""VARZ registration: the core's `GameRegistrar` (varz_deck/core/registration/registrar.py) built
with the game's `Layout` (varz_deck/games/varz/layout.py), its deck reader (deck.py, which reads
its deck codes too), its check and its sheet (sheet.py). `REGISTRAR` is what `Varz.registrar`
gives the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from varz_deck.core.registration.registrar import GameRegistrar
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import Deck, read_deck
from varz_deck.games.varz.layout import LAYOUT, is_code_argument

if TYPE_CHECKING:
    from varz_deck.core.registration.sheet import SheetParts


def _slots(deck: Deck) -> Mapping[str, str | None]:
    return {"hero": deck.hero}


def _sheet() -> SheetParts:
    from varz_deck.games.varz.registration.sheet import PARTS

    return PARTS


REGISTRAR = GameRegistrar(
    layout=LAYOUT,
    read_deck=read_deck,
    check_parsed=check_parsed,
    slots_of=_slots,
    is_code=is_code_argument,
    sheet=_sheet,
)
