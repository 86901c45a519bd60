"""The card model, formats, and the look-up index a deck's references resolve against."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

COLORS = ("red", "blue", "green", "purple", "yellow", "silver")
COLORLESS = "colorless"
SPELL_TYPES = ("spil", "command", "slash")
CARD_TYPES = ("hero", "skill", "portal", *SPELL_TYPES)
SKILL_CLASSES = (
    "fighter", "samurai", "ninja", "tamer", "archer", "gunner",
    "warlock", "sherman", "cleric", "hacker", "bard", "alchemist",
)  # fmt: skip
GENERIC = "generic"
SECTIONS = ("spells", "skills", "portals")
SECTION_OF_TYPE = {
    "spil": "spells", "command": "spells", "slash": "spells",
    "skill": "skills", "portal": "portals", "hero": "hero",
}  # fmt: skip

# Fields that make two printings the same card; the rest (id, rarity, flavor, set) may differ.
GAME_FIELDS = (
    "type", "color", "cost", "power", "life", "shield_life", "skill_classes", "skill_class",
    "evolution_level", "memory", "vaz", "classes", "keywords", "legendary", "text", "v_sync",
)  # fmt: skip


def normalize(text: str) -> str:
    """The form references are matched in: NFKC, case-folded, runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass(frozen=True)
class Card:
    """One printing of a card, as the card file gives it."""

    id: str
    name: str
    type: str
    set: str
    file: str = ""
    line: int = 0
    names: Mapping[str, str] = field(default_factory=dict)
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
    v_sync: Mapping[str, Any] | None = None

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

    def game_fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in GAME_FIELDS}

    def name_in(self, lang: str | None) -> str:
        """The card's name in a language, falling back to the canonical English one."""
        return self.names.get(lang, self.name) if lang else self.name

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = dict(value) if isinstance(value, Mapping) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Card:
        values = dict(data)
        for name in ("skill_classes", "classes", "keywords"):
            values[name] = tuple(values.get(name) or ())
        return cls(**values)


@dataclass(frozen=True)
class Format:
    """A constructed format: which sets, bans and restrictions, and how portals work."""

    key: str
    name: str
    max_effect_portals: int | None = None
    sets: tuple[str, ...] | None = None
    banned: tuple[str, ...] = ()
    restricted: Mapping[str, int] = field(default_factory=dict)
    portals: str = "constructed"

    @property
    def pooled_portals(self) -> bool:
        return self.portals == "pooled"

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "max_effect_portals": self.max_effect_portals,
            "sets": list(self.sets) if self.sets is not None else None,
            "banned": list(self.banned),
            "restricted": dict(self.restricted),
            "portals": self.portals,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Format:
        sets = data.get("sets")
        return cls(
            key=data["key"],
            name=data["name"],
            max_effect_portals=data.get("max_effect_portals"),
            sets=tuple(sets) if sets is not None else None,
            banned=tuple(data.get("banned", ())),
            restricted=dict(data.get("restricted", {})),
            portals=data.get("portals", "constructed"),
        )


BUILTIN_FORMATS = {
    "standard": Format("standard", "Standard", max_effect_portals=2),
    "pioneer": Format("pioneer", "Pioneer", max_effect_portals=None, portals="pooled"),
}


class CardDatabase:
    """Cards by id, printings by name, and every name in every language for look-ups."""

    game = "varz"  # the key of the game (varz_deck.games) the cards are for

    def __init__(self, cards: Iterable[Card], formats: Mapping[str, Format] | None = None) -> None:
        self.cards: dict[str, Card] = {}
        self.printings: dict[str, list[Card]] = {}
        for card in cards:
            self.cards.setdefault(card.id, card)
            self.printings.setdefault(card.name, []).append(card)
        self.formats: dict[str, Format] = dict(formats) if formats else dict(BUILTIN_FORMATS)
        self._index: dict[str, set[str]] | None = None

    @property
    def index(self) -> dict[str, set[str]]:
        """Normalized id or name (any language) -> the canonical names it can mean."""
        if self._index is None:
            index: dict[str, set[str]] = {}
            for card in self.cards.values():
                index.setdefault(normalize(card.id), set()).add(card.name)
                index.setdefault(normalize(card.name), set()).add(card.name)
                for translated in card.names.values():
                    index.setdefault(normalize(translated), set()).add(card.name)
            self._index = index
        return self._index

    def by_id(self, ref: str) -> Card | None:
        return self.cards.get(ref) or self.cards.get(ref.strip().upper())

    def canonical(self, name: str) -> Card:
        """The printing that stands for a card name (the first one in the database)."""
        return self.printings[name][0]

    def lookup(self, ref: str) -> list[Card]:
        """Every card a reference can mean: one printing for an id, else one per card name."""
        by_id = self.by_id(ref)
        if by_id is not None:
            return [by_id]
        names = self.index.get(normalize(ref), set())
        return [self.canonical(name) for name in sorted(names)]

    def suggestions(self, ref: str, limit: int = 3) -> list[str]:
        """Up to `limit` close names, for "did you mean"."""
        import difflib

        wanted = normalize(ref)
        choices: dict[str, str] = {}
        for card in self.cards.values():
            for shown in (card.name, *card.names.values()):
                choices.setdefault(normalize(shown), shown)
        close = difflib.get_close_matches(wanted, list(choices), n=limit, cutoff=0.6)
        return [choices[c] for c in close]
