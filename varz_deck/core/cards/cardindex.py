"""The card index (docs/design/card-index.md): one card database's content in one
SQLite file in the cache folder, read a card at a time. It is the only cache of a database.

The index stores the cards, their printings, every reference (normalized id, name,
translation), the formats and a game's own look-up tables (`CardDatabase.INDEX_TABLES`), dumped
from the in-memory `CardDatabase` a cold build made: a look-up answered from the index is, by
construction, the one the in-memory database gives. `EXTRA_WRITERS` add tables of other modules.

The file is written once, under a temporary name, and renamed into place; it is never modified
after, so readers open it read-only and `immutable` (no locks, no journal files). Integrity:
every row a read uses carries a 64-bit blake2b of its payload, and structure damage is SQLite's
own error. A row deleted is found too: a key's rows say how many it has (`n`), a key not found
must be absent by its table's chain, and a walk counts its keys (core/cards/indexchain.py). A sum
that does not match, a row missing, an SQLite error, or meta that does not fit is
`IndexDamaged`: at open the caller removes the file and builds again; met later (a lazy read)
the file is removed and the database rebuilt in memory by the `rebuild` the caller gave, whose
answers replace the index's. A damaged index is never trusted.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from varz_deck.core.cards import cachedoc, indexchain, keyindex, nameindex
from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.cachedoc import IndexDamaged, SqlValue
from varz_deck.core.cards.model import CardDatabase, CardModel, CardRecord, CardT, Format, normalize

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

V = TypeVar("V")  # what a table of the index holds for each key
T = TypeVar("T")

LAYOUT = "5"  # 3: names and trigrams (nameindex.py); 4: heads and chains (indexchain.py); 5: sets
EAGER = 2_000  # card rows up to which a database checked deck after deck is read whole
WHOLE_AFTER = 4  # ... from its fourth deck (one deck reads fewer rows a row at a time)
BATCH = 500  # references per `IN (...)` query: well under SQLite's bound on parameters
_TABLES = (
    "CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID",
    # every printing, in the database's order; `listed`: the one CardDatabase.cards holds for its id
    "CREATE TABLE cards(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, listed INTEGER NOT NULL,"
    " json TEXT NOT NULL, sum INTEGER NOT NULL)",
    # `grp`: the position of the key in the in-memory dict, so that walking one keeps its order
    # `n`: how many rows the key has (printings, targets), in every row of the key
    "CREATE TABLE printings(card_key TEXT NOT NULL, pos INTEGER NOT NULL, card INTEGER NOT NULL,"
    " n INTEGER NOT NULL, grp INTEGER NOT NULL, sum INTEGER NOT NULL, PRIMARY KEY (card_key, pos))"
    " WITHOUT ROWID",
    "CREATE TABLE refs(ref TEXT NOT NULL, target TEXT NOT NULL, n INTEGER NOT NULL,"
    " grp INTEGER NOT NULL, sum INTEGER NOT NULL, PRIMARY KEY (ref, target)) WITHOUT ROWID",
    "CREATE TABLE id_refs(ref TEXT PRIMARY KEY, card INTEGER NOT NULL, grp INTEGER NOT NULL,"
    " sum INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE formats(pos INTEGER PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL,"
    " sum INTEGER NOT NULL)",
    # each set's cards (`CardDatabase.keys_in`): [grp, card key, type] of each card with a
    # printing in it (one per type), in the database's order
    "CREATE TABLE sets(set_code TEXT PRIMARY KEY, json TEXT NOT NULL, sum INTEGER NOT NULL)"
    " WITHOUT ROWID",
    # a game's own str -> str look-up tables (CardDatabase.INDEX_TABLES), one row per entry
    "CREATE TABLE extra(tbl TEXT NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL, grp INTEGER NOT NULL,"
    " sum INTEGER NOT NULL, PRIMARY KEY (tbl, k)) WITHOUT ROWID",
)
_AFTER = ("CREATE INDEX cards_id ON cards(id, listed)",)

Writer = Callable[[sqlite3.Connection, CardDatabase], None]
# More tables, written in the same transaction after the core's (other modules append theirs).
EXTRA_WRITERS: list[Writer] = []
# And read: each is called with the open index and the database open_database made of it.
EXTRA_READERS: list[Callable[[CardIndex, CardDatabase], None]] = []


def checksum(text: str) -> int:
    """A row's sum: blake2b-64 of its payload, as SQLite's signed 64-bit integer."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def row_sum(key: str, *parts: object) -> int:
    """The sum of a row: of the index's content key and the row's fields a read trusts, joined
    by NUL (the key in it: another content's rows do not fit this key's index)."""
    return checksum("\x00".join(map(str, (key, *parts))))


def _check(total: object, key: str, *parts: object) -> None:
    if row_sum(key, *parts) != total:
        raise IndexDamaged("a row's sum does not match")


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)  # a file name that is not UTF-8 stays escaped


def supported(cls: type[CardDatabase]) -> bool:
    """Whether the index answers as a database class does: the class keeps the core's
    construction and look-ups, or names the tables its own look-ups read (`INDEX_TABLES`)."""
    if cls.INDEX_TABLES is not None:
        return True
    return all(
        getattr(cls, name) is getattr(CardDatabase, name)
        for name in ("__init__", "by_id", "canonical", "index", "lookup", "id_index")
    )


def write(path: Path, key: str, version: str, root: Path, database: CardDatabase[CardT]) -> None:
    """Store a database (valid, as a cold build made it) as the index file at path: written to
    a temporary file, then renamed into place. Card files are kept relative to root."""
    if not supported(type(database)):
        raise ValueError(f"{type(database).__name__} has look-ups of its own: not indexed")
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
        fingerprint = database.fingerprint()
        meta = {
            "layout": LAYOUT,
            "key": key,
            "version": version,
            "game": database.game,
            "fingerprint": fingerprint,
            "fingerprint_sum": str(row_sum(key, fingerprint)),
        }
        connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        order: dict[int, int] = {}  # id(card) -> its row
        rows: list[tuple[int, str, int, str, int]] = []
        listed = list(database.cards.values())
        others = [c for cards in database.printings.values() for c in cards]
        relative: dict[str, str] = {}  # a card's file -> as stored (resolved once per file)
        for card in (*listed, *others):
            if id(card) in order:
                continue
            order[id(card)] = len(rows)
            stored = relative.get(card.file)
            if stored is None:
                stored = Path(card.file).resolve().relative_to(base).as_posix()
                relative[card.file] = stored
            data = {**card.to_json(), "file": stored}
            text = _json(data)
            is_listed = database.cards.get(card.id) is card
            rows.append(
                (
                    len(rows),
                    card.id,
                    int(is_listed),
                    text,
                    row_sum(key, card.id, int(is_listed), text),
                )
            )
        connection.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?)", rows)
        connection.executemany(
            "INSERT INTO printings VALUES (?, ?, ?, ?, ?, ?)",
            (
                (name, pos, at, len(cards), grp, row_sum(key, name, pos, at, len(cards)))
                for grp, (name, cards) in enumerate(database.printings.items())
                for pos, at in enumerate(order[id(card)] for card in cards)
            ),
        )
        connection.executemany(
            "INSERT INTO refs VALUES (?, ?, ?, ?, ?)",
            (
                (ref, target, len(targets), grp, row_sum(key, ref, target, len(targets)))
                for grp, (ref, targets) in enumerate(database.index.items())
                for target in targets
            ),
        )
        connection.executemany(
            "INSERT INTO id_refs VALUES (?, ?, ?, ?)",
            (
                (ref, order[id(card)], grp, row_sum(key, ref, order[id(card)]))
                for grp, (ref, card) in enumerate(database.id_index().items())
            ),
        )
        in_set: dict[str, list[tuple[int, str, str]]] = {}
        for grp, (name, cards) in enumerate(database.printings.items()):
            for code, kind in dict.fromkeys((str(c.set), _type(c)) for c in cards):
                in_set.setdefault(code, []).append((grp, name, kind))
        connection.executemany(
            "INSERT INTO sets VALUES (?, ?, ?)",
            (
                (code, text, row_sum(key, code, text))
                for code, text in ((code, _json(found)) for code, found in in_set.items())
            ),
        )
        for table in database.INDEX_TABLES or ():
            connection.executemany(
                "INSERT INTO extra VALUES (?, ?, ?, ?, ?)",
                (
                    (table, k, v, grp, row_sum(key, table, k, v))
                    for grp, (k, v) in enumerate(getattr(database, table).items())
                ),
            )
        formats = []
        for pos, (name, fmt) in enumerate(database.formats.items()):
            text = _json(fmt.to_json())
            formats.append((pos, name, text, row_sum(key, name, text)))
        connection.executemany("INSERT INTO formats VALUES (?, ?, ?, ?)", formats)
        indexchain.count(connection, key, "formats", len(formats))
        for table, keys in (
            ("cards", database.cards),
            ("printings", database.printings),
            ("refs", database.index),
            ("id_refs", database.id_index()),
            ("sets", in_set),
            *((f"extra:{t}", getattr(database, t)) for t in database.INDEX_TABLES or ()),
        ):
            indexchain.write(connection, key, table, keys)
        keyindex.write(connection, database, order)  # completion's table (the LSP's)
        nameindex.write(connection, key, database.shown_names())  # "did you mean"
        for statement in _AFTER:
            connection.execute(statement)
        for writer in EXTRA_WRITERS:
            writer(connection, database)
        connection.execute("COMMIT")
        connection.close()
        os.replace(tmp, path)
    except BaseException:
        connection.close()
        tmp.unlink(missing_ok=True)
        raise


def _type(card: CardRecord) -> str:
    kind = getattr(card, "type", None)
    return kind if isinstance(kind, str) else ""


class CardIndex:
    """An index file open for reading, its rows checked as they are read."""

    def __init__(self, path: Path, key: str, version: str, game: str) -> None:
        """Open the index at path: FileNotFoundError when there is none, IndexDamaged when it
        is not a readable index of this key, version and game."""
        self.path = path
        self.key = key
        try:
            self.inode = os.stat(path).st_ino  # which file was read: `remove` spares a newer one
        except FileNotFoundError:
            raise
        except (OSError, ValueError) as err:
            raise IndexDamaged(str(err)) from err
        try:
            uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
            # one connection for every thread (serve's workers): `rows` takes turns
            self.connection = sqlite3.connect(
                uri, uri=True, isolation_level=None, check_same_thread=False
            )
            self.lock = threading.Lock()
        except (sqlite3.Error, ValueError, OSError) as err:
            raise IndexDamaged(str(err)) from err
        try:
            meta = dict(self.connection.execute("SELECT k, v FROM meta"))
        except (sqlite3.Error, ValueError) as err:
            self.close()
            raise IndexDamaged(str(err)) from err
        self.fingerprint = meta.pop("fingerprint", None)
        total = meta.pop("fingerprint_sum", None)
        wanted = {"layout": LAYOUT, "key": key, "version": version, "game": game}
        if meta != wanted or str(row_sum(key, self.fingerprint)) != total:
            self.close()
            raise IndexDamaged(f"not the index of {wanted}: {meta}")
        self.chains = indexchain.Chains(self.rows, key)

    def close(self) -> None:
        self.connection.close()

    def remove(self) -> None:
        """Delete the file read (never trusted again), unless another run replaced it since."""
        remove(self.path, self.inode)

    # a row as read: its values are used once their sum is checked, which mypy cannot follow
    def rows(self, sql: str, args: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        try:
            with self.lock:
                return self.connection.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as err:
            raise IndexDamaged(str(err)) from err

    @staticmethod
    def verified(text: object, total: object, key: str, *parts: object) -> Any:
        """A row's JSON payload, once the row's sum (of `parts`, then the payload) matches (untyped:
        the callers narrow it, or make a record of it that `cachedoc.rebuild` checks)."""
        if not isinstance(text, str):
            raise IndexDamaged("a row's payload is not text")
        _check(total, key, *parts, text)
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as err:
            raise IndexDamaged(str(err)) from err


def remove(path: Path, inode: int | None = None) -> None:
    """Delete an index file that cannot be trusted; with `inode`, only if it is still that file."""
    try:
        if inode is None or os.stat(path).st_ino == inode:
            path.unlink()
    except OSError:
        pass


class _Recovery(Generic[CardT]):
    """What the lazy tables do on damage met after the open: the file is removed and the
    database rebuilt once (`rebuild`), and every table takes its answers from that database."""

    def __init__(self, index: CardIndex, rebuild: Callable[[], CardDatabase[CardT]] | None) -> None:
        self.index = index
        self.rebuild = rebuild
        self.tables: list[_Lazy[CardT, Any]] = []  # tables of every kind of value
        self.database: CardDatabase[CardT] | None = None

    def recover(self, err: IndexDamaged) -> None:
        if self.database is None:
            self.index.remove()
            if self.rebuild is None:
                raise err
            self.database = self.rebuild()
            for table in self.tables:
                table.take(self.database)


class _Lazy(dict[str, V], Generic[CardT, V]):
    """A dict filled from the index as keys are asked for; iterating it loads every key first.

    A dict (not a Mapping) because CardDatabase's attributes are dicts; every method the code
    calls on them is answered here, and anything that walks it whole loads it whole first.
    `fetch` reads many keys in batched queries (`CardDatabase.prefetch`). A key not found is
    shown absent by the table's chain (indexchain.py), and a walk counts its keys."""

    def __init__(
        self,
        table: str,
        many: Callable[[list[str]], dict[str, V]],
        every: Callable[[], Iterator[tuple[str, V]]],
        recovery: _Recovery[CardT],
        whole: Callable[[CardDatabase[CardT]], dict[str, V]],
    ) -> None:
        super().__init__()
        self._table = table  # its name in the chains
        self._many = many
        self._every = every
        self._recovery = recovery
        self._whole_of = whole
        self._missing: set[str] = set()
        self._whole = False
        recovery.tables.append(self)

    def _recover(self, err: IndexDamaged) -> None:
        self._recovery.recover(err)

    def take(self, database: CardDatabase[CardT]) -> None:
        """Take every answer from the rebuilt database instead of the index."""
        found = self._whole_of(database)
        dict.clear(self)
        dict.update(self, found)
        self._whole = True

    def _load(self, key: str) -> bool:
        if not (self._whole or dict.__contains__(self, key) or key in self._missing):
            self.fetch([key])
        return dict.__contains__(self, key)

    def fetch(self, keys: Iterable[str]) -> None:
        """Read every key not known yet, `BATCH` to a query."""
        if self._whole:
            return
        wanted = sorted(
            {
                k
                for k in keys
                if isinstance(k, str) and not dict.__contains__(self, k) and k not in self._missing
            }
        )
        chains = self._recovery.index.chains
        try:
            for start in range(0, len(wanted), BATCH):
                chunk = wanted[start : start + BATCH]
                found = self._many(chunk)
                missing = [key for key in chunk if key not in found]
                chains.absent(self._table, missing)
                for key in chunk:
                    if key in found:
                        dict.__setitem__(self, key, found[key])
                self._missing.update(missing)
        except IndexDamaged as err:
            self._recover(err)

    def _load_all(self) -> None:
        if not self._whole:
            try:
                every = list(self._every())
                if len(every) != self._recovery.index.chains.size(self._table):
                    raise IndexDamaged(f"a key of the {self._table} table is missing")
            except IndexDamaged as err:
                self._recover(err)
                return
            for key, value in every:
                if not dict.__contains__(self, key):
                    dict.__setitem__(self, key, value)
            self._whole = True

    def __getitem__(self, key: str) -> V:
        if not self._load(key):
            raise KeyError(key)
        return dict.__getitem__(self, key)

    @overload
    def get(self, key: str, default: None = None) -> V | None: ...
    @overload
    def get(self, key: str, default: V) -> V: ...
    @overload
    def get(self, key: str, default: T) -> V | T: ...
    def get(self, key: str, default: object = None) -> object:
        return dict.__getitem__(self, key) if self._load(key) else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._load(key)

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self) -> dict_keys[str, V]:
        self._load_all()
        return dict.keys(self)

    def values(self) -> dict_values[str, V]:
        self._load_all()
        return dict.values(self)

    def items(self) -> dict_items[str, V]:
        self._load_all()
        return dict.items(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        self._load_all()
        if isinstance(other, _Lazy):
            other._load_all()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._load_all()
        return dict.__repr__(self)


def _marks(n: int) -> str:
    return ",".join("?" * n)


def open_database(
    index: CardIndex,
    game: CardModel[CardT],
    root: Path,
    shown_root: Path,
    rebuild: Callable[[], CardDatabase[CardT]] | None = None,
) -> CardDatabase[CardT]:
    """The database the index holds, as `game.make_database` would have made it, its cards
    read from the index when asked for. `shown_root`: the root as messages show it; `rebuild`:
    the database built without the index, for damage met after this open (else IndexDamaged)."""
    cls = type(game.make_database([], {}))
    if not supported(cls):
        raise IndexDamaged(f"{cls.__name__} has look-ups of its own: not indexed")
    made: dict[SqlValue, CardT] = {}  # row -> card: one object per printing, as in memory
    ck = index.key
    recovery = _Recovery(index, rebuild)

    def card(
        row: SqlValue, card_id: SqlValue, listed: SqlValue, text: SqlValue, total: SqlValue
    ) -> CardT:
        found = made.get(row)
        if found is None:
            data = CardIndex.verified(text, total, ck, card_id, listed)
            if not isinstance(data, dict) or not isinstance(data.get("file"), str):
                raise IndexDamaged("a card row is not a card")
            shown = {**data, "file": str(shown_root / data["file"])}
            found = cachedoc.rebuild(partial(game.card_from_json, shown))
            if found is None or found.id != card_id:
                raise IndexDamaged("a card row does not fit the card")
            made[row] = found
        return found

    _card = "c.ord, c.id, c.listed, c.json, c.sum"

    def first(rows: list[tuple[Any, ...]]) -> dict[str, CardT]:
        """key -> the card of its first row (rows: key, the link's sum, then `_card`)."""
        found: dict[str, CardT] = {}
        for key, link, row, *rest in rows:
            _check(link, ck, key, row)
            if key not in found:
                found[key] = card(row, *rest)
        return found

    def listed(rows: list[tuple[Any, ...]]) -> dict[str, CardT]:
        found: dict[str, CardT] = {}
        for row, card_id, is_listed, text, total in rows:
            if is_listed != 1:
                raise IndexDamaged("a card row is not the listed one")
            found.setdefault(card_id, card(row, card_id, is_listed, text, total))
        return found

    def grouped(rows: list[tuple[Any, ...]]) -> dict[str, list[CardT]]:
        found: dict[str, list[CardT]] = {}
        sizes: dict[str, SqlValue] = {}
        for key, pos, n, link, row, *rest in rows:
            _check(link, ck, key, pos, row, n)
            cards = found.setdefault(key, [])
            if pos != len(cards) or sizes.setdefault(key, n) != n:
                raise IndexDamaged("a printing is missing")
            cards.append(card(row, *rest))
        if any(len(cards) != sizes[key] for key, cards in found.items()):
            raise IndexDamaged("a printing is missing")
        return found

    _cards = f"SELECT {_card} FROM cards c WHERE c.listed = 1"

    def many_cards(ids: list[str]) -> dict[str, CardT]:
        return listed(index.rows(f"{_cards} AND c.id IN ({_marks(len(ids))}) ORDER BY c.ord", ids))

    def every_card() -> Iterator[tuple[str, CardT]]:
        yield from listed(index.rows(f"{_cards} ORDER BY c.ord")).items()

    _printings = (  # a card row that is not there: NULLs, which no sum fits
        f"SELECT p.card_key, p.pos, p.n, p.sum, {_card} FROM printings p"
        " LEFT JOIN cards c ON c.ord = p.card"
    )

    def many_printings(names: list[str]) -> dict[str, list[CardT]]:
        where = f"WHERE p.card_key IN ({_marks(len(names))})"
        return grouped(index.rows(f"{_printings} {where} ORDER BY p.grp, p.pos", names))

    def every_printing() -> Iterator[tuple[str, list[CardT]]]:
        yield from grouped(index.rows(f"{_printings} ORDER BY p.grp, p.pos")).items()

    def refs(rows: list[tuple[Any, ...]]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        sizes: dict[str, SqlValue] = {}
        for ref, target, n, total in rows:
            _check(total, ck, ref, target, n)
            found.setdefault(ref, set()).add(target)
            if sizes.setdefault(ref, n) != n:
                raise IndexDamaged("a reference's target is missing")
        if any(len(targets) != sizes[ref] for ref, targets in found.items()):
            raise IndexDamaged("a reference's target is missing")
        return found

    _refs = "SELECT ref, target, n, sum FROM refs"

    def many_refs(keys: list[str]) -> dict[str, set[str]]:
        return refs(index.rows(f"{_refs} WHERE ref IN ({_marks(len(keys))})", keys))

    def every_ref() -> Iterator[tuple[str, set[str]]]:
        yield from refs(index.rows(f"{_refs} ORDER BY grp")).items()

    _ids = f"SELECT i.ref, i.sum, {_card} FROM id_refs i LEFT JOIN cards c ON c.ord = i.card"

    def many_ids(keys: list[str]) -> dict[str, CardT]:
        return first(index.rows(f"{_ids} WHERE i.ref IN ({_marks(len(keys))})", keys))

    def every_id() -> Iterator[tuple[str, CardT]]:
        yield from first(index.rows(f"{_ids} ORDER BY i.grp")).items()

    formats = {}
    for name, text, total in index.rows("SELECT key, json, sum FROM formats ORDER BY pos"):
        data = CardIndex.verified(text, total, ck, name)
        found = cachedoc.rebuild(partial(Format.from_json, data))
        if found is None:
            raise IndexDamaged("a format row does not fit a format")
        formats[name] = found
    if len(formats) != index.chains.size("formats"):
        raise IndexDamaged("a format row is missing")
    database = cls.__new__(cls)
    CardDatabase.__init__(database, (), formats)
    cards = _Lazy("cards", many_cards, every_card, recovery, lambda d: d.cards)
    printings = _Lazy("printings", many_printings, every_printing, recovery, lambda d: d.printings)
    names = _Lazy("refs", many_refs, every_ref, recovery, lambda d: d.index)
    # loosely typed: prefetch makes the four tables dicts in one statement, typed by their join
    ids: _Lazy[CardT, Any] = _Lazy("id_refs", many_ids, every_id, recovery, lambda d: d.id_index())
    database.cards = cards
    database.printings = printings
    database._index = names
    database._ids = ids
    tables = [(t, _extra(index, t, recovery)) for t in cls.INDEX_TABLES or ()]
    for table, found_table in tables:
        setattr(database, table, found_table)

    decks = 0

    def prefetch(refs_: Iterable[str]) -> None:
        """Every row a look-up of these references reads, in batched queries; a small database
        checked deck after deck is read whole instead, and looked up as plain dicts."""
        nonlocal decks
        decks += 1
        if decks == WHOLE_AFTER and _rows(index) <= EAGER:
            database.cards, database.printings, database._index, database._ids = (
                dict(lazy_table.items()) for lazy_table in (cards, printings, names, ids)
            )
            for name, extra in tables:
                setattr(database, name, dict(extra.items()))
            database._prefetch = None
            return
        asked = list(refs_)
        exact = {r for ref in asked for r in (ref, ref.strip().upper())}
        normal = {normalize(ref) for ref in asked}
        cards.fetch(exact)
        for _, table in tables:
            table.fetch(exact)
        ids.fetch(normal)
        names.fetch(normal)
        targets = {t for key in normal for t in (names.get(key) or ())}
        printings.fetch(targets)
        cards.fetch(targets)

    database._prefetch = prefetch

    def keys_in(sets: Collection[str] | None, types: Collection[str] | None) -> list[str]:
        """The index's answer to `CardDatabase.keys_in`: the rows of these sets and types, their
        cards' printings read in batches (after damage, the rebuilt database's answer)."""
        if recovery.database is None:
            try:
                return _keys_in(sets, types)
            except IndexDamaged as err:
                recovery.recover(err)
        assert recovery.database is not None
        return recovery.database.keys_in(sets, types)

    def _keys_in(sets: Collection[str] | None, types: Collection[str] | None) -> list[str]:
        if sets is None:
            rows = index.rows("SELECT set_code, json, sum FROM sets")
            if len(rows) != index.chains.size("sets"):
                raise IndexDamaged("a row of the sets table is missing")
        else:
            codes = sorted({str(code) for code in sets})
            rows = []
            for start in range(0, len(codes), BATCH):
                chunk = codes[start : start + BATCH]
                where = f"WHERE set_code IN ({_marks(len(chunk))})"
                rows += index.rows(f"SELECT set_code, json, sum FROM sets {where}", chunk)
            index.chains.absent("sets", set(codes) - {code for code, _, _ in rows})
        kinds = None if types is None else set(types)
        found: dict[str, int] = {}
        for code, text, total in rows:
            entries = CardIndex.verified(text, total, ck, code)
            if not isinstance(entries, list):
                raise IndexDamaged("a row of the sets table is not a list of cards")
            for entry in entries:
                if not (isinstance(entry, list) and len(entry) == 3):
                    raise IndexDamaged("a row of the sets table is not a list of cards")
                grp, name, kind = entry
                if kinds is None or kind in kinds:
                    found.setdefault(name, grp)
        keys = sorted(found, key=found.__getitem__)
        printings.fetch(keys)
        return keys

    database._keys_in = keys_in
    return _finish(database, index, recovery)


def _rows(index: CardIndex) -> int:
    """How many card rows the index holds (its last row's number, plus one)."""
    found = index.rows("SELECT ord FROM cards ORDER BY ord DESC LIMIT 1")
    return int(found[0][0]) + 1 if found else 0


def _finish(
    database: CardDatabase[CardT], index: CardIndex, recovery: _Recovery[CardT]
) -> CardDatabase[CardT]:
    """The fingerprint, completion and "did you mean" of a database opened from the index."""
    database._fingerprint = index.fingerprint
    keyindex.attach(database, index.connection)
    for reader in EXTRA_READERS:
        reader(index, database)

    def rebuilt(err: IndexDamaged) -> CardDatabase[CardT]:
        recovery.recover(err)
        assert recovery.database is not None
        return recovery.database

    database._names = nameindex.IndexedNames(index, rebuilt)
    return database


def _extra(index: CardIndex, table: str, recovery: _Recovery[CardT]) -> _Lazy[CardT, str]:
    """A game's own str -> str table (CardDatabase.INDEX_TABLES), read as it is asked."""

    def checked(rows: list[tuple[Any, ...]]) -> dict[str, str]:
        for k, v, total in rows:
            _check(total, index.key, table, k, v)
        return {k: v for k, v, _ in rows}

    def many(keys: list[str]) -> dict[str, str]:
        where = f"WHERE tbl = ? AND k IN ({_marks(len(keys))})"
        return checked(index.rows(f"SELECT k, v, sum FROM extra {where}", [table, *keys]))

    def every() -> Iterator[tuple[str, str]]:
        yield from checked(
            index.rows("SELECT k, v, sum FROM extra WHERE tbl = ? ORDER BY grp", [table])
        ).items()

    return _Lazy(f"extra:{table}", many, every, recovery, lambda d: getattr(d, table))
