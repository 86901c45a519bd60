"""The roster (SPEC §9 "Roster", issue 26) over real HTTP, on SQLite and on PostgreSQL: the
organiser uploads a CSV, each player gets a personal link, every list is matched to a player by
player id, and the organiser sees who is missing, legal or illegal, and exports the links.

The expected values are written here by hand (names, ids, counts, statuses, lines)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from harness import ROOT

LEGAL = (ROOT / "examples" / "blue-minase-tide.yaml").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "examples" / "illegal.yaml").read_text(encoding="utf-8")
# any column order, a BOM, CRLF line ends, a quoted name holding a comma and a quote
FIRST = (
    "\ufeffemail,player_id,name\r\n"
    "ann@example.org,P001,Ann Lee\r\n"
    ',P002,"Baker, ""Bo"""\r\n'
    "cy@example.org,P003,Cy Doe\r\n"
)


def _upload(server: Any, event: dict[str, Any], body: str | bytes, kind: str = "text/csv") -> Any:
    return server.post(
        f"/api/v1/events/{event['event']}/roster",
        body=body.encode() if isinstance(body, str) else body,
        headers={**event["headers"], "Content-Type": kind},
    )


def _roster(server: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    answer = server.get(f"/api/v1/events/{event['event']}/roster", headers=event["headers"])
    assert answer.status == 200, answer
    rows: list[dict[str, Any]] = answer.json()
    return rows


def _by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["player_id"]: row for row in rows if row["on_roster"]}


def _submit(server: Any, event: dict[str, Any], player: str, deck: str, **extra: str) -> int:
    answer = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": player, "deck": deck, **extra},
    )
    assert answer.status == 201, answer
    number: int = answer.json()["id"]
    return number


def test_an_uploaded_roster_lists_every_player_missing_with_a_personal_link(server: Any) -> None:
    event = server.create_event("Roster Open")
    answer = _upload(server, event, FIRST)
    assert answer.status == 200, answer
    assert answer.json() == {"players": 3, "new": 3, "updated": 0, "not_in_file": 0}
    rows = _roster(server, event)
    assert [(r["name"], r["player_id"], r["email"], r["status"], r["list"]) for r in rows] == [
        ("Ann Lee", "P001", "ann@example.org", "missing", None),
        ('Baker, "Bo"', "P002", None, "missing", None),
        ("Cy Doe", "P003", "cy@example.org", "missing", None),
    ]
    links = [r["link"] for r in rows]
    assert len(set(links)) == 3
    for link in links:
        # an absolute link of this server; its token at least 128 bits (22 base64 characters)
        assert re.fullmatch(re.escape(server.base_url) + r"/p/[A-Za-z0-9_-]{22,}", link), link
        assert server.get(link.removeprefix(server.base_url)).status == 200
    assert server.get("/p/" + "A" * 32).status == 404
    log = server.get(f"/api/v1/events/{event['event']}/audit", headers=event["headers"]).json()
    assert [(e["action"], e["detail"]) for e in log] == [("roster", "3 players (3 new)")]


def test_lists_are_matched_by_player_id_else_not_on_the_roster(server: Any) -> None:
    event = server.create_event("Roster Match")
    # lists sent before the roster is uploaded are matched by the id they name
    ann = _submit(server, event, "Ann", LEGAL, player_id="P001")
    cy = _submit(server, event, "Cy", ILLEGAL, player_id=" P003 ")  # spaces around: the same id
    stranger = _submit(server, event, "Dee", LEGAL, player_id="P999")
    nobody = _submit(server, event, "Eve", LEGAL)
    assert _upload(server, event, FIRST).status == 200
    rows = _roster(server, event)
    on = _by_id(rows)
    assert (on["P001"]["status"], on["P001"]["list"]) == ("legal", ann)
    assert (on["P002"]["status"], on["P002"]["list"]) == ("missing", None)
    assert (on["P003"]["status"], on["P003"]["list"]) == ("illegal", cy)
    off = [(r["name"], r["player_id"], r["list"], r["status"]) for r in rows if not r["on_roster"]]
    assert off == [("Dee", "P999", stranger, "legal"), ("Eve", None, nobody, "legal")]
    assert all(r["link"] is None for r in rows if not r["on_roster"])
    # a second list for Cy's id is refused now that the id is on the roster: his link submits it
    again = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": "Cy", "deck": LEGAL, "player_id": "P003"},
    )
    assert again.status == 409 and again.json()["error"]["code"] == "player_id_rostered"
    # and a second list for an id off the roster is refused too: its private link replaces it
    twice = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": "Dee", "deck": ILLEGAL, "player_id": "P999"},
    )
    assert twice.status == 409 and twice.json()["error"]["code"] == "player_id_taken"
    assert _by_id(_roster(server, event))["P003"]["list"] == cy
    # a player id too long for any roster is refused like any bad field
    long_id = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": "Fay", "deck": LEGAL, "player_id": "x" * 65},
    )
    assert long_id.status == 422


def test_uploading_again_updates_known_players_adds_new_ones_and_keeps_the_others(
    server: Any,
) -> None:
    event = server.create_event("Roster Again")
    assert _upload(server, event, FIRST).status == 200
    before = _by_id(_roster(server, event))
    again = "name,player_id,email\nAnn Lee-Smith,P001,ann@new.example\nCy Doe,P003,\nDan,P004,\n"
    answer = _upload(server, event, again)
    assert answer.status == 200, answer
    assert answer.json() == {"players": 3, "new": 1, "updated": 2, "not_in_file": 1}
    after = _by_id(_roster(server, event))
    assert sorted(after) == ["P001", "P002", "P003", "P004"]  # P002 kept though not in the file
    assert (after["P001"]["name"], after["P001"]["email"]) == ("Ann Lee-Smith", "ann@new.example")
    assert after["P003"]["email"] is None
    assert all(after[p]["link"] == before[p]["link"] for p in before)  # links never change
    log = server.get(f"/api/v1/events/{event['event']}/audit", headers=event["headers"]).json()
    assert [e["detail"] for e in log] == [
        "3 players (3 new)",
        "3 players (1 new, 1 not in this file)",
    ]


BAD = [
    ("name,player_id\nAnn,P1\n,P2\n", "line 3", "name"),
    ("name,player_id\nAnn,P1\nBo,   \n", "line 3", "player id"),
    ("name,player_id\nAnn,P1\nBo,P2\nAnn Again,P1\n", "line 4", "line 2"),
    ("name,player_id,email\nAnn,P1,ann@example.org\nBo,P2,not-an-address\n", "line 3", "email"),
    ("name,player_id,phone\nAnn,P1,123\n", "line 1", "phone"),
    ("name,email\nAnn,ann@example.org\n", "line 1", "player_id"),
    ("name,player_id\nAnn,P1,extra\n", "line 2", "3"),
    ('name,player_id\nAnn,P1\n"Bo,P2\n', "line 3", "quote"),
    ('{"players": [{"name": "Ann"}]}', "line 1", "column"),
    ("name,player_id\nAnn,P1\n\xff\xfeBo,P2\n", "line 3", "UTF-8"),
    ("name,player_id\nAnn,P\x001\n", "line 2", "NUL"),
    ("", "", "header"),
    ("name,player_id\n" + "".join(f"N{i},{i}\n" for i in range(20_001)), "line 20002", "20,000"),
]


def test_a_bad_roster_is_422_naming_the_line_and_stores_nothing(server: Any) -> None:
    event = server.create_event("Roster Bad")
    for body, line, fix in BAD:
        data = body.encode("latin-1") if "\xff" in body else body.encode()
        answer = _upload(server, event, data)
        assert answer.status == 422, (body[:60], answer)
        error = answer.json()["error"]
        assert error["code"] == "invalid_roster"
        assert line in error["message"] and fix in error["message"], (body[:60], error)
        assert error["problems"][0]["line"] == (int(line.split()[1]) if line else 0), error
    assert _roster(server, event) == []
    log = server.get(f"/api/v1/events/{event['event']}/audit", headers=event["headers"]).json()
    assert log == []
    # every problem is named, not only the first
    answer = _upload(server, event, "name,player_id\n,P1\nBo,\nCy,P3\n")
    assert [p["line"] for p in answer.json()["error"]["problems"]] == [2, 3]


def test_a_roster_in_another_content_type_is_415(server: Any) -> None:
    event = server.create_event("Roster Type")
    for kind in ("application/json", "text/plain", "multipart/form-data; boundary=x"):
        assert _upload(server, event, "name,player_id\nAnn,P1\n", kind).status == 415, kind
    assert (
        _upload(server, event, "name,player_id\nAnn,P1\n", "text/csv; charset=utf-8").status == 200
    )
    paths = server.get("/api/v1/openapi.json").json()["paths"]
    upload = paths["/api/v1/events/{event}/roster"]["post"]
    assert list(upload["requestBody"]["content"]) == ["text/csv"]
    assert {"200", "401", "403", "404", "413", "415", "422"} <= set(upload["responses"])
    assert {"get"} <= set(paths["/api/v1/events/{event}/roster.csv"])


def test_the_roster_is_the_organisers_only(server: Any) -> None:
    event = server.create_event("Roster Closed")
    other = server.create_event("Roster Other")
    key = event["event"]
    for method, path in (
        ("GET", f"/api/v1/events/{key}/roster"),
        ("GET", f"/api/v1/events/{key}/roster.csv"),
        ("POST", f"/api/v1/events/{key}/roster"),
    ):
        body = b"name,player_id\nMallory,P1\n"
        csv_type = {"Content-Type": "text/csv"}
        assert server.request(method, path, body=body, headers=csv_type).status == 401, path
        headers = {**other["headers"], **csv_type}
        assert server.request(method, path, body=body, headers=headers).status == 403, path
        missing = path.replace(key, "nosuchevent")
        headers = {**event["headers"], **csv_type}
        assert server.request(method, missing, body=body, headers=headers).status == 404, path
    assert _roster(server, event) == []


HOSTILE = [
    ("=cmd|' /C calc'!A0", "P1"),
    ("+SUM(1,2)", "P2"),
    ('@HYPERLINK("http://x")', "P3"),
    ("-2+3", "P4"),
    ("Ann\u202eeL\x1b[31m", "=P5"),
]


def test_the_links_csv_is_formula_safe_and_matches_the_roster(server: Any) -> None:
    event = server.create_event("Roster Links")
    # a list matched through the roster (sent before the roster, naming P1): exported safely too
    _submit(server, event, "=cmd|' /C calc'!A0", LEGAL, player_id="P1")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["name", "player_id", "email"])
    for name, player_id in HOSTILE:
        writer.writerow([name, player_id, ""])
    assert _upload(server, event, buffer.getvalue()).status == 200
    links = {r["player_id"]: r["link"] for r in _roster(server, event)}
    answer = server.get(f"/api/v1/events/{event['event']}/roster.csv", headers=event["headers"])
    assert answer.status == 200 and answer.header("Content-Type").startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0] == ["name", "player_id", "email", "link"]
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == [
        ("'=cmd|' /C calc'!A0", "P1", links["P1"]),
        ("'+SUM(1,2)", "P2", links["P2"]),
        ('\'@HYPERLINK("http://x")', "P3", links["P3"]),
        ("'-2+3", "P4", links["P4"]),
        ("Ann\\u202eeL\\x1b[31m", "'=P5", links["=P5"]),
    ]
    # the export of the lists is formula-safe too, for a list matched through the roster
    exported = server.get(f"/api/v1/events/{event['event']}/export.csv", headers=event["headers"])
    cells = [cell for row in csv.reader(io.StringIO(exported.text)) for cell in row]
    assert "'=cmd|' /C calc'!A0" in cells
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)


def test_a_roster_over_the_body_limit_is_413(server: Any) -> None:
    event = server.create_event("Roster Large")
    body = ("name,player_id\n" + "x" * (1024 * 1024 + 1)).encode()
    assert _upload(server, event, body).status == 413
    assert _roster(server, event) == []


def test_a_withdrawn_list_leaves_its_player_missing_again(server: Any) -> None:
    event = server.create_event("Roster Withdrawn")
    junk = _submit(server, event, "Ann", ILLEGAL, player_id="P001")  # before the roster
    stray = _submit(server, event, "Zed", LEGAL, player_id="P404")
    assert _upload(server, event, FIRST).status == 200
    assert _by_id(_roster(server, event))["P001"]["status"] == "illegal"
    for number in (junk, stray):
        answer = server.request("DELETE", f"/api/v1/decklists/{number}", headers=event["headers"])
        assert answer.status == 200, answer
    rows = _roster(server, event)
    assert (_by_id(rows)["P001"]["status"], _by_id(rows)["P001"]["list"]) == ("missing", None)
    assert [r for r in rows if not r["on_roster"]] == []  # nor "not on the roster" any more
    assert server.post(f"/api/v1/decklists/{junk}/restore", headers=event["headers"]).status == 200
    assert _by_id(_roster(server, event))["P001"]["list"] == junk
