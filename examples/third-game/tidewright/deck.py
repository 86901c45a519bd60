"""Reading a Tidewright deck file (captain, crew, currents) and looking its references up."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from varz_deck.core.cards.model import Format
from varz_deck.core.decks.entries import (
    Entry,
    ListWords,
    Slot,
    looks_like_code,
    lookup_ref,
    parse_text,
    read_yaml_deck,
    resolve_format,
    resolve_sections,
    top_level_words,
)
from varz_deck.core.files.deckfiles import is_text_list
from varz_deck.core.files.source import LoadError
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, msg

from tidewright.cards import TideCard, TideDatabase

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.registration.code import DecodedDeck

LEAD = "captain"
SLOTS = (LEAD,)
SECTIONS = ("crew", "currents")
CODE_FAMILY = "TW"  # deck codes: TW1… (tidewright/layout.py)
DECK_SCHEMA = "tidewright-deck"
_OWN_WORDS = frozenset({"captain", "crew", "currents"})


class Pick(NamedTuple):
    """The captain as written: the reference, its place, and the key's place."""

    ref: str | None
    mark: Mark | None
    key_mark: Mark | None


@dataclass
class TideDeck:
    """A Tidewright deck as written, before its references are looked up."""

    path: str
    name: str | None = None
    format: str | None = None
    format_mark: Mark | None = None
    player: str | None = None
    event: str | None = None
    captain: Pick | None = None
    entries: dict[str, list[Entry]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    section_marks: dict[str, Mark | None] = field(default_factory=dict)
    uncounted: set[str] = field(default_factory=set)
    readable: bool = True


@dataclass(frozen=True)
class TideView:
    """A deck with its references looked up: what every Tidewright rule reads."""

    deck: TideDeck
    database: TideDatabase
    format: Format
    format_known: bool
    captain: TideCard | None
    slots: dict[str, tuple[Slot, ...]]
    date: datetime.date | None = field(default=None, kw_only=True)  # the day checked for

    def size(self, section: str) -> int:
        return sum(slot.entry.count for slot in self.slots[section])

    def counted(self, section: str) -> bool:
        """Whether every line of a section could be read (a size rule says nothing otherwise)."""
        return section not in self.deck.uncounted


def owns_deck(text: str) -> bool:
    """Whether a deck file's keys or headers are Tidewright's (captain, crew, currents), or the
    text is a Tidewright deck code (`TW` and a version digit)."""
    return looks_like_code(text, CODE_FAMILY) or bool(top_level_words(text) & _OWN_WORDS)


def read_deck(source: DeckSource) -> tuple[TideDeck, list[Diagnostic]]:
    """Read one deck (YAML or a .txt list, from a file, a buffer or standard input, or a deck code
    given as the argument); the diagnostics say what could not be read."""
    if source.argument is not None:
        from tidewright.layout import is_code_argument

        if is_code_argument(source.argument):
            shown = None if source.name == source.argument else source.name
            return read_code(source.argument, shown)
    deck = TideDeck(path=source.name)
    if source.text is None:
        deck.readable = False
        err = source.problem or LoadError("F001", msg("F001", "no such file; check the path"))
        return deck, [diag(err.code, err.message, err.mark, file=source.name)]
    if is_text_list(source.name, source.text):
        return deck, parse_text(source.text, deck, LIST_WORDS)
    return deck, parse_yaml(source.text, deck)


def read_code(code: str, shown: str | None = None) -> tuple[TideDeck, list[Diagnostic]]:
    """A TideDeck from a deck code, as `read_deck` gives one from a file; F009 when it cannot be
    decoded."""
    from varz_deck.core.registration.code import read_code as read_code_of

    from tidewright.layout import LAYOUT

    decoded, shown, problems = read_code_of(code, LAYOUT, shown)
    if decoded is None:
        return TideDeck(path=shown, readable=False), problems
    return _from_code(decoded, shown), []


def _from_code(decoded: DecodedDeck, shown: str) -> TideDeck:
    deck = TideDeck(path=shown, format=decoded.format)
    if decoded.slots[LEAD]:
        deck.captain = Pick(decoded.slots[LEAD], None, None)
    for section in SECTIONS:
        items = decoded.sections[section]
        deck.entries[section] = [Entry(section, ref, count, None) for ref, count in items]
        if items:
            deck.section_marks[section] = None
    return deck


def _set_captain(deck: TideDeck, slot: str, ref: str | None, value: Mark, key: Mark) -> None:
    deck.captain = Pick(ref, value, key)


LIST_WORDS = ListWords(
    sections={"crew": "crew", "crew deck": "crew", "currents": "currents"},
    slots=SLOTS,
    outside=msg("F004", "{line} is outside a section; put it under Crew: or Currents:"),
    set_slot=_set_captain,
)


def parse_yaml(text: str, deck: TideDeck) -> list[Diagnostic]:
    """Fill deck from YAML text."""
    doc, data, problems = read_yaml_deck(
        text,
        deck,
        schema=DECK_SCHEMA,
        slots=SLOTS,
        sections=SECTIONS,
        empty=msg("F004", "the deck file is empty; it needs captain, crew and currents"),
    )
    if doc is None or data is None:
        return problems
    if LEAD in data:
        value = data[LEAD]
        ref = value.strip() if isinstance(value, str) and value.strip() else None
        deck.captain = Pick(ref, doc.mark((LEAD,)), doc.key_mark((LEAD,)))
    return problems


def resolve(
    deck: TideDeck,
    database: TideDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> tuple[TideView, list[Diagnostic]]:
    """Look up every reference: F005 unknown, F006 ambiguous, F008 misplaced, F003 repeated."""
    shown = deck.path
    fmt, known, problems = resolve_format(
        database, format_key, deck.format, deck.format_mark, shown, date
    )
    captain: TideCard | None = None
    pick = deck.captain
    if pick is not None and pick.ref is not None:
        card, problem = lookup_ref(pick.ref, database, pick.mark, shown, LEAD)
        if problem is not None:
            problems.append(problem)
        elif card is not None and card.type != LEAD:
            wrong = msg(
                "F008", "{card} is a {type} card, not a captain; name a captain card as captain"
            )
            problems.append(
                diag(
                    "F008",
                    wrong(card=CardName.of(card), type=card.type),
                    pick.mark,
                    file=shown,
                    section=LEAD,
                    card=card.id,
                )
            )
        else:
            captain = card
    slots, found = resolve_sections(
        {section: deck.entries[section] for section in SECTIONS},
        database,
        shown,
        lambda card, entry: _misplaced(card, entry, shown),
    )
    problems.extend(found)
    return TideView(deck, database, fmt, known, captain, slots, date=date), problems


def _misplaced(card: TideCard, entry: Entry, shown: str) -> Diagnostic | None:
    if card.home == entry.section:
        return None
    wrong = msg("F008", "{card} is a {type} card and cannot go in {section}; put it under {home}")
    return diag(
        "F008",
        wrong(card=CardName.of(card), type=card.type, section=entry.section, home=card.home),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )
