"""The export's times: each list's first submission and its last change, ISO 8601 with the event's
UTC offset at that moment (the page's export.csv and the API's are the same file)."""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Any

from inprocess_data import ILLEGAL, LEGAL

UTC = datetime.timezone.utc


def _post(client: Any, url: str, body: dict[str, Any], **headers: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def _at(decklist_id: int, first: datetime.datetime, last: datetime.datetime) -> None:
    """Set a list's first submission and its current version's time (the clock's, in tests)."""
    from varz_deck.server.models import Decklist, Version

    Decklist.objects.filter(pk=decklist_id).update(created_at=first)
    found = Decklist.objects.get(pk=decklist_id)
    Version.objects.filter(pk=found.current_id).update(submitted_at=last)


def _rows(answer: Any) -> list[dict[str, str]]:
    assert answer.status_code == 200, answer.content
    return list(csv.DictReader(io.StringIO(answer.content.decode("utf-8"))))


def test_the_export_gives_submission_and_last_change_in_the_events_zone(
    client, make_event, organiser_client
) -> None:
    event, token = make_event("Tokyo Times", tz="Asia/Tokyo")
    url = f"/api/v1/events/{event.key}/decklists"
    ann = _post(client, url, {"player": "Ann", "deck": LEGAL}).json()
    bob = _post(client, url, {"player": "Bob", "deck": ILLEGAL}).json()
    # 2027-01-15 00:30 UTC is 09:30 in Tokyo; 23:59:59 UTC the day before is 08:59:59
    _at(ann["id"], datetime.datetime(2027, 1, 15, 0, 30, tzinfo=UTC),
        datetime.datetime(2027, 1, 15, 1, 45, 7, 250000, tzinfo=UTC))  # fmt: skip
    _at(bob["id"], datetime.datetime(2027, 1, 14, 23, 59, 59, tzinfo=UTC),
        datetime.datetime(2027, 1, 14, 23, 59, 59, tzinfo=UTC))  # fmt: skip
    expected = [
        ("Ann", "2027-01-15T09:30:00+09:00", "2027-01-15T10:45:07+09:00"),
        ("Bob", "2027-01-15T08:59:59+09:00", "2027-01-15T08:59:59+09:00"),
    ]
    api = client.get(f"/api/v1/events/{event.key}/export.csv", HTTP_AUTHORIZATION=f"Bearer {token}")
    page = organiser_client(token).get(f"/events/{event.key}/export.csv")
    for answer in (api, page):
        rows = _rows(answer)
        assert [(r["player"], r["submitted_at"], r["changed_at"]) for r in rows] == expected
        assert list(rows[0])[-2:] == ["submitted_at", "changed_at"]
        assert rows[0]["legal"] == "true" and rows[1]["legal"] == "false"


def test_the_offset_is_the_one_of_each_moment_across_daylight_saving(client, make_event) -> None:
    event, token = make_event("New York Times", tz="America/New_York")
    url = f"/api/v1/events/{event.key}/decklists"
    one = _post(client, url, {"player": "Cy", "deck": LEGAL}).json()
    # 2027-03-14 is the day New York moves to summer time (07:00 UTC): 01:59 EST, then 04:30 EDT
    _at(one["id"], datetime.datetime(2027, 3, 14, 6, 59, tzinfo=UTC),
        datetime.datetime(2027, 3, 14, 8, 30, tzinfo=UTC))  # fmt: skip
    answer = client.get(
        f"/api/v1/events/{event.key}/export.csv", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    (row,) = _rows(answer)
    assert (row["submitted_at"], row["changed_at"]) == (
        "2027-03-14T01:59:00-05:00",
        "2027-03-14T04:30:00-04:00",
    )


def test_a_new_version_moves_the_last_change_only(client, make_event) -> None:
    event, token = make_event("Replaced Times", tz="UTC")
    url = f"/api/v1/events/{event.key}/decklists"
    first = _post(client, url, {"player": "Dee", "deck": ILLEGAL}).json()
    put = client.put(
        f"/api/v1/decklists/{first['id']}",
        json.dumps({"deck": LEGAL}),
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=first["edit_token"],
    )
    assert put.status_code == 200, put.content
    from varz_deck.server.models import Decklist, Version

    Decklist.objects.filter(pk=first["id"]).update(
        created_at=datetime.datetime(2027, 5, 1, 10, 0, tzinfo=UTC)
    )
    Version.objects.filter(decklist_id=first["id"], number=1).update(
        submitted_at=datetime.datetime(2027, 5, 1, 10, 0, tzinfo=UTC)
    )
    Version.objects.filter(decklist_id=first["id"], number=2).update(
        submitted_at=datetime.datetime(2027, 5, 1, 11, 5, tzinfo=UTC)
    )
    answer = client.get(
        f"/api/v1/events/{event.key}/export.csv", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    (row,) = _rows(answer)
    assert (row["submitted_at"], row["changed_at"]) == (
        "2027-05-01T10:00:00+00:00",
        "2027-05-01T11:05:00+00:00",
    )
