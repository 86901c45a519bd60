"""varz_deck.server.service in-process: its rules one by one (names, ids, tokens, the deadline,
the caches, storable text, the judge's look-up, the re-check), with values written out here."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from inprocess_data import EXAMPLES, ILLEGAL, ILLEGAL_HASH, LEGAL, LEGAL_HASH, ROOT

UTC = datetime.timezone.utc


def test_paths(service, make_event) -> None:
    event, _token = make_event()
    assert service.submit_path(event) == f"/events/{event.key}/submit"
    assert service.dashboard_path(event) == f"/events/{event.key}/dashboard"
    assert service.public_path(event) == f"/events/{event.key}/public"
    assert service.organiser_path("tok") == "/o/tok"
    decklist, _, edit, _ = service.submit(event, "Aoi", LEGAL)
    assert service.decklist_path(decklist, edit) == f"/decklists/{decklist.pk}/{edit}"


def test_errors_carry_status_and_code(service) -> None:
    assert (service.ServiceError.status, service.ServiceError.code) == (400, "bad_request")
    assert (service.NotFound.status, service.NotFound.code) == (404, "not_found")
    assert (service.Unauthorized.status, service.Unauthorized.code) == (401, "unauthorized")
    assert (service.Forbidden.status, service.Forbidden.code) == (403, "forbidden")
    assert (service.Closed.status, service.Closed.code) == (409, "closed")
    assert (service.Invalid.status, service.Invalid.code) == (422, "invalid")
    error = service.Closed(service.LOCKED, "locked")
    assert error.code == "locked" and str(error) == (
        "the organiser has locked this event; submissions are closed"
    )
    assert service.NotFound(service.NO_EVENT).code == "not_found"


def test_create_event_cleans_the_name(service) -> None:
    event, token = service.create_event(" A \n  B ", game="varz", format="standard")
    assert event.name == "A B" and event.format == "standard" and event.game == "varz"
    assert (event.locked, event.published, event.requires_lists) == (False, False, True)
    long, _ = service.create_event("x" * 250, game="varz", requires_lists=False)
    assert long.name == "x" * 200 and long.requires_lists is False
    assert event.key != long.key and event.key.isalnum()
    from varz_deck.server import tokens

    assert event.organiser_token_hash == tokens.token_hash(token) != token
    assert service.list_events()[-2:] == [event, long]


@pytest.mark.parametrize("key", ["", "a" * 33, "ab-c", "é", "a b", "a\x00"])
def test_get_event_refuses_malformed_keys(service, key) -> None:
    with pytest.raises(service.NotFound):
        service.get_event(key)


def test_get_event_accepts_32_characters(service, make_event) -> None:
    event, _ = make_event()
    assert service.get_event(event.key) == event
    from varz_deck.server.models import Event

    Event.objects.filter(pk=event.pk).update(key="K" * 32)
    assert service.get_event("K" * 32).pk == event.pk
    Event.objects.filter(pk=event.pk).update(key="k")
    assert service.get_event("k").pk == event.pk


def test_recent_event_caches_an_open_event_for_a_second(service, make_event, monkeypatch) -> None:
    event, _ = make_event()
    now = [1000.0]
    monkeypatch.setattr("varz_deck.server.services.events.time.monotonic", lambda: now[0])
    first = service.recent_event(event.key)
    from varz_deck.server.models import Event

    Event.objects.filter(pk=event.pk).update(name="Renamed")
    now[0] += 0.99
    assert service.recent_event(event.key) is first
    now[0] += 0.01  # a second later: read again
    assert service.recent_event(event.key).name == "Renamed"
    Event.objects.filter(pk=event.pk).update(locked=True)
    now[0] += 1.0
    locked = service.recent_event(event.key)
    assert locked.locked
    Event.objects.filter(pk=event.pk).update(locked=False)
    assert not service.recent_event(event.key).locked  # a closed event is always read again
    with pytest.raises(service.NotFound):
        service.recent_event("nosuch")


def test_recent_event_by_id_shares_the_cache(service, make_event, monkeypatch) -> None:
    event, _ = make_event()
    from varz_deck.server.models import Event
    from varz_deck.server.services.events import recent_event_by_id

    now = [1000.0]
    monkeypatch.setattr("varz_deck.server.services.events.time.monotonic", lambda: now[0])
    first = recent_event_by_id(event.pk)
    assert first.key == event.key
    Event.objects.filter(pk=event.pk).update(name="Renamed")
    now[0] += 0.99
    assert recent_event_by_id(event.pk) is first
    now[0] += 0.01
    assert recent_event_by_id(event.pk).name == "Renamed"
    Event.objects.filter(pk=event.pk).update(locked=True)
    now[0] += 1.0
    assert recent_event_by_id(event.pk).locked
    Event.objects.filter(pk=event.pk).update(locked=False)
    assert not recent_event_by_id(event.pk).locked  # a closed event is always read again
    other, _ = make_event()
    assert recent_event_by_id(other.pk).key == other.key  # each event its own copy


def _queries(run: Any) -> list[str]:
    """The SQL statements `run()` sends (transaction control left out)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        run()
    return [
        q["sql"].split()[0]
        for q in captured.captured_queries
        if not q["sql"].startswith(("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT"))
    ]


def test_a_replacement_makes_four_queries(service, make_event) -> None:
    """A player's: the list (its event from the process's copy), the list's and the event's rows
    locked with the current version's number, the version, the current pointer. The organiser's:
    the same without the event, and the audit entry."""
    event, token = make_event()
    decklist, _, edit, _ = service.submit(event, "Mio", LEGAL)
    from varz_deck.server.services.events import recent_event_by_id

    recent_event_by_id(event.pk)

    def player() -> None:
        found, _ = service.get_decklist(decklist.pk, edit_token=edit, current=False)
        service.replace_deck(found, ILLEGAL)

    def organiser() -> None:
        found, _ = service.get_decklist(decklist.pk, organiser_token=token, current=False)
        service.replace_deck(found, LEGAL, by_organiser=True)

    assert _queries(player) == ["SELECT", "SELECT", "INSERT", "UPDATE"]
    assert _queries(organiser) == ["SELECT", "SELECT", "INSERT", "UPDATE", "INSERT"]
    assert [v.number for v in service.versions(decklist)] == [1, 2, 3]
    found, _ = service.get_decklist(decklist.pk, edit_token=edit)
    assert _queries(lambda: (found.event.key, found.current.number)) == []


def test_a_submission_makes_four_queries(service, make_event) -> None:
    """The list, its first version, the current pointer, then the event's row locked and read
    again (its lock and deadline only)."""
    event, _ = make_event()
    assert _queries(lambda: service.submit(event, "Mio", LEGAL)) == [
        "INSERT",
        "INSERT",
        "UPDATE",
        "SELECT",
    ]


def test_the_organiser_replaces_a_players_list_after_the_lock(service, make_event) -> None:
    event, _ = make_event()
    service.submit(event, "Aoi", LEGAL, player_id="P1", by_organiser=True)
    service.set_locked(service.get_event(event.key), True)
    _, version, token, _ = service.submit(
        service.get_event(event.key), "Aoi", ILLEGAL, player_id="P1", by_organiser=True
    )
    assert (version.number, token) == (2, "")


def test_a_replacement_reads_the_event_again_as_it_writes(service, make_event) -> None:
    """The replacement's first look takes the event this process read last; a lock stored since
    refuses it all the same, and nothing is stored."""
    event, token = make_event()
    decklist, _, edit, _ = service.submit(event, "Mio", LEGAL)
    found, organiser = service.get_decklist(decklist.pk, edit_token=edit, current=False)
    assert (found, organiser, found.event.key) == (decklist, False, event.key)
    service.set_locked(service.get_event(event.key), True)
    found, _ = service.get_decklist(decklist.pk, edit_token=edit, current=False)
    assert not found.event.locked  # the process's copy, read before the lock
    with pytest.raises(service.Closed) as refused:
        service.replace_deck(found, ILLEGAL)
    assert refused.value.code == "locked"
    assert [v.number for v in service.versions(decklist)] == [1]
    found, organiser = service.get_decklist(decklist.pk, organiser_token=token, current=False)
    version, _ = service.replace_deck(found, ILLEGAL, by_organiser=organiser)
    assert (organiser, version.number) == (True, 2)


def test_a_replacement_of_a_list_gone_since_it_was_read(service, make_event) -> None:
    event, _ = make_event()
    decklist, _, edit, _ = service.submit(event, "Mio", LEGAL)
    found, _ = service.get_decklist(decklist.pk, edit_token=edit, current=False)
    from varz_deck.server.models import Decklist

    Decklist.objects.filter(pk=decklist.pk).delete()
    with pytest.raises(service.NotFound):
        service.replace_deck(found, ILLEGAL)


def test_one_or_none(service, make_event) -> None:
    from varz_deck.server.models import Event
    from varz_deck.server.services.store import one_or_none

    event, _ = make_event()
    assert one_or_none(Event.objects.filter(pk=event.pk)) == event
    assert one_or_none(Event.objects.filter(pk=-1)) is None


def test_recent_event_forgets_when_full(service, make_event, monkeypatch) -> None:
    event, _ = make_event()
    from varz_deck.server.services import events

    monkeypatch.setattr(events, "_RECENT", {f"k{i}": (0.0, None) for i in range(1023)})
    service.recent_event(event.key)
    assert len(events._RECENT) == 1024
    other, _ = make_event()
    service.recent_event(other.key)
    assert set(events._RECENT) == {other.key}


def test_organiser_event(service, make_event) -> None:
    event, token = make_event()
    assert service.organiser_event(event.key, token) == event
    with pytest.raises(service.Unauthorized):
        service.organiser_event(event.key, None)
    with pytest.raises(service.Unauthorized):
        service.organiser_event(event.key, "")
    with pytest.raises(service.Forbidden):
        service.organiser_event(event.key, token + "x")
    with pytest.raises(service.NotFound):
        service.organiser_event("nosuch", token)


def test_event_for_token(service, make_event) -> None:
    event, token = make_event()
    assert service.event_for_token(token) == event
    assert service.event_for_token("") is None
    assert service.event_for_token("x" * 201) is None
    assert service.event_for_token(token[:-1]) is None


def test_sign_in_keeps_every_event(service, make_event) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    first, _ = make_event()
    second, _ = make_event()
    session = SessionStore()
    session.create()
    old = session.session_key
    service.sign_in(session, first)
    assert session.session_key != old
    service.sign_in(session, second)
    service.sign_in(session, first)
    assert session[service.SESSION_KEY] == [first.key, second.key]
    assert service.signed_in(session, first) and service.signed_in(session, second)
    assert not service.signed_in(SessionStore(), first)


def test_closed_reason_at_the_deadline(service, make_event) -> None:
    deadline = datetime.datetime(2030, 1, 1, 12, tzinfo=UTC)
    event, _ = make_event(deadline=deadline)
    tick = datetime.timedelta(microseconds=1)
    assert service.closed_reason(event, deadline - tick) is None
    assert service.closed_reason(event, deadline) == "deadline_passed"
    event.locked = True
    assert service.closed_reason(event, deadline - tick) == "locked"
    open_, _ = make_event()
    assert service.closed_reason(open_) is None
    service.ensure_open(open_)
    with pytest.raises(service.Closed) as locked:
        service.ensure_open(event)
    assert locked.value.code == "locked"
    past, _ = make_event(deadline=datetime.datetime(2000, 1, 1, tzinfo=UTC))
    with pytest.raises(service.Closed) as passed:
        service.ensure_open(past)
    assert passed.value.code == "deadline_passed"
    assert str(passed.value) == "the deadline has passed; submissions are closed"


def test_language(service) -> None:
    assert service.language(None) == "en" and service.language("") == "en"
    assert [service.language(x) for x in ("en", "ja", "zh")] == ["en", "ja", "zh"]
    with pytest.raises(service.Invalid) as refused:
        service.language("fr")
    assert str(refused.value) == "unknown language fr; choose en, ja or zh"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("plain", "plain"),
        ("a\x00b", "a\ufffdb"),
        ("x\ud800y", "x\ufffdy"),
        ("\x00\ud800", "\ufffd\ufffd"),
        ("日本\n", "日本\n"),
    ],
)
def test_storable(service, text, kept) -> None:
    assert service.storable(text) == kept


def test_clean_player(service) -> None:
    assert service.clean_player("  Aoi \t\n Tanaka ") == "Aoi Tanaka"
    assert service.clean_player("a\x00") == "a\ufffd"
    assert service.clean_player("x" * 200) == "x" * 200
    for bad, message in (
        (None, "the player's name is missing"),
        (" \n", "the player's name is missing"),
        ("x" * 201, "the player's name is over 200 characters"),
    ):
        with pytest.raises(service.Invalid) as refused:
            service.clean_player(bad)
        assert str(refused.value) == message


def test_submit_stores_the_first_version(service, make_event) -> None:
    event, _ = make_event(format="standard")
    decklist, version, token, checked = service.submit(event, " Mio ", ILLEGAL)
    assert decklist.player == "Mio" and decklist.current_id == version.pk
    assert (version.number, version.legal, version.deck_hash, version.by_organiser) == (
        1, False, ILLEGAL_HASH, False,
    )  # fmt: skip
    assert (version.lead, version.format, version.deck) == ("Hibiki Kagura", "standard", ILLEGAL)
    assert [d["code"] for d in version.diagnostics] == ["V103", "V114", "V113", "V105"]
    assert version.cards == service.verdict_fingerprint(event) and len(version.cards) == 64
    assert (version.submitted_legal, version.submitted_errors) == (
        False, ["V103", "V114", "V113", "V105"],
    )  # fmt: skip
    assert (checked.legal, checked.deck_hash, checked.lead) == (
        False,
        ILLEGAL_HASH,
        "Hibiki Kagura",
    )
    assert version.submitted_at is not None
    from varz_deck.server import tokens

    assert tokens.matches(token, decklist.edit_token_hash)
    stored = service.get_decklist(decklist.pk, edit_token=token)
    assert stored == (decklist, False)


def test_submit_after_the_deadline(service, make_event) -> None:
    event, _ = make_event(deadline=datetime.datetime(2000, 1, 1, tzinfo=UTC))
    with pytest.raises(service.Closed):
        service.submit(event, "Late", LEGAL)
    decklist, version, _, _ = service.submit(event, "Late", LEGAL, by_organiser=True)
    assert version.by_organiser is True
    [entry] = service.audit_log(event)
    assert (entry.action, entry.decklist_id, entry.detail) == ("submit", decklist.pk, "")


def test_submit_sees_a_lock_that_came_while_checking(service, make_event) -> None:
    event, _ = make_event()
    stale = service.get_event(event.key)
    service.set_locked(event, True)
    with pytest.raises(service.Closed) as refused:
        service.submit(stale, "Mio", LEGAL)
    assert refused.value.code == "locked"
    decklist, _, _token, _ = service.submit(
        service.get_event(event.key), "Mio", LEGAL, by_organiser=True
    )
    with pytest.raises(service.Closed):
        service.replace_deck(decklist, ILLEGAL)
    unlocked = service.set_locked(service.get_event(event.key), False)
    assert unlocked.locked is False
    decklist.event = stale
    stale.locked = False
    service.set_locked(event, True)
    with pytest.raises(service.Closed):
        service.replace_deck(decklist, ILLEGAL)  # the lock is read again as it writes


def test_replace_numbers_versions(service, make_event) -> None:
    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Mio", ILLEGAL)
    second, checked = service.replace_deck(decklist, LEGAL)
    assert (second.number, second.legal, checked.deck_hash) == (2, True, LEGAL_HASH)
    third, _ = service.replace_deck(decklist, "a\x00", by_organiser=True)
    assert third.number == 3 and third.deck == "a\ufffd" and third.by_organiser
    assert [v.number for v in service.versions(decklist)] == [1, 2, 3]
    decklist.refresh_from_db()
    assert decklist.current_id == third.pk
    [entry] = service.audit_log(event)
    assert (entry.action, entry.detail) == ("replace", "version 3")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("12", 12),
        (7, 7),
        ("9" * 18, int("9" * 18)),
        ("9" * 19, None),
        ("-1", None),
        ("１", None),
        ("1.0", None),
        ("", None),
    ],
)
def test_decklist_id(service, value, expected) -> None:
    assert service._decklist_id(value) == expected


def test_get_decklist_by_organiser(service, make_event) -> None:
    event, token = make_event()
    decklist, _, edit, _ = service.submit(event, "Mio", LEGAL)
    assert service.get_decklist(str(decklist.pk), organiser_token=token) == (decklist, True)
    assert service.get_decklist(decklist.pk, edit_token=edit, organiser_token="wrong") == (
        decklist,
        False,
    )
    for options in ({}, {"edit_token": token}, {"organiser_token": edit}, {"edit_token": ""}):
        with pytest.raises(service.NotFound):
            service.get_decklist(decklist.pk, **options)
    with pytest.raises(service.NotFound):
        service.get_decklist("x", edit_token=edit)


def test_decklist_in_session(service, make_event) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Mio", LEGAL)
    session = SessionStore()
    assert service.decklist_in_session(decklist.pk, session) is None
    service.sign_in(session, event)
    assert service.decklist_in_session(str(decklist.pk), session) == decklist
    assert service.decklist_in_session("x", session) is None
    assert service.decklist_in_session(10**15, session) is None


def test_decklist_json_without_a_current_version(service, make_event) -> None:
    event, _ = make_event()
    decklist, version, _, _ = service.submit(event, "Mio", ILLEGAL)
    decklist.current = None
    shown = service.decklist_json(decklist)
    assert shown["deck"] == ILLEGAL and shown["deck_hash"] == ILLEGAL_HASH
    assert shown["submitted_at"] == version.submitted_at.isoformat()
    from varz_deck.server.models import Decklist

    empty = Decklist.objects.create(event=event, player="Nobody", edit_token_hash="0" * 64)
    assert service.decklist_json(empty) == {
        "id": empty.pk,
        "event": event.key,
        "player": "Nobody",
        "deck": "",
        "submitted_at": None,
        "legal": False,
        "deck_hash": None,
        "diagnostics": [],
        "versions": [],
        "changed_since_submitted": False,
        "changed_at": None,
        "withdrawn": False,
        "withdrawn_at": None,
    }
    assert service.decklist_json(empty, "ja")["diagnostics"] == []


@pytest.mark.parametrize(
    ("diagnostics", "errors", "warnings"),
    [
        (None, [], []),
        ({"code": "V1"}, [], []),
        (
            [
                {"code": "V2", "severity": "error"},
                {"code": "W1", "severity": "warning"},
                {"code": "V2", "severity": "error"},
                "junk",
                {"severity": "error"},
                {"code": "I1", "severity": "info"},
            ],
            ["V2", ""],
            ["W1", "I1"],
        ),
    ],
)
def test_codes_of(service, diagnostics, errors, warnings) -> None:
    assert service.codes_of(diagnostics) == errors
    assert service.codes_of(diagnostics, errors=False) == warnings


def test_metagame_of(service) -> None:
    rows = service.metagame_of(
        [("B", True), ("A", False), ("B", False), ("", True), ("A", True), ("B", True)]
    )
    assert [(r.lead, r.lists, r.legal, r.share) for r in rows] == [
        ("B", 3, 2, 0.5),
        ("A", 2, 1, 2 / 6),
        ("", 1, 1, 1 / 6),
    ]
    assert service.metagame_of([]) == []


def test_current_lists_and_rows(service, make_event) -> None:
    event, _ = make_event()
    a, _, _, _ = service.submit(event, "Aoi", LEGAL)
    b, _, _, _ = service.submit(event, "Ren", ILLEGAL)
    service.replace_deck(b, ILLEGAL)
    service.replace_deck(b, LEGAL)
    lists = service.current_lists(event)
    assert [(r[0], r[1], r[3], r[4], r[6], r[7]) for r in lists] == [
        (a.pk, "Aoi", True, LEGAL_HASH, "Shizuku Minase", 1),
        (b.pk, "Ren", True, LEGAL_HASH, "Shizuku Minase", 3),
    ]
    assert [(d.pk, v.number) for d, v in service.current_versions(event)] == [(a.pk, 1), (b.pk, 3)]
    [m] = service.metagame(event)
    assert (m.lead, m.lists, m.legal, m.share) == ("Shizuku Minase", 2, 2, 1.0)


def test_find_lists(service, make_event) -> None:
    event, _ = make_event()
    a, _, _, _ = service.submit(event, "Aoi Tanaka", ILLEGAL)
    service.replace_deck(a, LEGAL)
    b, _, _, _ = service.submit(event, "Ren  AOI", ILLEGAL)
    other, _ = make_event()
    service.submit(other, "Aoi Elsewhere", ILLEGAL)
    assert [d.pk for d, _ in service.find_lists(event, "  aoi ")] == [a.pk, b.pk]
    assert [d.pk for d, _ in service.find_lists(event, "ren   aoi")] == [b.pk]
    assert [d.pk for d, _ in service.find_lists(event, ILLEGAL_HASH)] == [a.pk, b.pk]  # any version
    assert [d.pk for d, _ in service.find_lists(event, LEGAL_HASH.upper())] == [a.pk]
    assert service.find_lists(event, "   ") == []
    assert service.find_lists(event, "Nobody") == []


def test_compare(service, make_event) -> None:
    event, _ = make_event()
    _, version, _, _ = service.submit(event, "Aoi", LEGAL)
    diff, before, after = service.compare(event, version, LEGAL)
    assert diff is not None and diff.same and before.deck_hash == after.deck_hash == LEGAL_HASH
    diff, _, after = service.compare(event, version, ILLEGAL)
    assert diff is not None and not diff.same and after.deck_hash == ILLEGAL_HASH
    diff, _, after = service.compare(event, version, "spells: [\n")
    assert diff is None and after.canonical is None


def test_check_deck_reads_a_code_or_a_text(service, make_event) -> None:
    event, _ = make_event()
    code = "VZ1AQAIVlowMS0wMDINtoKCgoGCgYGAAwMFMi0wMDmFgYQHAQMFMS0wNzGAsICAgJoFkYCOmITvJg"
    assert service.check_deck(event, code).deck_hash == LEGAL_HASH
    assert service.check_deck(event, f"\n {code} \n").deck_hash == LEGAL_HASH
    split = service.check_deck(event, code[:20] + " " + code[20:])
    assert split.deck_hash is None and not split.legal
    empty = service.check_deck(event, "")
    assert empty.deck_hash is None and [d["code"] for d in empty.diagnostics()] == ["F004"]
    diagnostics = service.check_deck(event, ILLEGAL).diagnostics("ja")
    assert diagnostics[0]["message_localized"].startswith("「スコーチショット」")
    assert "message_localized" not in service.check_deck(event, ILLEGAL).diagnostics()[0]
    assert service.check_deck(event, "x: 1\n").lead == ""


def test_audit_entries(service, make_event) -> None:
    event, _ = make_event()
    with service.writing():
        service.record(event, "lock", detail="x" * 250)
    [entry] = service.audit_log(event)
    assert entry.detail == "x" * 200
    assert service.audit_json(entry) == {
        "action": "lock",
        "at": entry.at.isoformat(),
        "decklist": None,
        "detail": "x" * 200,
    }


def test_public_lists_before_publishing(service, make_event) -> None:
    event, _ = make_event()
    with pytest.raises(service.NotFound) as refused:
        service.public_lists(event)
    assert str(refused.value) == "the lists of this event are not published"


def test_recheck_current_follows_the_card_data(service, make_event) -> None:
    event, _ = make_event()
    _decklist, version, _, _ = service.submit(event, "Aoi", LEGAL)
    _untouched, _kept, _, _ = service.submit(event, "Ren", ILLEGAL)
    from varz_deck.server.models import Version

    Version.objects.filter(pk=version.pk).update(
        cards="old", legal=False, deck_hash="v1-stale", lead="Someone", diagnostics=[{"code": "X"}]
    )
    assert service.recheck_current() == 1
    version.refresh_from_db()
    assert (version.legal, version.deck_hash, version.lead, version.diagnostics) == (
        True, LEGAL_HASH, "Shizuku Minase", [],
    )  # fmt: skip
    assert version.cards == service.verdict_fingerprint(event)
    assert service.recheck_current() == 0


def test_fingerprint_is_of_the_game_and_kept(service) -> None:
    first = service.cards_fingerprint("varz")
    assert service.cards_fingerprint("varz") is first
    assert service.cards_fingerprint("azuki") != first
    assert len(first) == 64 and int(first, 16) >= 0


def test_database_for_is_loaded_once(service) -> None:
    database = service.database_for("varz")
    assert service.database_for("varz") is database and database.game == "varz"
    assert service.database_for("azuki").game == "azuki"
    assert service.game_of(type("E", (), {"game": "azuki"})()).key == "azuki"


@pytest.fixture
def bundled_again(service: Any) -> Any:
    """Whatever a test names with `use_cards`, the bundled databases afterwards."""
    yield service
    service.use_cards(None)


def test_use_cards_names_the_database_of_its_game(bundled_again, tmp_path, make_event) -> None:
    service = bundled_again

    bundled = service.database_for("varz")
    before = service.cards_fingerprint("varz")
    copy = tmp_path / "cards"
    import shutil

    shutil.copytree(ROOT / "card_data" / "varz", copy)
    for path in copy.rglob("*.yaml"):
        path.write_text("# moved down\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    service.use_cards(copy)
    named = service.database_for("varz")
    assert named is not bundled and named.game == "varz"
    assert service.database_for("varz") is named
    again = service.cards_fingerprint("varz")
    assert again == before and again is not before  # worked out again: the same cards
    assert service.database_for("azuki").game == "azuki"  # another game: its bundled one
    event, _ = make_event()
    assert service.check_deck(event, LEGAL).deck_hash == LEGAL_HASH
    service.use_cards(None)
    assert service.database_for("varz") is not named


def test_decklist_counts(service, make_event) -> None:
    event, _ = make_event()
    empty, _ = make_event()
    for player in ("A", "B", "C"):
        service.submit(event, player, LEGAL)
    counts = service.decklist_counts()
    assert counts[event.pk] == 3 and empty.pk not in counts


def test_check_deck_registers_for_the_player_and_event(service, make_event) -> None:
    event, _ = make_event("Named Cup")
    checked = service.check_deck(event, LEGAL, "Aoi")
    assert (checked.registration.player, checked.registration.event) == ("Aoi", "Named Cup")
    assert service.check_deck(event, LEGAL).registration.player == ""


def test_new_version_cuts_the_lead_and_format(service, make_event) -> None:
    from types import SimpleNamespace

    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Mio", LEGAL)
    checked = SimpleNamespace(
        deck_hash=None,
        legal=False,
        lead="L" * 250,
        report=SimpleNamespace(format="f" * 70),
        diagnostics=lambda lang: [],
    )
    version = service._new_version(decklist, 4, "text", checked, True)
    assert (version.lead, version.format) == ("L" * 200, "f" * 64)
    assert (version.number, version.deck, version.by_organiser) == (4, "text", True)
    nothing = SimpleNamespace(**{**checked.__dict__, "report": SimpleNamespace(format=None)})
    assert service._new_version(decklist, 1, "", nothing, False).format == ""


def test_decklist_json_and_sheets_are_english_by_default(service, make_event) -> None:
    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Mio", ILLEGAL)
    shown = service.decklist_json(decklist)
    assert "message_localized" not in shown["diagnostics"][0]
    assert 'lang="en"' in service.sheets_document(event)


def test_use_cards_checks_with_the_named_cards(bundled_again, tmp_path, make_event) -> None:
    service = bundled_again
    import shutil

    copy = tmp_path / "renamed"
    shutil.copytree(ROOT / "card_data" / "varz", copy)
    for path in copy.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Tide Sprite", "Tide Spirit"), encoding="utf-8")
    event, _ = make_event()
    assert service.check_deck(event, LEGAL).legal is True
    bundled = service.cards_fingerprint("varz")
    service.use_cards(copy)
    assert service.check_deck(event, LEGAL).legal is False  # "Tide Sprite" is no card there
    assert service.cards_fingerprint("varz") != bundled
    service.use_cards(None)
    assert service.check_deck(event, LEGAL).legal is True


def test_a_new_event_key_is_never_one_in_use(service, make_event, monkeypatch) -> None:
    taken, _ = make_event()
    keys = iter([taken.key, taken.key, "freshkey123"])
    from varz_deck.server import tokens

    monkeypatch.setattr(tokens, "new_event_key", lambda: next(keys))
    event, _ = service.create_event("New", game="varz")
    assert event.key == "freshkey123"


def test_audit_log_is_in_time_order(service, make_event) -> None:
    from varz_deck.server.models import AuditEntry

    event, _ = make_event()
    later = datetime.datetime(2030, 1, 2, tzinfo=UTC)
    earlier = datetime.datetime(2030, 1, 1, tzinfo=UTC)
    AuditEntry.objects.create(event=event, action="unlock", at=later)
    AuditEntry.objects.create(event=event, action="lock", at=earlier)
    assert [e.action for e in service.audit_log(event)] == ["lock", "unlock"]


def test_a_deck_of_each_game(service, make_event) -> None:
    other = (EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml").read_text(encoding="utf-8")
    event, _ = make_event(game="azuki")
    checked = service.check_deck(event, other)
    assert (checked.legal, checked.deck_hash, checked.lead) == (True, "v1-tzkq5iorov", "Raizan")
    ours, _ = make_event()
    wrong = service.check_deck(ours, other)
    assert (wrong.legal, wrong.deck_hash) == (False, None)
    assert [d["code"] for d in wrong.diagnostics()] == ["F010"]


def test_a_code_is_at_most_4096_characters(service, make_event) -> None:
    event, _ = make_event()
    code_like = "VZ1" + "A" * 4093
    assert [d["code"] for d in service.check_deck(event, code_like).diagnostics()] == ["F009"]
    longer = code_like + "A"
    assert [d["code"] for d in service.check_deck(event, longer).diagnostics()] == ["F004"]


def test_sheets_in_japanese_carry_a_japanese_qr_title(service, make_event) -> None:
    from varz_deck.server import qr

    event, _ = make_event()
    service.submit(event, "Aoi", LEGAL)
    title = qr._TITLE.render("ja")
    assert title != qr._TITLE.render("en")
    assert f"<title>{title}</title>" in service.sheets_document(event, "ja")
    assert f"<title>{qr._TITLE.render('en')}</title>" in service.sheets_document(event)


def test_metagame_ties_by_name(service) -> None:
    rows = service.metagame_of([("B", True), ("C", False), ("A", True)])
    assert [r.lead for r in rows] == ["A", "B", "C"]


def test_recheck_passes_over_an_event_of_a_game_this_version_lacks(service, make_event) -> None:
    from varz_deck.server.models import Version

    gone, _ = make_event(game="nosuchgame")  # checked first: its id is lower
    event, _ = make_event()
    _, version, _, _ = service.submit(event, "Aoi", LEGAL)
    Version.objects.filter(pk=version.pk).update(cards="old")
    try:
        assert service.recheck_current() >= 1
        version.refresh_from_db()
        assert version.cards == service.verdict_fingerprint(event)  # the next event's list
    finally:
        gone.delete()


def test_unpublish_once(service, make_event) -> None:
    event, _ = make_event()
    service.publish(event)
    assert service.unpublish(event).published is False
    assert service.unpublish(event).published is False  # again: nothing changes, nothing logged
    assert [entry.action for entry in service.audit_log(event)] == ["publish", "unpublish"]


def test_a_refusal_reads_in_english(service, make_event) -> None:
    event, _ = make_event()
    service.submit(event, "Kai", LEGAL, player_id="P7")
    with pytest.raises(service.Claimed) as refused:
        service.submit(event, "Kai", LEGAL, player_id="P7")
    assert str(refused.value).startswith("player id 'P7' already has a list in this event: ")


def test_another_games_list_is_exported_with_its_f010(client, make_event, service) -> None:
    import csv
    import io

    from inprocess_data import ROOT

    event, token = make_event("Two Games Cup")
    azuki = (ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml").read_text("utf-8")
    service.submit(event, "Sora", azuki)
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    rows = list(
        csv.reader(io.StringIO(client.get(f"/api/v1/events/{event.key}/export.csv", **bearer)
                               .content.decode()))
    )  # fmt: skip
    assert (rows[1][1], rows[1][5], rows[1][6], rows[1][8]) == ("Sora", "false", "F010", "")
    sheets = client.get(f"/api/v1/events/{event.key}/sheets", **bearer).content.decode()
    assert "F010" in sheets and "this list is for Azuki TCG; this event is for VARZ" in sheets


def test_the_figures_page_of_a_private_link(client, make_event, service, monkeypatch) -> None:
    monkeypatch.setattr(
        "varz_deck.server.services.exports.REPORT_GAMES", 200
    )  # the page's figures, quickly
    event, _ = make_event()
    decklist, _, token, _ = service.submit(event, "Aoi", LEGAL)
    page = client.get(f"/decklists/{decklist.pk}/{token}/report")
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    assert "<h1>Deck report: Minase Tide Control</h1>" in page.content.decode()
