"""Checking a VARZ deck: resolve its references, run the VARZ rules, count its sections."""

from __future__ import annotations

import datetime

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.games.varz.cards import SECTIONS, WORDS
from varz_deck.games.varz.deck import Deck
from varz_deck.games.varz.resolve import DeckView, resolve
from varz_deck.games.varz.rules import run_rules

PLACES = ("hero", *SECTIONS)


def check_parsed(
    deck: Deck,
    problems: list[Diagnostic],
    database: CardDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Check a deck already read (from a file, a deck code, or a test) on a date (None: today)."""
    fmt = format_key or deck.format or "standard"
    day = on_date(date)
    if not deck.readable:
        return DeckReport(
            deck.path,
            deck.name,
            fmt,
            None,
            _counts(None),
            tuple(sorted(problems, key=Diagnostic.sort_key)),
            places=PLACES,
            game="varz",
            words=WORDS,
            date=day,
        )
    view, found = resolve(deck, database, format_key, day)
    diagnostics = [*problems, *found, *run_rules(view)]
    diagnostics.sort(key=Diagnostic.sort_key)
    return DeckReport(
        deck.path,
        deck.name,
        fmt,
        view.hero,
        _counts(view),
        tuple(diagnostics),
        view,
        places=PLACES,
        game="varz",
        words=WORDS,
        date=day,
    )


def _counts(view: DeckView | None) -> dict[str, int]:
    if view is None:
        return {"spells": 0, "skills": 0, "portals": 0, "shield_life": 0}
    counts = {section: view.size(section) for section in SECTIONS}
    counts["shield_life"] = view.shield_life()
    return counts
