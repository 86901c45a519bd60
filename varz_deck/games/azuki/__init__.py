"""Azuki TCG, the second game: cards, deck file (leader, gate, main, ikz), rules A101–A107, sim.

Everything Azuki is in this package; the core reaches it through `varz_deck.games.get_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import varz_deck.games.azuki.schemahints  # noqa: F401 - registers its schemas' messages
from varz_deck.core.files.resources import register_schemas
from varz_deck.core.messages.i18n import register_catalogue
from varz_deck.games.azuki.cards import BUILTIN_FORMATS, WORDS, AzukiCard, AzukiDatabase

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
    from varz_deck.games.azuki.deck import AzukiView


_HERE = Path(__file__).resolve().parent


class Azuki:
    """The Azuki TCG."""

    key = "azuki"
    name = "Azuki TCG"
    card_schema = "azuki-card"
    deck_schema = "azuki-deck"
    schemas: Mapping[str, Path] = {
        "azuki-card": _HERE / "schemas" / "card-file.schema.json",
        "azuki-deck": _HERE / "schemas" / "deck.schema.json",
    }
    sections: tuple[str, ...] = ("main", "ikz")
    slots: tuple[str, ...] = ("leader", "gate")
    lead = "leader"
    words = WORDS

    @property
    def card_data(self) -> Path:
        return _HERE / "card_data"

    @property
    def list_words(self) -> ListWords:
        from varz_deck.games.azuki.deck import LIST_WORDS

        return LIST_WORDS

    @property
    def section_sizes(self) -> Mapping[str, int]:
        """The rules' number of cards in each list section (`sim`, `tune` and the registration
        server refuse a deck of more than 4 times as many: core/analysis/tuning.py)."""
        from varz_deck.games.azuki.sim.model import SECTION_SIZES

        return SECTION_SIZES

    def section_of(self, card: AzukiCard) -> str | None:
        return card.home

    format_fields: Mapping[str, Mapping[str, Any]] = {}

    def colours_of(self, card: AzukiCard) -> tuple[str, ...]:
        return card.elements

    def builtin_formats(self) -> dict[str, Format]:
        return dict(BUILTIN_FORMATS)

    def make_card(
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> AzukiCard:
        return AzukiCard.from_raw(raw, set_code, file, line)

    def card_from_json(self, data: Mapping[str, Any]) -> AzukiCard:
        return AzukiCard.from_json(data)

    def make_database(
        self, cards: list[AzukiCard], formats: Mapping[str, Format] | None
    ) -> AzukiDatabase:
        return AzukiDatabase(cards, formats)

    def identity(self, card: AzukiCard) -> str:
        return card.id

    def game_fields(self, card: AzukiCard) -> dict[str, Any]:
        return card.game_fields()

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        return {}  # the card schema closes every Azuki vocabulary (elements, types)

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date | None = None,
    ) -> DeckReport:
        from varz_deck.games.azuki.check import check_deck

        assert isinstance(database, AzukiDatabase)
        return check_deck(source, database, format_key, date)

    def owns_deck(self, text: str) -> bool:
        from varz_deck.games.azuki.deck import owns_deck

        return owns_deck(text)

    @property
    def goldfish(self) -> Goldfish:
        from varz_deck.games.azuki.sim import GOLDFISH

        return GOLDFISH

    @property
    def lookup(self) -> CardLookup[AzukiCard]:
        from varz_deck.games.azuki.cardinfo import LOOKUP

        return LOOKUP

    @property
    def glossary(self) -> tuple[Entry, ...]:
        from varz_deck.games.azuki.glossary import GLOSSARY

        return GLOSSARY

    @property
    def tuner(self) -> Tuner:
        from varz_deck.games.azuki.tune import TUNER

        return TUNER

    @property
    def registrar(self) -> Registrar:
        from varz_deck.games.azuki.registration import REGISTRAR

        return REGISTRAR

    def rules(self) -> Mapping[str, Rule[AzukiView]]:
        from varz_deck.games.azuki.rules import RULES

        return RULES


GAME: Game[AzukiCard] = Azuki()
register_schemas(GAME.schemas)
register_catalogue("azuki", _HERE / "locale")
