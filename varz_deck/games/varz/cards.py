"""The VARZ card: its fields, colours, card types and skill classes (where each card goes in a deck
is declared: declaration.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from varz_deck.core.cards.model import CardDatabase, CardFields, Format
from varz_deck.core.decks.check import DeckWords
from varz_deck.core.messages.i18n import msg

COLORS = ("red", "blue", "green", "purple", "yellow", "silver")
COLORLESS = "colorless"
# the colour of the charts' palette (core/analysis/plot.py) each colour is drawn in: its own, colorless grey
PALETTE_NAMES = {**{c: c for c in COLORS}, COLORLESS: "grey"}
VAZ_AVAILABLE, VAZ_SPENT = "light grey", ("green", "blue")  # spent: one per deck compared
SPELL_TYPES = ("spil", "command", "slash")
CARD_TYPES = ("hero", "skill", "portal", *SPELL_TYPES)
SKILL_CLASSES = (
    "fighter", "samurai", "ninja", "tamer", "archer", "gunner",
    "warlock", "sherman", "cleric", "hacker", "bard", "alchemist",
)  # fmt: skip
GENERIC = "generic"

# Fields that make two printings the same card; the rest (id, rarity, flavor, set) may differ.
GAME_FIELDS = (
    "type", "color", "cost", "power", "life", "shield_life", "skill_classes", "skill_class",
    "evolution_level", "memory", "vaz", "classes", "keywords", "legendary", "text", "v_sync",
)  # fmt: skip


# How the deck is spoken of outside the game's package (the text report, JSON, the server's pages).
WORDS = DeckWords(
    lead_named=msg("report", "hero {name}"),
    lead_title=msg("page", "Hero"),
    lead_json="hero",  # check's JSON version 1 says "hero" for every game
)


@dataclass(frozen=True)
class Card(CardFields):
    """One printing of a card, as the card file gives it."""

    GAME_FIELDS: ClassVar[tuple[str, ...]] = GAME_FIELDS
    TUPLE_FIELDS: ClassVar[tuple[str, ...]] = ("skill_classes", "classes", "keywords")

    color: str | None = None
    cost: int | None = None
    power: int | None = None
    life: int | None = None
    shield_life: int | None = None
    skill_classes: tuple[str, ...] = ()
    skill_class: str | None = None
    evolution_level: int | None = None
    memory: int | None = None
    vaz: bool = False
    classes: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    legendary: bool = False
    text: str | None = None
    flavor: str | None = None
    rarity: str | None = None
    v_sync: Mapping[str, object] | None = None

    @property
    def is_spell(self) -> bool:
        return self.type in SPELL_TYPES

    @property
    def has_effect(self) -> bool:
        """A portal with rules text; one without is a basic portal."""
        return bool(self.text and self.text.strip())

    @property
    def is_vaz(self) -> bool:
        return self.type == "skill" and self.vaz


# VARZ's own fields of a format in formats.yaml (schema fragments; the core keeps them in
# `Format.extra`): how many portals with effects a deck may hold (rulebook 2.2), and whether the
# Portal Deck is built (`constructed`) or taken from the table's shared pool (`pooled`).
FORMAT_FIELDS: Mapping[str, Mapping[str, object]] = {
    "max_effect_portals": {"type": "integer", "minimum": 0},
    "portals": {"enum": ["constructed", "pooled"]},
}

BUILTIN_FORMATS = {
    "standard": Format("standard", "Standard", extra={"max_effect_portals": 2}),
    "pioneer": Format("pioneer", "Pioneer", extra={"portals": "pooled"}),
}


class VarzDatabase(CardDatabase):
    """The index of VARZ's cards (the core's, with its game's key)."""

    game = "varz"


def max_effect_portals(fmt: Format) -> int | None:
    """The most portals with effects the format allows; None: no limit."""
    limit = fmt.extra.get("max_effect_portals")
    return limit if isinstance(limit, int) else None


def pooled_portals(fmt: Format) -> bool:
    """Whether the format's portals come from the table's pool (not checked at registration)."""
    return fmt.extra.get("portals") == "pooled"
