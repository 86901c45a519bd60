"""Opening and linting a card database: the orchestration of its parts.

- discovery.py finds the database's files, its formats file and its game key;
- lint/ checks them, one module per family of checks, each owning its code;
- formats.py reads formats.yaml into the database's formats;
- dbcache.py keeps a valid database in a cache keyed by the files' content.

`lint_database` reads every file once and reports every problem. `open_database` returns a
usable database, from the cache (the card index) when nothing changed: a warm run finds the key
from the stat record (dbcache.py) without reading the card files; a cold build reads each file
once, and the bytes it hashes for the key are the bytes it lints (a file edited meanwhile cannot
put its new content under its old content's key).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from varz_deck.core.cards import cachestore, dbcache
from varz_deck.core.cards.discovery import (
    FORMATS_FILE,
    FORMATS_NAMES,
    Buffers,
    database_game_key,
    formats_path,
    game_key_of,
    misnamed,
    misnamed_formats,
    read_files,
)
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.filecodes import F001
from varz_deck.core.messages.i18n import Quoted, msg

if TYPE_CHECKING:
    from varz_deck.core.lint import LintResult
    from varz_deck.core.lint._base import LintedGame

__all__ = [
    "FORMATS_FILE",
    "FORMATS_NAMES",
    "Buffers",
    "DatabaseError",
    "LintResult",
    "Progress",
    "database_game_key",
    "formats_path",
    "game_key_of",
    "lint_database",
    "misnamed_formats",
    "open_database",
]

_NOT_A_FOLDER = msg("F001", "card database {path} is not a folder")


class DatabaseError(Exception):
    """The card database cannot be used: its diagnostics say why."""

    def __init__(self, root: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"card database {root} has {len(diagnostics)} problem(s)")
        self.root = root
        self.diagnostics = diagnostics


Progress = Callable[[int, int], None]  # (done, total): the CLI draws a bar, the core prints none
_T = TypeVar("_T")


def counted(items: Sequence[_T], progress: Progress | None) -> Iterator[_T]:
    """Each item, telling `progress(done, total)` as each is taken and when all are done."""
    total = len(items)
    for done, item in enumerate(items):
        if progress is not None:
            progress(done, total)
        yield item
    if progress is not None:
        progress(total, total)


def open_database(
    root: Path,
    game: LintedGame,
    progress: Progress | None = None,
    *,
    games: Sequence[str] | None = None,
) -> CardDatabase:
    """A valid database of `game` (see database_game_key), from the cache when its files are
    unchanged; DatabaseError if invalid. `progress` hears of each file a cold build checks;
    `games` are the installed games' keys (default: only `game`'s)."""
    if not root.is_dir():
        raise DatabaseError(root, [diag(F001, _NOT_A_FOLDER(path=Quoted(str(root))))])
    unread = misnamed(root)
    build = partial(_build, root, game, progress, games or (game.key,), unread)
    quick = dbcache.quick_key(root, game, unread)  # from the stat record: no card file read
    cached = dbcache.cache_read(quick, root, game, build) if quick is not None else None
    return cached if cached is not None else build()


def _build(
    root: Path,
    game: LintedGame,
    progress: Progress | None,
    games: Sequence[str],
    unread: list[Path],
) -> CardDatabase:
    """The database from its files: from the cache when their bytes' key has one, else linted
    and cached. The key is of the very bytes linted."""
    stats: dbcache.Stats = {}
    files = list(read_files(root, before=dbcache.stats_into(stats)))
    key = dbcache.cache_key(root, files, game, unread, stats)
    again = partial(_build, root, game, progress, games, unread)  # the index found damaged
    cached = dbcache.cache_read(key, root, game, again)
    if cached is not None:
        return cached
    from varz_deck.core.lint import lint  # a cold build only: a cache hit needs no check

    result = lint(root, game, counted(files, progress), unread, games)
    if result.errors or result.database is None:
        raise DatabaseError(root, result.errors)
    dbcache.cache_write(key, root, result.database)
    cachestore.evict()
    return result.database


def lint_database(
    root: Path,
    game: LintedGame,
    progress: Progress | None = None,
    *,
    games: Sequence[str] | None = None,
    buffers: Buffers | None = None,
    origin: str = "",
) -> LintResult:
    """Load every file of a database of `game` and check it whole (core/lint/). `progress`
    hears of each file checked; `games` are the installed games' keys (default: `game`'s);
    `buffers` are an editor's unsaved files, read instead of those files. Each card file's own
    result is kept in the lint store (core/lint/lintstore.py), so only changed files are checked
    again; the output is the same as with no store. `origin` is the game's package and version
    (`varz_deck.games.game_origin`), part of the store's key."""
    if not root.is_dir():
        from varz_deck.core.lint import LintResult

        result = LintResult(root)
        result.files[str(root)] = [diag(F001, _NOT_A_FOLDER(path=Quoted(str(root))))]
        return result
    files = list(read_files(root, buffers))
    from varz_deck.core.lint import CARD_CODES, lint, lintstore

    codes = sorted({c.id for c in CARD_CODES} | set(game.card_rules()))
    store = lintstore.open_store(game, codes, origin)
    try:
        return lint(
            root,
            game,
            counted(files, progress),
            misnamed(root),
            games or (game.key,),
            store=store,
            unsaved=list(buffers or ()),
        )
    finally:
        if store is not None:
            store.close()


def __getattr__(name: str) -> object:
    """`LintResult` is the lint package's; it is imported only when asked for (start-up time)."""
    if name == "LintResult":
        from varz_deck.core.lint import LintResult

        return LintResult
    raise AttributeError(name)
