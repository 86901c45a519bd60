"""Every command that reads one deck finds the deck's game by itself (SPEC §8): an Azuki deck
file, an Azuki deck code or an Azuki deck on standard input needs no --game (issue 25 names
sim, verify, diff and code as the ones that did not)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AZUKI = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
OTHER = ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"


def _cli(*args: object, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        input=stdin,
        check=False,
    )


@pytest.fixture(scope="module")
def azuki_code() -> str:
    done = _cli("code", "--game", "azuki", AZUKI)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_code_finds_azuki(azuki_code: str) -> None:
    done = _cli("code", AZUKI)
    assert (done.returncode, done.stdout.strip()) == (0, azuki_code), done.stderr
    assert azuki_code.startswith("AZ")


def test_sim_finds_azuki_from_a_file_a_code_and_stdin(azuki_code: str) -> None:
    for args, stdin in (
        ((AZUKI,), None),
        ((azuki_code,), None),
        (("-",), AZUKI.read_text(encoding="utf-8")),
    ):
        done = _cli("sim", "--games", "200", *args, stdin=stdin)
        assert done.returncode == 0, (args, done.stdout[-500:], done.stderr[-500:])
        assert "hero" not in done.stdout + done.stderr


def test_verify_and_diff_find_azuki(azuki_code: str) -> None:
    registered = _cli("register", "--game", "azuki", "--output", "json", AZUKI)
    deck_hash = registered.stdout.split('"deck_hash": "')[1].split('"')[0]
    done = _cli("verify", "--hash", deck_hash, AZUKI)
    assert done.returncode == 0, done.stdout + done.stderr
    same = _cli("diff", AZUKI, azuki_code)
    assert same.returncode == 0, same.stdout + same.stderr
    different = _cli("diff", AZUKI, OTHER)
    assert different.returncode == 1, different.stdout + different.stderr
    assert "leader" not in different.stderr.lower()
