"""The lint store (issue 27): each card file's own `cards lint` result, keyed by its content.

One SQLite file per game in the cache folder, `lint-<game>.sqlite` (WAL, a short busy timeout).
A row is content-addressed: its key is a digest of the file's bytes and of everything else its
result depends on (varz-deck's version, the game, its card schema, the card checks' codes), so
rows are only ever added (`INSERT OR IGNORE`: two lints at once write the same row). Each row
carries a blake2b-64 of its key and text, checked on read: a row that fails it is deleted and
its file re-checked. A store that is locked or cannot be opened is skipped (the lint is slower,
never wrong); a file that is not a database (or is damaged) is replaced.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck import __version__
from varz_deck.core._hash import blake2b
from varz_deck.core.cachestore import cache_dir

if TYPE_CHECKING:
    from varz_deck.core.game import Game

LAYOUT = "lint-1"
BUSY_MS = 1000  # how long a lint waits for another's write before going on without the store
_SCHEMA = "CREATE TABLE IF NOT EXISTS file_results (digest BLOB PRIMARY KEY, result TEXT NOT NULL, sum INTEGER NOT NULL)"
_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def store_path(folder: Path, game_key: str) -> Path:
    return folder / f"lint-{game_key}.sqlite"


def row_sum(digest: bytes, text: str) -> int:
    """The check of one row: a signed 64-bit blake2b of its key and its text."""
    hashed = blake2b(digest, digest_size=8)
    hashed.update(text.encode("utf-8", "surrogatepass"))
    return int.from_bytes(hashed.digest(), "big", signed=True)


class LintStore:
    """Rows of one game's store; every failure turns it off for the rest of the run."""

    def __init__(self, path: Path, salt: bytes) -> None:
        self.path = path
        self.salt = salt
        self.pending: list[tuple[bytes, str, int]] = []
        self.db: sqlite3.Connection | None = None
        self.db = self._open()

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
                db.execute(_SCHEMA)
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

    def get(self, digest: bytes) -> str | None:
        """The stored text for a digest, or None (absent, failing its sum, or no store)."""
        if self.db is None:
            return None
        try:
            row = self.db.execute(
                "SELECT result, sum FROM file_results WHERE digest = ?", (digest,)
            ).fetchone()
        except sqlite3.Error as err:
            self._failed(err)
            return None
        if row is None:
            return None
        text, stored = row
        if isinstance(text, str) and stored == row_sum(digest, text):
            return text
        with contextlib.suppress(sqlite3.Error):  # recomputed and stored again below
            self.db.execute("DELETE FROM file_results WHERE digest = ?", (digest,))
        return None

    def put(self, digest: bytes, text: str) -> None:
        """Keep a result, written with the others by close()."""
        if self.db is not None:
            self.pending.append((digest, text, row_sum(digest, text)))

    def close(self) -> None:
        """Write what put() kept (one transaction) and close; a failure loses only those rows."""
        db, self.db = self.db, None
        if db is None:
            return
        try:
            if self.pending:
                with db:
                    db.execute("BEGIN IMMEDIATE")
                    db.executemany(
                        "INSERT OR IGNORE INTO file_results VALUES (?, ?, ?)", self.pending
                    )
        except sqlite3.Error as err:
            if damaged(err):
                db.close()
                replace(self.path)
                return
        finally:
            self.pending = []
        db.close()

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


def open_store(game: Game, rule_codes: list[str]) -> LintStore | None:
    """The game's lint store, or None when the cache is off or the folder unusable."""
    folder = cache_dir()
    if folder is None:
        return None
    from varz_deck.core.resources import schema_text

    salt = blake2b(f"{__version__} {LAYOUT}".encode(), digest_size=20)
    for part in (game.key, schema_text(game.card_schema), " ".join(rule_codes)):
        data = part.encode()
        salt.update(len(data).to_bytes(8, "big") + data)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    store = LintStore(store_path(folder, game.key), salt.digest())
    return store if store.db is not None else None
