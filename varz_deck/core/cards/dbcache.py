"""The card-database cache: a content key, and a database read from and written to its card
index (core/cards/cardindex.py: one `db-<key>.sqlite` per content, the only cache).

The key is blake2b-160 of varz-deck's version and layout tag, the game, the card and formats
schemas, each YAML file's relative path and the blake2b-160 of its bytes, and each misnamed
formats file's name. A cold build hashes the very bytes it lints.

A warm run does not read every card file to find the key: a stat record per database root
(`files-<hash of the root>.json` in the cache folder) keeps, for each file, its relative path,
size, mtime_ns, ctime_ns and inode with the digest of its bytes, and the key is hashed from those
digests (`quick_key`). The record is used only when every file's stat matches it and no file's
mtime is within 2 s of when the record was written (git's "racy" rule: a file changed in the same
tick as it was recorded has the stat it had before); anything else reads and hashes every file
again and writes a new record. The record carries a checksum and is written atomically; a damaged
one is ignored. So a warm run trusts the file system's stat as git does, and a file whose bytes
change without any of its stat changing is not seen: the price of not reading 30 MiB of card
files to check 40 cards (docs/design/card-index.md, "The key").
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from varz_deck import __version__
from varz_deck.core.cards import cachestore, cardindex
from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.cachedoc import IndexDamaged
from varz_deck.core.cards.discovery import Content, display, yaml_files
from varz_deck.core.cards.model import CardDatabase, CardModel, CardT
from varz_deck.core.files.resources import schema_text
from varz_deck.core.files.source import LoadError

TAG = "cache-5"
RACY_NS = 2_000_000_000  # a file modified this close to its record is read again
RECORD = "varz-deck-files 1"
Stats = dict[Path, os.stat_result]  # each file's stat, taken before its bytes were read


def cache_dir() -> Path | None:
    return cachestore.cache_dir()


def file_digest(data: bytes) -> bytes:
    return blake2b(data, digest_size=20).digest()


def _rel(root: Path, path: Path) -> bytes:
    return os.fsencode(path.relative_to(root).as_posix())  # a name may not be UTF-8


def key_of(
    game: CardModel[CardT], digests: list[tuple[bytes, bytes | None]], misnamed: list[Path]
) -> str:
    """The key from each file's relative path and digest (None: unreadable)."""
    digest = blake2b(f"{__version__} {TAG}".encode(), digest_size=20)
    digest.update(game.key.encode())
    digest.update(schema_text(game.card_schema).encode())
    digest.update(schema_text("formats").encode())
    for rel, data in digests:
        digest.update(len(rel).to_bytes(8, "big") + rel)
        digest.update(b"unreadable" if data is None else data)
    for path in misnamed:  # never cached (C007), but a new one must not hit an older entry
        name = os.fsencode(path.name)
        digest.update(b"misnamed" + len(name).to_bytes(8, "big") + name)
    return digest.hexdigest()


def cache_key(
    root: Path,
    files: list[tuple[Path, Content]],
    game: CardModel[CardT],
    misnamed: list[Path],
    stats: Stats | None = None,
) -> str:
    """The key of the bytes read; with `stats` (taken before each read), the root's stat record
    is written too, for the next run's `quick_key`."""
    digests: list[tuple[bytes, bytes | None]] = []
    for path, data in files:
        digests.append(
            (_rel(root, path), None if isinstance(data, LoadError) else file_digest(data))
        )
    if stats is not None:
        _write_record(root, digests, stats, [path for path, _ in files])
    return key_of(game, digests, misnamed)


def _record_path(folder: Path, root: Path) -> tuple[Path, str]:
    name = str(root.resolve())
    tag = blake2b(os.fsencode(name), digest_size=20).hexdigest()
    return folder / f"files-{tag}.json", name


def _sum(body: str) -> str:
    return blake2b(body.encode("utf-8"), digest_size=20).hexdigest()


def _stat_fields(found: os.stat_result) -> list[int]:
    return [found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino]


def _write_record(
    root: Path, digests: list[tuple[bytes, bytes | None]], stats: Stats, paths: list[Path]
) -> None:
    folder = cache_dir()
    if folder is None:
        return
    written = time.time_ns()
    entries: list[list[str | int]] = []  # [path, size, mtime_ns, ctime_ns, inode, digest hex]
    for (rel, digest), path in zip(digests, paths, strict=True):
        found = stats.get(path)
        if digest is None or found is None or not stat.S_ISREG(found.st_mode):
            return  # an unreadable file: every run reads them all (it is an error anyway)
        entries.append([os.fsdecode(rel), *_stat_fields(found), digest.hex()])
    try:
        path, name = _record_path(folder, root)
        body = json.dumps({"root": name, "written": written, "files": entries}, ensure_ascii=True)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{path.name}.{os.getpid()}.tmp"
        tmp.write_text(f"{RECORD} {_sum(body)}\n{body}", encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, ValueError):  # no record: the next run reads every file, never wrong
        return


def _read_record(folder: Path, root: Path) -> tuple[int, dict[str, list[Any]]] | None:
    """The record of root: when it was written, and relative path -> [size, mtime_ns,
    ctime_ns, inode, digest hex]; None when there is none that can be trusted."""
    try:
        path, name = _record_path(folder, root)
        header, newline, body = path.read_text(encoding="utf-8").partition("\n")
        if not newline or header != f"{RECORD} {_sum(body)}":
            return None
        document = json.loads(body)
        written = document["written"]
        if document["root"] != name or type(written) is not int:
            return None
        files = {}
        for entry in document["files"]:
            rel, *fields, digest = entry
            if len(fields) != 4 or not all(type(f) is int for f in fields):
                return None
            files[rel] = [*fields, bytes.fromhex(digest)]
        return written, files
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def quick_key(root: Path, game: CardModel[CardT], misnamed: list[Path]) -> str | None:
    """The key from the root's stat record, reading no card file; None when any file's stat
    differs from the record, is racy, or there is no record to trust."""
    folder = cache_dir()
    if folder is None:
        return None
    record = _read_record(folder, root)
    if record is None:
        return None
    written, files = record
    digests: list[tuple[bytes, bytes | None]] = []
    for path in yaml_files(root):
        rel = _rel(root, path)
        known = files.get(os.fsdecode(rel))
        try:
            found = os.stat(path)
        except OSError:
            return None
        if (
            known is None
            or known[:4] != _stat_fields(found)
            or found.st_mtime_ns > written - RACY_NS
        ):
            return None
        digests.append((rel, known[4]))
    if len(digests) != len(files):
        return None
    return key_of(game, digests, misnamed)


def _index_path(folder: Path, key: str) -> Path:
    return folder / f"db-{key}.sqlite"


def cache_read(
    key: str,
    root: Path,
    game: CardModel[CardT],
    rebuild: Callable[[], CardDatabase[CardT]] | None = None,
) -> CardDatabase[CardT] | None:
    """The database indexed for key, or None when there is none that fits (a damaged one is
    removed); `rebuild` serves if damage is met after the open (cardindex.open_database)."""
    folder = cache_dir()
    if folder is None:
        return None
    path = _index_path(folder, key)
    try:
        index = cardindex.CardIndex(path, key, __version__, game.key)
    except OSError:
        return None
    except IndexDamaged:
        cardindex.remove(path)
        return None
    try:
        database = cardindex.open_database(index, game, root, Path(display(root)), rebuild)
    except IndexDamaged:
        index.remove()
        return None
    database.content_key = key
    cachestore.touch(key)  # the least recently used databases are evicted first
    return database


def cache_write(key: str, root: Path, database: CardDatabase[CardT]) -> None:
    """Store a database as its index; card files are kept relative to its root, so the same
    content in another folder, or checked from another working directory, shows its own paths."""
    database.content_key = key
    folder = cache_dir()
    if folder is None or not cardindex.supported(type(database)):
        return
    with contextlib.suppress(OSError, ValueError, MemoryError, RecursionError, sqlite3.Error):
        folder.mkdir(parents=True, exist_ok=True)  # no cache is slower, never wrong
        cardindex.write(_index_path(folder, key), key, __version__, root, database)


def stats_into(stats: Stats) -> Callable[[Path], None]:
    """A function that records a path's stat into `stats` (discovery.read_files's `before`)."""

    def take(path: Path) -> None:
        with contextlib.suppress(OSError):
            stats[path] = os.stat(path)

    return take
