"""The game-plugin guide (docs/reference/games.md) is true: its files, written out as the page
shows them, make a package that installs and checks decks as the page's console blocks say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "reference" / "games.md"
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def _blocks() -> list[tuple[str, str]]:
    return [(kind, body) for kind, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8"))]


def _files() -> dict[str, str]:
    out = {}
    for _kind, body in _blocks():
        first, _, rest = body.partition("\n")
        if first.startswith("# file: "):
            out[first.removeprefix("# file: ").strip()] = rest
    return out


def _sessions() -> list[tuple[str, str]]:
    """Each `$ varz-deck ...` command of a console block with what the page says it prints."""
    found = []
    for kind, body in _blocks():
        if kind != "console":
            continue
        command, printed = None, []
        for line in body.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(printed)))
                command, printed = line[2:], []
            else:
                printed.append(line)
        if command is not None:
            found.append((command, "\n".join(printed)))
    return [(c, p) for c, p in found if c.startswith("varz-deck ")]


def test_the_guide_has_the_package_files() -> None:
    assert set(_files()) == {
        "pyproject.toml",
        "pocketbeasts/__init__.py",
        "pocketbeasts/rules.py",
        "pocketbeasts/card_data/formats.yaml",
        "pocketbeasts/card_data/pb01.yaml",
        "decks/sparks.yaml",
        "decks/too-many.yaml",
    }
    assert len(_sessions()) == 2


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("guide")
    for name, text in _files().items():
        where = root / name if name.startswith("decks/") else root / "pocketbeasts-game" / name
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(text, encoding="utf-8")
    site = root / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(site), str(root / "pocketbeasts-game")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root


@pytest.mark.parametrize("session", range(2))
def test_each_command_prints_what_the_guide_shows(project: Path, session: int) -> None:
    command, printed = _sessions()[session]
    env = {**os.environ, "PYTHONPATH": str(project / "site"), "COLUMNS": "100", "NO_COLOR": "1"}
    env["VARZ_DECK_LANG"] = "en"
    done = subprocess.run(
        [sys.executable, "-m", "varz_deck", *command.split()[1:]],
        cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.stdout.rstrip("\n") == printed, done.stderr


def test_the_game_imports_the_public_module_only(project: Path) -> None:
    for name in ("pocketbeasts/__init__.py", "pocketbeasts/rules.py"):
        text = (project / "pocketbeasts-game" / name).read_text(encoding="utf-8")
        imported = re.findall(r"^from (varz_deck[\w.]*) import", text, re.MULTILINE)
        assert set(imported) <= {"varz_deck.plugin"}, name
