"""Tidewright, a small seafaring card game, as a varz-deck plugin.

A ship (deck) has one captain, a crew of 20 sailors and maneuvers, and 8 currents; every card
comes from one of the captain's seas. The package registers under the entry-point group
`varz_deck.games` (pyproject.toml) and reaches varz-deck only through `varz_deck.core`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from varz_deck.core.game import DeckWords
from varz_deck.core.i18n import msg

from tidewright.cards import BUILTIN_FORMATS, GAME_KEY, TideCard, TideDatabase
from tidewright.deck import DECK_SCHEMA, LEAD, SECTIONS, SLOTS

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase, Format
    from varz_deck.core.check import DeckReport
    from varz_deck.core.diagnostics import Diagnostic
    from varz_deck.core.entries import ListWords
    from varz_deck.core.game import CardLookup, Game, Goldfish, Registrar, Tuner
    from varz_deck.core.rulebook import Rule
    from varz_deck.core.strictyaml import Document

    from tidewright.deck import TideView

PACKAGE_DIR = Path(__file__).resolve().parent
CARD_DATA = PACKAGE_DIR / "card_data"  # the bundled card database
SCHEMA_DIR = PACKAGE_DIR / "schemas"
SCHEMA_FILES = {
    "tidewright-card": "tidewright-card-file.schema.json",
    DECK_SCHEMA: "tidewright-deck.schema.json",
}


class Tidewright:
    """The Tidewright card game."""

    key = GAME_KEY
    name = "Tidewright"
    card_schema = "tidewright-card"
    deck_schema = DECK_SCHEMA
    sections: tuple[str, ...] = SECTIONS
    slots: tuple[str, ...] = SLOTS
    lead = LEAD
    words = DeckWords(
        lead_named=msg("report", "captain {name}"),
        lead_title=msg("page", "Captain"),
        lead_json="hero",  # check's JSON version 1 names every game's lead card "hero" (SPEC §5)
    )
    schema_files: ClassVar[Mapping[str, Path]] = {
        n: SCHEMA_DIR / f for n, f in SCHEMA_FILES.items()
    }

    @property
    def card_data(self) -> Path:
        return CARD_DATA

    @property
    def list_words(self) -> ListWords:
        from tidewright.deck import LIST_WORDS

        return LIST_WORDS

    def section_of(self, card: Any) -> str | None:
        return str(card.home)

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

    def vocabulary(
        self, entries: list[Any], doc: Document, bad_paths: set[Any]
    ) -> Iterator[Diagnostic]:
        return iter(())  # the card schema closes every word (types, seas)

    def owns_deck(self, text: str) -> bool:
        from tidewright.deck import owns_deck

        return owns_deck(text)

    def check_deck(
        self, path: Path, database: CardDatabase, format_key: str | None, shown: str | None
    ) -> DeckReport:
        from tidewright.check import check_deck

        assert isinstance(database, TideDatabase)
        return check_deck(path, database, format_key, shown)

    def rules(self) -> Mapping[str, Rule[TideView]]:
        from tidewright.rules import RULES

        return RULES

    @property
    def goldfish(self) -> Goldfish:
        from tidewright.sim import GOLDFISH

        return GOLDFISH

    @property
    def lookup(self) -> CardLookup:
        from tidewright.cardinfo import LOOKUP

        return LOOKUP

    @property
    def registrar(self) -> Registrar:
        from tidewright.registration import REGISTRAR

        return REGISTRAR

    @property
    def tuner(self) -> Tuner:
        from tidewright.tune import TUNER

        return TUNER


GAME: Game = Tidewright()
