"""Two `varz-deck serve` started together on a new, empty database both come up, on SQLite and on
PostgreSQL: the migrations are applied once, one process at a time (an advisory lock on
PostgreSQL, a file lock beside the SQLite file), and the other finds them applied. Before, one of
the two exited 2 with a duplicate-key or "already exists" error from the migrations. Then an
`event create` beside a starting server. Everything on 127.0.0.1, bounded."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from harness import Database, HarnessError, LiveServer, run_cli

ROUNDS = 3  # fresh databases per kind: the race went wrong 5 runs out of 5 on PostgreSQL


def _start_together(servers: list[LiveServer]) -> list[str]:
    """Start every server at the same moment; the start failures (with their logs)."""
    together = threading.Barrier(len(servers), timeout=60)
    failures: list[str] = []

    def start(server: LiveServer) -> None:
        together.wait()
        try:
            server.start()
        except HarnessError as error:
            failures.append(str(error)[-1500:])

    threads = [threading.Thread(target=start, args=(s,), daemon=True) for s in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return failures


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_servers_started_together_on_a_new_database_both_come_up(
    kind: str, make_database: Callable[..., Database], live_server: Callable[..., Any]
) -> None:
    for round_ in range(ROUNDS):
        database = make_database(kind, f"together-{round_}")
        servers = [LiveServer(database) for _ in range(2)]
        try:
            failures = _start_together(servers)
            assert failures == [], "\n---\n".join(failures)
            event = servers[0].create_event(f"Together {round_}")
            for server in servers:
                state = server.get(f"/api/v1/events/{event['event']}")
                assert state.status == 200, state
            # one server key for both: an organiser signed in on one is signed in on the other
            browser = servers[0].client()
            try:
                assert browser.get(event["organiser_url"]).status == 302
                cookies = dict(browser.cookies)
            finally:
                browser.close()
            other = servers[1].client()
            other.cookies.update(cookies)
            try:
                dashboard = other.get(f"/events/{event['event']}/dashboard")
                assert dashboard.status == 200, dashboard
            finally:
                other.close()
        finally:
            for server in servers:
                server.stop()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_event_created_while_a_server_starts_on_a_new_database(
    kind: str, make_database: Callable[..., Database]
) -> None:
    database = make_database(kind, "create-while-starting")
    server = LiveServer(database)
    made: list[Any] = []

    def create() -> None:
        args = ["event", "create", "Early Open", "--database", database.url, "--output", "json"]
        made.append(run_cli(args, cwd=database.folder))

    creating = threading.Thread(target=create, daemon=True)
    creating.start()
    try:
        server.start()
        creating.join(120)
        assert made and made[0].returncode == 0, made[0].stderr if made else "no answer"
        assert server.get("/healthz").status == 200
    finally:
        server.stop()
