"""The cache part of core/database.py (issue 24, mutation testing): the content key, computed
here independently from its documented fields; a database that cannot be opened; a cache folder
whose parents do not exist yet; the progress a cold build reports."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from varz_deck.core import dbcache, discovery
from varz_deck.core.database import DatabaseError
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
    shutil.copytree(ROOT / "varz_deck" / "games" / "varz" / "card_data" / "sets", folder / "sets")
    shutil.copy(ROOT / "varz_deck" / "games" / "varz" / "card_data" / "formats.yaml", folder)
    return folder


def framed(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def expected_key(
    files: list[tuple[str, bytes | None]], misnamed: tuple[bytes, ...] = (), game: str = "varz"
) -> str:
    """The key as documented: blake2b-160 of the version tag, the game, the card and formats
    schemas, each YAML file's path and bytes (None: unreadable) and each misnamed file's name."""
    digest = hashlib.blake2b(f"{VERSION} cache-4".encode(), digest_size=20)
    digest.update(game.encode())
    for schema in ("games/varz/schemas/card-file", "core/formats"):
        digest.update((ROOT / "varz_deck" / f"{schema}.schema.json").read_bytes())
    for rel, data in files:
        digest.update(framed(rel.encode()))
        digest.update(b"unreadable" if data is None else framed(data))
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
    (cached,) = private_cache.glob("db-*.json")
    assert cached.name == f"db-{expected_key(contents(cards, *rels))}.json"


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
    assert list(private_cache.glob("db-*.json")) == []


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
    assert len(list(deep.glob("db-*.json"))) == 1


def test_a_cold_build_reports_each_file_of_the_total(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    heard: list[tuple[int, int]] = []
    open_database(cards, lambda done, total: heard.append((done, total)))
    assert heard == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    heard.clear()
    open_database(cards, lambda done, total: heard.append((done, total)))
    assert heard == []  # from the cache: nothing to check
