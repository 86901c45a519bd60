"""The organiser's views of an event's lists: the table, the CSV, the sheets, the metagame, the
public lists."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from varz_deck.server.models import Decklist, Event, Version
from varz_deck.server.services.carddata import database_for
from varz_deck.server.services.checking import check_deck, codes_of
from varz_deck.server.services.errors import NOT_PUBLISHED, NotFound
from varz_deck.server.services.times import check_date, iso_time, local_time

if TYPE_CHECKING:
    from varz_deck.core.registration.register import Registration


def current_versions(event: Event) -> list[tuple[Decklist, Version]]:
    """Every list of the event (not withdrawn) with its current version, in order of first
    submission."""
    lists = Decklist.objects.filter(
        event=event, current__isnull=False, withdrawn_at__isnull=True
    ).select_related("current")
    return [(d, d.current) for d in lists.order_by("id")]


# the stored diagnostics (the JSON field's value) stay unread here: codes_of narrows them
CurrentList = tuple[int, str, datetime.datetime, bool, str | None, object, str, int]


def current_lists(event: Event, *, withdrawn: bool | None = False) -> list[CurrentList]:
    """Every list of the event with a current version (not withdrawn; `withdrawn=True`: the
    withdrawn ones instead, None: both), in order of first submission, as plain values: (id,
    player, submitted_at, legal, deck_hash, diagnostics, lead, number of versions).

    Two queries and no model objects or deck texts: the organiser's list of 1,000 players (the API,
    the dashboard and the metagame all read it) is asked for often on the day, and building 2,000
    model instances took most of its time."""
    counts = Counter(
        Version.objects.filter(decklist__event=event).values_list("decklist_id", flat=True)
    )
    chosen = Decklist.objects.filter(event=event, current__isnull=False)
    if withdrawn is not None:
        chosen = chosen.filter(withdrawn_at__isnull=not withdrawn)
    lists = chosen.order_by("id").values_list(
        "id",
        "player",
        "current__submitted_at",
        "current__legal",
        "current__deck_hash",
        "current__diagnostics",
        "current__lead",
    )
    return [(*row, counts[row[0]]) for row in lists]


def changed_lists(event: Event) -> dict[int, tuple[datetime.datetime, bool | None]]:
    """List id -> (when its current verdict became other than the one given at submission,
    whether it was legal at submission), for the lists whose verdict changed."""
    rows = Decklist.objects.filter(event=event, current__changed_at__isnull=False).values_list(
        "id", "current__changed_at", "current__submitted_legal"
    )
    return {pk: (at, legal) for pk, at, legal in rows}


def withdrawn_times(event: Event) -> dict[int, datetime.datetime]:
    """The event's withdrawn lists: id -> when each was withdrawn."""
    rows = Decklist.objects.filter(event=event, withdrawn_at__isnull=False)
    return dict(rows.values_list("id", "withdrawn_at"))


def decklist_rows(event: Event) -> list[dict[str, object]]:
    """The organiser's table, withdrawn lists too: `[{"id", "player", "submitted_at", "legal",
    "deck_hash", "errors", "warnings", "versions", "lead", "changed_since_submitted",
    "withdrawn", "withdrawn_at"}]`."""
    changed = changed_lists(event)
    gone = withdrawn_times(event)
    every = current_lists(event, withdrawn=None)
    return [
        {
            "id": pk,
            "player": player,
            "submitted_at": iso_time(event, submitted_at),
            "legal": legal,
            "deck_hash": deck_hash,
            "errors": codes_of(found),
            "warnings": codes_of(found, errors=False),
            "versions": versions,
            "lead": lead,
            "changed_since_submitted": pk in changed,
            "withdrawn": pk in gone,
            "withdrawn_at": iso_time(event, gone.get(pk)),
        }
        for pk, player, submitted_at, legal, deck_hash, found, lead, versions in every
    ]


@lru_cache(maxsize=4096)
def _registration(version_id: int, game: str, format_key: str, event_name: str) -> Registration:
    version = Version.objects.select_related("decklist__event").get(pk=version_id)
    return check_deck(version.decklist.event, version.deck, version.decklist.player).registration


REPORT_GAMES = 20_000  # `varz-deck report`'s default, so a page and the command agree
REPORT_SEED = 1


def figures_page(decklist: Decklist, lang: str) -> str:
    """`varz-deck report`'s page of the list's current version, as of its event's date, with
    the command's games and seed (the same figures). Computed once per version and language in
    each process: a version never changes once stored."""
    version = decklist.current
    event = decklist.event
    return _figures(version.pk, event.game, check_date(event).isoformat(), lang)


@lru_cache(maxsize=512)
def _figures(version_id: int, game: str, date: str, lang: str) -> str:
    from varz_deck.core.analysis.analyse import analyse
    from varz_deck.core.analysis.glossary import entries
    from varz_deck.core.analysis.htmlreport import render
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import get_game

    version = Version.objects.select_related("decklist").get(pk=version_id)
    database = database_for(game)
    the_game = get_game(database.game)
    source = DeckSource(f"list {version.decklist_id}", version.deck)
    analysis = analyse(
        the_game,
        source,
        database,
        date=datetime.date.fromisoformat(date),
        seed=REPORT_SEED,
        games=REPORT_GAMES,
    )
    return render(analysis, entries(the_game), lang)


def registrations(
    event: Event, lists: list[tuple[Decklist, Version]] | None = None
) -> list[Registration]:
    """Each player's current list registered as `register` does (cached per version)."""
    out = []
    date = check_date(event).isoformat()
    for decklist, version in current_versions(event) if lists is None else lists:
        reg = _registration(version.pk, event.game, event.format, event.name)
        out.append(
            replace(reg, path=str(decklist.pk), player=decklist.player, event=event.name, date=date)
        )
    return out


TIME_COLUMNS = ("submitted_at", "changed_at")


def export_csv(event: Event) -> str:
    """`register --output csv` of every current list: one row per player, formula-safe cells;
    the path column holds the decklist id. Then the list's first submission and its current
    version's time (`TIME_COLUMNS`), ISO 8601 to the second with the event's offset then."""
    import csv
    import io

    from varz_deck.core.registration.render import render_csv
    from varz_deck.games import get_game

    layout = get_game(database_for(event.game).game).registrar.layout
    lists = current_versions(event)
    rows = csv.reader(io.StringIO(render_csv(registrations(event, lists), layout)))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*next(rows), *TIME_COLUMNS])
    for row, (decklist, version) in zip(rows, lists, strict=True):
        times = (decklist.created_at, version.submitted_at)
        writer.writerow([*row, *(local_time(event, t).isoformat("T", "seconds") for t in times)])
    return buffer.getvalue()


def sheets_document(event: Event, lang: str = "en") -> str:
    """Every player's `register` sheet in one printable HTML document, a page each, with the QR
    code of its deck code (a judge's phone scans it into the judge's page)."""
    from varz_deck.core.registration.sheet import render_sheets
    from varz_deck.games import get_game
    from varz_deck.server.qr import qr_svg

    registrar = get_game(database_for(event.game).game).registrar
    parts = replace(registrar.sheet_parts, qr=partial(qr_svg, lang=lang))
    return render_sheets(registrations(event), parts, lang)


@dataclass(frozen=True)
class MetagameRow:
    lead: str  # the lead card's name; "" when the list names none
    lists: int
    legal: int
    share: float  # of every list, 0..1


def metagame(event: Event) -> list[MetagameRow]:
    """How many lists play each lead card, most played first, then by name."""
    return metagame_of([(row[6], row[3]) for row in current_lists(event)])


def metagame_of(rows: Sequence[tuple[str, bool]]) -> list[MetagameRow]:
    """The metagame of (lead, legal) pairs, one per list."""
    total = len(rows)
    by_lead = Counter(lead for lead, _ in rows)
    legal = Counter(lead for lead, ok in rows if ok)
    return [
        MetagameRow(lead, n, legal[lead], n / total if total else 0.0)
        for lead, n in sorted(by_lead.items(), key=lambda item: (-item[1], item[0]))
    ]


def public_lists(event: Event) -> list[dict[str, object]]:
    """Every player's canonical list, once published (NotFound before)."""
    if not event.published:
        raise NotFound(NOT_PUBLISHED)
    from varz_deck.core.registration.render import canonical_json

    return [
        {
            "id": int(reg.path),
            "player": reg.player,
            "legal": reg.legal,
            "deck_hash": reg.deck_hash,
            "cards": canonical_json(reg.canonical) if reg.canonical else None,
        }
        for reg in registrations(event)
    ]
