"""A `varz-deck serve` submission of a Tidewright deck: the real server on a throwaway PostgreSQL
cluster (varz-deck's own test harness, tests/server/harness.py), the installed package first on
the server's path. Without PostgreSQL or the server extra the test skips, except under CI (env
CI set), where it fails."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from conftest import DECKS, PROJECT

HARNESS = PROJECT.parent.parent / "tests" / "server"


def _missing(what: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI must install it")
    pytest.skip(what)


@pytest.fixture(scope="module")
def harness() -> Any:
    for module in ("django", "ninja", "gunicorn", "psycopg", "psycopg_pool"):
        if importlib.util.find_spec(module) is None:
            _missing(f"{module} is not installed (the server extra)")
    if not (HARNESS / "harness.py").is_file():
        _missing(f"varz-deck's server test harness is not at {HARNESS}")
    sys.path.insert(0, str(HARNESS))
    try:
        import harness as found  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(HARNESS))
    return found


@pytest.fixture(scope="module")
def postgres(harness: Any) -> Iterator[Any]:
    bindir = harness.postgres_bindir()
    if bindir is None:
        _missing("PostgreSQL is not installed")
    cluster = harness.PostgresCluster(bindir)
    try:
        cluster.start()
    except harness.HarnessError as error:
        _missing(str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


def test_a_tidewright_deck_is_submitted_and_checked(
    harness: Any, postgres: Any, env: dict[str, str], cards: Path, tmp_path: Path
) -> None:
    database = harness.Database("postgresql", postgres.create_database("tidewright"), tmp_path)
    server = harness.LiveServer(database, env=env, extra_args=["--cards", str(cards)]).start()
    try:
        event = server.create_event("Harbor Cup", game="tidewright", format="harbor")
        assert event["game"] == "tidewright"
        assert event["format"] == "harbor"
        route = f"/api/v1/events/{event['event']}/decklists"
        deck = (DECKS / "illegal-format.yaml").read_text(encoding="utf-8")
        answer = server.post(route, json={"player": "Ann", "deck": deck})
        assert answer.status == 201, answer
        body = answer.json()
        assert body["legal"] is False
        assert [(d["code"], d["line"], d["card"]) for d in body["diagnostics"]] == [
            ("T106", 10, "TW02-002")
        ]
        legal = (DECKS / "legal-ilse-harbor.yaml").read_text(encoding="utf-8")
        answer = server.post(route, json={"player": "Bo", "deck": legal})
        assert answer.status == 201, answer
        assert answer.json()["legal"] is True
        assert answer.json()["diagnostics"] == []
    finally:
        server.stop()
