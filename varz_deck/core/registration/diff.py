"""The deck check at the table: what differs between a registered and a presented deck."""

from __future__ import annotations

from dataclasses import dataclass

from varz_deck.core.registration.canonical import UNKNOWN, CanonicalCard, CanonicalDeck


@dataclass(frozen=True, slots=True)
class CardChange:
    """One card whose count differs in one section (0 where a deck lacks it)."""

    section: str
    key: str
    name: str
    registered: int
    presented: int

    @property
    def id(self) -> str | None:
        return None if self.key.startswith(UNKNOWN) else self.key

    @property
    def delta(self) -> int:
        return self.presented - self.registered


@dataclass(frozen=True, slots=True)
class SlotChange:
    """A single-card slot of the game (its lead card's, or another) holding another card (None: empty)."""

    slot: str
    registered: CanonicalCard | None
    presented: CanonicalCard | None


@dataclass(frozen=True, slots=True)
class DeckDiff:
    """Format, slots and card-by-card changes; printings and reference style never count."""

    format: tuple[str, str] | None
    slots: tuple[SlotChange, ...]
    changes: tuple[CardChange, ...]

    @property
    def same(self) -> bool:
        return self.format is None and not self.slots and not self.changes

    def slot(self, name: str) -> SlotChange | None:
        return next((c for c in self.slots if c.slot == name), None)


def diff_decks(registered: CanonicalDeck, presented: CanonicalDeck) -> DeckDiff:
    """Compare two canonical lists section by section, card by card (in canonical order)."""
    layout = registered.layout
    fmt = None if registered.format == presented.format else (registered.format, presented.format)
    slots = []
    for slot in layout.slots:
        old, new = registered.slots.get(slot), presented.slots.get(slot)
        if _key(old) != _key(new):
            slots.append(SlotChange(slot, old, new))
    changes: list[CardChange] = []
    for section in layout.sections:
        before = {c.key: c for c in registered.sections[section]}
        after = {c.key: c for c in presented.sections[section]}
        for key in sorted(before.keys() | after.keys()):
            was, now = before.get(key), after.get(key)
            old_count, new_count = (was.count if was else 0), (now.count if now else 0)
            if old_count != new_count:
                shown = was or now
                assert shown is not None
                changes.append(CardChange(section, key, shown.name, old_count, new_count))
    return DeckDiff(fmt, tuple(slots), tuple(changes))


def _key(card: CanonicalCard | None) -> str | None:
    return card.key if card is not None else None
