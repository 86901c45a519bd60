"""The cache folder of card databases: where it is, a bound on how many it keeps, and
what `varz-deck cache info` and `cache clear` see and remove.

dbcache.py writes one card index `db-<key>.sqlite` per database content (cardindex.py) and one
stat record `files-<hash>.json` per database root; the registry of games keeps its record,
`games.json`, there too. A hit touches the index's mtime; a write evicts the least recently used
indexes beyond MAX_DATABASES, by mtime (and the oldest records beyond MAX_RECORDS). Only files
named like ours are ever counted or removed: the folder may be shared ($XDG_CACHE_HOME/varz-deck
is ours, but $VARZ_DECK_CACHE may name any folder).
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_DATABASES = 8
MAX_RECORDS = 32
_HEX = "[0-9a-f]{40}"
# db-<key>.sqlite (db-<key>.json: the cache of varz-deck before the index), files-<hash>.json,
# and the temporary files a write goes through (.<name>.<pid>.tmp; .db-<key>.<pid>.tmp before)
_OURS = re.compile(
    rf"(db-{_HEX}\.(json|sqlite)|files-{_HEX}\.json|\.db-{_HEX}\.[0-9]+\.tmp"
    rf"|\.(db-{_HEX}\.sqlite|files-{_HEX}\.json)\.[0-9]+\.tmp"
    r"|lint-[a-z0-9][a-z0-9_-]*\.sqlite(-wal|-shm)?"  # a game's lint store (core/lint/lintstore.py)
    r"|games\.json|\.games\.json\.[0-9]+\.tmp)"  # the record of the games (varz_deck.games)
)
_DATABASE = re.compile(rf"db-{_HEX}\.(sqlite|json)")
_RECORD = re.compile(rf"files-{_HEX}\.json")


def cache_dir() -> Path | None:
    """The cache folder: $VARZ_DECK_CACHE, else $XDG_CACHE_HOME/varz-deck, else
    ~/.cache/varz-deck; None when $VARZ_DECK_NO_CACHE is set."""
    if os.environ.get("VARZ_DECK_NO_CACHE"):
        return None
    base = os.environ.get("VARZ_DECK_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "varz-deck" if not os.environ.get("VARZ_DECK_CACHE") else root


def entry(folder: Path, key: str) -> Path:
    return folder / f"db-{key}.sqlite"


def _ours(folder: Path, pattern: re.Pattern[str] = _OURS) -> list[Path]:
    """Our regular files in the folder (never a symlink, a folder, or anyone else's file)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        path = folder / name
        if pattern.fullmatch(name) and path.is_file() and not path.is_symlink():
            found.append(path)
    return found


def touch(key: str) -> None:
    """Mark a database as just used (a cache hit): its mtime is the LRU order."""
    folder = cache_dir()
    if folder is None:
        return
    with contextlib.suppress(OSError):  # a read-only cache still serves; the order is a hint
        os.utime(entry(folder, key))


def evict(keep: int = MAX_DATABASES, records: int = MAX_RECORDS) -> list[Path]:
    """Remove the least recently used databases beyond `keep`, and the stat records beyond
    `records` (by mtime, oldest first out); the paths removed."""
    folder = cache_dir()
    if folder is None:
        return []
    return _oldest(folder, _DATABASE, keep) + _oldest(folder, _RECORD, records)


def _oldest(folder: Path, pattern: re.Pattern[str], keep: int) -> list[Path]:
    aged = []
    for path in _ours(folder, pattern):
        try:
            aged.append((path.stat().st_mtime_ns, path.name, path))
        except OSError:
            continue
    aged.sort(reverse=True)  # newest first; the name breaks ties the same way every time
    removed = []
    for _, _, path in aged[keep:]:
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            continue
    return removed


@dataclass(frozen=True)
class CacheInfo:
    folder: Path | None  # None: the cache is off ($VARZ_DECK_NO_CACHE)
    databases: int
    size: int  # bytes, of every file of ours (databases and temporary files)


def info() -> CacheInfo:
    folder = cache_dir()
    if folder is None:
        return CacheInfo(None, 0, 0)
    files = _ours(folder)
    size = 0
    for path in files:
        try:
            size += path.stat().st_size
        except OSError:
            continue
    return CacheInfo(folder, sum(1 for p in files if _DATABASE.fullmatch(p.name)), size)


def clear() -> tuple[int, int]:
    """Remove every file of ours from the cache folder (the folder and others' files stay):
    the number of databases removed and the bytes freed."""
    folder = cache_dir()
    if folder is None:
        return 0, 0
    count = freed = 0
    for path in _ours(folder):
        try:
            size = path.stat().st_size
            path.unlink()
        except OSError:
            continue
        freed += size
        count += 1 if _DATABASE.fullmatch(path.name) else 0
    return count, freed
