"""Construction rules as data: a rule is a small check function with its code, name and section.

Each game keeps one `Rulebook` of its own view type; the checker runs it in code order, and
`varz-deck rules` lists every game's rules. Which decks a rule applies to (one needs a hero, another
format data) is the game's predicate, so the core knows nothing of heroes or portals.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from varz_deck.core.diagnostics import Diagnostic, Severity, default_severity

View = TypeVar("View")
Check = Callable[[View], Iterator[Diagnostic]]


class Rule(Generic[View]):
    """A construction rule: its stable code, what it flags, where the rulebook says so."""

    __slots__ = ("check", "code", "fix", "name", "section", "when")

    def __init__(
        self,
        code: str,
        name: str,
        section: str,
        check: Check[View],
        when: Callable[[View], bool],
        fix: str = "",
    ) -> None:
        self.code, self.name, self.section, self.check, self.when = code, name, section, check, when
        self.fix = fix  # how a player fixes what the rule flags (SARIF `help`)

    @property
    def severity(self) -> Severity:
        return default_severity(self.code)

    @property
    def summary(self) -> str:
        doc = (self.check.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else self.name

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "")

    def applies(self, view: View) -> bool:
        return self.when(view)


def _always(view: object) -> bool:
    return True


class Rulebook(Generic[View]):
    """One game's rules by code."""

    def __init__(self) -> None:
        self.rules: dict[str, Rule[View]] = {}

    def rule(
        self,
        code: str,
        name: str,
        section: str,
        *,
        when: Callable[[View], bool] = _always,
        fix: str = "",
    ) -> Callable[[Check[View]], Check[View]]:
        """Register a check function as the rule for `code`, run on decks where `when` holds."""

        def register(check: Check[View]) -> Check[View]:
            if code in self.rules:
                raise ValueError(f"rule {code} registered twice")
            self.rules[code] = Rule(code, name, section, check, when, fix)
            return check

        return register

    def run(self, view: View) -> list[Diagnostic]:
        """Every applicable rule's diagnostics for one deck, in code order."""
        found: list[Diagnostic] = []
        for code in sorted(self.rules):
            current = self.rules[code]
            if current.applies(view):
                found.extend(current.check(view))
        return found
