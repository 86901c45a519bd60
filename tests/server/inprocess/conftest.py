"""In-process server tests: Django configured in this test process, requests through Django's
test `Client` (no subprocess, no socket), so mutation testing can trace what each test calls.

Django can be configured once per process. Nothing else in the suite configures it in-process
(the other server tests start `varz-deck serve` or a script in a subprocess), so the session
fixture here configures it the first time it is asked for, on SQLite; when Django is already
configured (a forked mutation-testing child, or a second session in one process), the default
connection is pointed at a fresh copy of the migrated database instead.

- `django_db` (session): a fresh migrated SQLite file, this server's hosts set to
  http://testserver (the test client's Host).
- `client`: a `django.test.Client`; `organiser_client(event)`: one signed in as its organiser.
- `make_event(**options)`: `service.create_event` -> (event, organiser token).
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

PUBLIC_URL = "http://testserver"
_TEMPLATE: list[Path] = []  # the migrated empty database, made once per process
_numbers = itertools.count(1)


def _point_at(path: Path) -> None:
    from django.db import connections

    connections.close_all()
    connections["default"].settings_dict["NAME"] = str(path)


@pytest.fixture(scope="session")
def django_db(tmp_path_factory: pytest.TempPathFactory, server_stack: None) -> Iterator[Path]:
    """Django configured for a fresh, migrated SQLite database in this process."""
    from varz_deck.server.config import configure

    folder = tmp_path_factory.mktemp("inprocess")
    path = folder / "server.sqlite3"
    configure(str(path))
    from django.conf import settings
    from django.core.management import call_command

    assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    if _TEMPLATE and _TEMPLATE[0].exists():
        shutil.copyfile(_TEMPLATE[0], path)
        _point_at(path)
    else:
        _point_at(path)
        call_command("migrate", interactive=False, verbosity=0)
        _point_at(path)  # closed: the WAL is folded into the file
        template = folder / "template.sqlite3"
        shutil.copyfile(path, template)
        _TEMPLATE[:] = [template]
    from varz_deck.server import app, hosts

    app.load_secret_key()
    before = hosts.current()
    hosts.use(hosts.policy("127.0.0.1", 80, PUBLIC_URL))
    try:
        yield path
    finally:
        hosts.use(before)
        from django.db import connections

        connections.close_all()


@pytest.fixture(autouse=True)
def fresh_caches(request: pytest.FixtureRequest) -> None:
    """Every test starts with full rate-limit buckets and no event read before (both live in this
    process: a second session in it, or a forked mutant, points at a fresh copy of the database,
    whose ids an earlier test's events had)."""
    if "django_db" not in request.fixturenames:
        return
    from django.core.cache import caches

    from varz_deck.server.services import events

    caches["varz-deck-limits"].clear()
    events._RECENT.clear()


@pytest.fixture
def client(django_db: Path) -> Any:
    from django.test import Client

    return Client()


@pytest.fixture
def make_event(django_db: Path) -> Callable[..., tuple[Any, str]]:
    """make_event(name=None, game="varz", **options) -> (event, organiser token)."""
    from varz_deck.server import service

    def make(name: str | None = None, **options: Any) -> tuple[Any, str]:
        options.setdefault("game", "varz")
        return service.create_event(name or f"In-process Open {next(_numbers)}", **options)

    return make


@pytest.fixture
def organiser_client(django_db: Path) -> Callable[[str], Any]:
    """organiser_client(token): a client signed in through `/o/TOKEN`."""
    from django.test import Client

    def make(token: str) -> Any:
        signed = Client()
        answer = signed.get(f"/o/{token}")
        assert answer.status_code == 302, answer.status_code
        return signed

    return make


@pytest.fixture
def service(django_db: Any) -> Any:
    """varz_deck.server.service, imported once Django is configured."""
    from varz_deck.server import service

    return service
