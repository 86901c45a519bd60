"""The card databases the events' lists are checked against, and what a verdict depends on."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.server.models import Event
from varz_deck.server.services.times import check_date

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.game import Game
    from varz_deck.games.library import CardLibrary


_LIBRARY: CardLibrary | None = None
_DATABASES: dict[str, CardDatabase] = {}
_LOCK = threading.Lock()


def _library(cards: Path | None) -> CardLibrary:
    from varz_deck.games import open_database
    from varz_deck.games.library import CardLibrary

    return CardLibrary(open_database, cards)


def use_library(cards: Path | None) -> None:
    """Open the card database folder `cards` names (none: the bundled databases) for the events
    of its game, forgetting the databases and fingerprints loaded before."""
    global _LIBRARY
    library = _library(cards)
    if cards is not None:
        library.open(cards)
    _LIBRARY = library
    _DATABASES.clear()
    _FINGERPRINTS.clear()


def database_for(game: str) -> CardDatabase:
    """The card database of a game (loaded once per process). DatabaseError when invalid."""
    global _LIBRARY
    found = _DATABASES.get(game)
    if found is not None:
        return found
    with _LOCK:
        if game not in _DATABASES:
            library = _LIBRARY = _LIBRARY or _library(None)
            named = library.open(library.cards) if library.cards is not None else None
            _DATABASES[game] = (
                named if named is not None and named.game == game else library.bundled(game)
            )
        return _DATABASES[game]


_FINGERPRINTS: dict[str, str] = {}


def cards_fingerprint(game: str) -> str:
    """What a verdict of this game depends on besides the deck: varz-deck's version and the card
    database's cards (every printing, in order, without its file and line) and formats
    (`CardDatabase.fingerprint`: read from the card index, not from every card)."""
    found = _FINGERPRINTS.get(game)
    if found is None:
        found = _FINGERPRINTS[game] = database_for(game).fingerprint()
    return found


def verdict_fingerprint(event: Event) -> str:
    """What a verdict of a list of this event depends on besides the deck: the card data (and
    varz-deck, `cards_fingerprint`) and the event's date (the formats' dated changes)."""
    import hashlib

    text = f"{cards_fingerprint(event.game)} {check_date(event).isoformat()}"
    return hashlib.sha256(text.encode()).hexdigest()


def game_of(event: Event) -> Game:
    """The game an event is of (KeyError for one this version lacks)."""
    from varz_deck.games import get_game

    return get_game(event.game)
