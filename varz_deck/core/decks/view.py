"""A declared game's deck as written (`DeclaredDeck`) and with its references looked up
(`DeckView`, what every rule reads): its single-card slots, its sections, its format on the day.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple

from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format
from varz_deck.core.decks.declaration import Declaration
from varz_deck.core.decks.entries import (
    Entry,
    Slot,
    lookup_ref,
    resolve_format,
    resolve_sections,
)
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, Term, msg


class Pick(NamedTuple):
    """A single-card slot as written: the reference (None: left empty), the value's place and
    the key's place."""

    ref: str | None
    mark: Mark | None
    key_mark: Mark | None


@dataclass
class DeclaredDeck:
    """A deck as written, before its references are looked up."""

    path: str
    sections: tuple[str, ...] = ()
    name: str | None = None
    format: str | None = None
    format_mark: Mark | None = None
    player: str | None = None
    event: str | None = None
    picks: dict[str, Pick] = field(default_factory=dict)
    entries: dict[str, list[Entry]] = field(default_factory=dict)
    section_marks: dict[str, Mark | None] = field(default_factory=dict)
    uncounted: set[str] = field(default_factory=set)
    readable: bool = True

    def __post_init__(self) -> None:
        for section in self.sections:
            self.entries.setdefault(section, [])

    def pick(self, slot: str) -> str | None:
        """The reference written in a slot (None: none)."""
        found = self.picks.get(slot)
        return found.ref if found is not None else None

    def has_section(self, section: str) -> bool:
        return section in self.section_marks


@dataclass(frozen=True)
class DeckView(Generic[CardT]):
    """A deck with its references looked up: what every rule reads, and nothing it can change."""

    deck: DeclaredDeck
    database: CardDatabase[CardT]
    format: Format
    format_known: bool
    picked: Mapping[str, CardT | None]
    slots: Mapping[str, tuple[Slot[CardT], ...]]
    declaration: Declaration
    date: datetime.date | None = field(default=None, kw_only=True)
    # by_card's answer per section, worked out once: every copy limit and format check asks it
    _by_card: dict[str, dict[str, tuple[CardT, int, Entry]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def lead(self) -> CardT | None:
        """The deck's lead card (None: none, unknown, or the game has no lead slot)."""
        lead = self.declaration.lead
        return self.picked.get(lead.key) if lead is not None else None

    def size(self, section: str) -> int:
        """Cards in a section, unknown ones included (one problem, one diagnostic)."""
        return sum(slot.entry.count for slot in self.slots[section])

    def counted(self, section: str) -> bool:
        """Whether the section's size is known: every count of it readable."""
        return section not in self.deck.uncounted

    def resolved(self, section: str) -> Iterator[tuple[CardT, Entry]]:
        """Each entry of a section whose card is known, with its card."""
        for slot in self.slots[section]:
            if slot.card is not None:
                yield slot.card, slot.entry

    def by_card(self, section: str) -> dict[str, tuple[CardT, int, Entry]]:
        """Copies per card (all printings of one card together, as the database counts them),
        with the first entry that names it (the same dict every time: read it, do not change it)."""
        known = self._by_card.get(section)
        if known is not None:
            return known
        out: dict[str, tuple[CardT, int, Entry]] = {}
        key = self.database.card_key
        for card, entry in self.resolved(section):
            identity = key(card)
            if identity in out:
                first_card, count, first = out[identity]
                out[identity] = (first_card, count + entry.count, first)
            else:
                out[identity] = (card, entry.count, entry)
        self._by_card[section] = out
        return out

    def every_card(self) -> Iterator[tuple[CardT, Mark | None, str, Entry | None]]:
        """Each card of the deck with its place, its slot or section and its entry (None for a
        slot's card): the slots' cards, then the first entry of each card of each section."""
        for slot in self.declaration.slots:
            card = self.picked.get(slot.key)
            if card is not None:
                pick = self.deck.picks.get(slot.key)
                yield card, pick.mark if pick else None, slot.key, None
        for section in self.declaration.sections:
            for card, _count, first in self.by_card(section.key).values():
                yield card, first.mark, section.key, first

    def copies(self, section: str, card: CardT) -> int:
        """Copies of a card (every printing) in a section."""
        found = self.by_card(section).get(self.database.card_key(card))
        return found[1] if found else 0


def resolve(
    declaration: Declaration,
    deck: DeclaredDeck,
    database: CardDatabase[CardT],
    format_key: str | None,
    date: datetime.date,
    view_class: type[DeckView[CardT]] = DeckView,
) -> tuple[DeckView[CardT], list[Diagnostic]]:
    """Look up every reference (the format as in force on `date`): F007 unknown format, F005
    unknown card, F006 ambiguous, F008 a card in the wrong slot or section, F003 a card listed
    twice in a section. The view is a `view_class` (a game's subclass of DeckView, whose rules
    read what it adds)."""
    shown = deck.path
    fmt, known, problems = resolve_format(
        database, format_key, deck.format, deck.format_mark, shown, date
    )
    picked: dict[str, CardT | None] = {}
    for slot in declaration.slots:
        picked[slot.key] = None
        pick = deck.picks.get(slot.key)
        if pick is None or pick.ref is None:
            continue
        card, problem = _lookup_slot(declaration, pick, slot.key, database, shown)
        if problem is not None:
            problems.append(problem)
        elif card is not None and declaration.home(card.type) != slot.key:
            problems.append(_not_for_slot(declaration, card, pick, slot.key, shown))
        else:
            picked[slot.key] = card
    slots, found = resolve_sections(
        {section: deck.entries[section] for section in declaration.section_keys},
        database,
        shown,
        lambda card, entry: _misplaced(declaration, card, entry, shown),
        lambda key: declaration.section(key).title,
    )
    problems.extend(found)
    view = view_class(deck, database, fmt, known, picked, slots, declaration, date=date)
    return view, problems


def _lookup_slot(
    declaration: Declaration, pick: Pick, slot: str, database: CardDatabase[Any], shown: str
) -> tuple[Any, Diagnostic | None]:
    """A slot's reference; a name several cards share means the one that goes in the slot
    (a name a captain card and a sailor share means the captain in the captain slot)."""
    assert pick.ref is not None
    found = database.lookup(pick.ref)
    if len(found) > 1:
        fitting = [card for card in found if declaration.home(card.type) == slot]
        if len(fitting) == 1:
            return fitting[0], None
    return lookup_ref(pick.ref, database, pick.mark, shown, slot)


def _not_for_slot(
    declaration: Declaration, card: CardRecord, pick: Pick, slot: str, shown: str
) -> Diagnostic:
    part = declaration.slots[declaration.slot_keys.index(slot)]
    wrong = part.misplaced.get("named") or msg(
        "F008", "{card} is a {type} card, not a {slot}; name a {slot} card as {key}"
    )
    return diag(
        "F008",
        wrong(card=CardName.of(card), type=Term("card type", card.type), slot=part.title, key=slot),
        pick.mark,
        file=shown,
        section=slot,
        card=card.id,
    )


def _misplaced(
    declaration: Declaration, card: CardRecord, entry: Entry, shown: str
) -> Diagnostic | None:
    home = declaration.home(card.type)
    if home == entry.section:
        return None
    section = declaration.section(entry.section).title
    if home in declaration.slot_keys:
        own = declaration.slots[declaration.slot_keys.index(home)].misplaced.get("listed")
        wrong = own or msg(
            "F008", "{card} is a {type} card and cannot go in {section}; put it as {home}"
        )
    else:
        wrong = msg(
            "F008", "{card} is a {type} card and cannot go in {section}; put it under {home}"
        )
    return diag(
        "F008",
        wrong(
            card=CardName.of(card),
            type=Term("card type", card.type),
            section=section,
            home=_title(declaration, home),
        ),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )


def _title(declaration: Declaration, key: str | None) -> object:
    for part in declaration.slots:
        if part.key == key:
            return part.title
    for section in declaration.sections:
        if section.key == key:
            return section.title
    return key or "?"
