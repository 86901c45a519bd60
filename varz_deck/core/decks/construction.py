"""Deck construction, checked from a game's declaration: a required slot left empty (D101), a
section of the wrong size (D102), more copies of a card than its limit (D103).

Each check is written once here; a game reports it under its own code and words when its
declaration maps it (`CheckCode`), under the core's otherwise. Each check's MESSAGES names the
variants a game may word itself, and the values they can show.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from varz_deck.core.decks.declaration import CheckCode, Copies, Declaration, Section, Slot
from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.code import Code, Severity, declare
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import CardName, Message, msg, nmsg

Check = Callable[[DeckView[Any]], Iterator[Diagnostic]]


@dataclass(frozen=True)
class CoreCheck:
    """A check the core writes once for every game: its own code and words, and its variants'
    messages (what a game's `CheckCode` may replace)."""

    code: Code
    messages: Mapping[str, Message] = field(default_factory=dict)

    def code_for(self, given: CheckCode | None, section: str) -> Code:
        """The code a game reports this check under (the core's without a mapping)."""
        if given is None:
            return self.code
        doc = inspect.cleandoc(given.doc) if given.doc else ""
        return declare(
            replace(
                self.code,
                id=given.id,
                name=given.name or self.code.name,
                title=_title(doc) or self.code.title,
                section=given.section or section,
                doc=doc or self.code.doc,
                fix=given.fix or self.code.fix,
                severity=given.severity or self.code.severity,
            )
        )

    def message(self, given: CheckCode | None, variant: str) -> Message:
        """A variant's message: the game's wording if it gives one, else the core's (the game's
        message takes the code's id as its context)."""
        if given is not None and variant in given.messages:
            return given.messages[variant]
        return self.messages[variant]


def _title(doc: str | None) -> str:
    return doc.strip().splitlines()[0] if doc and doc.strip() else ""


def core_code(
    code: str, name: str, doc: str, fix: str, severity: Severity = Severity.ERROR
) -> Code:
    """A code of the core's declared checks ("deck building" is the section a game's rulebook
    section replaces)."""
    text = inspect.cleandoc(doc)
    return declare(
        Code(code, name, _title(text), severity, section="deck building", doc=text, fix=fix)
    )


SLOT_EMPTY = CoreCheck(
    core_code(
        "D101",
        "required-card-missing",
        """A deck names exactly one card in each required slot (its lead card, and any other).

        Legal:   captain: Mara Vell
        Illegal: (no captain key, or `captain:` left empty)
        """,
        "Name one card of the slot's kind in it.",
    ),
    {
        # slot: the slot's name; key: its key in a deck file
        "missing": msg("D101", "no {slot}; a deck has exactly one {slot} card: add `{key}: NAME`"),
    },
)

SECTION_SIZE = CoreCheck(
    core_code(
        "D102",
        "section-size-wrong",
        """A section holds the number of cards the game says (exactly, or at least and at most).

        Legal:   main: 40 cards where the main deck holds exactly 40
        Illegal: main: 39 cards there
        """,
        "Add or remove cards until the section holds what the game asks.",
    ),
    {
        # n: the cards in it; need: the size asked (or the bound crossed), also as size; diff:
        # how many off; section: the section's name
        "add": nmsg(
            "D102",
            "{section} has {n} card; it needs exactly {need} (add {diff})",
            "{section} has {n} cards; it needs exactly {need} (add {diff})",
        ),
        "remove": nmsg(
            "D102",
            "{section} has {n} card; it needs exactly {need} (remove {diff})",
            "{section} has {n} cards; it needs exactly {need} (remove {diff})",
        ),
        "below": nmsg(
            "D102",
            "{section} has {n} card; it needs at least {need} (add {diff})",
            "{section} has {n} cards; it needs at least {need} (add {diff})",
        ),
        "above": nmsg(
            "D102",
            "{section} has {n} card; it holds at most {need} (remove {diff})",
            "{section} has {n} cards; it holds at most {need} (remove {diff})",
        ),
    },
)

COPY_LIMIT = CoreCheck(
    core_code(
        "D103",
        "copy-limit-exceeded",
        """At most the game's number of copies of one card in a section, all printings together.

        Legal:   crew: {Rigger Finn: 3} where the limit is 3
        Illegal: crew: {Rigger Finn: 2, TW02-008: 2} (both printings of Rigger Finn)
        """,
        "Cut copies until the card is within its limit, every printing counted together.",
    ),
    {
        # count: the copies, also as n; card; id: the card's id; limit, also as max; excess:
        # count - limit; section: the section's name
        "over": msg(
            "D103",
            "{count} copies of {card} in {section}; at most {limit} (all printings together): "
            "remove {excess}",
        ),
    },
)


CORE_CHECKS = (SLOT_EMPTY, SECTION_SIZE, COPY_LIMIT)


def _skipped(view: DeckView[Any], section: Section) -> bool:
    """Whether the deck's format exempts the section (e.g. a section shared at the table)."""
    extra = view.format.extra
    return any(extra.get(name) in values for name, values in section.unless.items())


def slot_empty(slot: Slot) -> Check:
    """The check of one required slot."""

    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        pick = view.deck.picks.get(slot.key)
        if pick is None or pick.ref is None:
            message = SLOT_EMPTY.message(slot.code, "missing")
            place = pick.key_mark if pick is not None else None
            yield diag(
                _code(slot.code, SLOT_EMPTY),
                message(slot=slot.title, key=slot.key),
                place,
                file=view.deck.path,
                section=slot.key,
            )

    check.__doc__ = SLOT_EMPTY.code.doc
    return check


def section_size(section: Section) -> Check:
    """The check of one section's size."""

    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        if not view.counted(section.key) or _skipped(view, section):
            return
        size = view.size(section.key)
        need = section.size.target(size)
        if need is None:
            return
        if section.size.exact is not None:
            variant = "add" if size < need else "remove"
        else:
            variant = "below" if size < need else "above"
        message = SECTION_SIZE.message(section.size_code, variant)
        yield diag(
            _code(section.size_code, SECTION_SIZE),
            message(n=size, need=need, size=need, diff=abs(size - need), section=section.title),
            view.deck.section_marks.get(section.key),
            file=view.deck.path,
            section=section.key,
        )

    return check


def copy_limit(section: Section, limit: Copies) -> Check:
    """The check of one copy limit of a section (each card whose first matching limit it is)."""

    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        if limit.limit is None or _skipped(view, section):
            return
        for card, count, first in view.by_card(section.key).values():
            if section.copies_of(card) is not limit or count <= limit.limit:
                continue
            message = COPY_LIMIT.message(limit.code, "over")
            yield diag(
                _code(limit.code, COPY_LIMIT),
                message(
                    count=count,
                    n=count,
                    card=CardName.of(card),
                    id=card.id,
                    limit=limit.limit,
                    max=limit.limit,
                    excess=count - limit.limit,
                    section=section.title,
                ),
                first.mark,
                file=view.deck.path,
                section=section.key,
                card=card.id,
            )

    return check


def _code(given: CheckCode | None, core: CoreCheck) -> str:
    return given.id if given is not None else core.code.id


def construction_checks(declaration: Declaration) -> Iterator[tuple[Code, Check]]:
    """Each declared construction check with the code it reports under. Checks that share a
    code (several sections the core's D102 covers) come once per section."""
    for slot in declaration.slots:
        if slot.required:
            yield SLOT_EMPTY.code_for(slot.code, declaration.rulebook), slot_empty(slot)
    for section in declaration.sections:
        yield (
            SECTION_SIZE.code_for(section.size_code, declaration.rulebook),
            section_size(section),
        )
        for limit in section.copies:
            if limit.limit is not None:
                yield (
                    COPY_LIMIT.code_for(limit.code, declaration.rulebook),
                    copy_limit(section, limit),
                )
