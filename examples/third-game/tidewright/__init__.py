"""Tidewright, a small seafaring card game, as a varz-deck plugin.

A ship (deck) has one captain, a crew of 20 sailors and maneuvers, and 8 currents; every card
comes from one of the captain's seas. The package registers under the entry-point group
`varz_deck.games` (pyproject.toml) and reaches varz-deck only through `varz_deck.core`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from varz_deck.core.files.resources import register_schemas
from varz_deck.core.messages.i18n import register_catalogue

import tidewright.schemahints  # noqa: F401 - registers its deck schema's messages
from tidewright.cards import BUILTIN_FORMATS, GAME_KEY, WORDS, TideCard, TideDatabase
from tidewright.deck import DECK_SCHEMA, LEAD, SECTIONS, SLOTS

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

    from tidewright.deck import TideView

PACKAGE_DIR = Path(__file__).resolve().parent
CARD_DATA = PACKAGE_DIR / "card_data"  # the bundled card database
SCHEMA_DIR = PACKAGE_DIR / "schemas"


class Tidewright:
    """The Tidewright card game."""

    key = GAME_KEY
    name = "Tidewright"
    card_schema = "tidewright-card"
    deck_schema = DECK_SCHEMA
    sections: tuple[str, ...] = SECTIONS
    slots: tuple[str, ...] = SLOTS
    lead = LEAD
    words = WORDS
    schemas: Mapping[str, Path] = {
        "tidewright-card": SCHEMA_DIR / "tidewright-card-file.schema.json",
        DECK_SCHEMA: SCHEMA_DIR / "tidewright-deck.schema.json",
    }
    format_fields: Mapping[str, Mapping[str, Any]] = {}  # a format is its sets and bans only

    @property
    def card_data(self) -> Path:
        return CARD_DATA

    @property
    def list_words(self) -> ListWords:
        from tidewright.deck import LIST_WORDS

        return LIST_WORDS

    def section_of(self, card: Any) -> str | None:
        return str(card.home)

    def colours_of(self, card: Any) -> tuple[str, ...]:
        return tuple(card.seas) or ((card.sea,) if card.sea else ())

    def builtin_formats(self) -> dict[str, Format]:
        return dict(BUILTIN_FORMATS)

    def make_card(
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> TideCard:
        return TideCard.from_raw(raw, set_code, file, line)

    def card_from_json(self, data: Mapping[str, Any]) -> TideCard:
        return TideCard.from_json(data)

    def make_database(self, cards: list[Any], formats: Mapping[str, Format] | None) -> CardDatabase:
        return TideDatabase(cards, formats)

    def identity(self, card: Any) -> str:
        return str(card.name)

    def game_fields(self, card: Any) -> dict[str, Any]:
        return dict(card.game_fields())

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        return {}  # the card schema closes every word (types, seas)

    def owns_deck(self, text: str) -> bool:
        from tidewright.deck import owns_deck

        return owns_deck(text)

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date | None = None,
    ) -> DeckReport:
        from tidewright.check import check_deck

        assert isinstance(database, TideDatabase)
        return check_deck(source, database, format_key, date)

    def rules(self) -> Mapping[str, Rule[TideView]]:
        from tidewright.rules import RULES

        return RULES

    @property
    def goldfish(self) -> Goldfish | None:
        return None  # no simulator: `sim` refuses a Tidewright deck (exit 2)

    @property
    def lookup(self) -> CardLookup:
        from tidewright.cardinfo import LOOKUP

        return LOOKUP

    @property
    def registrar(self) -> Registrar:
        from tidewright.registration import REGISTRAR

        return REGISTRAR

    @property
    def glossary(self) -> tuple[Entry, ...]:
        return ()  # its stats show counts only, in the shared words

    @property
    def tuner(self) -> Tuner:
        from tidewright.tune import TUNER

        return TUNER


GAME: Game = Tidewright()
register_schemas(GAME.schemas)
register_catalogue(GAME_KEY, PACKAGE_DIR / "locale")
