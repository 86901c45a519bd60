"""The JSON API of `varz-deck serve` (SPEC §9), over real HTTP to a real server, on SQLite and on
PostgreSQL (the `database` fixture of conftest.py): every row of the table, each token check of
issue 13 as its own test, every version kept, hostile text escaped, tokens kept only as hashes.

The expected diagnostics and deck hashes come from the command line (`check`, `register`) run on
the same files: the server must check and register exactly as they do.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import socket
import sqlite3
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from harness import ROOT, run_cli

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "blue-minase-tide.yaml"
LEGAL_TXT = EXAMPLES / "blue-list.txt"
ILLEGAL = EXAMPLES / "illegal.yaml"
AZUKI = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"
AZUKI_TXT = ROOT / "tests" / "cases_azuki" / "A103" / "ok_plain_text.txt"
AZUKI_TXT_49 = ROOT / "tests" / "cases_azuki" / "A103" / "bad_plain_text_49.txt"
MIB = 1024 * 1024
ERROR_KEYS = {"error"}


@cache
def _cli_json(*args: str) -> Any:
    """A command's JSON document (cached: the same files are asked about again and again)."""
    done = run_cli([*args, "--output", "json"], cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def _checked(path: Path, lang: str | None = None, game: str | None = None) -> dict[str, Any]:
    """`varz-deck check FILE --output json` of one deck: its entry."""
    extra = ["--lang", lang] if lang else []
    extra += ["--game", game] if game else []
    return _cli_json("check", str(path), *extra)["decks"][0]


def _registered(path: Path | str, game: str | None = None) -> dict[str, Any]:
    extra = ["--game", game] if game else []
    return _cli_json("register", str(path), *extra)["registrations"][0]


@cache
def _code(path: Path, game: str | None = None) -> str:
    extra = ["--game", game] if game else []
    done = run_cli(["code", str(path), *extra], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status == status, response
    assert response.header("Content-Type").startswith("application/json")
    body = response.json()
    assert set(body) == ERROR_KEYS and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"].strip()
    if code is not None:
        assert body["error"]["code"] == code, body
    return body


def _submit(server: Any, event: dict[str, Any], player: str, deck: str, **extra: Any) -> Any:
    payload = {"player": player, "deck": deck, **extra}
    return server.post(f"/api/v1/events/{event['event']}/decklists", json=payload)


def _submitted(server: Any, event: dict[str, Any], player: str, path: Path = LEGAL) -> Any:
    response = _submit(server, event, player, path.read_text(encoding="utf-8"))
    assert response.status == 201, response
    return response.json()


def _edit(token: str) -> dict[str, str]:
    return {"X-Edit-Token": token}


def _rows(server: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    response = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert response.status == 200, response
    rows: list[dict[str, Any]] = response.json()
    return rows


@pytest.fixture(scope="module")
def shared(server: Any) -> dict[str, Any]:
    """One event for the tests that only add lists to it (each finds its own by id or name)."""
    return server.create_event("Shared Open")


@pytest.fixture(scope="module")
def other(server: Any) -> dict[str, Any]:
    """Another event: its organiser token is the wrong one for `shared`."""
    return server.create_event("Other Open")


def _count(server: Any, event: dict[str, Any]) -> int:
    return len(_rows(server, event))


def _in(seconds: float) -> str:
    when = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return when.isoformat()


# --- POST /events/{event}/decklists ----------------------------------------------------------


def test_submission_is_checked_and_registered_as_the_command_line_does(server, shared):
    for path in (LEGAL, LEGAL_TXT, ILLEGAL):
        answer = _submit(server, shared, "Ann", path.read_text(encoding="utf-8"))
        assert answer.status == 201, answer
        body = answer.json()
        assert set(body) >= {"id", "edit_token", "legal", "deck_hash", "diagnostics"}
        expected = _checked(path)
        assert body["legal"] is expected["legal"]
        assert body["diagnostics"] == expected["diagnostics"]
        assert body["deck_hash"] == _registered(path)["deck_hash"]
        assert len(body["edit_token"]) >= 22  # 128 bits in URL-safe base64


def _strict(schema: Any) -> Any:
    """The schema with no property beyond those it names (every object schema closed)."""
    if isinstance(schema, dict):
        closed = {key: _strict(value) for key, value in schema.items()}
        if "properties" in schema:
            closed["additionalProperties"] = False
        return closed
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    return schema


def test_submission_replacement_and_live_check_answers_are_what_the_openapi_document_says(
    server, shared
):
    """These three answers are rendered without ninja's validation (api.common.rendered): each
    must still be exactly what the document promises, no key missing, wrong or extra."""
    from jsonschema import Draft202012Validator

    document = server.get("/api/v1/openapi.json").json()
    path = "/api/v1/events/{event}/"

    def validator(operation: str, status: int, method: str = "post") -> Any:
        answer = document["paths"][operation][method]["responses"][str(status)]
        schema = answer["content"]["application/json"]["schema"]
        return Draft202012Validator(_strict({**schema, "components": document["components"]}))

    submitted, checked = validator(path + "decklists", 201), validator(path + "check", 200)
    replaced = validator("/api/v1/decklists/{decklist}", 200, "put")
    texts = [path.read_text(encoding="utf-8") for path in (LEGAL, ILLEGAL, AZUKI)]
    for text in [*texts, "hero: [\n\x1b[31m <script>"]:
        for extra in ({}, {"lang": "ja"}, {"lang": "zh"}):
            answer = _submit(server, shared, "Schema", text, **extra)
            assert answer.status == 201, answer
            assert answer.header("Content-Type") == "application/json; charset=utf-8"
            assert list(submitted.iter_errors(answer.json())) == [], answer.json()
            live = server.post(
                f"/api/v1/events/{shared['event']}/check", json={"deck": text, **extra}
            )
            assert live.status == 200, live
            assert list(checked.iter_errors(live.json())) == [], live.json()
            assert "Accept-Language" in (live.header("Vary") or "")
            mine = answer.json()
            again = server.put(
                f"/api/v1/decklists/{mine['id']}",
                json={"deck": text, **extra},
                headers={"X-Edit-Token": mine["edit_token"]},
            )
            assert again.status == 200, again
            assert again.header("Content-Type") == "application/json; charset=utf-8"
            assert list(replaced.iter_errors(again.json())) == [], again.json()
    assert list(checked.iter_errors({"legal": True, "deck_hash": None, "diagnostics": [{}]}))
    extra_key = {"legal": True, "deck_hash": None, "diagnostics": [], "more": 1}
    assert list(checked.iter_errors(extra_key)), "the strict schema must refuse an extra key"


def test_a_deck_code_is_taken_as_the_command_line_takes_one(server, shared):
    code = _code(LEGAL)
    body = _submit(server, shared, "Coder", code).json()
    assert body["legal"] is True and body["diagnostics"] == []
    assert body["deck_hash"] == _registered(LEGAL)["deck_hash"]


def test_an_azuki_event_checks_azuki_decks(server, make_event):
    """YAML, a .txt list and a deck code, as `check --game azuki` and `register` take them."""
    event = make_event(game="azuki")
    forms = [(AZUKI, AZUKI.read_text(encoding="utf-8")), (AZUKI, _code(AZUKI, "azuki"))]
    forms += [(path, path.read_text(encoding="utf-8")) for path in (AZUKI_TXT, AZUKI_TXT_49)]
    for path, deck in forms:
        answer = _submit(server, event, "Aki", deck)
        assert answer.status == 201, answer
        expected = _checked(path, game="azuki")
        assert answer.json()["diagnostics"] == expected["diagnostics"]
        assert answer.json()["legal"] is expected["legal"]
        assert answer.json()["deck_hash"] == _registered(path, "azuki")["deck_hash"]
    assert [r["legal"] for r in _rows(server, event)] == [True, True, True, False]


def test_a_deck_of_the_other_game_gets_one_diagnostic_naming_it(server, shared):
    body = _submit(server, shared, "Lost", AZUKI.read_text(encoding="utf-8")).json()
    assert body["legal"] is False
    assert [d["code"] for d in body["diagnostics"]] == ["F010"]
    assert body["deck_hash"] is None


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_lang_adds_message_localized_as_check_lang_does(server, shared, lang):
    deck = ILLEGAL.read_text(encoding="utf-8")
    body = _submit(server, shared, "Ken", deck, lang=lang).json()
    assert body["diagnostics"] == _checked(ILLEGAL, lang)["diagnostics"]
    assert all(d["message_localized"] != d["message"] for d in body["diagnostics"])
    english = _submit(server, shared, "Ken", deck).json()
    assert all("message_localized" not in d for d in english["diagnostics"])


def test_every_submission_is_stored_legal_or_not(server, shared):
    legal = _submitted(server, shared, "Legal Lee", LEGAL)
    illegal = _submitted(server, shared, "Illegal Ida", ILLEGAL)
    unreadable = _submit(server, shared, "Broken Bo", "spells: [oops").json()
    rows = {row["id"]: row for row in _rows(server, shared)}
    assert rows[legal["id"]]["legal"] is True
    assert rows[illegal["id"]]["legal"] is False
    assert rows[illegal["id"]]["errors"] == list(
        dict.fromkeys(d["code"] for d in _checked(ILLEGAL)["diagnostics"])
    )
    assert rows[unreadable["id"]]["legal"] is False
    assert rows[unreadable["id"]]["deck_hash"] is None


@pytest.mark.parametrize("payload", [{}, {"player": ""}, {"player": "  \t "}])
def test_422_without_a_player(server, shared, payload):
    before = _count(server, shared)
    answer = server.post(
        f"/api/v1/events/{shared['event']}/decklists",
        json={"deck": LEGAL.read_text(encoding="utf-8"), **payload},
    )
    _assert_error(answer, 422, "invalid")
    assert _count(server, shared) == before


def test_422_message_in_the_language_asked(server, shared):
    answer = server.post(
        f"/api/v1/events/{shared['event']}/decklists",
        json={"deck": "x", "player": " "},
        headers={"Accept-Language": "ja"},
    )
    message = _assert_error(answer, 422)["error"]["message"]
    assert message.isascii() is False


def test_404_unknown_event(server):
    answer = server.post("/api/v1/events/nosuchevent/decklists", json={"player": "a", "deck": ""})
    _assert_error(answer, 404, "not_found")
    _assert_error(server.get("/api/v1/events/nosuchevent/public"), 404, "not_found")


def test_413_over_1_mib_before_anything_is_stored(server, shared):
    event = shared
    before = _count(server, event)
    deck = "# " + "x" * MIB
    answer = _submit(server, event, "Big", deck)
    _assert_error(answer, 413, "too_large")
    assert _count(server, event) == before
    # exactly at the limit is read (and the deck is refused as too large a file by the check)
    payload = {"player": "Edge", "deck": ""}
    room = MIB - len(json.dumps(payload).encode())
    payload["deck"] = "#" * room
    raw = json.dumps(payload).encode()
    assert len(raw) == MIB
    answer = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        body=raw,
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 201, answer


def test_413_for_a_chunked_body_over_1_mib(server, shared):
    """No Content-Length: the body is counted as it arrives."""
    event = shared
    before = _count(server, event)
    request = (
        f"POST /api/v1/events/{event['event']}/decklists HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"x" * 65536
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(request)
        for _ in range(MIB // len(chunk) + 1):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
        head = sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert _count(server, event) == before


def test_409_after_the_deadline_which_closes_submissions_by_itself(server, make_event):
    event = make_event(deadline=_in(10))  # event create alone can take seconds on a busy machine
    first = _submitted(server, event, "Early")
    state = server.get(f"/api/v1/events/{event['event']}").json()
    assert state["open"] is True
    time.sleep(max(0.0, _seconds_until(event["deadline"]) + 0.2))
    late = _submit(server, event, "Late", LEGAL.read_text(encoding="utf-8"))
    _assert_error(late, 409, "deadline_passed")
    replaced = server.put(
        f"/api/v1/decklists/{first['id']}",
        json={"deck": ILLEGAL.read_text(encoding="utf-8")},
        headers=_edit(first["edit_token"]),
    )
    _assert_error(replaced, 409, "deadline_passed")
    # the organiser may still fix a list
    fixed = server.put(
        f"/api/v1/decklists/{first['id']}",
        json={"deck": LEGAL_TXT.read_text(encoding="utf-8")},
        headers=event["headers"],
    )
    assert fixed.status == 200, fixed
    assert [r["player"] for r in _rows(server, event)] == ["Early"]


def _seconds_until(iso: str) -> float:
    when = datetime.datetime.fromisoformat(iso)
    return (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()


def test_409_after_a_lock_and_open_again_after_unlock(server, event):
    first = _submitted(server, event, "Before")
    locked = server.post(f"/api/v1/events/{event['event']}/lock", headers=event["headers"])
    assert locked.status == 200 and locked.json()["locked"] is True
    assert locked.json()["open"] is False
    _assert_error(_submit(server, event, "After", LEGAL.read_text(encoding="utf-8")), 409, "locked")
    answer = server.put(
        f"/api/v1/decklists/{first['id']}",
        json={"deck": ILLEGAL.read_text(encoding="utf-8")},
        headers=_edit(first["edit_token"]),
    )
    _assert_error(answer, 409, "locked")
    unlocked = server.post(f"/api/v1/events/{event['event']}/unlock", headers=event["headers"])
    assert unlocked.status == 200 and unlocked.json()["locked"] is False
    assert _submit(server, event, "After", LEGAL.read_text(encoding="utf-8")).status == 201


# --- GET / PUT /decklists/{id} ----------------------------------------------------------------


def test_player_sees_their_list_with_its_versions(server, shared):
    event = shared
    first = _submitted(server, event, "Vera", ILLEGAL)
    answer = server.get(f"/api/v1/decklists/{first['id']}", headers=_edit(first["edit_token"]))
    assert answer.status == 200, answer
    body = answer.json()
    assert body["player"] == "Vera"
    assert body["deck"] == ILLEGAL.read_text(encoding="utf-8")
    assert body["diagnostics"] == _checked(ILLEGAL)["diagnostics"]
    assert [v["deck_hash"] for v in body["versions"]] == [_registered(ILLEGAL)["deck_hash"]]
    localized = server.get(
        f"/api/v1/decklists/{first['id']}?lang=ja", headers=_edit(first["edit_token"])
    ).json()
    assert localized["diagnostics"] == _checked(ILLEGAL, "ja")["diagnostics"]


def test_every_version_is_kept_with_its_time(server, shared):
    event = shared
    first = _submitted(server, event, "Rita", ILLEGAL)
    headers = _edit(first["edit_token"])
    decks = [LEGAL, LEGAL_TXT, ILLEGAL, LEGAL]
    for path in decks:
        answer = server.put(
            f"/api/v1/decklists/{first['id']}",
            json={"deck": path.read_text(encoding="utf-8")},
            headers=headers,
        )
        assert answer.status == 200, answer
        assert answer.json()["deck_hash"] == _registered(path)["deck_hash"]
    body = server.get(f"/api/v1/decklists/{first['id']}", headers=headers).json()
    expected = [_registered(p)["deck_hash"] for p in (ILLEGAL, *decks)]
    assert [v["deck_hash"] for v in body["versions"]] == expected
    assert [v["legal"] for v in body["versions"]] == [False, True, True, False, True]
    times = [datetime.datetime.fromisoformat(v["submitted_at"]) for v in body["versions"]]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert body["deck"] == LEGAL.read_text(encoding="utf-8")
    row = next(r for r in _rows(server, event) if r["id"] == first["id"])
    assert row["versions"] == 5 and row["deck_hash"] == expected[-1]


def test_404_for_another_players_list_with_your_edit_token(server, shared):
    event = shared
    mine = _submitted(server, event, "Mine")
    theirs = _submitted(server, event, "Theirs")
    answer = server.get(f"/api/v1/decklists/{theirs['id']}", headers=_edit(mine["edit_token"]))
    _assert_error(answer, 404, "not_found")
    answer = server.put(
        f"/api/v1/decklists/{theirs['id']}",
        json={"deck": ILLEGAL.read_text(encoding="utf-8")},
        headers=_edit(mine["edit_token"]),
    )
    _assert_error(answer, 404, "not_found")
    # nothing changed on their list
    body = server.get(f"/api/v1/decklists/{theirs['id']}", headers=_edit(theirs["edit_token"]))
    assert len(body.json()["versions"]) == 1


@pytest.mark.parametrize("headers", [{}, {"X-Edit-Token": "not-a-token"}])
def test_404_for_a_list_without_its_token(server, shared, headers):
    mine = _submitted(server, shared, "Hidden")
    _assert_error(server.get(f"/api/v1/decklists/{mine['id']}", headers=headers), 404)
    _assert_error(server.get("/api/v1/decklists/999999999", headers=headers), 404)
    _assert_error(server.get("/api/v1/decklists/not-a-number", headers=headers), 404)


def test_organiser_of_another_event_gets_404_for_a_list(server, shared, other):
    event = shared
    listed = _submitted(server, event, "Private")
    answer = server.get(f"/api/v1/decklists/{listed['id']}", headers=other["headers"])
    _assert_error(answer, 404)
    answer = server.get(f"/api/v1/decklists/{listed['id']}", headers=event["headers"])
    assert answer.status == 200 and answer.json()["player"] == "Private"


# --- The organiser's endpoints ----------------------------------------------------------------


ORGANISER_ONLY = [
    ("GET", "decklists"),
    ("POST", "lock"),
    ("POST", "unlock"),
    ("POST", "publish"),
    ("GET", "export.csv"),
]


def test_401_without_an_organiser_token(server, shared):
    for method, tail in ORGANISER_ONLY:
        for headers in ({}, {"Authorization": "Basic eDp5"}, {"Authorization": "Bearer "}):
            answer = server.request(
                method, f"/api/v1/events/{shared['event']}/{tail}", headers=headers
            )
            _assert_error(answer, 401, "unauthorized")
    state = server.get(f"/api/v1/events/{shared['event']}").json()
    assert state["locked"] is False and state["published"] is False


def test_403_with_another_events_organiser_token(server, shared, other):
    for method, tail in ORGANISER_ONLY:
        answer = server.request(
            method, f"/api/v1/events/{shared['event']}/{tail}", headers=other["headers"]
        )
        _assert_error(answer, 403, "forbidden")
    state = server.get(f"/api/v1/events/{shared['event']}").json()
    assert state["locked"] is False and state["published"] is False


def test_organiser_list_has_every_list_with_its_errors(server, shared):
    a = _submitted(server, shared, "Ann", LEGAL)
    b = _submitted(server, shared, "Bob", ILLEGAL)
    rows = [r for r in _rows(server, shared) if r["id"] in (a["id"], b["id"])]
    assert [r["id"] for r in rows] == [a["id"], b["id"]]
    for row in rows:
        assert {"id", "player", "submitted_at", "legal", "deck_hash", "errors"} <= set(row)
    assert rows[0]["errors"] == [] and rows[0]["legal"] is True
    assert set(rows[1]["errors"]) == {
        d["code"] for d in _checked(ILLEGAL)["diagnostics"] if d["severity"] == "error"
    }


def test_publish_then_public_lists(server, event):
    _submitted(server, event, "Pia", LEGAL)
    _assert_error(server.get(f"/api/v1/events/{event['event']}/public"), 404, "not_found")
    published = server.post(f"/api/v1/events/{event['event']}/publish", headers=event["headers"])
    assert published.status == 200 and published.json()["published"] is True
    answer = server.get(f"/api/v1/events/{event['event']}/public")
    assert answer.status == 200, answer
    (entry,) = answer.json()
    expected = _registered(LEGAL)
    assert entry["player"] == "Pia"
    assert entry["deck_hash"] == expected["deck_hash"]
    assert entry["cards"] == expected["cards"]


def test_csv_export_has_the_register_columns_one_row_per_player(server, event):
    _submitted(server, event, "Ann", LEGAL)
    _submitted(server, event, "Bob", ILLEGAL)
    answer = server.get(f"/api/v1/events/{event['event']}/export.csv", headers=event["headers"])
    assert answer.status == 200, answer
    assert answer.header("Content-Type").startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.text)))
    done = run_cli(["register", str(LEGAL), "--output", "csv"], cwd=ROOT)
    assert rows[0] == [*next(csv.reader(io.StringIO(done.stdout))), "submitted_at", "changed_at"]
    assert [r[1] for r in rows[1:]] == ["Ann", "Bob"]
    columns = dict(zip(rows[0], rows[2], strict=True))
    assert columns["legal"] == "false"
    assert columns["deck_hash"] == _registered(ILLEGAL)["deck_hash"]
    assert columns["event"] == event["name"]


HOSTILE = "=cmd|' /C calc'!A0 <script>alert(1)</script> \x1b[31mred\x1b[0m \u202egnp.exe\u202c"


def test_hostile_player_names_come_back_escaped_in_the_csv(server, shared):
    ids = {}
    for start in ("=", "+", "-", "@", "\t", "\r"):
        ids[str(_submitted(server, shared, start + HOSTILE, LEGAL)["id"])] = start
    answer = server.get(f"/api/v1/events/{shared['event']}/export.csv", headers=shared["headers"])
    text = answer.text
    assert "\x1b" not in text and "\u202e" not in text and "\u202c" not in text
    rows = [r for r in csv.reader(io.StringIO(text)) if r and r[0] in ids]
    assert len(rows) == len(ids)
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
        assert row[1].startswith("'")
        assert "<script>" in row[1]  # CSV is no HTML: kept as text, never a formula


def test_hostile_text_is_escaped_in_json(server, shared):
    body = _submitted(server, shared, "A" + HOSTILE, LEGAL)
    answer = server.get(f"/api/v1/decklists/{body['id']}", headers=_edit(body["edit_token"]))
    raw = answer.body.decode("utf-8")
    assert "\x1b" not in raw and "\u202e" not in raw
    assert answer.json()["player"] == "A" + " ".join(HOSTILE.split())


# --- Tokens, headers, sign-in -------------------------------------------------------------------


def _database_text(database: Any) -> str:
    """Every value of every table of the server's database, as text."""
    out = []
    if database.kind == "sqlite":
        path = database.url.split("sqlite:///", 1)[1]
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            tables = [
                r[0]
                for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            for table in tables:
                out += [repr(row) for row in connection.execute(f'SELECT * FROM "{table}"')]
    else:
        psycopg = pytest.importorskip("psycopg")
        with psycopg.connect(database.url) as connection:
            tables = connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema='public'"
            ).fetchall()
            for (table,) in tables:
                rows = connection.execute(f'SELECT * FROM "{table}"').fetchall()
                out += [repr(row) for row in rows]
    return "\n".join(out)


def test_tokens_are_stored_only_as_hashes(server, database, shared, other):
    body = _submitted(server, shared, "Tess")
    server.get(shared["organiser_url"])  # a session row too
    stored = _database_text(database)
    for token in (shared["organiser_token"], other["organiser_token"], body["edit_token"]):
        assert token not in stored
        assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_tokens_are_random_and_long(server, shared, other):
    tokens = [shared["organiser_token"], other["organiser_token"]]
    tokens += [_submitted(server, shared, "Toby")["edit_token"] for _ in range(3)]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 22 for t in tokens)  # >= 128 bits in URL-safe base64


def test_security_headers_on_every_answer(server, shared):
    for path in ("/healthz", "/api/v1/openapi.json", f"/api/v1/events/{shared['event']}", "/x"):
        answer = server.get(path)
        policy = answer.header("Content-Security-Policy") or ""
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "http:" not in policy and "https:" not in policy and "*" not in policy
        assert answer.header("X-Content-Type-Options") == "nosniff"
        assert answer.header("Referrer-Policy") in ("same-origin", "no-referrer")


def test_organiser_link_signs_in_and_drops_the_token(server, shared):
    event = shared
    answer = server.get(event["organiser_url"])
    assert answer.status == 302, answer
    location = answer.header("Location")
    assert location == f"/events/{event['event']}/dashboard"
    assert event["organiser_token"] not in location
    cookie = answer.header("Set-Cookie") or ""
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain http on the venue's LAN
    assert answer.header("Referrer-Policy") == "no-referrer"
    _assert_no_sign_in(server.get("/o/not-a-real-token"))


def _assert_no_sign_in(answer: Any) -> None:
    assert answer.status == 404
    assert not answer.header("Set-Cookie")


def test_session_cookie_is_secure_over_https(server, shared):
    """Behind a TLS proxy on the same machine (gunicorn trusts 127.0.0.1's X-Forwarded-Proto)."""
    answer = server.get(shared["organiser_url"], headers={"X-Forwarded-Proto": "https"})
    cookie = answer.header("Set-Cookie") or ""
    assert "Secure" in cookie and "HttpOnly" in cookie


# --- The rest of the API ------------------------------------------------------------------------


def test_openapi_document_describes_every_endpoint(server):
    answer = server.get("/api/v1/openapi.json")
    assert answer.status == 200
    paths = answer.json()["paths"]
    expected = {
        "/api/v1/events/{event}/decklists": {"post", "get"},
        "/api/v1/decklists/{decklist}": {"get", "put"},
        "/api/v1/events/{event}/lock": {"post"},
        "/api/v1/events/{event}/unlock": {"post"},
        "/api/v1/events/{event}/publish": {"post"},
        "/api/v1/events/{event}/export.csv": {"get"},
        "/api/v1/events/{event}/public": {"get"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    post = paths["/api/v1/events/{event}/decklists"]["post"]["responses"]
    assert {"201", "404", "409", "413", "422"} <= set(post)


def test_live_check_stores_nothing(server, shared):
    before = _count(server, shared)
    answer = server.post(
        f"/api/v1/events/{shared['event']}/check",
        json={"deck": ILLEGAL.read_text(encoding="utf-8"), "lang": "ja"},
    )
    assert answer.status == 200, answer
    assert answer.json()["diagnostics"] == _checked(ILLEGAL, "ja")["diagnostics"]
    assert _count(server, shared) == before


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[]",
        b'{"player": 3, "deck": []}',
        b'{"player": "a", "deck": "", "lang": "x"}',
    ],
)
def test_malformed_requests_get_the_error_shape_never_500(server, shared, body):
    before = _count(server, shared)
    answer = server.post(
        f"/api/v1/events/{shared['event']}/decklists",
        body=body,
        headers={"Content-Type": "application/json"},
    )
    assert answer.status in (400, 422), answer
    _assert_error(answer, answer.status)
    assert _count(server, shared) == before


def test_healthz(server):
    answer = server.get("/healthz")
    assert answer.status == 200 and answer.json()["status"] == "ok"


def test_a_nul_in_a_name_or_deck_is_kept_as_a_replacement_character(server, shared):
    """PostgreSQL cannot store a NUL: it becomes U+FFFD everywhere, never a 5xx."""
    deck = LEGAL.read_text(encoding="utf-8") + "# \x00\n"
    answer = _submit(server, shared, "Nul\x00Player", deck)
    assert answer.status == 201, answer
    body = answer.json()
    stored = server.get(f"/api/v1/decklists/{body['id']}", headers=_edit(body["edit_token"]))
    assert stored.json()["player"] == "Nul\ufffdPlayer"
    assert stored.json()["deck"] == deck.replace("\x00", "\ufffd")


def test_concurrent_replacements_each_get_their_own_version(server, shared):
    from concurrent.futures import ThreadPoolExecutor

    first = _submitted(server, shared, "Racer", ILLEGAL)
    decks = [LEGAL, LEGAL_TXT, ILLEGAL, LEGAL] * 2

    def put(path: Path) -> int:
        answer = server.put(
            f"/api/v1/decklists/{first['id']}",
            json={"deck": path.read_text(encoding="utf-8")},
            headers=_edit(first["edit_token"]),
        )
        assert answer.status == 200, answer
        number: int = answer.json()["version"]
        return number

    with ThreadPoolExecutor(len(decks)) as pool:
        numbers = list(pool.map(put, decks))
    assert sorted(numbers) == list(range(2, len(decks) + 2))
    body = server.get(f"/api/v1/decklists/{first['id']}", headers=_edit(first["edit_token"]))
    assert [v["version"] for v in body.json()["versions"]] == list(range(1, len(decks) + 2))


def test_metagame_counts_each_hero(server, make_event):
    from collections import Counter

    event = make_event()
    decks = [LEGAL, LEGAL_TXT, ILLEGAL, EXAMPLES / "red-kagura-festival.yaml", LEGAL]
    for number, path in enumerate(decks):
        _submitted(server, event, f"Player {number}", path)
    answer = server.get(f"/api/v1/events/{event['event']}/metagame", headers=event["headers"])
    assert answer.status == 200, answer
    heroes = Counter(_registered(p)["cards"]["hero"]["name"] for p in decks)
    legal = Counter(_registered(p)["cards"]["hero"]["name"] for p in decks if _checked(p)["legal"])
    rows = answer.json()
    assert {r["lead"]: r["lists"] for r in rows} == dict(heroes)
    assert {r["lead"]: r["legal"] for r in rows} == {h: legal[h] for h in heroes}
    assert [r["lists"] for r in rows] == sorted((r["lists"] for r in rows), reverse=True)
    assert sum(r["share"] for r in rows) == pytest.approx(1.0)
    _assert_error(server.get(f"/api/v1/events/{event['event']}/metagame"), 401)


def test_sheets_document_has_a_page_per_player_escaped(server, make_event):
    import base64
    import re

    event = make_event()
    players = ["Sheet One", "<script>alert(1)</script>", "Sheet Three"]
    for player, path in zip(players, (LEGAL, ILLEGAL, LEGAL_TXT), strict=True):
        _submitted(server, event, player, path)
    answer = server.get(f"/api/v1/events/{event['event']}/sheets", headers=event["headers"])
    assert answer.status == 200, answer
    assert answer.header("Content-Type").startswith("text/html")
    html = answer.text
    assert html.count('<article class="sheet') == len(players)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Sheet One" in html and "Sheet Three" in html
    # the document's own <style> is allowed by its hash, never by 'unsafe-inline'
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    policy = answer.header("Content-Security-Policy")
    assert f"'sha256-{digest}'" in policy and "unsafe-inline" not in policy
    japanese = server.get(
        f"/api/v1/events/{event['event']}/sheets?lang=ja", headers=event["headers"]
    )
    assert 'lang="ja"' in japanese.text
