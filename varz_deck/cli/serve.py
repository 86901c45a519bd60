"""`varz-deck serve` and `varz-deck event create/list`: the registration server (docs/guides/organiser.md), from
the `server` extra. Without it, both say the install line and exit 2.

Exit codes: 0; 2 a usage error, the extra missing, a database that cannot be opened or was written
by a newer varz-deck (refused, never read), or a card database that cannot be loaded.
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CardsOption,
    DatabaseOption,
    LangOption,
    TextOrJson,
    TextOrJsonOption,
    check_game_key,
    fail,
    language,
    load_database,
)
from varz_deck.core.messages.i18n import N_, Message, msg

SERVE_HELP = N_("Run the registration server: players submit decklists, organisers check them.")
EVENT_HELP = N_("Create and list the events of a registration server's database.")
CREATE_HELP = N_("Create an event; print its id, submission path and organiser token (once).")
LIST_HELP = N_("List the events of the database.")
_MISSING = msg(
    "cli",
    "the registration server needs Django, django-ninja, gunicorn and psycopg: "
    "in a clone of varz-deck, pip install '.[server]'",
)


def _server(lang: str) -> Any:
    """The server's start-up module; exit 2 with the install line without the extra."""
    try:
        if any(importlib.util.find_spec(name) is None for name in _STACK):
            raise ImportError("the server extra is not installed")
        from varz_deck.server import app
    except ImportError:  # no `server` extra
        fail(_MISSING, EXIT_USAGE, lang)
    return app


# imported only once Django is configured (django-ninja reads the settings on import)
_STACK = ("django", "ninja") + (("gunicorn",) if sys.platform != "win32" else ())


def _prepare(url: str | None, lang: str) -> tuple[Any, str]:
    """Configure and migrate the database; exit 2 saying why it cannot be used."""
    app = _server(lang)
    from varz_deck.server.config import database_url

    chosen = database_url(url)
    try:
        app.prepare(chosen)
    except app.StartError as err:
        fail(err.message, EXIT_USAGE, lang)
    return app, chosen


def serve(
    database: DatabaseOption = None,
    host: Annotated[
        str, typer.Option("--host", help=N_("Address to listen on (0.0.0.0: every network)."))
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help=N_("Port to listen on."))
    ] = 8000,
    cards: CardsOption = None,
    workers: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--workers",
            min=1,
            max=64,
            envvar="VARZ_DECK_WORKERS",
            help=N_(
                "Server processes (default: $VARZ_DECK_WORKERS, else one per core, at most 4)."
            ),
            show_default=False,
        ),
    ] = None,
    public_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--public-url",
            envvar="VARZ_DECK_PUBLIC_URL",
            help=N_(
                "The address players open, e.g. https://decks.example.org: every link is built "
                "from it, and a request for another host is refused (default: http://HOST:PORT)."
            ),
            show_default=False,
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Run the registration server: players submit decklists, organisers check them."""
    chosen = language(lang)
    if public_url is not None:
        _check_public_url(public_url, chosen)
    app, url = _prepare(database, chosen)
    if cards is None and os.environ.get("VARZ_DECK_CARDS"):
        cards = Path(os.environ["VARZ_DECK_CARDS"])
    try:
        processes = workers or app.default_workers()
        app.run(url, host, port, cards, chosen, processes, public_url=public_url)
    except app.StartError as err:  # the port is taken, the card database cannot be loaded
        fail(err.message, EXIT_USAGE, chosen)
    raise typer.Exit(EXIT_OK)


_BAD_PUBLIC_URL = msg(
    "serve",
    "--public-url {url} is not the address of a server's root; write it like {example} "
    "(http or https, a host, an optional port, no path)",
)


def _check_public_url(url: str, lang: str) -> None:
    """Exit 2 for a --public-url that is not http(s)://HOST[:PORT][/]."""
    if importlib.util.find_spec("django") is None:
        return  # `_prepare` says the install line
    from varz_deck.core.messages.sanitize import quoted
    from varz_deck.server.hosts import EXAMPLE, public_url_problem

    if public_url_problem(url) is not None:
        _usage(_BAD_PUBLIC_URL(url=quoted(url), example=EXAMPLE), lang)


_PAST = msg(
    "serve",
    "--deadline {deadline} has passed already (it is {now} now); give a later deadline",
)
_UNKNOWN_ZONE = msg(
    "serve",
    "--timezone {zone} is not a time zone this machine knows; give an IANA name such as "
    "Asia/Tokyo, Europe/Paris or UTC",
)
_BAD_DATE = msg("serve", "--date {date} is not a day; write it as YYYY-MM-DD, e.g. 2027-01-15")
_NOT_A_TIME = msg(
    "serve",
    "--deadline {deadline} is not an ISO 8601 date and time; write it like {example}",
)
_OUT_OF_RANGE = msg(
    "serve",
    "--deadline {deadline} is out of range: in UTC it must fall between the years 1 and 9999",
)
_NOT_UTF8_NAME = msg(
    "serve", "the event name {name} is not UTF-8 text; write it in UTF-8 (shown escaped)"
)
_UNKNOWN_FORMAT = msg("serve", "unknown format {format} for {game}; known: {known}")
_EXAMPLE = "2026-05-17T10:00:00+09:00"


def parse_deadline(text: str, lang: str, zone: datetime.tzinfo | None = None) -> datetime.datetime:
    """An ISO 8601 date and time with its UTC offset (`Z` too), or without one: then in the
    event's zone (UTC when none is given); exit 2 otherwise, and for a time already past."""
    given = text.strip()
    if given.endswith(("Z", "z")):
        given = given[:-1] + "+00:00"
    try:
        when = datetime.datetime.fromisoformat(given)
    except ValueError:
        _usage(_NOT_A_TIME(deadline=repr(text), example=_EXAMPLE), lang)
    if "T" not in given.upper() and " " not in given:
        _usage(_NOT_A_TIME(deadline=repr(text), example=_EXAMPLE), lang)
    if when.tzinfo is None or when.utcoffset() is None:
        when = when.replace(tzinfo=zone or datetime.timezone.utc)
    try:
        in_utc = when.astimezone(datetime.timezone.utc)  # the database keeps it in UTC
        when.astimezone(zone or datetime.timezone.utc)
    except OverflowError:
        _usage(_OUT_OF_RANGE(deadline=repr(text)), lang)
    now = datetime.datetime.now(datetime.timezone.utc)
    if in_utc <= now:
        shown = now.astimezone(zone or datetime.timezone.utc).isoformat(timespec="minutes")
        _usage(_PAST(deadline=repr(text), now=shown), lang)
    return when


def machine_zone() -> str:
    """The machine's IANA zone: $TZ when it names one (`:Area/City` too), else the zone
    /etc/localtime links to, else UTC (a POSIX rule such as `JST-9` names no zone: skipped)."""
    candidates = []
    tz = os.environ.get("TZ", "").strip().removeprefix(":")
    if tz:
        candidates.append(tz)
    try:
        target = os.path.realpath("/etc/localtime")
    except OSError:  # pragma: no cover - realpath does not raise on POSIX
        target = ""
    if "zoneinfo/" in target:
        candidates.append(target.split("zoneinfo/", 1)[1])
    return next((name for name in candidates if _zone(name) is not None), "UTC")


def _zone(name: str) -> datetime.tzinfo | None:
    """The IANA zone of this name, or None (no such zone, or not a zone's name at all)."""
    from zoneinfo import ZoneInfo

    if not name or len(name) > 64 or name.startswith(("/", ".")) or ".." in name:
        return None
    try:
        return ZoneInfo(name)
    except Exception:  # ZoneInfoNotFoundError, ValueError for a path, IsADirectoryError
        return None


def parse_date(text: str, lang: str) -> datetime.date:
    """YYYY-MM-DD; exit 2 otherwise."""
    given = text.strip()
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", given):  # not 20300115, 2030-W03-2
            raise ValueError(given)
        return datetime.date.fromisoformat(given)
    except ValueError:
        _usage(_BAD_DATE(date=repr(text)), lang)


def _usage(message: Message, lang: str) -> NoReturn:
    fail(message, EXIT_USAGE, lang)


def event_create(
    name: Annotated[str, typer.Argument(help=N_("The event's name."), show_default=False)],
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--format",
            "-f",
            help=N_("Check every list under this format (default: each deck's own)."),
            metavar="NAME",
        ),
    ] = None,
    game: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--game", help=N_("The game of the event, by its key (default: the default game).")
        ),
    ] = None,
    deadline: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--deadline",
            help=N_(
                "When submissions close, ISO 8601, e.g. 2026-05-17T10:00:00+09:00 (without an "
                "offset: in the event's time zone); it must be still to come."
            ),
            show_default=False,
        ),
    ] = None,
    date: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--date",
            help=N_(
                "The day the event is played, YYYY-MM-DD: the formats' dated changes apply as "
                "of it (default: the deadline's date, else today, in the event's zone)."
            ),
            show_default=False,
        ),
    ] = None,
    tz: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--timezone",
            help=N_(
                "The event's time zone, an IANA name such as Asia/Tokyo: every time is shown "
                "in it, and a deadline without an offset is read in it (default: the machine's "
                "zone: $TZ, else /etc/localtime, else UTC)."
            ),
            metavar="AREA/CITY",
            show_default=False,
        ),
    ] = None,
    accept_only: Annotated[
        bool,
        typer.Option(
            "--accept-only",
            help=N_("Accept lists without requiring them (default: every player must submit)."),
        ),
    ] = False,
    database: DatabaseOption = None,
    output: TextOrJsonOption = TextOrJson.text,
    lang: LangOption = None,
) -> None:
    """Create an event; print its id, submission path and organiser token (once)."""
    from varz_deck.core.messages.sanitize import json_dumps, quoted, safe
    from varz_deck.games import default_game

    chosen = language(lang)
    check_game_key(game, chosen)
    key = game or default_game()
    if not " ".join(name.split()):
        _usage(msg("serve", "the event needs a name"), chosen)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # a byte of another encoding, kept by argv's surrogateescape
        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        _usage(_NOT_UTF8_NAME(name=quoted(shown)), chosen)
    zone_name = machine_zone() if tz is None else tz.strip()
    zone = _zone(zone_name)
    if zone is None:
        _usage(_UNKNOWN_ZONE(zone=repr(tz)), chosen)
    day = parse_date(date, chosen) if date is not None else None
    when = parse_deadline(deadline, chosen, zone) if deadline is not None else None
    format_key = _known_format(format, key, chosen) if format is not None else ""
    _prepare(database, chosen)
    from varz_deck.server import service

    event, token = service.create_event(
        name,
        game=key,
        format=format_key,
        deadline=when,
        requires_lists=not accept_only,
        date=day,
        tz=zone_name,
    )
    if output is TextOrJson.json:
        document = {
            **service.event_state(event),  # the API's view of the event, then the secret
            "organiser_url": service.organiser_path(token),
            "organiser_token": token,
        }
        sys.stdout.write(json_dumps(document) + "\n")
        raise typer.Exit(EXIT_OK)
    lines = [
        msg("serve", "event {event} created: {name}")(event=event.key, name=event.name),
        msg("serve", "players submit at {path}")(path=service.submit_path(event)),
        msg("serve", "organiser sign-in: {path} (token {token}; shown only this once)")(
            path=service.organiser_path(token), token=token
        ),
    ]
    sys.stdout.write("".join(safe(line.render(chosen)) + "\n" for line in lines))
    raise typer.Exit(EXIT_OK)


def _known_format(name: str, game: str, lang: str) -> str:
    """The format as the game's database spells it (the one `serve` uses for the game without
    --cards); exit 2 for one it does not know."""
    from varz_deck.core.cards.model import normalize

    formats = sorted(load_database(None, lang, game, progress=False).formats)
    found = next((k for k in formats if normalize(k) == normalize(name)), None)
    if found is None:
        known = ", ".join(formats)
        _usage(_UNKNOWN_FORMAT(format=repr(name), game=game, known=known), lang)
    return found


_COLUMNS = (
    msg("serve", "id"),
    msg("serve", "name"),
    msg("serve", "game"),
    msg("serve", "format"),
    msg("serve", "date"),
    msg("serve", "deadline"),
    msg("serve", "lists"),
    msg("serve", "state"),
)
_STATES = {
    "open": msg("serve", "open"),
    "locked": msg("serve", "locked"),
    "deadline_passed": msg("serve", "deadline passed"),
    "published": msg("serve", "published"),
}


def event_list(
    database: DatabaseOption = None,
    output: TextOrJsonOption = TextOrJson.text,
    lang: LangOption = None,
) -> None:
    """List the events of the database."""
    from varz_deck.core.messages.sanitize import json_dumps, safe

    chosen = language(lang)
    _prepare(database, chosen)
    from varz_deck.server import service

    events = service.list_events()
    counts = service.decklist_counts()
    if output is TextOrJson.json:
        rows = [{**service.event_state(e), "decklists": counts.get(e.pk, 0)} for e in events]
        sys.stdout.write(json_dumps({"events": rows}) + "\n")
        raise typer.Exit(EXIT_OK)
    if not events:
        sys.stdout.write(msg("serve", "no events yet").render(chosen) + "\n")
        raise typer.Exit(EXIT_OK)
    table = [[column.render(chosen) for column in _COLUMNS]]
    for event in events:
        state = _STATES[service.closed_reason(event) or "open"].render(chosen)
        if event.published:
            state += ", " + _STATES["published"].render(chosen)
        deadline = service.shown_time(event, event.deadline) if event.deadline else "-"
        cells = [
            event.key, safe(" ".join(event.name.split())), event.game, event.format or "-",
            service.check_date(event).isoformat(), deadline, str(counts.get(event.pk, 0)), state,
        ]  # fmt: skip
        table.append(cells)
    widths = [max(_width(row[i]) for row in table) for i in range(len(_COLUMNS))]
    lines = (
        "  ".join(cell + " " * (widths[i] - _width(cell)) for i, cell in enumerate(row)).rstrip()
        for row in table
    )
    sys.stdout.write("".join(line + "\n" for line in lines))
    raise typer.Exit(EXIT_OK)


def _width(text: str) -> int:
    """Columns the text takes in a terminal: wide (CJK) characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
