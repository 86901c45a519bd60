"""Tidewright cards and the look-up index a deck's references resolve against.

A card is counted by its name: a reprint in a later set (TW02-008 Rigger Finn) is another printing
of the same card, so copy limits count both together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from varz_deck.core.cards.model import CardDatabase, CardRecord, Format
from varz_deck.core.decks.check import DeckWords
from varz_deck.core.messages.i18n import msg

GAME_KEY = "tidewright"
SEAS = ("north", "east", "south", "west")
TYPES = ("captain", "sailor", "maneuver", "current")
# Where each card type goes in a deck file: the captain slot, then the two sections.
HOME = {"captain": "captain", "sailor": "crew", "maneuver": "crew", "current": "currents"}
GAME_FIELDS = ("type", "seas", "sea", "renown", "cost", "might", "text")
BUILTIN_FORMATS = {"standard": Format("standard", "Open Sea")}
WORDS = DeckWords(
    lead_named=msg("report", "captain {name}"),
    lead_title=msg("page", "Captain"),
    lead_json="hero",  # check's JSON version 1 names every game's lead card "hero" (SPEC §5)
)


@dataclass(frozen=True)
class TideCard(CardRecord):
    """One Tidewright card as its card file gives it."""

    GAME_FIELDS: ClassVar[tuple[str, ...]] = GAME_FIELDS
    TUPLE_FIELDS: ClassVar[tuple[str, ...]] = ("seas",)

    id: str
    name: str
    type: str
    set: str
    file: str = ""
    line: int = 0
    names: Mapping[str, str] = field(default_factory=dict)
    seas: tuple[str, ...] = ()  # a captain's seas
    sea: str | None = None  # every other card's sea
    renown: int | None = None
    cost: int | None = None
    might: int | None = None
    text: str | None = None
    flavor: str | None = None

    @property
    def home(self) -> str:
        """The slot (captain) or section (crew, currents) the card belongs in."""
        return HOME[self.type]

    @classmethod
    def from_raw(
        cls, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> TideCard:
        card_id = raw["id"]
        values: dict[str, Any] = {
            "id": card_id,
            "name": raw["name"],
            "type": raw["type"],
            "set": set_code if set_code is not None else card_id.split("-", 1)[0],
            "file": file,
            "line": line,
            "names": dict(raw.get("names") or {}),
            "seas": tuple(raw.get("seas") or ()),
        }
        for name in ("sea", "renown", "cost", "might", "text", "flavor"):
            if name in raw:
                values[name] = raw[name]
        return cls(**values)


class TideDatabase(CardDatabase):
    """Cards by id, printings by name (the core's index)."""

    game = GAME_KEY

    def __init__(self, cards: list[Any], formats: Mapping[str, Format] | None = None) -> None:
        super().__init__(cards, formats or BUILTIN_FORMATS)
