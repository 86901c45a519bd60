"""The `Registrar` protocol and the one registrar every game builds: `register`, `verify`, `diff`,
`code` and the sheet, from what is really the game's: its `Layout`, its deck reader and check, the
slots of a deck it read, and its sheet's parts."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from varz_deck.core.messages.i18n import ENGLISH
from varz_deck.core.registration.canonical import canonicalize
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import ReadDeck, Registration, registration

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.decks.entries import Entry
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.core.registration.canonical import CanonicalDeck, Layout
    from varz_deck.core.registration.sheet import SheetParts


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
        date: datetime.date,
    ) -> Registration:
        """Read (a file or a deck code), check it on a date, canonicalise it."""
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


class ParsedDeck(Protocol):
    """What registering needs of a deck a game has read, beyond its slots."""

    @property
    def path(self) -> str: ...
    @property
    def readable(self) -> bool: ...
    @property
    def format(self) -> str | None: ...
    @property
    def entries(self) -> Mapping[str, Sequence[Entry]]: ...
    @property
    def player(self) -> str | None: ...
    @property
    def event(self) -> str | None: ...


DeckT = TypeVar("DeckT", bound=ParsedDeck)


@dataclass(frozen=True)
class GameRegistrar(Generic[DeckT]):
    """A game's `Registrar`: it reads a deck (file or code) with `read_deck`, checks it with
    `check_parsed`, takes its slots with `slots_of`; the record, hash, code and sheet page are the
    core's. `sheet` gives the sheet's parts, imported on first use (`verify` and `code` draw none)."""

    layout: Layout
    read_deck: Callable[[DeckSource], tuple[DeckT, list[Diagnostic]]]
    check_parsed: Callable[
        [DeckT, list[Diagnostic], CardDatabase, str | None, datetime.date], DeckReport
    ]
    slots_of: Callable[[DeckT], Mapping[str, str | None]]
    is_code: Callable[[str], bool]  # a DECK argument naming no file is one of the game's codes
    sheet: Callable[[], SheetParts]

    def register(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        player: str | None = None,
        event: str | None = None,
        format_key: str | None = None,
        date: datetime.date,
    ) -> Registration:
        """Read (a file or a deck code), check it on a date and canonicalise it."""
        deck, problems = self.read_deck(source)
        report = self.check_parsed(deck, problems, database, format_key, date)
        read = ReadDeck(
            path=deck.path,
            readable=deck.readable,
            problems=problems,
            format=deck.format,
            slots=self.slots_of(deck),
            entries=deck.entries,
            player=deck.player,
            event=deck.event,
        )
        return registration(
            self.layout,
            read,
            report,
            database,
            player=player,
            event=event,
            format_key=format_key,
            is_code=source.argument is not None and self.is_code(source.argument),
        )

    def canonicalize(
        self, deck: DeckT, database: CardDatabase, format_key: str | None = None
    ) -> CanonicalDeck:
        """The canonical form of a deck that was read completely."""
        return canonicalize(
            self.layout,
            database,
            format=deck.format,
            slots=self.slots_of(deck),
            entries=deck.entries,
            format_key=format_key,
        )

    def encode(self, canonical: CanonicalDeck) -> str:
        """The deck code of a complete canonical list."""
        return encode(canonical)

    @property
    def sheet_parts(self) -> SheetParts:
        return self.sheet()

    def render_sheet(self, registration: Registration, lang: str = ENGLISH) -> str:
        """The printable HTML registration sheet of one deck."""
        from varz_deck.core.registration.sheet import render_sheet

        return render_sheet(registration, self.sheet_parts, lang)

    def render_sheets(self, registrations: Sequence[Registration], lang: str = ENGLISH) -> str:
        """Every deck's sheet in one printable HTML document, a page each."""
        from varz_deck.core.registration.sheet import render_sheets

        return render_sheets(registrations, self.sheet_parts, lang)
