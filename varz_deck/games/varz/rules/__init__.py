"""The construction rules: one small function per code, registered with its name and section.

Every rule reads a DeckView and yields diagnostics. `RULES` maps each code to its Rule; the
`varz-deck rules` command lists them, and the checker runs them in code order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from varz_deck.diagnostics import Diagnostic, Severity, default_severity
from varz_deck.games.varz.resolve import DeckView

Check = Callable[[DeckView], Iterator[Diagnostic]]


class Rule(NamedTuple):
    """A construction rule: its stable code, what it flags, where the rulebook says so."""

    code: str
    name: str
    section: str
    check: Check
    needs_hero: bool = False
    portal_rule: bool = False
    format_rule: bool = False

    @property
    def severity(self) -> Severity:
        return default_severity(self.code)

    @property
    def summary(self) -> str:
        doc = (self.check.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else self.name

    @property
    def doc(self) -> str:
        import inspect

        return inspect.cleandoc(self.check.__doc__ or "")

    def applies(self, view: DeckView) -> bool:
        """Whether this rule runs on a deck (SPEC §4: hero rules need a hero, and so on)."""
        if self.needs_hero and view.hero is None:
            return False
        if self.portal_rule and view.format.pooled_portals:
            return False
        return not (self.format_rule and not view.format_known)


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    section: str,
    *,
    needs_hero: bool = False,
    portal_rule: bool = False,
    format_rule: bool = False,
) -> Callable[[Check], Check]:
    """Register a check function as the rule for `code`."""

    def register(check: Check) -> Check:
        if code in RULES:
            raise ValueError(f"rule {code} registered twice")
        RULES[code] = Rule(code, name, section, check, needs_hero, portal_rule, format_rule)
        return check

    return register


def run_rules(view: DeckView) -> list[Diagnostic]:
    """Every applicable rule's diagnostics for one deck."""
    found: list[Diagnostic] = []
    for code in sorted(RULES):
        current = RULES[code]
        if current.applies(view):
            found.extend(current.check(view))
    return found


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
