"""A list whose verdict changed since it was submitted says so (issue 26 point 7), on SQLite and
PostgreSQL.

A legal list is submitted; `serve` restarts with card data that bans one of its cards: the API
gives `"changed_since_submitted": true` (the list and the organiser's rows), the dashboard flags
the row and the player's private page says when the list became illegal and why, in the player's
language. A list the ban does not touch, and a list replaced after it, are not flagged. A change
of the event's date alone re-checks every current list when `serve` starts.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import ROOT, Database, LiveServer
from test_pages import LEGAL, OTHER_LEGAL, signed_in, text_of

BANNED = "VZ01-008"  # in LEGAL (three copies), not in OTHER_LEGAL


def _set_date(database: Database, key: str, date: str) -> None:
    """Change an event's date in its database, as a later `event` command could."""
    if database.kind == "sqlite":
        import sqlite3

        path = database.url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as connection:
            connection.execute("UPDATE varzdeck_event SET date = ? WHERE key = ?", (date, key))
    else:
        import psycopg

        with psycopg.connect(database.url) as connection:
            connection.execute("UPDATE varzdeck_event SET date = %s WHERE key = %s", (date, key))


def _start_log(server: LiveServer) -> str:
    return server.log.read_text(encoding="utf-8").rsplit("--- start", 1)[1]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_list_made_illegal_by_new_card_data_is_flagged_everywhere(
    kind: str,
    make_database: Callable[..., Database],
    live_server: Callable[..., LiveServer],
    tmp_path: Path,
) -> None:
    assert BANNED in LEGAL.read_text(encoding="utf-8")
    assert BANNED not in OTHER_LEGAL.read_text(encoding="utf-8")
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "card_data" / "varz", cards)
    database = make_database(kind, "flag")
    server = live_server(database, extra_args=["--cards", str(cards)])
    event = server.create_event(
        "Flag Day", format="standard", extra_args=["--timezone", "Asia/Tokyo"]
    )
    key, headers = event["event"], event["headers"]
    lists = {}
    for player, path in (("Aoi", LEGAL), ("Ren", OTHER_LEGAL), ("Sora", LEGAL)):
        answer = server.post(
            f"/api/v1/events/{key}/decklists",
            json={"player": player, "deck": path.read_text(encoding="utf-8")},
        )
        assert answer.status == 201 and answer.json()["legal"] is True, answer
        lists[player] = answer.json()
    aoi = lists["Aoi"]
    mine = {"X-Edit-Token": aoi["edit_token"]}
    assert (
        server.get(f"/api/v1/decklists/{aoi['id']}", headers=mine).json()["changed_since_submitted"]
        is False
    )

    server.stop()
    formats = cards / "formats.yaml"
    text = formats.read_text(encoding="utf-8")
    assert "banned: [VZ01-031]" in text
    formats.write_text(text.replace("banned: [VZ01-031]", f"banned: [VZ01-031, {BANNED}]"))
    server.start()
    assert "3 lists were checked again" in _start_log(server), _start_log(server)

    # Sora fixes the list after the ban: a new version, checked now, is not flagged
    sora = lists["Sora"]
    fixed = server.put(
        f"/api/v1/decklists/{sora['id']}",
        json={"deck": OTHER_LEGAL.read_text(encoding="utf-8")},
        headers={"X-Edit-Token": sora["edit_token"]},
    )
    assert fixed.status == 200, fixed

    answer = server.get(f"/api/v1/decklists/{aoi['id']}", headers=mine).json()
    assert answer["legal"] is False and answer["changed_since_submitted"] is True, answer
    assert answer["changed_at"].endswith("+09:00"), answer
    rows = server.get(f"/api/v1/events/{key}/decklists", headers=headers).json()
    assert [(r["player"], r["legal"], r["changed_since_submitted"]) for r in rows] == [
        ("Aoi", False, True),
        ("Ren", True, False),
        ("Sora", True, False),
    ]
    ren = lists["Ren"]
    theirs = server.get(f"/api/v1/decklists/{ren['id']}", headers=headers).json()
    assert theirs["changed_since_submitted"] is False and theirs["changed_at"] is None

    dashboard = text_of(signed_in(server, event).get(f"/events/{key}/dashboard"))
    assert "became illegal on" in dashboard and "V115" in dashboard, dashboard
    assert dashboard.count("became illegal on") == 1
    private = f"/decklists/{aoi['id']}/{aoi['edit_token']}"
    english = text_of(server.get(f"{private}?lang=en"))
    assert "Your list became illegal on" in english and "(UTC+09:00, Asia/Tokyo): V115" in english
    japanese = text_of(server.get(f"{private}?lang=ja"))
    assert "使用不可になりました" in japanese and "V115" in japanese, japanese
    other = text_of(server.get(f"/decklists/{ren['id']}/{ren['edit_token']}?lang=en"))
    assert "became" not in other

    # the same data again: nothing checked again; the flag stays
    server.restart()
    assert "checked again" not in _start_log(server)
    assert (
        server.get(f"/api/v1/decklists/{aoi['id']}", headers=mine).json()["changed_since_submitted"]
        is True
    )

    # the event's date changes: every current list is checked again (its verdict stays)
    server.stop()
    _set_date(database, key, "2031-03-01")
    server.start()
    assert "3 lists were checked again" in _start_log(server), _start_log(server)
    rows = server.get(f"/api/v1/events/{key}/decklists", headers=headers).json()
    assert [(r["legal"], r["changed_since_submitted"]) for r in rows] == [
        (False, True),
        (True, False),
        (True, False),
    ]
    assert server.get(f"/api/v1/events/{key}").json()["date"] == "2031-03-01"
    server.stop()
