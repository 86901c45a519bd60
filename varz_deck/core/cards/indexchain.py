"""What the card index (cardindex.py) has not got: a row deleted from a table is found, not taken
for a card that does not exist (docs/design/card-index.md, "Integrity").

A row's sum shows that the row read is the row written; it cannot show that a row not found was
never written. So each table a look-up reads key by key has a chain: its keys in order, each
stored with the key after it (`chains(tbl, k, next, sum)`), and a head (`heads(tbl, n, first,
sum)`: how many keys, the first). A key a look-up misses must fall between two neighbours of the
chain (or before the first key): the chain row at or before it is read, and its `next` must lie
past the key. A key deleted from its table, or from the chain, breaks this for the keys it stood
between, and so does a row of the chain that is not the written one (each row is summed). A
walk over a whole table counts its keys against the head. Tables read whole, or numbered from
0, have a head and no chain (`n` only).

The cost is one query per batch of misses, each key one seek down the chain's B-tree: a check
reads no row it would not have read but the misses' neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.cachedoc import IndexDamaged, SqlValue

if TYPE_CHECKING:
    import sqlite3

TABLES = (
    # `first`: the table's first key (NULL: no chain, or no key)
    "CREATE TABLE IF NOT EXISTS heads(tbl TEXT PRIMARY KEY, n INTEGER NOT NULL, first,"
    " sum INTEGER NOT NULL) WITHOUT ROWID",
    # `k` and `next` without a type: a table's keys keep theirs (text, or a whole number)
    "CREATE TABLE IF NOT EXISTS chains(tbl TEXT NOT NULL, k NOT NULL, next, sum INTEGER NOT NULL,"
    " PRIMARY KEY (tbl, k)) WITHOUT ROWID",
)
BATCH = 500  # keys per query (and two more parameters): well under SQLite's bound
Key = str | int
# a row as read: its values are used once their type or sum is checked, which mypy cannot follow
Rows = Callable[[str, Sequence[object]], list[tuple[Any, ...]]]


def _sum(key: str, *parts: object) -> int:
    """blake2b-64 of the index's content key and the parts, each by repr ('None' is not None,
    '1' is not 1; a repr holds no NUL, the separator), as SQLite's signed 64-bit integer."""
    return _checksum(_prefix(key, *parts[:-1]) + repr(parts[-1]))


def _prefix(key: str, *parts: object) -> str:
    return "".join(f"{part!r}\0" for part in (key, *parts))


def _checksum(text: str) -> int:
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _create(connection: sqlite3.Connection) -> None:
    for statement in TABLES:
        connection.execute(statement)


def write(connection: sqlite3.Connection, key: str, table: str, keys: Iterable[Key]) -> None:
    """The head and chain of a table whose keys (distinct) are `keys`, inside the caller's
    transaction."""
    _create(connection)
    ordered = sorted(keys)
    first = ordered[0] if ordered else None
    connection.execute(
        "INSERT INTO heads VALUES (?, ?, ?, ?)",
        (table, len(ordered), first, _sum(key, "head", table, len(ordered), first)),
    )
    following: list[Key | None] = [*ordered[1:], None]
    connection.executemany(
        "INSERT INTO chains VALUES (?, ?, ?, ?)",
        (
            (table, k, after, _sum(key, "chain", table, k, after))
            for k, after in zip(ordered, following, strict=False)  # no key: no row
        ),
    )


def count(connection: sqlite3.Connection, key: str, table: str, n: int) -> None:
    """The head of a table read whole or numbered 0..n-1: its number of rows, no chain."""
    _create(connection)
    connection.execute(
        "INSERT INTO heads VALUES (?, ?, ?, ?)", (table, n, None, _sum(key, "head", table, n, None))
    )


class Chains:
    """The heads and chains of one index file, read through `rows` (the index's own queries)."""

    def __init__(self, rows: Rows, key: str) -> None:
        self._rows = rows
        self._key = key
        # the first key: compared with the keys asked for once their type is checked (`absent`)
        self._heads: dict[str, tuple[int, Any]] = {}

    def head(self, table: str) -> tuple[int, Any]:
        """(number of keys, the first key) of a table; IndexDamaged when it has no head."""
        found = self._heads.get(table)
        if found is None:
            rows = self._rows("SELECT n, first, sum FROM heads WHERE tbl = ?", (table,))
            if len(rows) != 1:
                raise IndexDamaged(f"the {table} table has no head")
            n, first, total = rows[0]
            if type(n) is not int or _sum(self._key, "head", table, n, first) != total:
                raise IndexDamaged("a head's sum does not match")
            found = self._heads[table] = (n, first)
        return found

    def size(self, table: str) -> int:
        return self.head(table)[0]

    def absent(self, table: str, keys: Iterable[Key]) -> None:
        """Nothing when none of the keys is in the table as written; IndexDamaged when one of
        them should be (its row was deleted) or the chain around it was changed."""
        n, first = self.head(table)
        if first is None:
            if n:
                raise IndexDamaged(f"the {table} table has keys and no first one")
            return
        kind = type(first)
        wanted = sorted({k for k in keys if type(k) is kind and k >= first})
        prefix = _prefix(self._key, "chain", table)
        read: dict[SqlValue, SqlValue] = {}  # the gaps read now (verified): first key -> end
        for at in range(0, len(wanted), BATCH):
            part = wanted[at : at + BATCH]
            values = ",".join(["(?)"] * len(part))
            rows = self._rows(
                f"WITH w(k) AS (VALUES {values}) SELECT w.k, c.k, c.next, c.sum FROM w"
                " JOIN chains c ON c.tbl = ? AND c.k = (SELECT max(k) FROM chains"
                " WHERE tbl = ? AND k <= w.k)",
                (*part, table, table),
            )
            if len(rows) != len(part):  # a key past the first with nothing before it
                raise IndexDamaged(f"the {table} table's chain is cut")
            for missing, before, after, total in rows:
                if before not in read:  # keys that fall in one gap check its row once
                    if (
                        type(before) is not kind
                        or (after is not None and type(after) is not kind)
                        or _checksum(f"{prefix}{before!r}\0{after!r}") != total
                    ):
                        raise IndexDamaged("a chain row's sum does not match")
                    read[before] = after
                if not before < missing or (after is not None and not missing < after):
                    raise IndexDamaged(f"a row of the {table} table is missing")
