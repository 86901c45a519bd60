"""The construction rules: one small function per code, registered with its name and section.

Every rule reads a DeckView and yields diagnostics. `RULES` maps each code to its Rule; the
`varz-deck rules` command lists them, and the checker runs them in code order.
"""

from __future__ import annotations

from collections.abc import Callable

from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.rulebook import Check, Rule, Rulebook
from varz_deck.games.varz.resolve import DeckView

RULEBOOK: Rulebook[DeckView] = Rulebook()
RULES = RULEBOOK.rules


def rule(
    code: str,
    name: str,
    section: str,
    *,
    needs_hero: bool = False,
    portal_rule: bool = False,
    format_rule: bool = False,
) -> Callable[[Check[DeckView]], Check[DeckView]]:
    """Register a VARZ rule (SPEC §4: hero rules need a hero, portal rules constructed portals,
    format rules a known format)."""

    def when(view: DeckView) -> bool:
        if needs_hero and view.hero is None:
            return False
        if portal_rule and view.format.pooled_portals:
            return False
        return not (format_rule and not view.format_known)

    return RULEBOOK.rule(code, name, section, when=when)


def run_rules(view: DeckView) -> list[Diagnostic]:
    """Every applicable rule's diagnostics for one deck."""
    return RULEBOOK.run(view)


# The rule modules register themselves on import; listed explicitly so a reader sees them all.
from varz_deck.games.varz.rules import format_rules, hero, portals, skills, spells  # noqa: E402

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
