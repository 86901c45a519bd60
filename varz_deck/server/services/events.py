"""Events: creating and finding them, the organiser's sign-in, whether they take lists."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils import timezone

from varz_deck.server import tokens
from varz_deck.server.models import Decklist, Event
from varz_deck.server.services.errors import (
    DEADLINE_PASSED,
    LOCKED,
    NO_EVENT,
    NO_TOKEN,
    WRONG_TOKEN,
    Closed,
    Forbidden,
    NotFound,
    Unauthorized,
)
from varz_deck.server.services.paths import submit_path
from varz_deck.server.services.store import one_or_none, writing
from varz_deck.server.services.times import check_date, day_in, iso_time

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

NAME_LIMIT = 200  # characters of an event's name
SESSION_KEY = "varzdeck_organiser"  # the session's list of event keys it is signed in for


def create_event(
    name: str,
    *,
    game: str,
    format: str = "",
    deadline: datetime.datetime | None = None,
    requires_lists: bool = True,
    date: datetime.date | None = None,
    tz: str = "UTC",
) -> tuple[Event, str]:
    """A new event and its organiser token (shown once: only its hash is kept). Its date
    defaults to the deadline's date in its zone, else today there."""
    token = tokens.new_token()
    if date is None:
        date = day_in(tz, deadline)
    with writing():
        event = Event.objects.create(
            key=_free_key(),
            name=" ".join(name.split())[:NAME_LIMIT],
            game=game,
            format=format,
            deadline=deadline,
            date=date,
            timezone=tz,
            requires_lists=requires_lists,
            organiser_token_hash=tokens.token_hash(token),
        )
    return event, token


def _free_key() -> str:
    while True:
        key = tokens.new_event_key()
        if not Event.objects.filter(key=key).exists():
            return key


def list_events() -> list[Event]:
    return list(Event.objects.order_by("id"))


def decklist_counts() -> dict[int, int]:
    """Event primary key -> how many lists it has."""
    from django.db.models import Count

    lists = Decklist.objects.filter(withdrawn_at__isnull=True)
    rows = lists.values("event_id").annotate(n=Count("id")).order_by()
    return {row["event_id"]: row["n"] for row in rows}


def get_event(key: str) -> Event:
    """The event with this public id; NotFound otherwise."""
    key = str(key)
    if not (0 < len(key) <= 32 and key.isascii() and key.isalnum()):
        raise NotFound(NO_EVENT)  # never sent to the database (PostgreSQL refuses a NUL)
    found = one_or_none(Event.objects.filter(key=key))
    if found is None:
        raise NotFound(NO_EVENT)
    return found


_RECENT: dict[str | int, tuple[float, Event]] = {}  # by key and by id
RECENT_SECONDS = 1.0


def recent_event(key: str) -> Event:
    """The event as this process read it at most a second ago, if it was open then; NotFound as
    `get_event`. For the live check and a submission's or a replacement's first look only: an
    event's game, format, deadline and organiser token never change, and `submit` and
    `replace_deck` check the lock and the deadline again as they write (a closed event is read
    again: it may have been unlocked since)."""
    return _recent(key, lambda: get_event(key))


def recent_event_by_id(pk: int) -> Event:
    """`recent_event` by the event's database id (a list's `event_id`)."""
    return _recent(pk, lambda: Event.objects.get(pk=pk))


def _recent(key: str | int, read: Callable[[], Event]) -> Event:
    now = time.monotonic()
    seen = _RECENT.get(key)
    if seen is not None and now - seen[0] < RECENT_SECONDS and closed_reason(seen[1]) is None:
        return seen[1]
    event = read()
    if len(_RECENT) >= 1024:
        _RECENT.clear()
    _RECENT[key] = (now, event)
    return event


def organiser_event(key: str, token: str | None) -> Event:
    """The event, when the token is its organiser token: 404 unknown event, 401 no token, 403 a
    token of another event (or none at all)."""
    event = get_event(key)
    if not token:
        raise Unauthorized(NO_TOKEN)
    if not tokens.matches(token, event.organiser_token_hash):
        raise Forbidden(WRONG_TOKEN)
    return event


def event_for_token(token: str) -> Event | None:
    """The event whose organiser token this is (`/o/TOKEN`), or None."""
    if not token or len(token) > 200:
        return None
    found = one_or_none(Event.objects.filter(organiser_token_hash=tokens.token_hash(token)))
    if found is None or not tokens.matches(token, found.organiser_token_hash):
        return None
    return found


def sign_in(session: SessionBase, event: Event) -> None:
    """Remember in a browser session that it is the organiser of this event."""
    keys = list(session.get(SESSION_KEY, []))
    if event.key not in keys:
        keys.append(event.key)
    session.cycle_key()  # a new session id at sign-in: no fixation
    session[SESSION_KEY] = keys


def signed_in(session: SessionBase, event: Event) -> bool:
    """Whether a browser session signed in as this event's organiser."""
    return event.key in session.get(SESSION_KEY, [])


def closed_reason(event: Event, now: datetime.datetime | None = None) -> str | None:
    """Why players cannot submit now ("locked", "deadline_passed"), or None while open."""
    if event.locked:
        return "locked"
    if event.deadline is not None and (now or timezone.now()) >= event.deadline:
        return "deadline_passed"
    return None


def ensure_open(event: Event) -> None:
    """Closed (409) when players can no longer submit or replace lists."""
    reason = closed_reason(event)
    if reason == "locked":
        raise Closed(LOCKED, "locked")
    if reason == "deadline_passed":
        raise Closed(DEADLINE_PASSED, "deadline_passed")


def event_state(event: Event) -> dict[str, object]:
    """The event as the API shows it (anyone may see this)."""
    return {
        "event": event.key,
        "name": event.name,
        "game": event.game,
        "format": event.format or None,
        "deadline": iso_time(event, event.deadline),
        "date": check_date(event).isoformat(),
        "timezone": event.timezone,
        "requires_lists": event.requires_lists,
        "locked": event.locked,
        "published": event.published,
        "open": closed_reason(event) is None,
        "submit_url": submit_path(event),
    }
