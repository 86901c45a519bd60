"""`varz-deck event create/list` and `varz-deck serve` from the terminal: text and JSON, exit codes,
the default SQLite file in WAL mode, $VARZ_DECK_DATABASE, the message without the `server`
extra, and a database from a newer varz-deck refused (exit 2, nothing written)."""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from harness import ROOT, LiveServer, free_port, run_cli, sqlite_database

INSTALL_LINE = "pip install '.[server]'"


@pytest.fixture
def folder(tmp_path: Path, server_stack: None) -> Path:
    return tmp_path


def _create(folder: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return run_cli(["event", "create", *args], cwd=folder, env=env)


def _json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _sqlite_rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return connection.execute(query).fetchall()


def test_event_create_json_on_a_fresh_folder_makes_the_sqlite_file_in_wal_mode(folder):
    event = _json(_create(folder, "Spring Open", "--output", "json"))
    assert {"event", "submit_url", "organiser_url", "organiser_token"} <= set(event)
    token = event["organiser_token"]
    assert event["organiser_url"] == f"/o/{token}"
    assert event["submit_url"] == f"/events/{event['event']}/submit"
    assert len(token) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert event["requires_lists"] is True and event["deadline"] is None
    database = folder / "varz-deck.sqlite3"
    assert database.is_file()
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows = _sqlite_rows(database, "SELECT key, name, organiser_token_hash FROM varzdeck_event")
    assert rows == [(event["event"], "Spring Open", hashlib.sha256(token.encode()).hexdigest())]


def test_event_create_text_says_the_id_the_path_and_the_token_once(folder):
    done = _create(folder, "Text Open")
    assert done.returncode == 0, done.stderr
    listed = _json(run_cli(["event", "list", "--output", "json"], cwd=folder))["events"]
    (event,) = listed
    assert event["event"] in done.stdout
    assert f"/events/{event['event']}/submit" in done.stdout
    token = re.search(r"/o/([A-Za-z0-9_-]{22,})", done.stdout)
    assert token is not None
    assert token.group(1) not in json.dumps(listed)  # shown once: never listed again
    stored = _sqlite_rows(
        folder / "varz-deck.sqlite3", "SELECT organiser_token_hash FROM varzdeck_event"
    )
    assert stored == [(hashlib.sha256(token.group(1).encode()).hexdigest(),)]


def test_event_create_options(folder):
    event = _json(
        _create(
            folder, "Azuki Cup", "--game", "azuki", "--deadline", "2030-05-17T10:00:00+09:00",
            "--accept-only", "--output", "json",
        )
    )  # fmt: skip
    assert event["game"] == "azuki"
    assert event["requires_lists"] is False
    listed = _json(run_cli(["event", "list", "--output", "json"], cwd=folder))["events"]
    (row,) = listed
    assert row["deadline"] == "2030-05-17T01:00:00+00:00"  # the same instant, in UTC
    assert row["game"] == "azuki" and row["requires_lists"] is False and row["open"] is True
    zulu = _json(_create(folder, "Zulu", "--deadline", "2030-05-17T01:00:00Z", "--output", "json"))
    assert zulu["deadline"] == "2030-05-17T01:00:00+00:00"


def test_a_format_is_spelled_as_the_database_spells_it(folder):
    event = _json(_create(folder, "Formats", "--format", "STANDARD", "--output", "json"))
    assert event["format"] == "standard"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--deadline", "2001-05-17T10:00:00+00:00"], "passed"),  # issue 26: a past deadline
        (["--deadline", "2030-05-17"], "ISO 8601"),
        (["--deadline", "tomorrow"], "ISO 8601"),
        # issue 24 row 11: past year 9999 (or before year 1) once in UTC: OverflowError, exit 3
        (["--deadline", "9999-12-31T23:59:59-12:00"], "out of range"),
        (["--deadline", "0001-01-01T00:00:00+01:00"], "out of range"),
        (["--game", "chess"], "chess"),
        (["--format", "no-such-format"], "no-such-format"),
        (["--database", "mysql://db/x"], "mysql"),
        (["--database", "postgresql://localhost"], "names no database"),
        (["--database", "sqlite://relative"], "sqlite:///"),
        (["--output", "yaml"], "yaml"),
    ],
)
def test_event_create_usage_errors_exit_2_and_write_nothing(folder, args, words):
    done = _create(folder, "Bad", *args)
    assert done.returncode == 2, done
    assert words in done.stderr
    assert "Traceback" not in done.stderr
    assert not (folder / "varz-deck.sqlite3").exists()


def test_an_event_name_that_is_not_utf8_is_a_usage_error(folder):
    """Issue 24 row 11: a Latin-1 byte in the name (argv as surrogateescape) was a
    UnicodeEncodeError, exit 3; now exit 2 naming the byte, and nothing written."""
    done = _create(folder, "Caf\udce9 Open")  # the bytes b"Caf\xe9 Open" on the command line
    assert done.returncode == 2, done
    assert "Caf\\xe9 Open" in done.stderr and "UTF-8" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (folder / "varz-deck.sqlite3").exists()


def test_event_list_text_and_json(folder):
    first = _json(_create(folder, "First Open", "--output", "json"))
    # a deadline already past is refused (issue 26): one that passes in a few seconds
    soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=4)
    second = _json(_create(folder, "Second Open", "--deadline", soon.isoformat(),
                           "--output", "json"))  # fmt: skip
    time.sleep(max(0.0, (soon - datetime.datetime.now(datetime.timezone.utc)).total_seconds()))
    text = run_cli(["event", "list"], cwd=folder)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert len(lines) == 3  # a header, then one line per event
    assert first["event"] in lines[1] and "First Open" in lines[1] and "open" in lines[1]
    assert second["event"] in lines[2] and "deadline passed" in lines[2]
    events = _json(run_cli(["event", "list", "--output", "json"], cwd=folder))["events"]
    assert [e["event"] for e in events] == [first["event"], second["event"]]
    assert [e["open"] for e in events] == [True, False]
    assert [e["decklists"] for e in events] == [0, 0]
    assert all("organiser_token" not in e for e in events)


def test_event_list_in_japanese(folder):
    _json(_create(folder, "Tokyo Open", "--output", "json"))
    done = run_cli(["event", "list", "--lang", "ja"], cwd=folder)
    assert done.returncode == 0
    assert "受付中" in done.stdout


def test_event_list_on_an_empty_database(folder):
    done = run_cli(["event", "list"], cwd=folder)
    assert done.returncode == 0
    assert done.stdout.strip() == "no events yet"
    assert _json(run_cli(["event", "list", "--output", "json"], cwd=folder)) == {"events": []}


def test_the_database_comes_from_the_environment(folder, tmp_path):
    target = tmp_path / "elsewhere" / "event.sqlite3"
    target.parent.mkdir()
    env = {"VARZ_DECK_DATABASE": str(target)}
    _json(_create(folder, "From Env", "--output", "json", env=env))
    assert target.is_file()
    assert not (folder / "varz-deck.sqlite3").exists()
    given = folder / "given.sqlite3"  # --database wins over the environment
    _json(_create(folder, "Given", "--database", f"sqlite:///{given}", "--output", "json", env=env))
    assert len(_sqlite_rows(target, "SELECT id FROM varzdeck_event")) == 1
    assert len(_sqlite_rows(given, "SELECT id FROM varzdeck_event")) == 1


# --- A database from a newer varz-deck ---------------------------------------------------------


def _from_the_future(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('varzdeck', '9999_from_the_future', '2099-01-01 00:00:00')"
        )


@pytest.mark.parametrize("command", [["event", "list"], ["event", "create", "X"]])
def test_a_database_from_a_newer_version_is_refused(folder, command):
    _json(_create(folder, "Old", "--output", "json"))
    database = folder / "varz-deck.sqlite3"
    _from_the_future(database)
    before = _sqlite_rows(database, "SELECT * FROM varzdeck_event")
    done = run_cli(command, cwd=folder)
    assert done.returncode == 2, done
    assert "newer varz-deck" in done.stderr and "9999_from_the_future" in done.stderr
    assert _sqlite_rows(database, "SELECT * FROM varzdeck_event") == before


def test_serve_refuses_a_database_from_a_newer_version(folder):
    _json(_create(folder, "Old", "--output", "json"))
    _from_the_future(folder / "varz-deck.sqlite3")
    done = run_cli(["serve", "--port", str(free_port())], cwd=folder, timeout=60)
    assert done.returncode == 2, done
    assert "newer varz-deck" in done.stderr


# --- serve ---------------------------------------------------------------------------------------


def test_serve_on_a_fresh_folder_answers_healthz_and_keeps_submissions(folder):
    database = sqlite_database(folder / "fresh")
    server = LiveServer(database).start()
    try:
        event = server.create_event("Fresh")
        deck = (ROOT / "examples" / "blue-list.txt").read_text(encoding="utf-8")
        answer = server.post(
            f"/api/v1/events/{event['event']}/decklists", json={"player": "P", "deck": deck}
        )
        assert answer.status == 201, answer
    finally:
        server.stop()
    path = database.url.split("sqlite:///", 1)[1]
    assert _sqlite_rows(Path(path), "SELECT player FROM varzdeck_decklist") == [("P",)]


def test_serve_on_a_taken_port_exits_2(folder):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli(["serve", "--port", str(port)], cwd=folder, timeout=60)
    assert done.returncode == 2, done
    assert f"127.0.0.1:{port}" in done.stderr


def test_serve_with_an_unusable_card_database_exits_2(folder):
    done = run_cli(
        ["serve", "--port", str(free_port()), "--cards", str(folder / "missing")],
        cwd=folder,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert "missing" in done.stderr


def test_serve_with_a_bad_database_url_exits_2(folder):
    done = run_cli(["serve", "--database", "oracle://db", "--port", "1"], cwd=folder)
    assert done.returncode == 2 and "oracle" in done.stderr


# --- Without the `server` extra -------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [["serve"], ["event", "create", "X"], ["event", "list", "--output", "json"]]
)
@pytest.mark.parametrize("missing", ["django", "ninja", "gunicorn"])
def test_without_the_server_extra_the_install_line_and_exit_2(tmp_path, args, missing):
    """The extra's packages made unimportable (a None in sys.modules), as if never installed."""
    code = (
        "import sys\n"
        f"sys.modules[{missing!r}] = None\n"
        "from varz_deck.cli import main\n"
        f"main({args!r})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done
    assert INSTALL_LINE in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "varz-deck.sqlite3").exists()


def test_help_lists_serve_and_event(tmp_path):
    done = run_cli(["--help"], cwd=tmp_path)
    assert re.search(r"^\s+serve\s", done.stdout, re.MULTILINE)
    assert re.search(r"^\s+event\s", done.stdout, re.MULTILINE)
    done = run_cli(["event", "create", "--help"], cwd=tmp_path)
    for option in ("--format", "--game", "--deadline", "--accept-only", "--database", "--output"):
        assert option in done.stdout
    done = run_cli(["serve", "--help"], cwd=tmp_path)
    for option in ("--database", "--host", "--port", "--cards"):
        assert option in done.stdout


def test_the_committed_migrations_match_the_models(tmp_path, server_stack):
    """`makemigrations --check`: a model changed without its migration fails here."""
    code = (
        "from varz_deck.server.config import configure\n"
        f"configure({str(tmp_path / 'm.sqlite3')!r})\n"
        "from django.core.management import call_command\n"
        "call_command('makemigrations', 'varzdeck', '--check', '--dry-run', verbosity=1)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No changes detected" in done.stdout
