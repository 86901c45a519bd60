"""Checking a Tidewright deck: read it, look its references up, run the rules."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic

from tidewright.cards import GAME_KEY, WORDS, TideDatabase
from tidewright.deck import SECTIONS, SLOTS, TideDeck, TideView, read_deck, resolve
from tidewright.rules import run_rules

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource


def check_deck(
    source: DeckSource,
    database: TideDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Read and check one deck (a file's text, a buffer, standard input or a deck code)."""
    deck, problems = read_deck(source)
    return check_parsed(deck, problems, database, format_key, date)


def check_parsed(
    deck: TideDeck,
    problems: list[Diagnostic],
    database: TideDatabase,
    format_key: str | None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Check a deck already read (its reading problems given); the report keeps the view."""
    fmt = format_key or deck.format or "standard"
    day = on_date(date)
    if not deck.readable:
        return _report(deck, fmt, day, None, tuple(sorted(problems, key=Diagnostic.sort_key)))
    view, resolved = resolve(deck, database, format_key, day)
    found = sorted([*problems, *resolved, *run_rules(view)], key=Diagnostic.sort_key)
    return _report(deck, fmt, day, view, tuple(found))


def _report(
    deck: TideDeck,
    fmt: str,
    day: datetime.date,
    view: TideView | None,
    found: tuple[Diagnostic, ...],
) -> DeckReport:
    counts = {section: view.size(section) if view else 0 for section in SECTIONS}
    return DeckReport(
        deck.path,
        deck.name,
        fmt,
        view.captain if view is not None else None,
        counts,
        found,
        view,
        places=(*SLOTS, *SECTIONS),
        game=GAME_KEY,
        words=WORDS,
        date=day,
    )
