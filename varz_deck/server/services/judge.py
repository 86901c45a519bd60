"""The judge's page: finding a list by hash, deck code or name, and comparing a presented list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.server.models import Decklist, Event, Version
from varz_deck.server.services.carddata import database_for
from varz_deck.server.services.checking import check_deck
from varz_deck.server.services.exports import current_versions

if TYPE_CHECKING:
    from varz_deck.core.registration.diff import DeckDiff
    from varz_deck.core.registration.register import Registration


def find_lists(event: Event, query: str) -> list[tuple[Decklist, Version]]:
    """The lists a judge means: a deck hash (any version's) or a deck code (a scanned sheet:
    the hash of the list it encodes), else players whose name contains the text
    (case-insensitive)."""
    from varz_deck.core.registration.canonical import normalize_hash

    wanted = normalize_hash(query.strip()) or _code_hash(event, query.strip())
    pairs = current_versions(event)
    if wanted is not None:
        ids = set(
            Version.objects.filter(decklist__event=event, deck_hash=wanted).values_list(
                "decklist_id", flat=True
            )
        )
        return [(d, v) for d, v in pairs if d.pk in ids]
    needle = " ".join(query.split()).casefold()
    return [(d, v) for d, v in pairs if needle and needle in d.player.casefold()]


def _code_hash(event: Event, word: str) -> str | None:
    """The deck hash of the list a deck code of the event's game encodes; None for any other
    text."""
    from varz_deck.games import get_game

    if not word or len(word) > 4096 or any(ch.isspace() for ch in word):
        return None
    if not get_game(database_for(event.game).game).registrar.is_code(word):
        return None
    return check_deck(event, word).deck_hash


def compare(
    event: Event, version: Version, presented: str
) -> tuple[DeckDiff | None, Registration, Registration]:
    """The registered list against a presented one, card by card (`diff`); None when either
    cannot be compared (unreadable: see the registrations' diagnostics)."""
    from varz_deck.core.registration.diff import diff_decks

    before = check_deck(event, version.deck, version.decklist.player).registration
    after = check_deck(event, presented).registration
    if before.canonical is None or after.canonical is None:
        return None, before, after
    return diff_decks(before.canonical, after.canonical), before, after
