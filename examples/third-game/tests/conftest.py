"""Fixtures: the Tidewright package installed ALONE into a temporary folder, and every command run
as a subprocess with that folder first on PYTHONPATH (its entry point is found only there; the
shared environment is never changed)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent  # examples/third-game
DECKS = PROJECT / "decks"

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pip install --no-deps --no-build-isolation --target TMP examples/third-game`: TMP."""
    target = tmp_path_factory.mktemp("tidewright-install")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(PROJECT)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return target


@pytest.fixture(scope="session")
def env(installed: Path) -> dict[str, str]:
    """The environment every command runs in: the installed package first on the path."""
    path = os.pathsep.join(p for p in (str(installed), os.environ.get("PYTHONPATH")) if p)
    out = {**os.environ, "PYTHONPATH": path, "COLUMNS": "100", "NO_COLOR": "1"}
    out.pop("VARZ_DECK_CARDS", None)
    out["VARZ_DECK_LANG"] = "en"
    return out


@pytest.fixture(scope="session")
def cards(installed: Path) -> Path:
    """The card database the installed package ships."""
    return installed / "tidewright" / "card_data"


@pytest.fixture(scope="session")
def run(env: dict[str, str]) -> Run:
    """run(*args, cwd=DECKS, stdin=None, columns=100): `python -m varz_deck ARGS` as a
    subprocess, its text wrapped at `columns`."""

    def go(
        *args: str, cwd: Path = DECKS, stdin: str | None = None, columns: int = 100
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "varz_deck", *args],
            cwd=cwd, env={**env, "COLUMNS": str(columns)}, input=stdin, capture_output=True,
            text=True, timeout=120, check=False,
        )  # fmt: skip

    return go
