"""The JSON API in-process (Django's test client): every endpoint's answer, field by field, and
its refusals. Expected values are written out here: the example decks' own comments list their
problems, and their hashes are those of `register` (docs/register examples)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from inprocess_data import ILLEGAL, ILLEGAL_HASH, LEGAL, LEGAL_HASH

ILLEGAL_CODES = ["V103", "V114", "V113", "V105"]  # in the order the deck meets them
LEGAL_CODE = "VZ1AQAIVlowMS0wMDINtoKCgoGCgYGAAwMFMi0wMDmFgYQHAQMFMS0wNzGAsICAgJoFkYCOmITvJg"


def _post(client: Any, url: str, body: dict[str, Any], **headers: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def _put(client: Any, url: str, body: dict[str, Any], **headers: Any) -> Any:
    return client.put(url, json.dumps(body), content_type="application/json", **headers)


def _bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def _error(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_event_state_shows_every_field(client, make_event) -> None:
    import datetime

    deadline = datetime.datetime(2031, 5, 6, 7, 8, tzinfo=datetime.timezone.utc)
    event, _ = make_event("  Spring \t Open  ", format="standard", deadline=deadline)
    answer = client.get(f"/api/v1/events/{event.key}")
    assert answer.status_code == 200
    assert answer.json() == {
        "event": event.key,
        "name": "Spring Open",
        "game": "varz",
        "format": "standard",
        "deadline": "2031-05-06T07:08:00+00:00",
        "date": "2031-05-06",
        "timezone": "UTC",
        "requires_lists": True,
        "locked": False,
        "published": False,
        "open": True,
        "submit_url": f"/events/{event.key}/submit",
    }
    other, _ = make_event("No format", requires_lists=False)
    shown = client.get(f"/api/v1/events/{other.key}").json()
    assert (shown["format"], shown["deadline"], shown["requires_lists"]) == (None, None, False)


def test_submit_a_legal_list_and_read_it_back(client, make_event) -> None:
    event, token = make_event()
    answer = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": " Aoi  Tanaka ", "deck": LEGAL}
    )
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "edit_token", "private_url", "legal", "deck_hash", "diagnostics"}
    assert body["private_url"] == f"/decklists/{body['id']}/{body['edit_token']}"
    assert (body["legal"], body["deck_hash"], body["diagnostics"]) == (True, LEGAL_HASH, [])
    mine = client.get(f"/api/v1/decklists/{body['id']}", HTTP_X_EDIT_TOKEN=body["edit_token"])
    assert mine.status_code == 200
    got = mine.json()
    assert (got["id"], got["event"], got["player"], got["deck"]) == (
        body["id"], event.key, "Aoi Tanaka", LEGAL,
    )  # fmt: skip
    assert (got["legal"], got["deck_hash"], got["diagnostics"]) == (True, LEGAL_HASH, [])
    assert got["submitted_at"].endswith("+00:00")
    [version] = got["versions"]
    assert version == {
        "version": 1,
        "submitted_at": got["submitted_at"],
        "deck_hash": LEGAL_HASH,
        "legal": True,
        "by_organiser": False,
    }
    as_organiser = client.get(f"/api/v1/decklists/{body['id']}", **_bearer(token))
    assert as_organiser.status_code == 200 and as_organiser.json()["player"] == "Aoi Tanaka"


def test_an_illegal_list_is_stored_with_its_errors(client, make_event) -> None:
    event, _ = make_event()
    body = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Ren", "deck": ILLEGAL}
    ).json()
    assert (body["legal"], body["deck_hash"]) == (False, ILLEGAL_HASH)
    assert [d["code"] for d in body["diagnostics"]] == ILLEGAL_CODES
    first = body["diagnostics"][0]
    assert (first["severity"], first["line"], first["column"], first["section"]) == (
        "error",
        12,
        3,
        "spells",
    )
    assert "message_localized" not in first
    got = client.get(f"/api/v1/decklists/{body['id']}", HTTP_X_EDIT_TOKEN=body["edit_token"]).json()
    assert [d["code"] for d in got["diagnostics"]] == ILLEGAL_CODES
    assert "message_localized" not in got["diagnostics"][0]


def test_a_language_gives_localized_messages(client, make_event) -> None:
    event, _ = make_event()
    body = _post(
        client,
        f"/api/v1/events/{event.key}/decklists",
        {"player": "Ren", "deck": ILLEGAL, "lang": "ja"},
    ).json()
    assert body["diagnostics"][0]["message_localized"].startswith("「スコーチショット」が 4 枚")
    got = client.get(
        f"/api/v1/decklists/{body['id']}?lang=ja", HTTP_X_EDIT_TOKEN=body["edit_token"]
    ).json()
    assert got["diagnostics"][0]["message_localized"].startswith("「スコーチショット」が 4 枚")
    assert (got["legal"], got["deck_hash"]) == (False, ILLEGAL_HASH)
    zh = client.get(f"/api/v1/decklists/{body['id']}?lang=zh", HTTP_X_EDIT_TOKEN=body["edit_token"])
    assert zh.status_code == 200 and "message_localized" in zh.json()["diagnostics"][0]


def test_live_check_stores_nothing(client, make_event) -> None:
    event, token = make_event()
    answer = _post(client, f"/api/v1/events/{event.key}/check", {"deck": ILLEGAL})
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"legal", "deck_hash", "diagnostics"}
    assert (body["legal"], body["deck_hash"]) == (False, ILLEGAL_HASH)
    assert [d["code"] for d in body["diagnostics"]] == ILLEGAL_CODES
    assert client.get(f"/api/v1/events/{event.key}/decklists", **_bearer(token)).json() == []


def test_a_deck_code_is_checked_as_the_deck_it_is(client, make_event) -> None:
    event, _ = make_event()
    body = _post(client, f"/api/v1/events/{event.key}/check", {"deck": f"  {LEGAL_CODE}\n"}).json()
    assert (body["legal"], body["deck_hash"]) == (True, LEGAL_HASH)


def test_replace_keeps_every_version(client, make_event) -> None:
    event, token = make_event()
    first = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Mio", "deck": ILLEGAL}
    ).json()
    url = f"/api/v1/decklists/{first['id']}"
    second = _put(client, url, {"deck": LEGAL}, HTTP_X_EDIT_TOKEN=first["edit_token"])
    assert second.status_code == 200
    body = second.json()
    assert (body["id"], body["version"], body["legal"], body["deck_hash"]) == (
        first["id"], 2, True, LEGAL_HASH,
    )  # fmt: skip
    assert body["diagnostics"] == [] and body["submitted_at"].endswith("+00:00")
    third = _put(client, url, {"deck": ILLEGAL}, **_bearer(token)).json()
    assert third["version"] == 3 and third["legal"] is False
    got = client.get(url, HTTP_X_EDIT_TOKEN=first["edit_token"]).json()
    assert [(v["version"], v["legal"], v["by_organiser"]) for v in got["versions"]] == [
        (1, False, False),
        (2, True, False),
        (3, False, True),
    ]
    assert got["deck"] == ILLEGAL and got["deck_hash"] == ILLEGAL_HASH


def test_the_organisers_table(client, make_event) -> None:
    event, token = make_event()
    url = f"/api/v1/events/{event.key}/decklists"
    a = _post(client, url, {"player": "Aoi", "deck": LEGAL}).json()
    b = _post(client, url, {"player": "Ren", "deck": ILLEGAL}).json()
    _put(
        client, f"/api/v1/decklists/{b['id']}", {"deck": ILLEGAL}, HTTP_X_EDIT_TOKEN=b["edit_token"]
    )
    answer = client.get(url, **_bearer(token))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/json")
    rows = answer.json()
    assert [
        (r["id"], r["player"], r["legal"], r["deck_hash"], r["versions"], r["lead"]) for r in rows
    ] == [
        (a["id"], "Aoi", True, LEGAL_HASH, 1, "Shizuku Minase"),
        (b["id"], "Ren", False, ILLEGAL_HASH, 2, "Hibiki Kagura"),
    ]
    assert rows[1]["errors"] == ILLEGAL_CODES and rows[1]["warnings"] == []
    assert rows[0]["errors"] == [] and rows[0]["submitted_at"].endswith("+00:00")


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, (401, "unauthorized")),
        ({"HTTP_AUTHORIZATION": "Basic abc"}, (401, "unauthorized")),
        ({"HTTP_AUTHORIZATION": "Bearer "}, (401, "unauthorized")),
        ({"HTTP_AUTHORIZATION": "Bearer not-the-token"}, (403, "forbidden")),
    ],
)
def test_organiser_routes_refuse_without_the_token(client, make_event, headers, expected) -> None:
    event, _ = make_event()
    for route in ("decklists", "audit", "export.csv", "metagame", "sheets"):
        assert _error(client.get(f"/api/v1/events/{event.key}/{route}", **headers)) == expected
    for action in ("lock", "unlock", "publish"):
        assert _error(client.post(f"/api/v1/events/{event.key}/{action}", **headers)) == expected


def test_another_events_token_is_forbidden(client, make_event) -> None:
    event, _ = make_event()
    _, other_token = make_event()
    answer = client.get(f"/api/v1/events/{event.key}/decklists", **_bearer(other_token))
    assert _error(answer) == (403, "forbidden")
    assert (
        answer.json()["error"]["message"] == "this token is not the organiser token of this event"
    )
    none = client.get(f"/api/v1/events/{event.key}/decklists")
    assert none.json()["error"]["message"] == (
        "this needs the organiser token: send Authorization: Bearer TOKEN"
    )


def test_withdraw_and_restore_refuse_without_the_token(client, make_event) -> None:
    event, token = make_event()
    made = _post(client, f"/api/v1/events/{event.key}/decklists", {"player": "Aoi", "deck": LEGAL})
    url = f"/api/v1/decklists/{made.json()['id']}"
    for answer in (client.delete(url), client.post(f"{url}/restore")):
        assert answer.status_code == 401
        assert answer.json() == {
            "error": {
                "code": "unauthorized",
                "message": "this needs the organiser token: send Authorization: Bearer TOKEN",
            }
        }
    assert client.get(url, **_bearer(token)).json()["withdrawn"] is False


def test_bearer_is_case_insensitive_and_trimmed(client, make_event) -> None:
    event, token = make_event()
    answer = client.get(
        f"/api/v1/events/{event.key}/decklists", HTTP_AUTHORIZATION=f"  bEaReR   {token}  "
    )
    assert answer.status_code == 200


def test_lock_unlock_publish_and_the_audit_log(client, make_event) -> None:
    event, token = make_event()
    base = f"/api/v1/events/{event.key}"
    locked = client.post(f"{base}/lock", **_bearer(token))
    assert locked.status_code == 200
    assert (locked.json()["locked"], locked.json()["open"]) == (True, False)
    refused = _post(client, f"{base}/decklists", {"player": "Late", "deck": LEGAL})
    assert _error(refused) == (409, "locked")
    assert refused.json()["error"]["message"] == (
        "the organiser has locked this event; submissions are closed"
    )
    unlocked = client.post(f"{base}/unlock", **_bearer(token)).json()
    assert (unlocked["locked"], unlocked["open"], unlocked["published"]) == (False, True, False)
    published = client.post(f"{base}/publish", **_bearer(token)).json()
    assert (published["published"], published["locked"]) == (True, False)
    log = client.get(f"{base}/audit", **_bearer(token))
    assert log.status_code == 200
    entries = log.json()
    assert [(e["action"], e["decklist"], e["detail"]) for e in entries] == [
        ("lock", None, ""),
        ("unlock", None, ""),
        ("publish", None, ""),
    ]
    assert all(e["at"].endswith("+00:00") for e in entries)
    assert entries[0]["at"] <= entries[1]["at"] <= entries[2]["at"]


def test_organiser_replacement_is_audited(client, make_event) -> None:
    event, token = make_event()
    first = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Mio", "deck": LEGAL}
    ).json()
    client.post(f"/api/v1/events/{event.key}/lock", **_bearer(token))
    player = _put(
        client,
        f"/api/v1/decklists/{first['id']}",
        {"deck": ILLEGAL},
        HTTP_X_EDIT_TOKEN=first["edit_token"],
    )
    assert _error(player) == (409, "locked")
    fixed = _put(client, f"/api/v1/decklists/{first['id']}", {"deck": ILLEGAL}, **_bearer(token))
    assert fixed.status_code == 200 and fixed.json()["version"] == 2
    entries = client.get(f"/api/v1/events/{event.key}/audit", **_bearer(token)).json()
    assert [(e["action"], e["decklist"], e["detail"]) for e in entries] == [
        ("lock", None, ""),
        ("replace", first["id"], "version 2"),
    ]


def test_export_csv(client, make_event) -> None:
    event, token = make_event()
    url = f"/api/v1/events/{event.key}/decklists"
    a = _post(client, url, {"player": "Aoi", "deck": LEGAL}).json()
    b = _post(client, url, {"player": "=Ren", "deck": ILLEGAL}).json()
    answer = client.get(f"/api/v1/events/{event.key}/export.csv", **_bearer(token))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == f'attachment; filename="{event.key}.csv"'
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8"))))
    assert rows[0] == [
        "path",
        "player",
        "event",
        "hero",
        "format",
        "legal",
        "error_codes",
        "warning_codes",
        "deck_hash",
        "submitted_at",
        "changed_at",
    ]
    assert rows[1][:-2] == [
        str(a["id"]),
        "Aoi",
        event.name,
        "Shizuku Minase",
        "standard",
        "true",
        "",
        "",
        LEGAL_HASH,
    ]
    assert rows[2][0] == str(b["id"]) and rows[2][1] == "'=Ren"
    assert rows[2][5:-2] == ["false", "V103 V114 V113 V105", "", ILLEGAL_HASH]


def test_metagame(client, make_event) -> None:
    event, token = make_event()
    url = f"/api/v1/events/{event.key}/decklists"
    for player, deck in (
        ("A", LEGAL),
        ("B", ILLEGAL),
        ("C", LEGAL),
        ("D", ILLEGAL),
        ("E", ILLEGAL),
    ):
        _post(client, url, {"player": player, "deck": deck})
    rows = client.get(f"/api/v1/events/{event.key}/metagame", **_bearer(token)).json()
    assert rows == [
        {"lead": "Hibiki Kagura", "lists": 3, "legal": 0, "share": 0.6},
        {"lead": "Shizuku Minase", "lists": 2, "legal": 2, "share": 0.4},
    ]


def test_sheets_and_public_lists(client, make_event) -> None:
    event, token = make_event("Sheet Cup")
    url = f"/api/v1/events/{event.key}/decklists"
    a = _post(client, url, {"player": "Aoi", "deck": LEGAL}).json()
    b = _post(client, url, {"player": "Ren", "deck": "not a deck at all: [\n"}).json()
    sheets = client.get(f"/api/v1/events/{event.key}/sheets", **_bearer(token))
    assert sheets.status_code == 200 and sheets["Content-Type"] == "text/html; charset=utf-8"
    text = sheets.content.decode()
    assert text.count('class="event">Sheet Cup<') == 2 and "Aoi" in text and "Ren" in text
    ja = client.get(f"/api/v1/events/{event.key}/sheets?lang=ja", **_bearer(token)).content.decode()
    assert 'lang="ja"' in ja
    before = client.get(f"/api/v1/events/{event.key}/public")
    assert _error(before) == (404, "not_found")
    assert before.json()["error"]["message"] == "the lists of this event are not published"
    client.post(f"/api/v1/events/{event.key}/publish", **_bearer(token))
    lists = client.get(f"/api/v1/events/{event.key}/public").json()
    assert [(e["id"], e["player"], e["legal"], e["deck_hash"]) for e in lists] == [
        (a["id"], "Aoi", True, LEGAL_HASH),
        (b["id"], "Ren", False, None),
    ]
    assert lists[1]["cards"] is None
    assert lists[0]["cards"]["hero"]["name"] == "Shizuku Minase"


@pytest.mark.parametrize("key", ["nosuchevent", "a" * 33, "bad-key", "ü", "%00"])
def test_unknown_events_are_404(client, key) -> None:
    answer = client.get(f"/api/v1/events/{key}")
    assert _error(answer) == (404, "not_found")
    assert answer.json()["error"]["message"] == "there is no such event"
    assert _error(_post(client, f"/api/v1/events/{key}/check", {"deck": LEGAL})) == (
        404,
        "not_found",
    )


def test_decklists_of_others_are_not_found(client, make_event) -> None:
    event, token = make_event()
    first = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Mio", "deck": LEGAL}
    ).json()
    _, other_token = make_event()
    url = f"/api/v1/decklists/{first['id']}"
    for headers in (
        {},
        {"HTTP_X_EDIT_TOKEN": "wrong"},
        _bearer(other_token),
        {"HTTP_X_EDIT_TOKEN": token},  # the organiser token is no edit token
    ):
        answer = client.get(url, **headers)
        assert _error(answer) == (404, "not_found")
        assert answer.json()["error"]["message"] == "there is no such decklist"
    for number in ("0", "abc", "9" * 19, "１"):
        assert _error(
            client.get(f"/api/v1/decklists/{number}", HTTP_X_EDIT_TOKEN=first["edit_token"])
        ) == (404, "not_found")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"deck": "x"}, "the player's name is missing"),
        ({"player": "   ", "deck": "x"}, "the player's name is missing"),
        ({"player": "Aoi"}, "the request is not valid: deck"),
        ({"player": "Aoi", "deck": 5}, "the request is not valid: deck"),
        ({"player": "Aoi", "deck": "x", "lang": "fr"}, "the request is not valid: lang"),
        ({"player": "x" * 201, "deck": "x"}, "the request is not valid: player"),
    ],
)
def test_invalid_submissions(client, make_event, body, message) -> None:
    event, _ = make_event()
    answer = _post(client, f"/api/v1/events/{event.key}/decklists", body)
    assert _error(answer) == (422, "invalid")
    assert answer.json()["error"]["message"] == message


def test_errors_in_the_requests_language(client, make_event) -> None:
    event, _ = make_event()
    answer = _post(
        client,
        f"/api/v1/events/{event.key}/decklists",
        {"deck": "x"},
        HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5",
    )
    assert answer.json()["error"]["message"] == "プレイヤー名がありません"
    chosen = _post(client, f"/api/v1/events/{event.key}/decklists?lang=ja", {"deck": "x"})
    assert chosen.json()["error"]["message"] == "プレイヤー名がありません"


def test_unreadable_body_is_400(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(
        f"/api/v1/events/{event.key}/decklists", "{not json", content_type="application/json"
    )
    assert answer.status_code in (400, 422)
    assert answer.json()["error"]["code"] in ("bad_request", "invalid")


def test_healthz(client) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    body = answer.json()
    from varz_deck import __version__

    assert body == {"status": "ok", "version": __version__}


def test_api_renders_controls_escaped(client, make_event) -> None:
    event, _ = make_event()
    body = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Aoi\u202e", "deck": LEGAL}
    )
    assert "\u202e" not in body.content.decode("utf-8")
    got = client.get(
        f"/api/v1/decklists/{body.json()['id']}", HTTP_X_EDIT_TOKEN=body.json()["edit_token"]
    )
    assert "\\u202e" in got.content.decode("utf-8") and got.json()["player"] == "Aoi\u202e"


def test_stored_diagnostics_are_given_in_english_and_warnings_listed(client, make_event) -> None:
    from varz_deck.server.models import Version

    event, token = make_event()
    body = _post(
        client, f"/api/v1/events/{event.key}/decklists", {"player": "Aoi", "deck": LEGAL}
    ).json()
    stored = [{"code": "W9", "severity": "warning", "message": "kept as stored"}]
    Version.objects.filter(decklist_id=body["id"]).update(diagnostics=stored)
    got = client.get(f"/api/v1/decklists/{body['id']}", HTTP_X_EDIT_TOKEN=body["edit_token"]).json()
    assert got["diagnostics"] == stored  # English: as stored, not checked again
    [row] = client.get(f"/api/v1/events/{event.key}/decklists", **_bearer(token)).json()
    assert (row["errors"], row["warnings"]) == ([], ["W9"])
