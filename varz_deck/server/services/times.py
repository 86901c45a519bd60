"""Times: the database keeps UTC; the API gives them with the event's offset (`iso_time`), the pages
and `event list` as `shown_time` does."""

from __future__ import annotations

import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.utils import timezone

from varz_deck.server.models import Event

UTC = datetime.timezone.utc


@lru_cache(maxsize=256)
def zone(name: str) -> datetime.tzinfo:
    """The IANA zone of this name; UTC for a name this machine's tz data lacks (an event
    stored by a machine with other tz data: its times are still right, in UTC)."""
    try:
        return ZoneInfo(name)
    except Exception:  # ZoneInfoNotFoundError, or a name that is no zone's key
        return UTC


def local_time(event: Event, moment: datetime.datetime) -> datetime.datetime:
    """A stored time (UTC) in the event's zone."""
    return moment.astimezone(zone(event.timezone))


def iso_time(event: Event, moment: datetime.datetime | None) -> str | None:
    """ISO 8601 with the event's offset at that moment, as the API gives times."""
    return local_time(event, moment).isoformat() if moment is not None else None


def offset_text(moment: datetime.datetime) -> str:
    """`UTC+09:00`, `UTC-04:00`, `UTC+05:45`, `UTC+00:00`."""
    offset = moment.utcoffset() or datetime.timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


def shown_time(event: Event, moment: datetime.datetime) -> str:
    """A time as every page and `event list` show it, in the event's zone with its offset:
    `2027-01-15 09:30 (UTC+09:00, Asia/Tokyo)`."""
    here = local_time(event, moment)
    return f"{here:%Y-%m-%d %H:%M} ({offset_text(here)}, {event.timezone})"


def day_in(tz: str, moment: datetime.datetime | None = None) -> datetime.date:
    """The day it is (or `moment` is) in the zone `tz`: an event's today, not the server's."""
    return (moment or timezone.now()).astimezone(zone(tz)).date()


def check_date(event: Event) -> datetime.date:
    """The date a list of this event is checked as of (docs/guides/card-data.md: the formats' dated changes).
    The one place the event's date reaches the check (`check_deck`); an event stored without one
    is checked as of today in its own zone, as `create_event` dates a new one."""
    if isinstance(event.date, datetime.date):
        return event.date
    return day_in(event.timezone)
