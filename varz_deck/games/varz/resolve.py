"""Looking a VARZ deck's references up in a card database: F003 (same card twice), F005–F008."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from varz_deck.core.cards import CardDatabase, Format
from varz_deck.core.diagnostics import Diagnostic, diag
from varz_deck.core.entries import NEUTRAL_FORMAT, listed_twice, lookup_ref
from varz_deck.core.i18n import CardName, Joined, Quoted, Term, msg
from varz_deck.games.varz.cards import SECTION_OF_TYPE, SECTIONS, Card
from varz_deck.games.varz.deck import Deck, Entry


class Slot(NamedTuple):
    """An entry and the printing it names (None when unknown, ambiguous or misplaced)."""

    entry: Entry
    card: Card | None


@dataclass(frozen=True)
class DeckView:
    """A deck with its references looked up: what every rule reads, and nothing it can change."""

    deck: Deck
    database: CardDatabase
    format: Format
    format_known: bool
    hero: Card | None
    slots: dict[str, tuple[Slot, ...]]

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
    deck: Deck, database: CardDatabase, format_key: str | None = None
) -> tuple[DeckView, list[Diagnostic]]:
    """Look up every reference; report unknown, ambiguous, misplaced and repeated cards."""
    problems: list[Diagnostic] = []
    shown = deck.path
    key = format_key or deck.format or "standard"
    fmt = database.formats.get(key)
    if fmt is None:
        mark = deck.format_mark if format_key is None else None
        problems.append(
            diag(
                "F007",
                msg("F007", "unknown format {format}; this card database has: {known}")(
                    format=Quoted(key), known=Joined(tuple(sorted(database.formats)))
                ),
                mark,
                file=shown,
            )
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
    slots: dict[str, tuple[Slot, ...]] = {}
    for section in SECTIONS:
        resolved: list[Slot] = []
        first_place: dict[str, Entry] = {}
        for entry in deck.entries[section]:
            card, problem = lookup_ref(entry.ref, database, entry.mark, shown, section)
            if problem is not None:
                problems.append(problem)
            elif card is not None and SECTION_OF_TYPE[card.type] != section:
                problems.append(_misplaced(card, entry, shown))
                card = None
            elif card is not None and card.id in first_place:
                problems.append(
                    listed_twice(card, entry, first_place[card.id], Term("section", section), shown)
                )
                continue  # the first entry stands; the repeat is not counted again
            elif card is not None:
                first_place[card.id] = entry
            resolved.append(Slot(entry, card))
        slots[section] = tuple(resolved)
    view = DeckView(deck, database, fmt or NEUTRAL_FORMAT, fmt is not None, hero, slots)
    return view, problems


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
