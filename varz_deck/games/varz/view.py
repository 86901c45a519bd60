"""A VARZ deck with its references looked up: the core's view (core/decks/view.py) with what
VARZ's rules, simulator and tuner read besides: the hero, and the portals' Shield Life."""

from __future__ import annotations

from varz_deck.core.decks.entries import Entry
from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.diagnostics import Mark
from varz_deck.games.varz.cards import Card


class VarzView(DeckView[Card]):
    """What every VARZ rule reads, and nothing it can change."""

    @property
    def hero(self) -> Card | None:
        """The hero (None: missing, unknown, or not a Hero card)."""
        return self.lead

    @property
    def hero_mark(self) -> Mark | None:
        """Where the hero is named (None: nowhere, or a deck code)."""
        pick = self.deck.picks.get("hero")
        return pick.mark if pick is not None else None

    def by_name(self, section: str) -> dict[str, tuple[Card, int, Entry]]:
        """Copies per card name (all printings together), with the first entry that names it."""
        return self.by_card(section)

    def all_resolved(self, section: str) -> bool:
        return all(slot.card is not None for slot in self.slots[section])

    def shield_life(self) -> int:
        return sum(
            (card.shield_life or 0) * entry.count for card, entry in self.resolved("portals")
        )
