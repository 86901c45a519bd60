"""The card index (issue 27; the plan is docs/design/card-index.md): one card database's content
in one SQLite file, read a card at a time.

This first step stores the cards, their printings, every reference (normalized id, name,
translation) and the formats, dumped from the in-memory `CardDatabase` a cold build made: a
look-up answered from the index is, by construction, the one the in-memory database gives. It is
not used by the cache yet (dbcache.py still writes JSON).

The file is written once, under a temporary name, and renamed into place; it is never modified
after, so readers open it read-only and `immutable` (no locks, no journal files). Every row a read
uses carries a 64-bit blake2b of its payload; a sum that does not match, or SQLite finding the
file malformed, is `IndexDamaged`: the caller rebuilds, never trusts it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from varz_deck.core import cachedoc
from varz_deck.core._hash import blake2b
from varz_deck.core.cards import CardDatabase, Format

if TYPE_CHECKING:
    from varz_deck.core.game import Game

LAYOUT = "1"
_TABLES = (
    "CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID",
    # every printing, in the database's order; `listed`: the one CardDatabase.cards holds for its id
    "CREATE TABLE cards(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, listed INTEGER NOT NULL,"
    " json TEXT NOT NULL, sum INTEGER NOT NULL)",
    # `grp`: the position of the key in the in-memory dict, so that walking one keeps its order
    "CREATE TABLE printings(card_key TEXT NOT NULL, pos INTEGER NOT NULL, card INTEGER NOT NULL,"
    " grp INTEGER NOT NULL, PRIMARY KEY (card_key, pos)) WITHOUT ROWID",
    "CREATE TABLE refs(ref TEXT NOT NULL, target TEXT NOT NULL, grp INTEGER NOT NULL,"
    " PRIMARY KEY (ref, target)) WITHOUT ROWID",
    "CREATE TABLE id_refs(ref TEXT PRIMARY KEY, card INTEGER NOT NULL, grp INTEGER NOT NULL)"
    " WITHOUT ROWID",
    "CREATE TABLE formats(pos INTEGER PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL,"
    " sum INTEGER NOT NULL)",
)
_AFTER = ("CREATE INDEX cards_id ON cards(id, listed)",)


class IndexDamaged(Exception):
    """The index file cannot be trusted: a sum that does not match, or SQLite's own error."""


def checksum(text: str) -> int:
    """A row's sum: blake2b-64 of its payload, as SQLite's signed 64-bit integer."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)  # a file name that is not UTF-8 stays escaped


def supported(cls: type[CardDatabase]) -> bool:
    """Whether this step of the index answers as a database class does: the class keeps the
    core's construction and look-ups (a game's own, as Azuki's aliases, comes in a later step)."""
    return all(
        getattr(cls, name) is getattr(CardDatabase, name)
        for name in ("__init__", "by_id", "canonical", "index", "lookup", "id_index")
    )


def write(path: Path, key: str, version: str, root: Path, database: CardDatabase) -> None:
    """Store a database (valid, as a cold build made it) as the index file at path: written to
    a temporary file, then renamed into place. Card files are kept relative to root."""
    if not supported(type(database)):
        raise ValueError(f"{type(database).__name__} has look-ups of its own: not indexed yet")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    base = root.resolve()
    connection = sqlite3.connect(tmp, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=OFF")
        connection.execute("PRAGMA synchronous=OFF")
        connection.execute("BEGIN")
        for statement in _TABLES:
            connection.execute(statement)
        meta = {"layout": LAYOUT, "key": key, "version": version, "game": database.game}
        connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        order: dict[int, int] = {}  # id(card) -> its row
        rows: list[tuple[int, str, int, str, int]] = []
        listed = list(database.cards.values())
        others = [c for cards in database.printings.values() for c in cards]
        for card in (*listed, *others):
            if id(card) in order:
                continue
            order[id(card)] = len(rows)
            data = {
                **card.to_json(),
                "file": Path(card.file).resolve().relative_to(base).as_posix(),
            }
            text = _json(data)
            is_listed = database.cards.get(card.id) is card
            rows.append((len(rows), card.id, int(is_listed), text, checksum(text)))
        connection.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?)", rows)
        connection.executemany(
            "INSERT INTO printings VALUES (?, ?, ?, ?)",
            (
                (name, pos, order[id(card)], grp)
                for grp, (name, cards) in enumerate(database.printings.items())
                for pos, card in enumerate(cards)
            ),
        )
        connection.executemany(
            "INSERT INTO refs VALUES (?, ?, ?)",
            (
                (ref, target, grp)
                for grp, (ref, targets) in enumerate(database.index.items())
                for target in targets
            ),
        )
        connection.executemany(
            "INSERT INTO id_refs VALUES (?, ?, ?)",
            (
                (ref, order[id(card)], grp)
                for grp, (ref, card) in enumerate(database.id_index().items())
            ),
        )
        formats = []
        for pos, (name, fmt) in enumerate(database.formats.items()):
            text = _json(fmt.to_json())
            formats.append((pos, name, text, checksum(text)))
        connection.executemany("INSERT INTO formats VALUES (?, ?, ?, ?)", formats)
        for statement in _AFTER:
            connection.execute(statement)
        connection.execute("COMMIT")
        connection.close()
        os.replace(tmp, path)
    except BaseException:
        connection.close()
        tmp.unlink(missing_ok=True)
        raise


class CardIndex:
    """An index file open for reading, its rows checked as they are read."""

    def __init__(self, path: Path, key: str, version: str, game: str) -> None:
        """Open the index at path: FileNotFoundError when there is none, IndexDamaged when it
        is not a readable index of this key, version and game."""
        if not path.is_file():
            raise FileNotFoundError(path)
        try:
            uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
            self.connection = sqlite3.connect(uri, uri=True, isolation_level=None)
        except (sqlite3.Error, ValueError, OSError) as err:
            raise IndexDamaged(str(err)) from err
        try:
            meta = dict(self.connection.execute("SELECT k, v FROM meta"))
        except (sqlite3.Error, ValueError) as err:
            self.close()
            raise IndexDamaged(str(err)) from err
        wanted = {"layout": LAYOUT, "key": key, "version": version, "game": game}
        if meta != wanted:
            self.close()
            raise IndexDamaged(f"not the index of {wanted}: {meta}")

    def close(self) -> None:
        self.connection.close()

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.connection.execute(sql, args).fetchall()
        except sqlite3.Error as err:
            raise IndexDamaged(str(err)) from err

    @staticmethod
    def verified(text: Any, total: Any) -> Any:
        """A row's payload as JSON, once its sum matches."""
        if not isinstance(text, str) or checksum(text) != total:
            raise IndexDamaged("a row's sum does not match")
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as err:
            raise IndexDamaged(str(err)) from err


class _Lazy(dict):
    """A dict filled from the index as keys are asked for; iterating it loads every key first.

    A dict (not a Mapping) because CardDatabase's attributes are dicts; every method the code
    calls on them is answered here, and anything that walks it whole loads it whole first."""

    def __init__(
        self, one: Callable[[str], Any], every: Callable[[], Iterator[tuple[str, Any]]]
    ) -> None:
        super().__init__()
        self._one = one
        self._every = every
        self._missing: set[str] = set()
        self._whole = False

    def _load(self, key: str) -> bool:
        if self._whole or key in self._missing:
            return dict.__contains__(self, key)
        if dict.__contains__(self, key):
            return True
        value = self._one(key) if isinstance(key, str) else None
        if value is None:
            self._missing.add(key)
            return False
        dict.__setitem__(self, key, value)
        return True

    def _load_all(self) -> None:
        if not self._whole:
            for key, value in self._every():
                if not dict.__contains__(self, key):
                    dict.__setitem__(self, key, value)
            self._whole = True

    def __getitem__(self, key: str) -> Any:
        if not self._load(key):
            raise KeyError(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return dict.__getitem__(self, key) if self._load(key) else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._load(key)

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._load_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._load_all()
        return dict.values(self)

    def items(self) -> Any:
        self._load_all()
        return dict.items(self)

    def __bool__(self) -> bool:
        return len(self) > 0


def open_database(index: CardIndex, game: Game, root: Path, shown_root: Path) -> CardDatabase:
    """The database the index holds, as `game.make_database` would have made it, its cards
    read from the index when asked for. `shown_root`: the root as messages show it."""
    cls = type(game.make_database([], {}))
    if not supported(cls):
        raise IndexDamaged(f"{cls.__name__} has look-ups of its own: not indexed yet")
    made: dict[int, Any] = {}  # row -> card: one object per printing, as in memory

    def card(row: int, text: Any, total: Any) -> Any:
        found = made.get(row)
        if found is None:
            data = CardIndex.verified(text, total)
            if not isinstance(data, dict) or not isinstance(data.get("file"), str):
                raise IndexDamaged("a card row is not a card")
            shown = {**data, "file": str(shown_root / data["file"])}
            found = cachedoc.rebuild(partial(game.card_from_json, shown))
            if found is None:
                raise IndexDamaged("a card row does not fit the card")
            made[row] = found
        return found

    def one_card(card_id: str) -> Any:
        found = index.rows(
            "SELECT ord, json, sum FROM cards WHERE id = ? AND listed = 1 LIMIT 1", (card_id,)
        )
        return card(*found[0]) if found else None

    def every_card() -> Iterator[tuple[str, Any]]:
        for row, text, total in index.rows(
            "SELECT ord, json, sum FROM cards WHERE listed = 1 ORDER BY ord"
        ):
            found = card(row, text, total)
            yield found.id, found

    def _printing_rows(where: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return index.rows(
            "SELECT p.card_key, c.ord, c.json, c.sum FROM printings p JOIN cards c ON c.ord = p.card"
            f" {where} ORDER BY p.grp, p.pos",
            args,
        )

    def one_printing(name: str) -> Any:
        found = [card(r, t, s) for _, r, t, s in _printing_rows("WHERE p.card_key = ?", (name,))]
        return found or None

    def every_printing() -> Iterator[tuple[str, Any]]:
        grouped: dict[str, list[Any]] = {}
        for name, row, text, total in _printing_rows("", ()):
            grouped.setdefault(name, []).append(card(row, text, total))
        yield from grouped.items()

    def one_ref(ref: str) -> Any:
        found = {t for (t,) in index.rows("SELECT target FROM refs WHERE ref = ?", (ref,))}
        return found or None

    def every_ref() -> Iterator[tuple[str, Any]]:
        grouped: dict[str, set[str]] = {}
        for ref, target in index.rows("SELECT ref, target FROM refs ORDER BY grp"):
            grouped.setdefault(ref, set()).add(target)
        yield from grouped.items()

    def one_id(ref: str) -> Any:
        found = index.rows(
            "SELECT c.ord, c.json, c.sum FROM id_refs i JOIN cards c ON c.ord = i.card"
            " WHERE i.ref = ?",
            (ref,),
        )
        return card(*found[0]) if found else None

    def every_id() -> Iterator[tuple[str, Any]]:
        for ref, row, text, total in index.rows(
            "SELECT i.ref, c.ord, c.json, c.sum FROM id_refs i JOIN cards c ON c.ord = i.card"
            " ORDER BY i.grp"
        ):
            yield ref, card(row, text, total)

    formats = {}
    for name, text, total in index.rows("SELECT key, json, sum FROM formats ORDER BY pos"):
        data = CardIndex.verified(text, total)
        found = cachedoc.rebuild(partial(Format.from_json, data))
        if found is None:
            raise IndexDamaged("a format row does not fit a format")
        formats[name] = found
    database = cls.__new__(cls)
    CardDatabase.__init__(database, (), formats)
    database.cards = _Lazy(one_card, every_card)
    database.printings = _Lazy(one_printing, every_printing)
    database._index = _Lazy(one_ref, every_ref)
    database._ids = _Lazy(one_id, every_id)
    return database
