"""The card-database cache (issue 12, item 9) and progress bars (item 3).

`cache info` / `cache clear`, the bound on cached databases (least recently used out first,
mtime touched on a hit), and the progress bar: on a terminal, for text output only.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

import varz_deck.cli.common
from varz_deck.cli import app
from varz_deck.cli.cache import size_text
from varz_deck.core.cards import cachestore

ROOT = Path(__file__).resolve().parent.parent
ALTDB = ROOT / "tests" / "data" / "altdb"
EXAMPLES = ROOT / "examples"
KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    monkeypatch.delenv("VARZ_DECK_NO_CACHE", raising=False)
    return folder


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def fake_entry(folder: Path, index: int, size: int, mtime: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"db-{index:040x}.sqlite"
    path.write_bytes(b"x" * size)
    os.utime(path, (mtime, mtime))
    return path


def ours(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("db-"))


# --- cache info / cache clear ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0 B"), (999, "999 B"), (1500, "1.5 KB"), (59_000_000, "59.0 MB"), (2 * 10**9, "2.0 GB")],
)
def test_size_text(size: int, text: str) -> None:
    assert size_text(size) == text


def test_info_counts_only_our_files(cache: Path) -> None:
    sizes = [1200, 3400, 700]
    for i, size in enumerate(sizes):
        fake_entry(cache, i, size, 1_000_000 + i)
    (cache / "notes.json").write_text("not ours", encoding="utf-8")
    (cache / "db-short.json").write_text("not ours either", encoding="utf-8")
    status, out, _ = run("cache", "info")
    assert status == 0
    assert f"folder: {cache}" in out
    assert f"3 card databases, {size_text(sum(sizes))} (at most 8 are kept)" in out


def test_clear_removes_only_ours_and_says_what_it_freed(cache: Path) -> None:
    sizes = [1000, 2500]
    for i, size in enumerate(sizes):
        fake_entry(cache, i, size, 1_000_000)
    temp = cache / f".db-{KEY}.123.tmp"
    temp.write_bytes(b"y" * 500)
    foreign = cache / "keep-me.json"
    foreign.write_text("someone else's", encoding="utf-8")
    status, out, _ = run("cache", "clear")
    assert status == 0
    assert f"removed 2 card databases from {cache}, freed {size_text(sum(sizes) + 500)}" in out
    assert sorted(p.name for p in cache.iterdir()) == ["keep-me.json"]
    _, out, _ = run("cache", "info")
    assert "0 card databases, 0 B" in out


def test_a_missing_cache_folder_is_empty_not_an_error(cache: Path) -> None:
    assert not cache.exists()
    assert run("cache", "info")[0] == 0
    status, out, _ = run("cache", "clear")
    assert status == 0 and "removed 0 card databases" in out


def test_cache_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    for command in ("info", "clear"):
        status, out, _ = run("cache", command)
        assert status == 0 and "VARZ_DECK_NO_CACHE" in out


def test_cache_speaks_japanese(cache: Path) -> None:
    fake_entry(cache, 1, 10, 1_000_000)
    _, out, _ = run("cache", "info", "--lang", "ja")
    assert "card database" not in out and "10 B" in out


# --- the bound: least recently used out ----------------------------------------------------------


def test_evict_keeps_the_most_recently_used(cache: Path) -> None:
    paths = [fake_entry(cache, i, 10, 1_000_000 + 100 * i) for i in range(11)]
    removed = cachestore.evict(keep=8)
    assert sorted(removed) == sorted(paths[:3])  # the three oldest mtimes
    assert ours(cache) == sorted(p.name for p in paths[3:])


def test_a_cold_build_evicts_beyond_the_bound_and_a_hit_touches(cache: Path) -> None:
    from varz_deck.games import open_database

    old = [fake_entry(cache, i, 10, 1_000_000 + i) for i in range(cachestore.MAX_DATABASES)]
    open_database(ALTDB)  # cold: written, then the oldest one evicted
    names = ours(cache)
    assert len(names) == cachestore.MAX_DATABASES
    assert old[0].name not in names and old[1].name in names
    (written,) = [cache / n for n in names if n not in {p.name for p in old}]
    os.utime(written, (1, 1))  # the least recently used of all now...
    open_database(ALTDB)  # ...until a hit touches it
    assert written.stat().st_mtime > 1_000_000
    fake_entry(cache, 99, 10, 2_000_000_000)
    copy = cache.parent / "altdb-copy"
    shutil.copytree(ALTDB, copy)
    (copy / "notes" / "extra.yaml").write_text("# another content, another key\n")
    open_database(copy)  # cold again: evicts the least recently used, not the touched one
    assert written.exists()
    assert len(ours(cache)) == cachestore.MAX_DATABASES


# --- progress ------------------------------------------------------------------------------------


class Recorder:
    made: ClassVar[list[Recorder]] = []

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.calls: list[tuple[int, int]] = []
        Recorder.made.append(self)

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def close(self) -> None:
        pass


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> list[Recorder]:
    Recorder.made = []
    monkeypatch.setattr(varz_deck.cli.common, "ProgressBar", Recorder)
    monkeypatch.setattr(varz_deck.cli.common, "stderr_is_terminal", lambda: True)
    return Recorder.made


def card_files() -> int:
    return sum(1 for p in ALTDB.rglob("*") if p.suffix in (".yaml", ".yml"))


def test_cards_lint_shows_progress_per_file_on_a_terminal(terminal: list[Recorder]) -> None:
    status, _, _ = run("cards", "lint", ALTDB)
    assert status == 0
    (bar,) = terminal
    assert str(ALTDB) in bar.label
    assert bar.calls[-1] == (card_files(), card_files())
    assert [done for done, _ in bar.calls] == list(range(card_files() + 1))


@pytest.mark.parametrize("output", ["json", "sarif", "github"])
def test_no_progress_for_machine_output(terminal: list[Recorder], output: str) -> None:
    status, out, _ = run("cards", "lint", ALTDB, "-o", output)
    assert status == 0 and not terminal
    if output != "github":
        json.loads(out)


def test_a_cold_cache_build_shows_progress_in_any_command(
    cache: Path, terminal: list[Recorder]
) -> None:
    deck = EXAMPLES / "blue-list.txt"
    run("check", deck, "--cards", ALTDB, "-o", "json")
    assert not terminal  # JSON: never
    shutil.rmtree(cache)
    run("check", deck, "--cards", ALTDB)
    assert len(terminal) == 1 and terminal[0].calls[-1] == (card_files(), card_files())
    assert terminal[0].calls == [(done, card_files()) for done in range(card_files() + 1)]
    run("check", deck, "--cards", ALTDB)
    assert len(terminal) == 1 or not terminal[1].calls  # warm: a hit builds nothing


def test_register_of_many_decks_shows_progress(terminal: list[Recorder]) -> None:
    run("register", EXAMPLES, "--exclude", "azuki", "--exclude", "third-game")
    decks = [p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".txt")]
    decks += (EXAMPLES / "yaml-game" / "decks").iterdir()  # the game.yaml game's (not its cards)
    labels = [r for r in terminal if "regist" in r.label]
    assert len(labels) == 1
    assert [done for done, _ in labels[0].calls] == list(range(len(decks)))
    Recorder.made.clear()
    run("register", EXAMPLES, "--exclude", "azuki", "--exclude", "third-game", "-o", "csv")
    assert not Recorder.made


def test_no_progress_when_stderr_is_piped(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Recorder.made = []
    monkeypatch.setattr(varz_deck.cli.common, "ProgressBar", Recorder)
    assert varz_deck.cli.common.stderr_is_terminal() is False  # CliRunner's stderr is no tty
    run("cards", "lint", ALTDB)
    run("check", EXAMPLES / "blue-list.txt", "--cards", ALTDB)
    assert not Recorder.made


def test_the_bar_draws_on_a_terminal_and_waits_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    bar = varz_deck.cli.common.ProgressBar("linting cards")
    bar(1, 10)
    assert screen.getvalue() == ""  # under a second: nothing yet
    clock = bar._clock
    monkeypatch.setattr(bar, "_clock", lambda: clock() + 5)
    bar(5, 10)
    bar(10, 10)
    bar.close()
    assert "linting cards" in screen.getvalue()
    assert "100%" in screen.getvalue()


@pytest.mark.parametrize("command", ["stats", "tune", "sim", "register"])
def test_a_cold_build_shows_no_bar_for_json(
    cache: Path, terminal: list[Recorder], command: str
) -> None:
    run(command, EXAMPLES / "blue-list.txt", "--cards", ALTDB, "-o", "json")
    assert not terminal
    shutil.rmtree(cache, ignore_errors=True)
    run(command, EXAMPLES / "blue-list.txt", "--cards", ALTDB)
    assert any(r.calls and r.calls[-1] == (card_files(), card_files()) for r in terminal)
