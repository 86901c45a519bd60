"""What the core and the command line need from a game: the `Game` protocol and its capabilities.

A game is one package under varz_deck/games/ whose module defines `GAME`, an object that
implements `Game`; the registry in varz_deck/games/__init__.py names each such module. Each
command asks the game for what it needs: `check` and `cards lint` the card and deck pieces below,
`sim` the `goldfish`, `register`/`verify`/`diff`/`code` the `registrar`, `cards show`/`search`
the `lookup`. An option a game cannot honour is a usage error naming the game (SPEC §8); the
capability says which options it honours.

The core never imports a game: the functions that need one take it as an argument.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from varz_deck.core.cards.model import CardT
from varz_deck.core.messages.i18n import nmsg

if TYPE_CHECKING:
    import datetime

    from rich.console import RenderableType

    from varz_deck.core.analysis.glossary import Entry
    from varz_deck.core.analysis.parts import Part
    from varz_deck.core.cards.cardinfo import CardQuery
    from varz_deck.core.cards.model import CardDatabase, Format
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.decks.entries import ListWords
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.lint import CardFile
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.core.messages.i18n import Message
    from varz_deck.core.messages.rulebook import Rule
    from varz_deck.core.registration.canonical import CanonicalDeck, Layout
    from varz_deck.core.registration.register import Registration
    from varz_deck.core.registration.sheet import SheetParts

# What `sim` and `tune`/`stats` say on stderr of an illegal deck (every game's goldfish and tuner).
NOT_LEGAL_SIMULATED = nmsg(
    "sim",
    "{path}: deck is not legal ({n} problem; run varz-deck check); simulating anyway",
    "{path}: deck is not legal ({n} problems; run varz-deck check); simulating anyway",
)
NOT_LEGAL_TUNED = nmsg(
    "tune",
    "{path}: deck is not legal ({n} problem; run varz-deck check); using it anyway",
    "{path}: deck is not legal ({n} problems; run varz-deck check); using it anyway",
)


class DeckUnusable(Exception):
    """A deck a command cannot work with: the diagnostics (or message) say why."""

    def __init__(
        self, diagnostics: Sequence[Diagnostic] = (), message: Message | None = None
    ) -> None:
        super().__init__(message.render() if message is not None else "deck cannot be used")
        self.diagnostics = tuple(diagnostics)
        self.message = message


@dataclass(frozen=True)
class SimRequest:
    """What `varz-deck sim` asks of a game's goldfish (SPEC §3, §6)."""

    deck: DeckSource
    games: int
    seed: int
    turns: int
    on: str  # "play" | "draw"
    mulligan: str  # "none" | "auto"
    vs: DeckSource | None = None
    progress: Callable[[int, int], None] | None = None
    date: datetime.date | None = None  # the day the decks are checked as of (None: today)


class SimOutcome(Protocol):
    """A finished simulation (or comparison): its JSON document, its text report, its charts."""

    @property
    def warnings(self) -> tuple[Message, ...]:
        """Said on stderr (e.g. "deck is not legal; simulating anyway")."""
        ...

    def answer(self) -> tuple[Message, ...]:
        """2–4 plain sentences a player can act on, from the figures of `to_json` (the text
        report and `varz-deck report` open with them)."""
        ...

    def parts(self) -> tuple[Part, ...]:
        """The figures as a report page's tables and charts (core/analysis/parts.py), built from
        `to_json`'s document."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    def render_text(self, *, color: bool, width: int, lang: str) -> str: ...

    def plot(self, fmt: str, lang: str) -> bytes:
        """The charts as `fmt` ("svg" or "png"); raises PlotError (varz_deck.core.analysis.plot)."""
        ...


class Goldfish(Protocol):
    """`varz-deck sim` for one game."""

    @property
    def options(self) -> frozenset[str]:
        """Of "vs", "plot", "mulligan", "on": the options it honours."""
        ...

    def simulate(self, request: SimRequest, database: CardDatabase) -> SimOutcome:
        """Simulate (and with `vs`, compare on common random numbers); DeckUnusable if a deck
        cannot be simulated."""
        ...


class Registrar(Protocol):
    """`varz-deck register`, `verify`, `diff` and `code` for one game: it reads the game's deck
    files and deck codes; the canonical form, hash, code bytes, reports and the sheet's skeleton
    are the core's (varz_deck/core/registration/), shaped by its `layout`."""

    @property
    def layout(self) -> Layout:
        """The game's hash header, slots, sections, deck-code prefix and card identity."""
        ...

    def is_code(self, argument: str) -> bool:
        """Whether a DECK argument that names no file is read as one of this game's deck codes."""
        ...

    def register(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        player: str | None = None,
        event: str | None = None,
        format_key: str | None = None,
        date: datetime.date | None = None,
    ) -> Registration:
        """Read (a file or a deck code), check it on a date (None: today), canonicalise it."""
        ...

    def encode(self, canonical: CanonicalDeck) -> str:
        """The deck code of a complete canonical list."""
        ...

    @property
    def sheet_parts(self) -> SheetParts:
        """What the game puts on the core's sheet page (varz_deck/core/registration/sheet.py):
        its slots' rows, its card tables, its deck code."""
        ...

    def render_sheet(self, registration: Registration, lang: str) -> str:
        """The printable HTML registration sheet of one deck."""
        ...

    def render_sheets(self, registrations: Sequence[Registration], lang: str) -> str:
        """Every deck's sheet in one printable HTML document, a page each."""
        ...


class TuneOutcome(Protocol):
    """`stats` or `tune` figures of one deck: its JSON document, its text report, its charts."""

    @property
    def warnings(self) -> tuple[Message, ...]:
        """Said on stderr (e.g. "deck is not legal; tuning anyway")."""
        ...

    def answer(self) -> tuple[Message, ...]:
        """2–4 plain sentences a player can act on, from the figures of `to_json` (the text
        report and `varz-deck report` open with them)."""
        ...

    def parts(self) -> tuple[Part, ...]:
        """The figures as a report page's tables and charts (core/analysis/parts.py), built from
        `to_json`'s document."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    def render_text(self, *, color: bool, width: int, lang: str) -> str: ...

    def plot(self, fmt: str, lang: str) -> bytes:
        """The charts as `fmt` ("svg" or "png"); raises PlotError (varz_deck.core.analysis.plot)."""
        ...


class Tuner(Protocol):
    """`varz-deck stats` and `varz-deck tune` for one game (SPEC §11)."""

    @property
    def options(self) -> frozenset[str]:
        """Of "tune" (the command itself: without it only `stats` answers), "target", "on",
        "mulligan", "plot": what it honours."""
        ...

    def stats(
        self, source: DeckSource, database: CardDatabase, *, date: datetime.date | None = None
    ) -> TuneOutcome:
        """Counts, curve, classes, colours of a deck, with no sampling; DeckUnusable if unreadable.
        The deck is checked on `date` (None: today)."""
        ...

    def tune(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        target: float,
        on: str,
        mulligan: str,
        date: datetime.date | None = None,
    ) -> TuneOutcome:
        """On-curve odds per spell, every legal one-card swap, the colour-source tables; the deck
        is checked on `date` (None: today)."""
        ...


class CardLookup(Protocol[CardT]):
    """`varz-deck cards show` and `cards search` for one game, of its card class `CardT`. The
    finding by reference and the text matching are the core's (varz_deck/core/cards/cardinfo.py); the
    filters and the renderables are the game's."""

    def filters(self, database: CardDatabase) -> Mapping[str, Sequence[str]]:
        """The words each filter option takes ("type", "color", "class"), for "did you mean";
        an option missing here is one the game cannot honour (a usage error naming the game)."""
        ...

    def find(self, database: CardDatabase[CardT], ref: str) -> CardT:
        """The card a reference names; CardNotFound (varz_deck.core.cards.cardinfo) otherwise."""
        ...

    def search(self, database: CardDatabase[CardT], query: CardQuery) -> list[CardT]:
        """Every card that fits the query, in id order."""
        ...

    def card_panel(self, card: CardT, database: CardDatabase[CardT], lang: str) -> RenderableType:
        """One card in full, as a rich renderable."""
        ...

    def search_table(self, cards: Sequence[CardT], lang: str) -> RenderableType:
        """A search result, as a rich renderable."""
        ...


@dataclass(frozen=True)
class DeckWords:
    """How a game's deck is spoken of outside its package: the lead card's words."""

    lead_named: Message  # the text report's header, "{name}" the lead card (e.g. "lead {name}")
    lead_title: Message  # a column or field title on the organiser's pages (e.g. "Lead")
    lead_json: str  # the lead card's key in `check`'s JSON (version 1: one for every game)


class Game(Protocol[CardT]):
    """One game: its cards (of its card class `CardT`), deck files, rules and the capabilities
    every command asks for."""

    key: str
    name: str
    card_schema: str  # a name in `schemas` (the card-file schema)
    deck_schema: str  # a name in `schemas` (the deck-file schema)
    # Catalogue name -> schema file in the game's package (`varz-deck schema NAME`); the game
    # registers them when loaded (varz_deck.core.files.resources.register_schemas).
    schemas: Mapping[str, Path]
    sections: tuple[str, ...]  # list sections of a deck file
    slots: tuple[str, ...]  # single-card keys of a deck file
    lead: str  # the slot of the deck's leading card
    # the game's own fields of a format in formats.yaml: name -> JSON Schema; kept in Format.extra
    format_fields: Mapping[str, Mapping[str, Any]]
    words: DeckWords

    @property
    def card_data(self) -> Path:
        """The game's bundled card database (a folder with formats.yaml)."""
        ...

    @property
    def list_words(self) -> ListWords:
        """The header words of the game's plain-text lists (SPEC §2)."""
        ...

    def section_of(self, card: CardT) -> str | None:
        """The slot or section of a deck file a card goes in (None: none)."""
        ...

    def colours_of(self, card: CardT) -> tuple[str, ...]:
        """The card's colours (or what the game has in their place), for one-line summaries."""
        ...

    def builtin_formats(self) -> dict[str, Format]:
        """The formats a database of this game has when its formats.yaml names none."""
        ...

    def make_card(
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> CardT:
        """A card from one mapping of a card file the game's schema accepted."""
        ...

    def card_from_json(self, data: Mapping[str, Any]) -> CardT:
        """A card from the cache (the inverse of the card's `to_json`)."""
        ...

    def make_database(
        self, cards: list[CardT], formats: Mapping[str, Format] | None
    ) -> CardDatabase[CardT]:
        """The look-up index a deck's references resolve against (built-in formats when None)."""
        ...

    def identity(self, card: CardT) -> str:
        """What copy limits and printings count by (the card's name, or its id, as the game says)."""
        ...

    def game_fields(self, card: CardT) -> dict[str, Any]:
        """The fields that make two printings of one card the same card (C003)."""
        ...

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        """Code -> the game's own checks of each card file (`cards lint`), registered as its
        deck rules are, on a `Rulebook[CardFile]` (core/lint/)."""
        ...

    def owns_deck(self, text: str) -> bool:
        """Whether a deck file's text is written for this game (its keys or list headers)."""
        ...

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date | None = None,
    ) -> DeckReport:
        """Read, resolve and check one deck (a file's text, a buffer, or a deck code) on a date
        (None: today, as `core.dates.on_date` decides; SPEC §12)."""
        ...

    def rules(self) -> Mapping[str, Rule[Any]]:
        """Code -> rule, for every code the game owns (its deck rules and its card checks), for
        `varz-deck rules`."""
        ...

    @property
    def goldfish(self) -> Goldfish | None:
        """`varz-deck sim` (None: the game has no simulator; `sim` refuses it, exit 2)."""
        ...

    @property
    def lookup(self) -> CardLookup[CardT]:
        """`varz-deck cards show`, `cards search`."""
        ...

    @property
    def registrar(self) -> Registrar:
        """`varz-deck register`, `verify`, `diff`, `code`."""
        ...

    @property
    def tuner(self) -> Tuner | None:
        """`varz-deck stats`, `varz-deck tune` (None: neither; they refuse it, exit 2)."""
        ...

    @property
    def glossary(self) -> Sequence[Entry]:
        """The game's own terms for the figures its commands show, and shared terms restated in
        its words (the same key); `core.glossary.entries(game)` merges them. () for none."""
        ...
