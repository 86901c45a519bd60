"""The event's date and zone, and a verdict that changed since submission, in-process: the API,
the dashboard's flag and the player's page. Times are worked out here by hand."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

from inprocess_data import ILLEGAL, LEGAL, LEGAL_HASH

LEGAL_CODE = "VZ1AQAIVlowMS0wMDINtoKCgoGCgYGAAwMFMi0wMDmFgYQHAQMFMS0wNzGAsICAgJoFkYCOmITvJg"
UTC = datetime.timezone.utc


def test_a_tokyo_event_shows_its_times_with_their_offset(client, make_event) -> None:
    deadline = datetime.datetime(2031, 5, 6, 20, 30, tzinfo=UTC)  # 05:30 on the 7th in Tokyo
    event, token = make_event(deadline=deadline, tz="Asia/Tokyo")
    state = client.get(f"/api/v1/events/{event.key}").json()
    assert state["deadline"] == "2031-05-07T05:30:00+09:00"
    assert (state["date"], state["timezone"]) == ("2031-05-07", "Asia/Tokyo")
    page = client.get(f"/events/{event.key}/submit").content.decode()
    assert "deadline 2031-05-07 05:30 (UTC+09:00, Asia/Tokyo)" in page
    body = client.post(
        f"/api/v1/events/{event.key}/decklists",
        json.dumps({"player": "Aoi", "deck": LEGAL}),
        content_type="application/json",
    ).json()
    got = client.get(f"/api/v1/decklists/{body['id']}", HTTP_X_EDIT_TOKEN=body["edit_token"])
    assert got.json()["submitted_at"].endswith("+09:00")
    assert got.json()["versions"][0]["submitted_at"].endswith("+09:00")
    rows = client.get(
        f"/api/v1/events/{event.key}/decklists", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert (
        rows[0]["submitted_at"].endswith("+09:00") and rows[0]["changed_since_submitted"] is False
    )
    client.post(f"/api/v1/events/{event.key}/lock", HTTP_AUTHORIZATION=f"Bearer {token}")
    [entry] = client.get(
        f"/api/v1/events/{event.key}/audit", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert entry["at"].endswith("+09:00")


def test_create_event_date(service) -> None:
    deadline = datetime.datetime(2031, 5, 6, 20, 30, tzinfo=UTC)
    tokyo, _ = service.create_event("T", game="varz", deadline=deadline, tz="Asia/Tokyo")
    assert tokyo.date == datetime.date(2031, 5, 7) and tokyo.timezone == "Asia/Tokyo"
    utc, _ = service.create_event("U", game="varz", deadline=deadline)
    assert utc.date == datetime.date(2031, 5, 6) and utc.timezone == "UTC"
    given, _ = service.create_event("G", game="varz", date=datetime.date(2030, 1, 2))
    assert given.date == datetime.date(2030, 1, 2)
    today, _ = service.create_event("N", game="varz", tz="Pacific/Kiritimati")
    from django.utils import timezone

    assert today.date == timezone.now().astimezone(service.zone("Pacific/Kiritimati")).date()
    assert service.check_date(given) == datetime.date(2030, 1, 2)


def test_zone_falls_back_to_utc(service) -> None:
    assert service.zone("Asia/Tokyo").utcoffset(
        datetime.datetime(2027, 1, 1)
    ) == datetime.timedelta(hours=9)
    assert service.zone("Not/A_Zone") is datetime.timezone.utc
    assert service.zone("../etc") is datetime.timezone.utc


def test_verdict_fingerprint_follows_the_date(service, make_event) -> None:
    first, _ = make_event(date=datetime.date(2030, 1, 1))
    same, _ = make_event(date=datetime.date(2030, 1, 1))
    later, _ = make_event(date=datetime.date(2030, 1, 2))
    assert service.verdict_fingerprint(first) == service.verdict_fingerprint(same)
    assert service.verdict_fingerprint(first) != service.verdict_fingerprint(later)
    assert len(service.verdict_fingerprint(first)) == 64


def _stale(version: Any, **fields: Any) -> None:
    from varz_deck.server.models import Version

    Version.objects.filter(pk=version.pk).update(cards="old", **fields)


def test_a_list_that_became_illegal_is_flagged(
    client, service, make_event, organiser_client
) -> None:
    event, token = make_event()
    decklist, version, edit, _ = service.submit(event, "Ren", ILLEGAL)
    _stale(version, submitted_legal=True, submitted_errors=[])  # as if it was legal when sent
    before = datetime.datetime.now(UTC)
    assert service.recheck_current() == 1
    version.refresh_from_db()
    assert version.changed_at is not None and version.changed_at >= before - datetime.timedelta(
        seconds=1
    )
    got = client.get(f"/api/v1/decklists/{decklist.pk}", HTTP_X_EDIT_TOKEN=edit).json()
    assert got["changed_since_submitted"] is True
    assert got["changed_at"] == version.changed_at.isoformat()
    shown = service.shown_time(event, version.changed_at)
    page = client.get(f"/decklists/{decklist.pk}/{edit}").content.decode()
    assert f"Your list became illegal on {shown}: V103 V114 V113 V105." in page
    assert "The card data or the event&#x27;s date changed after you submitted it." in page
    dashboard = organiser_client(token).get(f"/events/{event.key}/dashboard").content.decode()
    assert f"became illegal on {shown}: V103 V114 V113 V105" in dashboard
    assert service.changed_lists(event) == {decklist.pk: (version.changed_at, True)}
    rows = client.get(
        f"/api/v1/events/{event.key}/decklists", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert rows[0]["changed_since_submitted"] is True
    first = version.changed_at
    _stale(version)
    assert service.recheck_current() == 1  # the same verdict again: the first change is kept
    version.refresh_from_db()
    assert version.changed_at == first


def test_a_list_that_became_legal_and_one_whose_errors_changed(
    client, service, make_event, organiser_client
) -> None:
    event, token = make_event()
    good, version, edit, _ = service.submit(event, "Aoi", LEGAL)
    _stale(version, submitted_legal=False, submitted_errors=["V103"])
    other, other_version, other_edit, _ = service.submit(event, "Ren", ILLEGAL)
    _stale(other_version, submitted_legal=False, submitted_errors=["V103"])
    assert service.recheck_current() == 2
    version.refresh_from_db()
    other_version.refresh_from_db()
    shown = service.shown_time(event, version.changed_at)
    page = client.get(f"/decklists/{good.pk}/{edit}").content.decode()
    assert f"Your list became legal on {shown}." in page
    other_page = client.get(f"/decklists/{other.pk}/{other_edit}").content.decode()
    changed = service.shown_time(event, other_version.changed_at)
    assert f"The errors of your list changed on {changed}: V103 V114 V113 V105." in other_page
    dashboard = organiser_client(token).get(f"/events/{event.key}/dashboard").content.decode()
    assert f"became legal on {shown}" in dashboard
    assert f"its errors changed on {changed}: V103 V114 V113 V105" in dashboard


def test_a_verdict_back_to_the_submitted_one_is_no_change(service, make_event) -> None:
    event, _ = make_event()
    _, version, _, _ = service.submit(event, "Ren", ILLEGAL)
    _stale(version, changed_at=datetime.datetime(2030, 1, 1, tzinfo=UTC), legal=True)
    assert service.recheck_current() == 1
    version.refresh_from_db()
    assert version.changed_at is None and version.legal is False


def test_changed_text(django_db) -> None:
    from types import SimpleNamespace

    from varz_deck.server.views.viewmodels import changed_text

    event = SimpleNamespace(timezone="UTC")
    at = datetime.datetime(2027, 1, 15, 9, 30, tzinfo=UTC)
    when = "2027-01-15 09:30 (UTC+00:00, UTC)"
    assert changed_text(event, None, False, ["V1"], True, "en") == ""
    assert (
        changed_text(event, at, False, ["V1", "V2"], True, "en")
        == f"became illegal on {when}: V1 V2"
    )
    assert changed_text(event, at, False, ["V1"], None, "en") == f"became illegal on {when}: V1"
    assert (
        changed_text(event, at, False, ["V1"], False, "en") == f"its errors changed on {when}: V1"
    )
    assert changed_text(event, at, True, [], False, "en") == f"became legal on {when}"
    why = "The card data or the event's date changed after you submitted it."
    assert changed_text(event, at, True, [], False, "en", player=True) == (
        f"Your list became legal on {when}. {why}"
    )
    assert changed_text(event, at, False, ["V1"], False, "ja", player=True) != (
        f"The errors of your list changed on {when}: V1. {why}"
    )


def test_the_judge_finds_a_list_by_its_deck_code(
    client, service, make_event, organiser_client
) -> None:
    event, token = make_event()
    decklist, _, _, _ = service.submit(event, "Aoi", LEGAL)
    service.submit(event, "Ren", ILLEGAL)
    assert [d.pk for d, _ in service.find_lists(event, f"  {LEGAL_CODE} ")] == [decklist.pk]
    assert service._code_hash(event, LEGAL_CODE) == LEGAL_HASH
    for word in ("", "x" * 4097, "VZ1 AQAI", "Aoi"):
        assert service._code_hash(event, word) is None
    html = (
        organiser_client(token)
        .get(f"/events/{event.key}/judge", {"hash": LEGAL_CODE})
        .content.decode()
    )
    assert "Shizuku Minase" in html and LEGAL_HASH in html
    assert "or deck hash or deck code" in html


def test_sheets_carry_the_qr_code_and_the_date(
    client, service, make_event, organiser_client
) -> None:
    event, token = make_event("QR Cup", date=datetime.date(2031, 2, 3))
    service.submit(event, "Aoi", LEGAL)
    html = organiser_client(token).get(f"/events/{event.key}/sheets").content.decode()
    assert "<svg" in html and "2031-02-03" in html
    [reg] = service.registrations(event)
    assert reg.date == "2031-02-03"
    assert re.search(r"QR Cup", html)


def test_the_changed_flag_in_japanese_and_the_forms_language(
    client, service, make_event, organiser_client
) -> None:
    from varz_deck.server.views.viewmodels import changed_text

    event, token = make_event()
    decklist, version, edit, _ = service.submit(event, "Ren", ILLEGAL)
    _stale(version, submitted_legal=True, submitted_errors=[])
    service.recheck_current()
    version.refresh_from_db()
    codes = ["V103", "V114", "V113", "V105"]
    flag = changed_text(event, version.changed_at, False, codes, True, "ja")
    assert flag != changed_text(event, version.changed_at, False, codes, True, "en")
    dashboard = organiser_client(token).get(f"/events/{event.key}/dashboard?lang=ja")
    assert flag in dashboard.content.decode()
    page = client.get(f"/decklists/{decklist.pk}/{edit}?lang=ja").content.decode()
    assert '<input type="hidden" name="lang" value="ja" id="lang">' in page
