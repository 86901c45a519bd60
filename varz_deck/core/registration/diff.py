"""The deck check at the table: what differs between a registered and a presented deck."""

from __future__ import annotations

from dataclasses import dataclass

from varz_deck.games.varz.cards import SECTIONS
from varz_deck.games.varz.registration.canonical import CanonicalCard, CanonicalDeck


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
        return None if self.key.startswith("?") else self.key

    @property
    def delta(self) -> int:
        return self.presented - self.registered


@dataclass(frozen=True, slots=True)
class DeckDiff:
    """Format, hero and card-by-card changes; printings and reference style never count."""

    format: tuple[str, str] | None
    hero: tuple[CanonicalCard | None, CanonicalCard | None] | None
    changes: tuple[CardChange, ...]

    @property
    def same(self) -> bool:
        return self.format is None and self.hero is None and not self.changes


def diff_decks(registered: CanonicalDeck, presented: CanonicalDeck) -> DeckDiff:
    """Compare two canonical lists section by section, card by card (in canonical order)."""
    fmt = None if registered.format == presented.format else (registered.format, presented.format)
    hero = None
    if _key(registered.hero) != _key(presented.hero):
        hero = (registered.hero, presented.hero)
    changes: list[CardChange] = []
    for section in SECTIONS:
        before = {c.key: c for c in registered.sections[section]}
        after = {c.key: c for c in presented.sections[section]}
        for key in sorted(before.keys() | after.keys()):
            old, new = before.get(key), after.get(key)
            old_count, new_count = (old.count if old else 0), (new.count if new else 0)
            if old_count != new_count:
                shown = old or new
                assert shown is not None
                changes.append(CardChange(section, key, shown.name, old_count, new_count))
    return DeckDiff(fmt, hero, tuple(changes))


def _key(card: CanonicalCard | None) -> str | None:
    return card.key if card is not None else None
