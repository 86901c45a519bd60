"""The construction rules: one small function per code, registered with its name and section.

Every rule reads a DeckView and yields diagnostics. `RULES` maps each code to its Rule; the
`varz-deck rules` command lists them, and the checker runs them in code order.
"""

from __future__ import annotations

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.rulebook import Rule
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.rules import format_rules, hero, portals, skills, spells
from varz_deck.games.varz.rules._book import RULEBOOK, rule

RULES = RULEBOOK.rules  # the rule modules above registered themselves on import


def run_rules(view: DeckView) -> list[Diagnostic]:
    """Every applicable rule's diagnostics for one deck."""
    return RULEBOOK.run(view)


__all__ = [
    "RULES",
    "Rule",
    "format_rules",
    "hero",
    "portals",
    "rule",
    "run_rules",
    "skills",
    "spells",
]
