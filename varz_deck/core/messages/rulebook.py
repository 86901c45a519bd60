"""Checks as data: a rule is a small check function that owns its `Code`.

Each game keeps one `Rulebook` of its own view type for its deck rules; the checker runs it in
code order, and `varz-deck rules` lists every game's rules. Card-data checks (core/lint/) register
on rulebooks of their own views the same way. Which views a rule applies to is the registrar's
predicate, so the core knows nothing of any game's cards.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from varz_deck.core.messages.code import Code, Scope, Severity, declare
from varz_deck.core.messages.diagnostics import Diagnostic

View = TypeVar("View")
Check = Callable[[View], Iterator[Diagnostic]]


class Rule(Generic[View]):
    """A check with the code it owns (id, severity, title, docs) and when it applies."""

    __slots__ = ("book", "check", "info", "when")

    def __init__(
        self, info: Code, check: Check[View], when: Callable[[View], bool], book: object = None
    ) -> None:
        self.info, self.check, self.when, self.book = info, check, when, book

    @property
    def code(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def section(self) -> str:
        return self.info.section

    @property
    def fix(self) -> str:
        return self.info.fix

    @property
    def severity(self) -> Severity:
        return self.info.severity

    @property
    def summary(self) -> str:
        return self.info.title

    @property
    def doc(self) -> str:
        return self.info.doc

    def applies(self, view: View) -> bool:
        return self.when(view)


def _always(view: object) -> bool:
    return True


def check_code(
    code: str,
    name: str,
    section: str,
    check: Callable[..., object],
    *,
    severity: Severity = Severity.ERROR,
    scope: Scope = Scope.DECK,
    fix: str = "",
) -> Code:
    """The code a check owns: its title is the first line of the check's docstring, its docs
    the whole docstring (with its examples)."""
    doc = inspect.cleandoc(check.__doc__ or "")
    title = doc.splitlines()[0] if doc else name
    return declare(Code(code, name, title, severity, scope, section, doc, fix))


class Rulebook(Generic[View]):
    """Rules by code, all of one scope: a game's deck rules, or one family of card checks."""

    def __init__(self, scope: Scope = Scope.DECK) -> None:
        self.scope = scope
        self.rules: dict[str, Rule[View]] = {}

    def rule(
        self,
        code: str,
        name: str,
        section: str,
        *,
        when: Callable[[View], bool] = _always,
        severity: Severity = Severity.ERROR,
        fix: str = "",
    ) -> Callable[[Check[View]], Check[View]]:
        """Register a check function as the rule owning `code`, run on views where `when` holds."""

        def register(check: Check[View]) -> Check[View]:
            if code in self.rules:
                raise ValueError(f"rule {code} registered twice")
            info = check_code(
                code, name, section, check, severity=severity, scope=self.scope, fix=fix
            )
            self.rules[code] = Rule(info, check, when, self)
            return check

        return register

    def run(self, view: View) -> list[Diagnostic]:
        """Every applicable rule's diagnostics for one view, in code order."""
        found: list[Diagnostic] = []
        for code in sorted(self.rules):
            current = self.rules[code]
            if current.applies(view):
                found.extend(current.check(view))
        return found
