"""The server as a standard Django project: the settings module read from the environment,
`varz-deck manage`, `python -m django check --deploy`, and the deployer's own gunicorn on
`varz_deck.server.wsgi:application` serving the pages and the API."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import Database, GunicornServer, run_cli

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "examples" / "blue-minase-tide.yaml"
KEY = "k" * 20 + "-prod-key-" + "0123456789abcdefghijklmnopqrstuvwxyz"  # 66 characters


def _production(database: Database) -> dict[str, str]:
    """The guide's production settings: an https public URL, a key, the database URL."""
    return {
        "VARZ_DECK_DATABASE": database.url,
        "VARZ_DECK_SECRET_KEY": KEY,
        "VARZ_DECK_PUBLIC_URL": "https://decks.example.org",
        "VARZ_DECK_TRUSTED_PROXIES": "127.0.0.1",
    }


def _env(extra: dict[str, str]) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith("VARZ_DECK_")}
    return {**kept, **extra}


@pytest.fixture
def sqlite(make_database: Callable[..., Database]) -> Database:
    return make_database("sqlite", "django-project")


def test_django_check_deploy_reports_nothing_with_the_production_settings(sqlite: Database):
    env = _env({**_production(sqlite), "DJANGO_SETTINGS_MODULE": "varz_deck.server.settings"})
    command = [sys.executable, "-m", "django", "check", "--deploy", "--fail-level", "WARNING"]
    done = subprocess.run(command, cwd=sqlite.folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in done.stderr, done.stderr


def test_check_deploy_names_what_plain_http_settings_lack(sqlite: Database):
    env = _env({"VARZ_DECK_DATABASE": sqlite.url})
    done = run_cli(["manage", "check", "--deploy"], cwd=sqlite.folder, env=env)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in said, said


def test_manage_showmigrations_then_migrate(sqlite: Database):
    env = _env({"VARZ_DECK_DATABASE": sqlite.url})
    before = run_cli(["manage", "showmigrations", "varzdeck"], cwd=sqlite.folder, env=env)
    assert before.returncode == 0, before.stderr
    assert before.stdout.splitlines()[:2] == ["varzdeck", " [ ] 0001_initial"]
    migrated = run_cli(["manage", "migrate", "--verbosity", "0"], cwd=sqlite.folder, env=env)
    assert migrated.returncode == 0, migrated.stderr
    after = run_cli(["manage", "showmigrations", "varzdeck"], cwd=sqlite.folder, env=env)
    assert after.stdout.splitlines()[:2] == ["varzdeck", " [X] 0001_initial"]
    assert "[ ]" not in after.stdout


def test_manage_takes_the_database_option_and_passes_options_on(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'given.sqlite3'}"
    done = run_cli(["manage", "--database", url, "migrate", "--plan"], cwd=tmp_path, env=_env({}))
    assert done.returncode == 0, done.stderr
    assert "varzdeck.0001_initial" in done.stdout
    assert not (tmp_path / "varz-deck.sqlite3").exists()


def test_a_bad_setting_is_exit_2_naming_it(tmp_path: Path):
    env = _env({"VARZ_DECK_LOG_LEVEL": "LOUD"})
    done = run_cli(["manage", "check"], cwd=tmp_path, env=env)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "VARZ_DECK_LOG_LEVEL='LOUD' is not a log level" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_settings_file_named_by_varz_deck_config(tmp_path: Path):
    (tmp_path / "varz-deck.env").write_text(
        "# the server's settings\nVARZ_DECK_TIME_ZONE=Asia/Tokyo\n"
        "VARZ_DECK_PUBLIC_URL='https://decks.example.org'\n",
        encoding="utf-8",
    )
    env = _env({"VARZ_DECK_CONFIG": str(tmp_path / "varz-deck.env")})
    code = (
        "from django.conf import settings;"
        "print(settings.TIME_ZONE, settings.ALLOWED_HOSTS[0], settings.SECURE_SSL_REDIRECT)"
    )
    done = run_cli(["manage", "shell", "--verbosity", "0", "-c", code], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Asia/Tokyo", "decks.example.org", "True"]


def test_gunicorn_on_the_wsgi_module_serves_pages_and_the_api(
    make_database: Callable[..., Database], live_server: Any
) -> None:
    database = make_database("postgresql", "wsgi")
    env = {
        "VARZ_DECK_DATABASE": database.url,
        "VARZ_DECK_SECRET_KEY": KEY,
    }
    migrated = run_cli(["manage", "migrate", "--verbosity", "0"], cwd=database.folder, env=env)
    assert migrated.returncode == 0, migrated.stderr
    server = GunicornServer(
        database, ["--workers", "2", "--worker-class", "gthread", "--threads", "4"], env=env
    )
    try:
        server.start()
        event = server.create_event("WSGI Open")
        page = server.get(f"/events/{event['event']}/submit")
        assert page.status == 200, page
        assert "WSGI Open" in page.text
        submitted = server.post(
            f"/api/v1/events/{event['event']}/decklists",
            json={"player": "Ada", "deck": LEGAL.read_text(encoding="utf-8")},
        )
        assert submitted.status == 201, submitted
        rows = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
        assert [row["player"] for row in rows.json()] == ["Ada"]
    finally:
        server.stop()
