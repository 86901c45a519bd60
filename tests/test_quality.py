"""The house rules hold: ruff (lint and format) and mypy are clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ["varz_deck", "tests", "benchmarks", "scripts"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_clean() -> None:
    done = _run("ruff", "check", *TREES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_clean() -> None:
    done = _run("ruff", "format", "--check", *TREES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_clean() -> None:
    done = _run("mypy", "varz_deck")
    assert done.returncode == 0, done.stdout + done.stderr
