"""Faults, with the real server on SQLite and on PostgreSQL (SPEC §9: "Nothing is lost").

- SIGKILL in the middle of a concurrent load (200 submissions from 20 clients): after a restart on
  the same database every submission that was answered 201 is there, with its hash and player;
  nothing else was stored but requests in flight at the kill; no list is half-written (every list
  has a version, and its current version is its own).
- A client that sends half a body and disconnects (a Content-Length body, or a chunked one) leaves
  nothing written, and the server goes on answering.
Everything on 127.0.0.1, bounded in count and time.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import struct
import threading
import time
from contextlib import closing
from typing import Any

import pytest
from harness import HOST, TRANSPORT_ERRORS, Database, LiveServer, deck_variants

KINDS = ("sqlite", "postgresql")
SUBMISSIONS = 200
CLIENTS = 20
KILL_AFTER = 60  # acknowledged submissions before the SIGKILL


def sql(database: Database, query: str) -> list[tuple[Any, ...]]:
    """Read the server's database directly (not through the server under test)."""
    if database.kind == "sqlite":
        path = database.url.removeprefix("sqlite:///")
        with closing(sqlite3.connect(path, timeout=30)) as connection:
            return connection.execute(query).fetchall()
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(database.url, connect_timeout=10) as connection:
        return connection.execute(query).fetchall()


def assert_nothing_half_written(database: Database) -> None:
    lists = sql(database, "SELECT count(*) FROM varzdeck_decklist")[0][0]
    without_version = sql(
        database,
        "SELECT count(*) FROM varzdeck_decklist d WHERE NOT EXISTS "
        "(SELECT 1 FROM varzdeck_version v WHERE v.decklist_id = d.id)",
    )[0][0]
    without_current = sql(
        database, "SELECT count(*) FROM varzdeck_decklist WHERE current_id IS NULL"
    )[0][0]
    foreign_current = sql(
        database,
        "SELECT count(*) FROM varzdeck_decklist d JOIN varzdeck_version v ON v.id = d.current_id "
        "WHERE v.decklist_id <> d.id",
    )[0][0]
    orphans = sql(
        database,
        "SELECT count(*) FROM varzdeck_version v WHERE NOT EXISTS "
        "(SELECT 1 FROM varzdeck_decklist d WHERE d.id = v.decklist_id)",
    )[0][0]
    assert (without_version, without_current, foreign_current, orphans) == (0, 0, 0, 0), lists


def stored(server: LiveServer, event: dict[str, Any]) -> dict[int, dict[str, Any]]:
    answer = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert answer.status == 200, answer
    rows = answer.json()
    by_id = {row["id"]: row for row in rows}
    assert len(by_id) == len(rows)  # no id twice
    return by_id


@pytest.mark.parametrize("kind", KINDS)
def test_sigkill_mid_load_keeps_every_acknowledged_submission(kind, make_database, live_server):
    database = make_database(kind, "sigkill")
    server = live_server(database)
    event = server.create_event("Fault Open")
    decks = deck_variants("varz", SUBMISSIONS, seed=13)
    jobs = list(enumerate(decks))
    lock = threading.Lock()
    acknowledged: dict[int, tuple[str, str | None]] = {}  # id -> (player, hash)
    sent: set[str] = set()
    failed: list[str] = []
    other: list[Any] = []
    enough = threading.Event()

    def work() -> None:
        client = server.client(timeout=30)
        try:
            while True:
                with lock:
                    if not jobs:
                        return
                    number, deck = jobs.pop()
                    player = f"Player {number:03}"
                    sent.add(player)
                try:
                    answer = client.post(
                        f"/api/v1/events/{event['event']}/decklists",
                        json={"player": player, "deck": deck},
                        # each player from an address of their own: submissions are limited
                        # per address
                        headers={"X-Forwarded-For": f"10.13.{number // 250}.{number % 250 + 1}"},
                    )
                except TRANSPORT_ERRORS:  # the server died under this request
                    with lock:
                        failed.append(player)
                    return
                with lock:
                    if answer.status == 201:
                        body = answer.json()
                        acknowledged[body["id"]] = (player, body["deck_hash"])
                        if len(acknowledged) >= KILL_AFTER:
                            enough.set()
                    else:
                        other.append(answer)
        finally:
            client.close()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    assert enough.wait(120), f"only {len(acknowledged)} submissions answered: {other[:3]}"
    server.kill()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert not other, other[:3]
    assert failed, "the kill came when no request was in flight"
    assert len(acknowledged) < SUBMISSIONS

    server.start()  # the same database, after the crash
    found = stored(server, event)
    for decklist_id, (player, deck_hash) in acknowledged.items():
        assert decklist_id in found, (decklist_id, player)
        assert (found[decklist_id]["player"], found[decklist_id]["deck_hash"]) == (
            player,
            deck_hash,
        )
    extra = {row["player"] for i, row in found.items() if i not in acknowledged}
    assert extra <= set(failed)  # only requests in flight at the kill, at most once each
    assert len(found) == len({row["player"] for row in found.values()})
    assert_nothing_half_written(database)
    # every list of the event is in the organiser's list (a list without a version would not be)
    assert sql(database, "SELECT count(*) FROM varzdeck_decklist")[0][0] == len(found)
    assert sent >= {row["player"] for row in found.values()}

    after = server.post(
        f"/api/v1/events/{event['event']}/decklists", json={"player": "After", "deck": decks[0]}
    )
    assert after.status == 201, after


@pytest.fixture(scope="module")
def quiet_event(server: LiveServer) -> dict[str, Any]:
    return server.create_event("Disconnect Open")


def _half_request(port: int, path: str, body: bytes, *, chunked: bool) -> None:
    """Send the headers and half the body, then close the connection (RST).

    The half sent is itself a whole JSON submission (the body is padded with as many spaces):
    a server that took the end of the connection for the end of the body would store it.
    """
    body += b" " * (len(body) + 16)
    half = body[: len(body) // 2]
    head = [f"POST {path} HTTP/1.1", f"Host: {HOST}", "Content-Type: application/json"]
    if chunked:
        head.append("Transfer-Encoding: chunked")
        payload = f"{len(half):x}\r\n".encode() + half + b"\r\n"  # no last chunk
    else:
        head.append(f"Content-Length: {len(body)}")
        payload = half
    sock = socket.create_connection((HOST, port), timeout=10)
    try:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        time.sleep(0.3)  # the server has read what came
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_client_leaving_mid_body_writes_nothing(server, database, quiet_event, chunked):
    path = f"/api/v1/events/{quiet_event['event']}/decklists"
    before = sql(database, "SELECT count(*) FROM varzdeck_decklist")[0][0]
    versions = sql(database, "SELECT count(*) FROM varzdeck_version")[0][0]
    deck = deck_variants("varz", 1, seed=7)[0]
    for number in range(5):
        player = f"Left {number} {chunked}"
        body = json.dumps({"player": player, "deck": deck}).encode()
        _half_request(server.port, path, body, chunked=chunked)
    time.sleep(0.5)
    assert sql(database, "SELECT count(*) FROM varzdeck_decklist")[0][0] == before
    assert sql(database, "SELECT count(*) FROM varzdeck_version")[0][0] == versions
    assert not any(row["player"].startswith("Left") for row in stored(server, quiet_event).values())

    whole = server.post(path, json={"player": f"Stayed {chunked}", "deck": deck})
    assert whole.status == 201, whole
    assert sql(database, "SELECT count(*) FROM varzdeck_decklist")[0][0] == before + 1
    assert sql(database, "SELECT count(*) FROM varzdeck_version")[0][0] == versions + 1
    assert_nothing_half_written(database)
