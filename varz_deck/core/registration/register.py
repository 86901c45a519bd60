"""One registration per deck: the check's verdict, who and where, the hash and canonical list.

The game reads and checks the deck (its Registrar, varz_deck/core/game.py); `registration` puts
the record together the same way for every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.registration.canonical import CanonicalDeck, Layout, canonicalize, hashable

if TYPE_CHECKING:
    from varz_deck.core.decks.entries import Entry
    from varz_deck.core.messages.diagnostics import Diagnostic


@dataclass(frozen=True)
class Registration:
    """A deck as registered: player, event, the check report, the canonical list and its hash."""

    path: str
    player: str
    event: str
    report: DeckReport
    canonical: CanonicalDeck | None
    deck_hash: str | None
    is_code: bool = False
    seat: str = ""  # table / seat, for the sheet (`register --seat`)
    date: str = ""  # the day the list was checked as of, YYYY-MM-DD (its report's date)

    @property
    def legal(self) -> bool:
        return self.report.legal

    @property
    def error_codes(self) -> list[str]:
        return _unique(d.code for d in self.report.diagnostics if d.is_error)

    @property
    def warning_codes(self) -> list[str]:
        return _unique(d.code for d in self.report.diagnostics if not d.is_error)


@dataclass(frozen=True)
class ReadDeck:
    """What a game read from one deck file or code, in the terms every game shares."""

    path: str  # as shown
    readable: bool
    problems: Sequence[Diagnostic]  # the diagnostics of reading it (F001–F004, F009)
    format: str | None
    slots: Mapping[str, str | None]
    entries: Mapping[str, Sequence[Entry]]
    player: str | None = None
    event: str | None = None


def registration(
    layout: Layout,
    read: ReadDeck,
    report: DeckReport,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
    is_code: bool = False,
) -> Registration:
    """The registration of a deck the game has read and checked; options override the file."""
    canonical = None
    if hashable(read, read.problems):
        canonical = canonicalize(
            layout,
            database,
            format=read.format,
            slots=read.slots,
            entries=read.entries,
            format_key=format_key,
        )
    return Registration(
        path=read.path,
        player=clean(player if player is not None else read.player),
        event=clean(event if event is not None else read.event),
        report=report,
        canonical=canonical,
        deck_hash=canonical.hash() if canonical is not None else None,
        is_code=is_code,
        date=report.date.isoformat() if report.date is not None else "",
    )


def clean(value: str | None) -> str:
    """Text for a report or sheet: whitespace runs made one space, None made empty."""
    return " ".join(value.split()) if value else ""


def _unique(codes: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(codes))
