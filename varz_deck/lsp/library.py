"""The card databases the server checks against, kept open and up to date with the editor.

One database is the user's (`--cards`, the editor's `varz-deck.cards`, `VARZ_DECK_CARDS`) or the
default game's bundled one; without a named database a deck of another game is checked against
that game's bundled database (its `card_data`), as `check` does (docs/reference/games.md). A card file open in
the editor is read from its buffer: its lint is `cards lint` of the database with that text, and
when that database is clean it replaces the one the open decks are checked against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.core.lint.database import DatabaseError, formats_path
from varz_deck.games import library

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.lint.database import LintResult
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.lsp.index import CardIndex, IndexedKeys


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a loop, a name too long, a NUL in a URI
        return Path(path).absolute()


@dataclass
class Loaded:
    """One database folder: the last clean database read from it (None: none yet), and why the
    folder cannot be used when it cannot."""

    root: Path
    database: CardDatabase | None = None
    problems: tuple[Diagnostic, ...] = ()
    _index: CardIndex | IndexedKeys | None = field(default=None, repr=False)

    def index(self) -> CardIndex | IndexedKeys | None:
        """What completion searches: the database's completion table when it was read from the
        card index, else every key of it in memory."""
        if self.database is None:
            return None
        if self._index is None or self._index.database is not self.database:
            from varz_deck.core.cards.keyindex import table_of
            from varz_deck.lsp.index import CardIndex, IndexedKeys

            table = table_of(self.database)
            if table is not None:
                self._index = IndexedKeys(self.database, table)
            else:
                self._index = CardIndex(self.database)
        return self._index


class Library:
    """The databases open in the server, by folder."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # the folder the user named, or None: bundled
        self.loaded: dict[Path, Loaded] = {}

    @property
    def explicit(self) -> bool:
        return self.folder is not None

    def primary_root(self) -> Path:
        """The folder the user named, else the default game's bundled database."""
        return _resolved(library.resolve_root(self.folder))

    def open(self, root: Path) -> Loaded:
        """The database at root, loaded on first use (with the cache, as `check` does)."""
        root = _resolved(root)
        found = self.loaded.get(root)
        if found is None:
            from varz_deck.games import open_database

            found = Loaded(root)
            try:
                found.database = open_database(root)
            except DatabaseError as err:
                found.problems = tuple(err.diagnostics)
            self.loaded[root] = found
        return found

    def primary(self) -> Loaded:
        return self.open(self.primary_root())

    def bundled(self, game: str) -> CardDatabase:
        """Another game's bundled database (for `check_decks`' open_other)."""
        loaded = self.open(library.bundled_root(game))
        if loaded.database is None:
            raise DatabaseError(loaded.root, list(loaded.problems))
        return loaded.database

    def declared(self, deck: Path) -> Loaded | None:
        """The database of the game declared in the game.yaml nearest above a deck file
        (docs/reference/game-yaml.md), as `check` finds it; None when there is none."""
        from varz_deck.core.game.yamlgame import declared_folder

        root = declared_folder(deck)
        return self.open(root) if root is not None else None

    def of_game(self, game: str) -> Loaded:
        """The database decks of a game are checked against (for completion and hover), as
        `check` chooses it (the command line's choice)."""
        primary = self.primary()
        known = primary.database.game if primary.database is not None else None
        return self.open(library.root_for_game(game, self.primary_root(), known, self.explicit))

    def root_of_card_file(self, path: Path) -> Path | None:
        """The database folder a YAML file belongs to: the nearest folder above it with a
        formats file, or an open database folder it is inside; None for a file of neither."""
        if path.suffix.lower() not in (".yaml", ".yml"):
            return None
        path = _resolved(path)
        try:
            for parent in path.parents:
                if parent in self.loaded or formats_path(parent) is not None:
                    return parent
                if parent == self.primary_root():
                    return parent
        except (OSError, ValueError):  # a path no file can have (too long, a NUL): no database's
            return None
        return None

    def relint(self, root: Path, texts: dict[Path, str]) -> LintResult:
        """`cards lint` of the database at root with open buffers read as their text; a clean
        result becomes the database its decks are checked against."""
        from varz_deck.games import lint_database

        result = lint_database(root, buffers=texts)
        if not result.errors and result.database is not None:
            loaded = self.loaded.get(_resolved(root))
            if loaded is not None:
                loaded.database = result.database
                loaded.problems = ()
        return result


def resolved(path: Path) -> Path:
    return _resolved(path)
