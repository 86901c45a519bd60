"""The game registry meets a damaged cache file or a broken plugin: a clear line, never exit 3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"


def _check(
    cache: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", "check", *args],
        env={**os.environ, "VARZ_DECK_CACHE": str(cache), **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "content", ["{}", "[1, 2]", '{"games": 3, "default": "x", "fingerprint": []}', "\x00\xff", ""]
)
def test_a_damaged_registry_cache_is_read_again(tmp_path: Path, content: str) -> None:
    (tmp_path / "games.json").write_text(content, encoding="utf-8", errors="surrogateescape")
    done = _check(tmp_path, str(DECK))
    assert (done.returncode, done.stderr) == (0, "")
    assert set(json.loads((tmp_path / "games.json").read_text())["games"]) >= {"varz", "azuki"}


def test_a_broken_plugin_game_is_named_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('half installed')\n")
    info = tmp_path / "broken_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[varz_deck.games]\nbroken = broken_game:GAME\n")
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Nobody\n", encoding="utf-8")
    done = _check(
        tmp_path / "cache", "--game", "broken", str(deck), env={"PYTHONPATH": str(tmp_path)}
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "varz-deck: the game broken cannot be loaded from its entry point broken_game:GAME "
        "(RuntimeError: half installed); reinstall the package that provides it, or uninstall it\n"
    )
