"""Azuki cards and the look-up index a deck's references resolve against.

Unlike VARZ, two Azuki cards with one name are two different cards ("Raizan" is a Leader and an
entity): a card is its id, and the ids printed on alternate art (`aliases`) name the same card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from varz_deck.core.cards.model import (
    CardDatabase,
    CardFields,
    Format,
    normalize,
    record_fields,
)
from varz_deck.core.game.cards import builtin_formats
from varz_deck.games.azuki.declaration import DECLARATION

ELEMENTS = ("fire", "water", "earth", "lightning", "neutral")
NEUTRAL = "neutral"
# the colour of the charts' palette (core/analysis/plot.py) each element is drawn in
PALETTE_NAMES = {
    "fire": "red", "water": "blue", "earth": "brown", "lightning": "yellow", "neutral": "grey",
}  # fmt: skip
GAME_FIELDS = ("type", "elements", "cost", "attack", "health", "gate_power", "keywords", "text")


@dataclass(frozen=True)
class AzukiCard(CardFields):
    """One Azuki card, as its card file gives it (variants and art are not kept)."""

    GAME_FIELDS: ClassVar[tuple[str, ...]] = GAME_FIELDS
    TUPLE_FIELDS: ClassVar[tuple[str, ...]] = ("elements", "keywords", "traits", "aliases")

    elements: tuple[str, ...] = ()
    cost: int | None = None
    attack: int | None = None
    health: int | None = None
    gate_power: int | None = None
    keywords: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    text: str | None = None

    @classmethod
    def from_raw(
        cls, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> AzukiCard:
        values = record_fields(raw, set_code, file, line)
        for name in ("elements", "keywords", "traits", "aliases"):
            values[name] = tuple(raw.get(name) or ())
        for name in ("cost", "attack", "health", "gate_power", "text"):
            if name in raw:
                values[name] = raw[name]
        return cls(**values)


class AzukiDatabase(CardDatabase[AzukiCard]):
    """Cards by id (aliases included); a name means every card that has it."""

    game = "azuki"
    INDEX_TABLES = ("aliases",)  # the card index stores the aliases too (core/cards/cardindex.py)

    def __init__(
        self, cards: Iterable[AzukiCard], formats: Mapping[str, Format] | None = None
    ) -> None:
        cards = list(cards)
        super().__init__(cards, formats or builtin_formats(DECLARATION))
        self.aliases: dict[str, str] = {}
        for card in self.cards.values():
            for alias in card.aliases:
                self.aliases.setdefault(alias, card.id)
        # printings by identity: each id is its own card
        self.printings = {card_id: [card] for card_id, card in self.cards.items()}

    @property
    def index(self) -> dict[str, set[str]]:
        """Normalized id, alias or name (any language) -> the ids it can mean."""
        if self._index is None:
            index: dict[str, set[str]] = {}
            for card in self.cards.values():
                for key in (card.id, *card.aliases, card.name, *card.names.values()):
                    index.setdefault(normalize(key), set()).add(card.id)
            self._index = index
        return self._index

    def by_id(self, ref: str) -> AzukiCard | None:
        for key in (ref, ref.strip().upper()):
            card = self.cards.get(key)
            if card is None and key in self.aliases:
                card = self.cards[self.aliases[key]]
            if card is not None:
                return card
        return super().by_id(ref)

    def id_keys(self, card: AzukiCard) -> tuple[str, ...]:
        return (card.id, *card.aliases)

    def card_key(self, card: AzukiCard) -> str:
        """Each id is its own card (printings by identity)."""
        return card.id

    def canonical(self, name: str) -> AzukiCard:
        return self.cards[name]
