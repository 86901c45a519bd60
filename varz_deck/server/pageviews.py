"""Read-only queries the pages need fast: the organiser's table of every list in two queries.

The dashboard of an event with 1,000 lists must render in a few hundred milliseconds: no model
objects, no deck texts, one query for the rows and one for the version counts (never a query per
row). Writes never happen here; they all go through service.py.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from varz_deck.server.models import Decklist, Event, Version


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
    counts = dict(
        Version.objects.filter(decklist__event=event)
        .values_list("decklist_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("decklist_id", "n")
    )
    found = (
        Decklist.objects.filter(event=event, current__isnull=False)
        .order_by("id")
        .values_list(
            "id",
            "player",
            "current__submitted_at",
            "current__legal",
            "current__deck_hash",
            "current__lead",
            "current__diagnostics",
        )
    )
    return [
        Row(
            number,
            player,
            when,
            legal,
            deck_hash,
            lead or "",
            _errors(diagnostics),
            counts.get(number, 1),
        )
        for number, player, when, legal, deck_hash, lead, diagnostics in found
    ]


def _errors(diagnostics: Any) -> tuple[str, ...]:
    """The error codes of a version's stored diagnostics, each once, in order."""
    if not isinstance(diagnostics, list):
        return ()
    return tuple(
        dict.fromkeys(
            str(d.get("code", ""))
            for d in diagnostics
            if isinstance(d, dict) and d.get("severity") == "error"
        )
    )


@dataclass(frozen=True, slots=True)
class Lead:
    """One hero (leader) of the metagame: how many lists play it, how many of them are legal."""

    name: str
    lists: int
    legal: int
    share: float  # of every list, 0..1


def metagame(rows: list[Row]) -> list[Lead]:
    """The metagame from the dashboard's rows (no second query): most played first, then name."""
    total = len(rows)
    played = Counter(r.lead for r in rows)
    legal = Counter(r.lead for r in rows if r.legal)
    return [
        Lead(name, n, legal[name], n / total if total else 0.0)
        for name, n in sorted(played.items(), key=lambda item: (-item[1], item[0]))
    ]
