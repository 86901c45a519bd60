"""VARZ, the first game: cards, deck file (hero, spells, skills, portals), rules V101–V117, sim, tune.

Everything VARZ is in this package, laid out as every game is (varz_deck/games/README.md), with
`resolve.py` (references looked up) and `vocabulary.py` (C004) beside; the core reaches it through
`varz_deck.games.get_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import varz_deck.games.varz.schemahints  # noqa: F401 - registers its schemas' messages
from varz_deck.core.files.resources import register_schemas
from varz_deck.core.messages.i18n import register_catalogue
from varz_deck.games.varz.cards import FORMAT_FIELDS, WORDS

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.analysis.capabilities import Goldfish, Tuner
    from varz_deck.core.analysis.glossary import Entry
    from varz_deck.core.cards.cardinfo import CardLookup
    from varz_deck.core.cards.model import CardDatabase, Format
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.decks.entries import ListWords
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game import Game
    from varz_deck.core.lint import CardFile
    from varz_deck.core.messages.rulebook import Rule
    from varz_deck.core.registration.registrar import Registrar
    from varz_deck.games.varz.cards import Card


_HERE = Path(__file__).resolve().parent


class Varz:
    """The VARZ TCG."""

    key = "varz"
    name = "VARZ"
    card_schema = "card"
    deck_schema = "deck"
    schemas: Mapping[str, Path] = {
        "card": _HERE / "schemas" / "card-file.schema.json",
        "deck": _HERE / "schemas" / "deck.schema.json",
    }
    sections: tuple[str, ...] = ("spells", "skills", "portals")
    slots: tuple[str, ...] = ("hero",)
    lead = "hero"
    words = WORDS

    @property
    def card_data(self) -> Path:
        return _HERE / "card_data"

    @property
    def list_words(self) -> ListWords:
        from varz_deck.games.varz.deck import LIST_WORDS

        return LIST_WORDS

    @property
    def section_sizes(self) -> Mapping[str, int]:
        """The rulebook's number of cards in each list section (`sim`, `tune` and the
        registration server refuse a deck of more than 4 times as many: core/analysis/tuning.py)."""
        from varz_deck.games.varz.sim.model import SECTION_SIZES

        return SECTION_SIZES

    def section_of(self, card: Card) -> str | None:
        from varz_deck.games.varz.cards import SECTION_OF_TYPE

        return SECTION_OF_TYPE.get(card.type)

    format_fields = FORMAT_FIELDS

    def colours_of(self, card: Card) -> tuple[str, ...]:
        return (card.color,) if card.color else ()

    def builtin_formats(self) -> dict[str, Format]:
        from varz_deck.games.varz.cards import BUILTIN_FORMATS

        return dict(BUILTIN_FORMATS)

    def make_card(self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int) -> Card:
        from varz_deck.games.varz.cards import GAME_FIELDS, Card

        card_id = raw["id"]
        values: dict[str, Any] = {
            "id": card_id,
            "name": raw["name"],
            "type": raw["type"],
            "set": set_code if set_code is not None else card_id.split("-", 1)[0],
            "file": file,
            "line": line,
            "names": dict(raw.get("names") or {}),
        }
        for name in (*GAME_FIELDS, "flavor", "rarity"):
            if name in raw and name != "type":
                value = raw[name]
                values[name] = tuple(value) if isinstance(value, list) else value
        if isinstance(values.get("v_sync"), dict):
            values["v_sync"] = dict(values["v_sync"])
        return Card(**values)

    def card_from_json(self, data: Mapping[str, Any]) -> Card:
        from varz_deck.games.varz.cards import Card

        return Card.from_json(data)

    def make_database(
        self, cards: list[Card], formats: Mapping[str, Format] | None
    ) -> CardDatabase[Card]:
        from varz_deck.games.varz.cards import VarzDatabase

        return VarzDatabase(cards, formats or self.builtin_formats())

    def identity(self, card: Card) -> str:
        return card.name

    def game_fields(self, card: Card) -> dict[str, Any]:
        return card.game_fields()

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        from varz_deck.games.varz.vocabulary import CARD_RULES

        return CARD_RULES.rules

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date | None = None,
    ) -> DeckReport:
        from varz_deck.games.varz.check import check_parsed
        from varz_deck.games.varz.deck import read_deck

        deck, problems = read_deck(source)
        return check_parsed(deck, problems, database, format_key, date)

    def owns_deck(self, text: str) -> bool:
        from varz_deck.games.varz.deck import owns_deck

        return owns_deck(text)

    @property
    def goldfish(self) -> Goldfish:
        from varz_deck.games.varz.sim.goldfish import GOLDFISH

        return GOLDFISH

    @property
    def lookup(self) -> CardLookup[Card]:
        from varz_deck.games.varz.cardinfo import LOOKUP

        return LOOKUP

    @property
    def glossary(self) -> tuple[Entry, ...]:
        from varz_deck.games.varz.glossary import GLOSSARY

        return GLOSSARY

    @property
    def tuner(self) -> Tuner:
        from varz_deck.games.varz.tune import TUNER

        return TUNER

    @property
    def registrar(self) -> Registrar:
        from varz_deck.games.varz.registration import REGISTRAR

        return REGISTRAR

    def rules(self) -> Mapping[str, Rule[Any]]:
        from varz_deck.games.varz.rules import RULES

        return {**RULES, **self.card_rules()}


GAME: Game[Card] = Varz()
register_schemas(GAME.schemas)
register_catalogue("varz", _HERE / "locale")
