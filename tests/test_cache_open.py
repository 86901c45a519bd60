"""The cache part of core/lint/database.py (issue 24, mutation testing): the content key, computed
here independently from its documented fields; the stat record a warm run finds it from without
reading the card files (issue 27); a database that cannot be opened; a cache folder whose parents
do not exist yet; the progress a cold build reports."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from varz_deck.core.cards import dbcache, discovery
from varz_deck.core.lint.database import DatabaseError
from varz_deck.games import get_game, open_database

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


def bundled_copy(folder: Path) -> Path:
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", folder / "sets")
    shutil.copy(ROOT / "card_data" / "varz" / "formats.yaml", folder)
    return folder


def framed(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def expected_key(
    files: list[tuple[str, bytes | None]], misnamed: tuple[bytes, ...] = (), game: str = "varz"
) -> str:
    """The key as documented: blake2b-160 of the version tag, the game, the card and formats
    schemas, each YAML file's path and the blake2b-160 of its bytes (None: unreadable) and each
    misnamed file's name."""
    digest = hashlib.blake2b(f"{VERSION} cache-5".encode(), digest_size=20)
    digest.update(game.encode())
    for schema in ("schemas/varz/card-file", "varz_deck/core/files/formats"):
        digest.update((ROOT / f"{schema}.schema.json").read_bytes())
    for rel, data in files:
        digest.update(framed(rel.encode()))
        if data is None:
            digest.update(b"unreadable")
        else:
            digest.update(hashlib.blake2b(data, digest_size=20).digest())
    for name in misnamed:
        digest.update(b"misnamed" + framed(name))
    return digest.hexdigest()


def key_of(root: Path) -> str:
    game = get_game("varz")
    files = list(discovery.read_files(root))
    return dbcache.cache_key(root, files, game, discovery.misnamed(root))


def contents(root: Path, *rels: str) -> list[tuple[str, bytes | None]]:
    return [(rel, (root / rel).read_bytes()) for rel in rels]


def test_the_cache_file_is_named_by_the_content_key(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    open_database(cards)
    rels = ("formats.yaml", "sets/pr.yaml", "sets/vz01.yaml", "sets/vz02.yaml")
    (cached,) = private_cache.glob("db-*.sqlite")
    assert cached.name == f"db-{expected_key(contents(cards, *rels))}.sqlite"


def test_the_key_covers_misnamed_and_unreadable_files(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    (cards / "Formats.yaml.txt").write_text("formats: {}\n", encoding="utf-8")
    os.mkfifo(cards / "sets" / "pipe.yaml")
    rels = ("formats.yaml", "sets/pr.yaml", "sets/vz01.yaml", "sets/vz02.yaml")
    files = [*contents(cards, *rels[:1]), ("sets/pipe.yaml", None), *contents(cards, *rels[1:])]
    assert key_of(cards) == expected_key(files, (b"Formats.yaml.txt",))


def test_a_database_with_an_unreadable_card_file_is_an_error_not_a_crash(
    tmp_path: Path, private_cache: Path
) -> None:
    cards = bundled_copy(tmp_path / "db")
    os.mkfifo(cards / "sets" / "pipe.yaml")
    with pytest.raises(DatabaseError) as raised:
        open_database(cards)
    assert raised.value.root == cards
    assert [d.code for d in raised.value.diagnostics] == ["F001"]
    assert list(private_cache.glob("db-*")) == []


@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_database_that_is_not_a_folder(kind: str, tmp_path: Path, private_cache: Path) -> None:
    root = tmp_path / "cards"
    if kind == "a file":
        root.write_text("cards: []\n", encoding="utf-8")
    with pytest.raises(DatabaseError) as raised:
        open_database(root)
    assert raised.value.root == root
    (problem,) = raised.value.diagnostics
    assert problem.code == "F001" and problem.is_error
    assert problem.message == f"card database '{root}' is not a folder"


def test_a_cache_folder_whose_parents_are_missing_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / "not" / "yet" / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(deep))
    open_database(bundled_copy(tmp_path / "db"))
    assert len(list(deep.glob("db-*.sqlite"))) == 1


def test_a_cold_build_reports_each_file_of_the_total(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    heard: list[tuple[int, int]] = []
    open_database(cards, lambda done, total: heard.append((done, total)))
    assert heard == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    heard.clear()
    open_database(cards, lambda done, total: heard.append((done, total)))
    assert heard == []  # from the cache: nothing to check


# --------------------------------------------------------------------------- the stat record


def aged(root: Path) -> None:
    """Every card file modified a minute ago: past the record's racy window."""
    past = time.time() - 60
    for path in root.rglob("*.yaml"):
        os.utime(path, (past, past))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The card files read (their bytes) from now on (formats.yaml is read for the game too)."""
    seen: list[Path] = []
    real = discovery.read_bytes

    def counted(path: Path, limit: int) -> Any:
        if path.parent.name == "sets":
            seen.append(path)
        return real(path, limit)

    monkeypatch.setattr(discovery, "read_bytes", counted)
    return seen


def test_a_warm_open_reads_no_card_file(
    tmp_path: Path, private_cache: Path, reads: list[Path]
) -> None:
    cards = bundled_copy(tmp_path / "db")
    aged(cards)
    cold = open_database(cards)
    assert len(reads) == 3
    assert len(list(private_cache.glob("files-*.json"))) == 1
    reads.clear()
    warm = open_database(cards)
    assert reads == []
    assert warm.content_key == cold.content_key == key_of(cards)
    assert warm.lookup("Ember Imp")[0] == cold.lookup("Ember Imp")[0]


def test_a_file_modified_close_to_its_record_is_read_again(
    tmp_path: Path, private_cache: Path, reads: list[Path]
) -> None:
    cards = bundled_copy(tmp_path / "db")  # copied just now: inside the racy window
    open_database(cards)
    reads.clear()
    open_database(cards)
    assert len(reads) == 3  # every file read again, then the same key: a hit
    assert len(list(private_cache.glob("db-*.sqlite"))) == 1


def ember_cost(database: Any) -> int:
    cost = database.lookup("Ember Imp")[0].cost
    assert isinstance(cost, int)
    return cost


@pytest.mark.parametrize("change", ["same size and mtime", "added", "removed", "renamed"])
def test_any_change_of_the_files_is_seen(
    change: str, tmp_path: Path, private_cache: Path, reads: list[Path]
) -> None:
    cards = bundled_copy(tmp_path / "db")
    aged(cards)
    before = open_database(cards)
    path = cards / "sets" / "vz01.yaml"
    if change == "same size and mtime":  # only the ctime (and the bytes) tell
        stat = path.stat()
        text = path.read_text(encoding="utf-8")
        cost = ember_cost(before)
        edited = text.replace(f"cost: {cost}\n", f"cost: {(cost + 1) % 10}\n", 1)
        assert edited != text and len(edited) == len(text)
        path.write_text(edited, encoding="utf-8")
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        assert path.stat().st_size == stat.st_size
    elif change == "added":
        (cards / "sets" / "extra.yaml").write_text("# no cards yet\n", encoding="utf-8")
    elif change == "removed":
        (cards / "sets" / "pr.yaml").unlink()
    else:
        (cards / "sets" / "vz02.yaml").rename(cards / "sets" / "vz03.yaml")
    reads.clear()
    try:
        after = open_database(cards)
    except DatabaseError:
        after = None  # a removed file may leave the database invalid: an answer, not a hit
    assert len(reads) >= 2  # read again
    if after is not None:
        assert after.content_key == key_of(cards) != before.content_key
    if change == "same size and mtime":
        assert after is not None and ember_cost(after) == (ember_cost(before) + 1) % 10


@pytest.mark.parametrize("damage", ["a byte", "cut short", "another root", "not json"])
def test_a_damaged_or_foreign_record_is_not_trusted(
    damage: str, tmp_path: Path, private_cache: Path, reads: list[Path]
) -> None:
    cards = bundled_copy(tmp_path / "db")
    aged(cards)
    open_database(cards)
    (record,) = private_cache.glob("files-*.json")
    text = record.read_text(encoding="utf-8")
    other = bundled_copy(tmp_path / "other")
    aged(other)
    if damage == "a byte":
        record.write_text(text.replace('"vz01.yaml"', '"vz01.yamm"'), encoding="utf-8")
        record.write_text(text.replace("sets/vz01.yaml", "sets/vz01.yamm"), encoding="utf-8")
    elif damage == "cut short":
        record.write_text(text[: len(text) // 2], encoding="utf-8")
    elif damage == "another root":  # another root's record under this root's name
        open_database(other)
        (mine,) = [p for p in private_cache.glob("files-*.json") if p != record]
        shutil.copy(mine, record)
        (other / "sets" / "pr.yaml").unlink()  # the other root differs now
    else:
        header = text.partition("\n")[0]
        record.write_text(header + "\n{", encoding="utf-8")
    reads.clear()
    database = open_database(cards)
    assert len(reads) == 3
    assert database.content_key == key_of(cards)
