"""The lint store: each card file's own `cards lint` result, keyed by its content.

One SQLite file per game in the cache folder, `lint-<game>.sqlite` (WAL, a short busy timeout).
A row is content-addressed: its key is a digest of the file's bytes and of everything else its
result depends on (varz-deck's version, the game and its package's version, its card schema, the
card checks' codes), so rows are only ever added (`INSERT OR IGNORE`: two lints at once write the
same row). Each row carries a blake2b-64 of its key and text, checked on read: a row that fails
it is deleted and its file checked again. A store that is locked or cannot be opened is skipped
(the lint is slower, never wrong); a file that is not a database (or is damaged) is replaced.
Only the newest MAX_ROWS rows are kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck import __version__
from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.cachestore import cache_dir

if TYPE_CHECKING:
    from varz_deck.core.lint._base import LintedGame

LAYOUT = 5  # 5: where a file's release day is written; 4: that day in its head; PRAGMA user_version: a store of another layout is emptied and made again
BUSY_MS = 1000  # how long a lint waits for another's write before going on without the store
# The rows kept: the newest written (a file's row is written once per content); 2,000 is four
# times the files of bench_scale's 100,000 cards, and at most about 330 MB for files that size.
MAX_ROWS = 2000
FLUSH_CHARS = 16_000_000  # text kept in memory before it is written
# A result is a head (read for every file: its diagnostics and its entries' summaries) and one
# row per entry (read only when a check needs that entry), each with its own sum, so a lint
# reads and checks only what it uses.
_SCHEMA = (
    "DROP TABLE IF EXISTS file_results",
    "DROP TABLE IF EXISTS entries",
    "CREATE TABLE file_results (digest BLOB PRIMARY KEY, head TEXT NOT NULL, sum INTEGER NOT NULL)",
    "CREATE TABLE entries (digest BLOB NOT NULL, pos INTEGER NOT NULL, line TEXT NOT NULL,"
    " sum INTEGER NOT NULL, PRIMARY KEY (digest, pos)) WITHOUT ROWID",
    f"PRAGMA user_version = {LAYOUT}",
)
_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
_GAME_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # what cachestore counts as ours


def store_path(folder: Path, game_key: str) -> Path:
    return folder / f"lint-{game_key}.sqlite"


def row_sum(digest: bytes, text: str, pos: int = -1) -> int:
    """The check of a row's text: a signed 64-bit blake2b of its key and the text."""
    hashed = blake2b(digest + pos.to_bytes(8, "big", signed=True), digest_size=8)
    hashed.update(text.encode("utf-8", "surrogatepass"))
    return int.from_bytes(hashed.digest(), "big", signed=True)


class LintStore:
    """Rows of one game's store; every failure turns it off for the rest of the run."""

    def __init__(self, path: Path, salt: bytes) -> None:
        self.path = path
        self.salt = salt
        self.pending: list[tuple[bytes, str, int]] = []
        self.pending_entries: list[tuple[bytes, int, str, int]] = []
        self.waiting = 0  # characters of text in pending
        self.db: sqlite3.Connection | None = None
        self.db = self._open()
        self.reopen = False  # closed after a lint, but a result's entries may still be read

    def _open(self) -> sqlite3.Connection | None:
        for attempt in (1, 2):
            try:
                db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            except sqlite3.Error:
                return None
            try:
                db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
                    with db:
                        db.execute("BEGIN IMMEDIATE")
                        if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
                            for statement in _SCHEMA:
                                db.execute(statement)
                return db
            except sqlite3.Error as err:
                db.close()
                if attempt == 2 or not damaged(err):
                    return None
                replace(self.path)
        return None  # pragma: no cover - the loop returns

    def digest(self, content: bytes) -> bytes:
        hashed = blake2b(self.salt, digest_size=20)
        hashed.update(content)
        return hashed.digest()

    def head(self, digest: bytes) -> str | None:
        """The stored head for a digest, or None (absent, failing its sum, or no store)."""
        return self._read("SELECT head, sum FROM file_results WHERE digest = ?", digest)

    def entry(self, digest: bytes, pos: int) -> str | None:
        """The stored line of a file's entry, or None (absent, failing its sum, or no store)."""
        query = "SELECT line, sum FROM entries WHERE digest = ? AND pos = ?"
        return self._read(query, digest, pos)

    def lines(self, count: int, digest: bytes) -> list[str] | None:
        """Every stored line of a file's `count` entries, or None (one missing or damaged)."""
        db = self._reading()
        if db is None:
            return None
        try:
            rows = db.execute(
                "SELECT pos, line, sum FROM entries WHERE digest = ? ORDER BY pos", (digest,)
            ).fetchall()
        except sqlite3.Error as err:
            self._failed(err)
            return None
        ok = len(rows) == count and all(
            pos == i and isinstance(line, str) and stored == row_sum(digest, line, pos)
            for i, (pos, line, stored) in enumerate(rows)
        )
        return [line for _, line, _ in rows] if ok else None

    def _reading(self) -> sqlite3.Connection | None:
        if self.db is None and self.reopen:
            self.reopen = False
            self.db = self._open()
        return self.db

    def _read(self, query: str, digest: bytes, pos: int = -1) -> str | None:
        db = self._reading()
        if db is None:
            return None
        try:
            row = db.execute(query, (digest, pos) if pos >= 0 else (digest,)).fetchone()
        except sqlite3.Error as err:
            self._failed(err)
            return None
        if row is None:
            return None
        text, stored = row
        if isinstance(text, str) and stored == row_sum(digest, text, pos):
            return text
        with contextlib.suppress(sqlite3.Error):  # checked again and stored again
            db.execute("DELETE FROM file_results WHERE digest = ?", (digest,))
            db.execute("DELETE FROM entries WHERE digest = ?", (digest,))
        return None

    def put(self, digest: bytes, head: str, lines: list[str]) -> None:
        """Keep a result; written by close(), or sooner once FLUSH_CHARS of text are waiting."""
        if self.db is None:
            return
        self.pending.append((digest, head, row_sum(digest, head)))
        for pos, line in enumerate(lines):
            self.pending_entries.append((digest, pos, line, row_sum(digest, line, pos)))
            self.waiting += len(line)
        self.waiting += len(head)
        if self.waiting >= FLUSH_CHARS:
            self.flush()

    def flush(self) -> None:
        """Write the kept results in one transaction, then forget the oldest beyond MAX_ROWS;
        a failure loses only these (and turns the store off)."""
        pending, entries = self.pending, self.pending_entries
        self.pending, self.pending_entries, self.waiting = [], [], 0
        if self.db is None or not pending:
            return
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                # entries first: a head is only ever read with its entries there
                self.db.executemany("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?)", entries)
                self.db.executemany("INSERT OR IGNORE INTO file_results VALUES (?, ?, ?)", pending)
                old = self.db.execute(
                    "SELECT digest FROM file_results WHERE rowid <= "
                    "(SELECT max(rowid) FROM file_results) - ?",
                    (MAX_ROWS,),
                ).fetchall()
                self.db.executemany("DELETE FROM file_results WHERE digest = ?", old)
                self.db.executemany("DELETE FROM entries WHERE digest = ?", old)
        except sqlite3.Error as err:
            self._failed(err)

    def close(self) -> None:
        """Write what is kept and close; a later read (a result's entries) opens it again."""
        self.flush()
        db, self.db = self.db, None
        if db is not None:
            db.close()
            self.reopen = True

    def _failed(self, err: sqlite3.Error) -> None:
        db, self.db = self.db, None
        if db is not None:
            db.close()
        if damaged(err):
            replace(self.path)


def damaged(err: sqlite3.Error) -> bool:
    """Whether an error says the file is no database or a damaged one (not: locked, busy)."""
    name = getattr(err, "sqlite_errorname", None)
    if name is not None:
        return name in _DAMAGED
    text = str(err).lower()
    return "not a database" in text or "malformed" in text


def replace(path: Path) -> None:
    """Remove a damaged store (and its WAL files); the next open makes a new one."""
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(OSError):
            name.unlink()


def open_store(game: LintedGame, rule_codes: list[str], origin: str = "") -> LintStore | None:
    """The game's lint store, or None when the cache is off or the folder unusable. Its rows'
    key holds the game's package and version (`origin`): a plugin's upgrade may change what
    its card rules say under the same codes."""
    folder = cache_dir()
    if folder is None or not _GAME_KEY.fullmatch(game.key):
        return None
    from varz_deck.core.files.resources import schema_text

    salt = blake2b(f"{__version__} lint-{LAYOUT}".encode(), digest_size=20)
    for part in (game.key, origin, schema_text(game.card_schema), " ".join(rule_codes)):
        data = part.encode()
        salt.update(len(data).to_bytes(8, "big") + data)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    store = LintStore(store_path(folder, game.key), salt.digest())
    return store if store.db is not None else None
