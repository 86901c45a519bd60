"""Looking a VARZ deck's references up in a card database: F003 (same card twice), F005–F008."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.decks.entries import Slot, lookup_ref, resolve_format, resolve_sections
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import CardName, Term, msg
from varz_deck.games.varz.cards import SECTION_OF_TYPE, SECTIONS, Card
from varz_deck.games.varz.deck import Deck, Entry


@dataclass(frozen=True)
class DeckView:
    """A deck with its references looked up: what every rule reads, and nothing it can change."""

    deck: Deck
    database: CardDatabase
    format: Format
    format_known: bool
    hero: Card | None
    slots: dict[str, tuple[Slot, ...]]
    date: datetime.date | None = field(default=None, kw_only=True)  # the day checked for

    def size(self, section: str) -> int:
        """Cards in a section, unknown ones included (SPEC §4: one problem, one diagnostic)."""
        return sum(slot.entry.count for slot in self.slots[section])

    def counted(self, section: str) -> bool:
        """Whether the section's size is known: present and with every count readable."""
        return section not in self.deck.uncounted

    def resolved(self, section: str) -> Iterator[tuple[Card, Entry]]:
        for slot in self.slots[section]:
            if slot.card is not None:
                yield slot.card, slot.entry

    def all_resolved(self, section: str) -> bool:
        return all(slot.card is not None for slot in self.slots[section])

    def by_name(self, section: str) -> dict[str, tuple[Card, int, Entry]]:
        """Copies per card name (all printings together), with the first entry that names it."""
        out: dict[str, tuple[Card, int, Entry]] = {}
        for card, entry in self.resolved(section):
            if card.name in out:
                first_card, count, first = out[card.name]
                out[card.name] = (first_card, count + entry.count, first)
            else:
                out[card.name] = (card, entry.count, entry)
        return out

    def shield_life(self) -> int:
        return sum(
            (card.shield_life or 0) * entry.count for card, entry in self.resolved("portals")
        )


def resolve(
    deck: Deck,
    database: CardDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> tuple[DeckView, list[Diagnostic]]:
    """Look up every reference (the format as on `date`); report unknown, ambiguous, misplaced
    and repeated cards."""
    shown = deck.path
    fmt, known, problems = resolve_format(
        database, format_key, deck.format, deck.format_mark, shown, date
    )
    hero: Card | None = None
    if deck.hero is not None:
        card, problem = lookup_ref(deck.hero, database, deck.hero_mark, shown, None)
        if problem is not None:
            problems.append(problem)
        elif card is not None and card.type != "hero":
            problems.append(
                diag(
                    "F008",
                    msg("F008", "{card} is a {type} card, not a hero; name a Hero card as hero")(
                        card=CardName.of(card), type=Term("card type", card.type)
                    ),
                    deck.hero_mark,
                    file=shown,
                    section="hero",
                    card=card.id,
                )
            )
        else:
            hero = card

    def misplaced(card: Card, entry: Entry) -> Diagnostic | None:
        return (
            _misplaced(card, entry, shown) if SECTION_OF_TYPE[card.type] != entry.section else None
        )

    slots, found = resolve_sections(
        {section: deck.entries[section] for section in SECTIONS},
        database,
        shown,
        misplaced,
        lambda section: Term("section", section),
    )
    problems.extend(found)
    return DeckView(deck, database, fmt, known, hero, slots, date=date), problems


def _misplaced(card: Card, entry: Entry, shown: str) -> Diagnostic:
    home = SECTION_OF_TYPE[card.type]
    template = (
        msg("F008", "{card} is a {type} card and cannot go in {section}; put it as hero")
        if home == "hero"
        else msg("F008", "{card} is a {type} card and cannot go in {section}; put it under {home}")
    )
    return diag(
        "F008",
        template(
            card=CardName.of(card),
            type=Term("card type", card.type),
            section=Term("section", entry.section),
            home=Term("section", home),
        ),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )
