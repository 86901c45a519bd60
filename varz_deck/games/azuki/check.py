"""Checking an Azuki deck: read it, look its references up, run the rules A101–A107."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource

from typing import Any

from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.games.azuki.cards import WORDS, AzukiDatabase
from varz_deck.games.azuki.deck import AzukiDeck, AzukiView, read_deck, resolve
from varz_deck.games.azuki.rules import run_rules

PLACES = ("leader", "gate", "main", "ikz")


def check_deck(
    source: DeckSource,
    database: AzukiDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Read and check one Azuki deck file."""
    deck, problems = read_deck(source)
    return check_parsed(deck, problems, database, format_key, date)


def check_parsed(
    deck: AzukiDeck,
    problems: list[Diagnostic],
    database: AzukiDatabase,
    format_key: str | None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Check a deck already read (its reading problems given); the report keeps the view."""
    fmt = format_key or deck.format or "standard"
    day = on_date(date)
    if not deck.readable:
        found = tuple(sorted(problems, key=Diagnostic.sort_key))
        return _report(deck, fmt, day, None, found)
    view, resolved = resolve(deck, database, format_key, day)
    diagnostics = sorted([*problems, *resolved, *run_rules(view)], key=Diagnostic.sort_key)
    return _report(deck, fmt, day, view, tuple(diagnostics))


def _report(
    deck: AzukiDeck,
    fmt: str,
    day: datetime.date,
    view: AzukiView | None,
    found: tuple[Diagnostic, ...],
) -> DeckReport:
    return DeckReport(
        deck.path,
        deck.name,
        fmt,
        view.leader if view is not None else None,
        counts(view),
        found,
        view,
        places=PLACES,
        game="azuki",
        words=WORDS,
        date=day,
    )


def counts(view: Any) -> dict[str, int]:
    """The deck's counts in `check --output json`: main deck and IKZ area sizes."""
    if view is None:
        return {"main": 0, "ikz": 0}
    return {"main": view.size("main"), "ikz": view.size("ikz")}
