"""Fixtures for the server tests: real PostgreSQL, a real `varz-deck serve`, real HTTP.

- `postgres_cluster` (session): a throwaway PostgreSQL cluster (initdb with trust authentication,
  listening on 127.0.0.1 only, on a free port, in a temporary folder; stopped and deleted at the
  end). Skipped on a developer machine without PostgreSQL; under CI (CI set) a missing PostgreSQL
  is a failure, because `.ci/run` installs it (as tests/test_sheet_browser.py does for Chromium).
- `make_database(kind)` (session): a fresh database, "sqlite" (a file in a new folder) or
  "postgresql" (a new database in the cluster).
- `database` (module, parametrised "sqlite" / "postgresql"): one fresh database per module and
  kind, so the same tests run on both.
- `live_server(database, extra_args=(), env=None)` (module): starts `varz-deck serve --database URL
  --host 127.0.0.1 --port FREE` in the database's folder, waits for GET /healthz (30 s at most,
  showing the server's log on failure) and returns a `harness.LiveServer` (`.base_url`,
  `.request/.get/.post/.put`, `.client()` keeping cookies, `.create_event(...)`, `.stop()`,
  `.kill()`, `.restart()`); every server still running is stopped (SIGTERM, then SIGKILL) when
  the module ends.
- `server` (module): `live_server(database)`.
- `make_event(name=None, deadline=None, format=None, game=None)` and `event` (function): run
  `varz-deck event create NAME --database URL --output json [...]` and return its JSON plus
  "base_url" and "headers" (`{"Authorization": "Bearer TOKEN"}`). `event` takes options through
  indirect parametrisation: `@pytest.mark.parametrize("event", [{"deadline": "..."}],
  indirect=True)`.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import re
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import pytest
from harness import (
    Database,
    HarnessError,
    LiveServer,
    PostgresCluster,
    postgres_bindir,
    sqlite_database,
)

KINDS = ("sqlite", "postgresql")
_numbers = itertools.count(1)


def _missing(what: str, install: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; .ci/run installs it ({install})")
    pytest.skip(f"{what} ({install})")


@pytest.fixture(scope="session")
def server_stack() -> None:
    """The `server` extra (Django, django-ninja, gunicorn, psycopg and its pool) must be installed."""
    for module in ("django", "ninja", "gunicorn", "psycopg", "psycopg_pool"):
        if importlib.util.find_spec(module) is None:
            _missing(f"{module} is not installed", "pip install '.[test]' brings the server extra")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    bindir = postgres_bindir()
    if bindir is None:
        _missing("PostgreSQL is not installed", "apt-get install postgresql")
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
    except HarnessError as error:
        if "no `postgres` user" in str(error):
            _missing(str(error), "apt-get install postgresql")
        raise
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def make_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, server_stack: None
) -> Callable[..., Database]:
    """make_database(kind): a fresh, empty database of that kind, with its own folder."""

    def make(kind: str, label: str = "db") -> Database:
        number = next(_numbers)
        safe = re.sub(r"[^a-z0-9_]", "_", label.lower())[:40]
        folder = tmp_path_factory.mktemp(f"serve-{kind}-{safe}")
        if kind == "sqlite":
            return sqlite_database(folder)
        if kind == "postgresql":
            cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
            return Database(kind, cluster.create_database(f"t{number}_{safe}"), folder)
        raise ValueError(kind)

    return make


@pytest.fixture(scope="module", params=KINDS)
def database(request: pytest.FixtureRequest, make_database: Callable[..., Database]) -> Database:
    """A fresh database for this module, once on SQLite and once on PostgreSQL."""
    return make_database(request.param, request.module.__name__.rsplit(".", 1)[-1])


@pytest.fixture(scope="module")
def live_server() -> Iterator[Callable[..., LiveServer]]:
    """live_server(database, extra_args=(), env=None): a started `varz-deck serve`."""
    started: list[LiveServer] = []

    def start(database: Database, **options: Any) -> LiveServer:
        server = LiveServer(database, **options)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def server(live_server: Callable[..., LiveServer], database: Database) -> LiveServer:
    """One live server per module and database kind."""
    return live_server(database)


@pytest.fixture
def make_event(server: LiveServer) -> Callable[..., dict[str, Any]]:
    """make_event(name=None, deadline=None, format=None, game=None): a new event on `server`."""

    def make(name: str | None = None, **options: Any) -> dict[str, Any]:
        return server.create_event(name or f"Test Open {next(_numbers)}", **options)

    return make


@pytest.fixture
def event(request: pytest.FixtureRequest, make_event: Callable[..., dict[str, Any]]) -> Any:
    """A new event on `server` (options by indirect parametrisation, e.g. {"deadline": ...})."""
    options = dict(getattr(request, "param", None) or {})
    return make_event(**options)
