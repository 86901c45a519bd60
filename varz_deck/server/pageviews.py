"""The dashboard's rows, typed for the templates, from service.current_lists (two queries for
every list of the event, never a query per row)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from varz_deck.server import service
from varz_deck.server.models import Event


@dataclass(frozen=True, slots=True)
class Row:
    """One list on the dashboard: its current version's verdict, errors, hash, time, versions."""

    id: int
    player: str
    submitted_at: datetime.datetime
    legal: bool
    deck_hash: str | None
    lead: str
    errors: tuple[str, ...]
    versions: int


def dashboard_rows(event: Event) -> list[Row]:
    """Every list of the event with a current version, in order of first submission."""
    return [
        Row(pk, player, when, legal, deck_hash, lead or "", tuple(service.codes_of(found)), n)
        for pk, player, when, legal, deck_hash, found, lead, n in service.current_lists(event)
    ]
