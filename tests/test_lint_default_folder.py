"""`varz-deck cards lint` without a folder lints the current folder when it holds card files, and
is a usage error elsewhere: it never lints the bundled database behind a maintainer's back."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"


def lint(cwd: Path, *args: str, cards: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "VARZ_DECK_CARDS"}
    env["PYTHONPATH"] = str(ROOT)
    if cards is not None:
        env["VARZ_DECK_CARDS"] = cards
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", "cards", "lint", "--lang", "en", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_folder_without_card_files_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not card data\n", encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    done = lint(tmp_path)
    assert done.returncode == 2
    assert "not a card database" in done.stderr and "varz-deck cards lint DIR" in done.stderr
    assert "clean" not in done.stdout


def test_the_current_folder_is_linted_when_it_holds_card_files(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(BUNDLED, data)
    (data / "formats.yaml").write_text(
        (BUNDLED / "formats.yaml").read_text(encoding="utf-8") + "\nnot: [valid\n", encoding="utf-8"
    )
    done = lint(data)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "formats.yaml" in done.stdout


def test_the_named_database_still_wins(tmp_path: Path) -> None:
    done = lint(tmp_path, cards=str(BUNDLED))
    assert done.returncode == 0, done.stdout + done.stderr
    assert lint(tmp_path, "--cards", str(BUNDLED)).returncode == 0


def test_card_files_without_a_formats_file_are_a_database(tmp_path: Path) -> None:
    # formats.yaml is optional (the built-in formats apply): card files alone make the database
    sets = tmp_path / "sets"
    sets.mkdir()
    shutil.copy(BUNDLED / "sets" / "vz01.yaml", sets / "vz01.yaml")
    (tmp_path / ".pre-commit-hooks.yaml").write_text("- id: x\n", encoding="utf-8")
    done = lint(tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "vz01.yaml" in done.stdout or "clean" in done.stdout


def test_a_hidden_folders_card_files_do_not_count(tmp_path: Path) -> None:
    hidden = tmp_path / ".cache" / "old"
    hidden.mkdir(parents=True)
    shutil.copy(BUNDLED / "sets" / "vz01.yaml", hidden / "vz01.yaml")
    assert lint(tmp_path).returncode == 2


def test_holds_card_files_looks_below_but_not_in_hidden_or_nested_folders(tmp_path: Path) -> None:
    from varz_deck.core.cards.discovery import holds_card_files

    assert not holds_card_files(tmp_path)
    (tmp_path / "notes.yaml").write_text("title: not cards\ncards_seen: 3\n", encoding="utf-8")
    (tmp_path / "x.yaml").mkdir()  # a folder named like a file tells nothing
    assert not holds_card_files(tmp_path)
    hidden = tmp_path / ".old"
    hidden.mkdir()
    (hidden / "a.yaml").write_text("cards: []\n", encoding="utf-8")
    (tmp_path / ".b.yaml").write_text("cards: []\n", encoding="utf-8")
    nested = tmp_path / "other"
    nested.mkdir()
    (nested / "formats.yaml").write_text("game: varz\n", encoding="utf-8")
    (nested / "c.yaml").write_text("cards: []\n", encoding="utf-8")
    assert not holds_card_files(tmp_path)
    deep = tmp_path / "sets" / "core"
    deep.mkdir(parents=True)
    (deep / "d.yml").write_text("set: {code: D}\ncards :\n  - id: D-1\n", encoding="utf-8")
    assert not holds_card_files(tmp_path)  # two folders down: a database inside, not this one
    assert holds_card_files(tmp_path / "sets")
    (deep / "d.yml").rename(tmp_path / "sets" / "d.yml")
    assert holds_card_files(tmp_path)
    assert holds_card_files(nested)  # its own formats.yaml


def test_an_unreadable_file_does_not_stop_the_look(tmp_path: Path) -> None:
    from varz_deck.core.cards.discovery import holds_card_files

    os.mkfifo(tmp_path / "a.yaml")  # refused unread, never waited on
    (tmp_path / "b.yaml").write_text("cards: []\n", encoding="utf-8")
    assert holds_card_files(tmp_path)


def test_holds_card_files_gives_up_after_its_budget(tmp_path: Path) -> None:
    from varz_deck.core.cards.discovery import holds_card_files

    for i in range(5):
        (tmp_path / f"a{i}.txt").write_text("", encoding="utf-8")
    (tmp_path / "z.yaml").write_text("cards: []\n", encoding="utf-8")
    assert holds_card_files(tmp_path, budget=6)
    assert not holds_card_files(tmp_path, budget=5)  # names are looked at in order; z is 6th
