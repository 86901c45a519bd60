"""core/cards/cachestore.py beyond what `cache info` / `cache clear` show (issue 24, mutation testing):
where the cache folder is when no variable names it, the cache turned off, the temporary files
of a write that is under way, and a file another process removes or holds meanwhile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from varz_deck.core.cards import cachestore

KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def no_cache_variables(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("VARZ_DECK_CACHE", "XDG_CACHE_HOME", "VARZ_DECK_NO_CACHE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    monkeypatch.delenv("VARZ_DECK_NO_CACHE", raising=False)
    return folder


def entry(folder: Path, index: int, mtime: int, size: int = 10) -> Path:
    path = folder / f"db-{index:040x}.sqlite"
    path.write_bytes(b"x" * size)
    os.utime(path, (mtime, mtime))
    return path


# --------------------------------------------------------------------------- where


def test_the_folder_is_under_xdg_cache_home(
    tmp_path: Path, no_cache_variables: pytest.MonkeyPatch
) -> None:
    no_cache_variables.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cachestore.cache_dir() == tmp_path / "xdg" / "varz-deck"


def test_the_folder_is_under_the_home_cache_without_a_variable(
    tmp_path: Path, no_cache_variables: pytest.MonkeyPatch
) -> None:
    no_cache_variables.setenv("HOME", str(tmp_path / "home"))
    assert cachestore.cache_dir() == tmp_path / "home" / ".cache" / "varz-deck"


def test_varz_deck_cache_is_the_folder_itself(
    tmp_path: Path, no_cache_variables: pytest.MonkeyPatch
) -> None:
    no_cache_variables.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    no_cache_variables.setenv("VARZ_DECK_CACHE", str(tmp_path / "mine"))
    assert cachestore.cache_dir() == tmp_path / "mine"


def test_the_cache_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry(cache, 1, 1_000_000)
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    assert cachestore.cache_dir() is None
    assert cachestore.info() == cachestore.CacheInfo(None, 0, 0)
    assert cachestore.clear() == (0, 0)
    assert cachestore.evict(keep=0) == []
    cachestore.touch(f"{1:040x}")
    assert [p.name for p in cache.iterdir()] == [f"db-{1:040x}.sqlite"]  # left alone


# --------------------------------------------------------------------------- writes under way


def test_a_write_under_way_is_neither_evicted_nor_counted_as_a_database(cache: Path) -> None:
    """The temporary file of a write under way (newest of all) is not a database: evicting down
    to one database removes nothing and keeps it."""
    database = entry(cache, 1, 1_000_000)
    writing = cache / f".db-{KEY}.4242.tmp"
    writing.write_bytes(b"y" * 7)
    assert cachestore.evict(keep=1) == []
    assert database.exists() and writing.exists()
    assert cachestore.info() == cachestore.CacheInfo(cache, 1, 17)


def test_touching_a_database_that_is_gone_is_not_an_error(cache: Path) -> None:
    cachestore.touch(KEY)  # another process's `cache clear` removed it meanwhile
    assert list(cache.iterdir()) == []


def test_a_hit_touches_its_database(cache: Path) -> None:
    path = entry(cache, 1, 1_000_000)
    cachestore.touch(f"{1:040x}")
    assert path.stat().st_mtime > 1_000_000


# --------------------------------------------------------------------------- races


@pytest.fixture
def vanished(cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database listed but removed (by another process) before it is looked at: it sorts
    first, so the files after it must still be seen."""
    ghost = cache / f"db-{0:040x}.sqlite"
    real = cachestore._ours

    def listed(folder: Path, pattern: object = cachestore._OURS) -> list[Path]:
        return [ghost, *real(folder, pattern)]  # type: ignore[arg-type]

    monkeypatch.setattr(cachestore, "_ours", listed)
    return ghost


def test_info_counts_on_past_a_file_removed_meanwhile(cache: Path, vanished: Path) -> None:
    entry(cache, 1, 1_000_000, size=5)
    entry(cache, 2, 1_000_000, size=6)
    assert cachestore.info() == cachestore.CacheInfo(cache, 3, 11)  # listed: 3; sizes: 5 + 6


def test_evict_goes_on_past_a_file_removed_meanwhile(cache: Path, vanished: Path) -> None:
    old, new = entry(cache, 1, 1_000_000), entry(cache, 2, 2_000_000)
    assert cachestore.evict(keep=1) == [old]
    assert new.exists()


def test_clear_goes_on_past_a_file_removed_meanwhile(cache: Path, vanished: Path) -> None:
    entry(cache, 1, 1_000_000, size=5)
    entry(cache, 2, 1_000_000, size=6)
    assert cachestore.clear() == (2, 11)
    assert list(cache.iterdir()) == []


@pytest.fixture
def held(cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database that cannot be removed (another process holds it, as on Windows)."""
    path = cache / f"db-{1:040x}.sqlite"
    real = Path.unlink

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self == path:
            raise PermissionError(13, "held by another process", str(self))
        real(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    return path


def test_evict_goes_on_past_a_file_it_cannot_remove(cache: Path, held: Path) -> None:
    entry(cache, 1, 2_000_000)  # the held one: the first to go, as the newest but one
    oldest = entry(cache, 2, 1_000_000)
    newest = entry(cache, 3, 3_000_000)
    assert cachestore.evict(keep=1) == [oldest]
    assert held.exists() and not oldest.exists() and newest.exists()


def test_clear_goes_on_past_a_file_it_cannot_remove(cache: Path, held: Path) -> None:
    entry(cache, 1, 1_000_000, size=5)
    entry(cache, 2, 1_000_000, size=6)
    assert cachestore.clear() == (1, 6)
    assert [p.name for p in cache.iterdir()] == [held.name]


# --------------------------------------------------------------------------- the index's files


def test_a_json_cache_of_an_older_version_is_counted_evicted_and_cleared(cache: Path) -> None:
    old = cache / f"db-{2:040x}.json"
    old.write_bytes(b"z" * 4)
    os.utime(old, (500_000, 500_000))
    new = entry(cache, 1, 1_000_000)
    assert cachestore.info() == cachestore.CacheInfo(cache, 2, 14)
    assert cachestore.evict(keep=1) == [old]
    assert new.exists()
    old.write_bytes(b"z" * 4)
    assert cachestore.clear() == (2, 14)


def test_stat_records_and_their_temporary_files_are_ours_but_not_databases(cache: Path) -> None:
    names = [
        f"files-{KEY}.json",
        f".files-{KEY}.json.77.tmp",
        f".db-{KEY}.sqlite.77.tmp",
    ]
    for name in names:
        (cache / name).write_bytes(b"r" * 3)
    (cache / f"files-{KEY}.jsonx").write_bytes(b"not ours")
    (cache / "files-short.json").write_bytes(b"not ours")
    assert cachestore.info() == cachestore.CacheInfo(cache, 0, 9)
    assert cachestore.clear() == (0, 9)
    assert sorted(p.name for p in cache.iterdir()) == [f"files-{KEY}.jsonx", "files-short.json"]


def test_stat_records_beyond_their_bound_are_evicted_oldest_first(cache: Path) -> None:
    paths = []
    for n in range(5):
        path = cache / f"files-{n:040x}.json"
        path.write_bytes(b"r")
        os.utime(path, (1_000_000 + n, 1_000_000 + n))
        paths.append(path)
    database = entry(cache, 1, 1)  # the oldest file of all, but a database: kept below its bound
    assert sorted(cachestore.evict(keep=1, records=3)) == paths[:2]
    assert database.exists() and all(p.exists() for p in paths[2:])
