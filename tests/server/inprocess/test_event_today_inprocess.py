"""An event's today is the day in its own zone (a Tokyo event at 08:00 is on its day already,
though it is still yesterday in UTC): one function, `times.day_in`, for a new event's date and
for an event stored without one."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

UTC = datetime.timezone.utc
LATE = datetime.datetime(2027, 1, 14, 23, 30, tzinfo=UTC)  # 08:30 on the 15th in Tokyo


def test_the_day_is_the_zones(django_db: Path) -> None:
    from varz_deck.server.services.times import day_in

    assert day_in("Asia/Tokyo", LATE) == datetime.date(2027, 1, 15)
    assert day_in("America/New_York", LATE) == datetime.date(2027, 1, 14)
    assert day_in("UTC", LATE) == datetime.date(2027, 1, 14)


def test_an_event_without_a_date_is_checked_as_of_today_in_its_zone(
    django_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    from varz_deck.server.models import Event
    from varz_deck.server.services import times

    monkeypatch.setattr(timezone, "now", lambda: LATE)
    event: Any = Event(key="tokyo", name="Tokyo", game="varz", timezone="Asia/Tokyo")
    event.date = None
    assert times.check_date(event) == datetime.date(2027, 1, 15)


def test_a_new_events_date_is_today_in_its_zone(
    django_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    from varz_deck.server import service

    monkeypatch.setattr(timezone, "now", lambda: LATE)
    event, _token = service.create_event("Tokyo Open", game="varz", tz="Asia/Tokyo")
    assert event.date == datetime.date(2027, 1, 15)
