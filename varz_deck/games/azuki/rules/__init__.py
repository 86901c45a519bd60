"""The Azuki deck-building rules (rules page, "Deck building"): one small function per code.

Every rule reads an AzukiView and yields diagnostics, in a module of its kind (the Leader and Gate,
the main deck, the IKZ area, elements, the format), registered on the rulebook of `_book.py`.
`RULES` maps each code to its Rule; `varz-deck rules` lists them, and the checker runs them in
code order.
"""

from __future__ import annotations

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.rulebook import Rule
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules import elements, format_rules, ikz, main_deck, picks
from varz_deck.games.azuki.rules._book import RULEBOOK, rule
from varz_deck.games.azuki.rules.ikz import IKZ_COUNT, TOKEN_COUNT
from varz_deck.games.azuki.rules.main_deck import MAIN_SIZE, MAX_COPIES

RULES = RULEBOOK.rules  # the rule modules above registered themselves on import


def run_rules(view: AzukiView) -> list[Diagnostic]:
    """Every applicable rule's diagnostics for one deck."""
    return RULEBOOK.run(view)


__all__ = [
    "IKZ_COUNT",
    "MAIN_SIZE",
    "MAX_COPIES",
    "RULES",
    "TOKEN_COUNT",
    "Rule",
    "elements",
    "format_rules",
    "ikz",
    "main_deck",
    "picks",
    "rule",
    "run_rules",
]
