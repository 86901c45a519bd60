"""The VARZ rulebook every rule module registers on (rules/__init__.py imports them all).

A rule registers with `rule(...)(check)` right after its function, not as a decorator: mutation
testing (scripts/mutation.py) skips decorated functions.
"""

from __future__ import annotations

from collections.abc import Callable

from varz_deck.core.rulebook import Check, Rulebook
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
