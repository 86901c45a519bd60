"""Every code, from its owners: the file codes (core/messages/filecodes.py), the card-data checks
(core/lint/) and the games' rules, for `varz-deck rules` and SARIF."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from varz_deck.core.messages.code import Code, Scope, doc_examples
from varz_deck.core.messages.i18n import Message, msg

if TYPE_CHECKING:
    from varz_deck.core.messages.rulebook import Rule

    class _Described(Protocol):
        """What `code_of` reads of a rule a game builds itself: its code's fields."""

        @property
        def code(self) -> str: ...
        @property
        def name(self) -> str: ...
        @property
        def summary(self) -> str: ...
        @property
        def section(self) -> str: ...
        @property
        def doc(self) -> str: ...


CodeInfo = Code  # what the listings and reporters read of a code

# In another language `varz-deck rules CODE` shows these labels translated, and each example's
# text translated under the context "example" (varz_deck.games.extract_code_summaries extracts
# each one for the catalogues).
EXAMPLE_LABELS: dict[str, Message] = {
    "Legal": msg("rules", "Legal"),
    "Illegal": msg("rules", "Illegal"),
    "Fine": msg("rules", "Fine"),
    "Warning": msg("rules", "Warning"),
}

__all__ = [
    "EXAMPLE_LABELS",
    "Code",
    "CodeInfo",
    "code_of",
    "codes_with",
    "core_codes",
    "doc_examples",
]


def core_codes() -> tuple[Code, ...]:
    """The codes every game shares: the file codes, the declared checks' own codes and the
    core's card-data checks."""
    from varz_deck.core.decks.legality import declared_codes
    from varz_deck.core.lint import CARD_CODES
    from varz_deck.core.messages.filecodes import FILE_CODES

    return (*FILE_CODES, *declared_codes(), *CARD_CODES)


def code_of(rule: Code | _Described) -> Code:
    """A rule's code (a rule of a game that builds its own rule objects has only the fields;
    a code listed as it is, the core's say, is itself)."""
    if isinstance(rule, Code):
        return rule
    info = getattr(rule, "info", None)
    if isinstance(info, Code):
        return info
    return Code(rule.code, rule.name, rule.summary, section=rule.section, doc=rule.doc)


def codes_with(rules: Iterable[Rule[Any]]) -> dict[str, Code]:
    """The codes every game shares plus the given rules' codes (varz_deck.games.all_codes gives
    the games' rules, game by game): file codes, then each game's deck rules by game and code,
    then the card-data codes."""
    out = {info.id: (info, -1) for info in core_codes()}
    books: dict[int, int] = {}
    for rule in rules:
        group = books.setdefault(id(getattr(rule, "book", None) or rule), len(books))
        info = code_of(rule)
        out[info.id] = (info, group if info.scope is Scope.DECK else -1)
    ordered = sorted(out.values(), key=lambda pair: (pair[0].scope, pair[1], pair[0].id))
    return {info.id: info for info, _ in ordered}
