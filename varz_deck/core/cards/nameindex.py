""" "Did you mean" from the card index (docs/design/card-index.md): the names and the
trigram postings of `suggest.NameIndex`, stored in the index file, and a reader that answers
`close` as NameIndex does, in plain Python (no NumPy at check time).

Tables (written with the rest of the index, core/cards/cardindex.py):

- `names(no, norm, shown, sum)`: NameIndex's names (normalized) in its order, each as shown;
- `trigrams(code, n, postings, sum)`: one row per trigram hash (suggest's 32-bit formula); its
  `n` postings are the numbers of the names it occurs in, ascending (a name has one per
  occurrence), packed as little-endian uint32.

Every row read is verified: `sum` is the blake2b-64 of the content key and the row's whole
content (number, code, texts, postings); a row that does not match is `IndexDamaged`, or, given
the database rebuilt without the index, answered from that. A row deleted is found as well: the
number of names is the `names` head, and a trigram not found must be absent by the `trigrams`
chain (core/cards/indexchain.py).
"""

from __future__ import annotations

import difflib
import sqlite3
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from varz_deck.core.cards import indexchain
from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.cachedoc import IndexDamaged
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.cards.suggest import (
    CANDIDATES,
    CUTOFF,
    FULL_SCAN,
    POSTINGS,
    NameIndex,
    trigrams,
    within_reach,
)


class IndexRows(Protocol):
    """What the names need of the card index (core/cards/cardindex.py): its key and its rows."""

    key: str
    chains: indexchain.Chains

    def rows(self, sql: str, args: Iterable[object] = ()) -> list[tuple[Any, ...]]: ...


TABLES = (
    "CREATE TABLE names(no INTEGER PRIMARY KEY, norm TEXT NOT NULL, shown TEXT NOT NULL,"
    " sum INTEGER NOT NULL)",
    "CREATE TABLE trigrams(code INTEGER PRIMARY KEY, n INTEGER NOT NULL, postings BLOB NOT NULL,"
    " sum INTEGER NOT NULL)",
)
_HELD = 8 << 20  # bytes of postings remembered, at most (then forgotten, read again)
_REMEMBERED = 50_000  # answers, and names read, remembered at most
_BATCH = 500  # values per `IN (...)`: well under SQLite's limit of bound parameters


def _sum(key: str, *parts: str | bytes | int) -> int:
    """blake2b-64 of the index's content key and the parts, each length-prefixed, as SQLite's
    signed 64-bit integer (the key in it: another content's rows do not fit this index)."""
    digest = blake2b(digest_size=8)
    for part in (key, *parts):
        if isinstance(part, int):
            part = str(part)
        if isinstance(part, str):
            part = part.encode("utf-8", "surrogatepass")
        digest.update(len(part).to_bytes(8, "big") + part)
    return int.from_bytes(digest.digest(), "big", signed=True)


def _unpacked(blob: bytes) -> array[int]:
    out = array("I")
    out.frombytes(blob)
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian everywhere
        out.byteswap()
    return out


def write(connection: sqlite3.Connection, key: str, names: Mapping[str, str]) -> None:
    """Create and fill the tables for NameIndex(names), inside the caller's transaction: the
    trigram postings NameIndex._index() sorts, in plain Python (no NumPy in a cold build)."""
    for statement in TABLES:
        connection.execute(statement)
    connection.executemany(
        "INSERT INTO names VALUES (?, ?, ?, ?)",
        (
            (no, norm, shown, _sum(key, no, norm, shown))
            for no, (norm, shown) in enumerate(names.items())
        ),
    )
    postings: dict[int, array[int]] = {}
    for no, norm in enumerate(names):
        for code in trigrams(norm):  # a name's numbers come in order, a repeated trigram twice
            found = postings.get(code)
            if found is None:
                found = postings[code] = array("I")
            found.append(no)
    rows = []
    for code in sorted(postings):
        numbers = postings[code]
        if sys.byteorder == "big":  # pragma: no cover - the file is little-endian everywhere
            numbers.byteswap()
        blob = numbers.tobytes()
        rows.append((code, len(numbers), blob, _sum(key, code, len(numbers), blob)))
    connection.executemany("INSERT INTO trigrams VALUES (?, ?, ?, ?)", rows)
    indexchain.count(connection, key, "names", len(names))  # numbered 0..n-1
    indexchain.write(connection, key, "trigrams", postings)  # a trigram not found: absent


class IndexedNames:
    """NameIndex's `close`, answered from an index's `names` and `trigrams`."""

    def __init__(
        self, index: IndexRows, rebuilt: Callable[[IndexDamaged], CardDatabase] | None = None
    ) -> None:
        """`rebuilt`: the database made without the index, once damage is met (the file is then
        removed); without it, damage is IndexDamaged."""
        self.index = index
        self._rebuilt = rebuilt
        self._memory: NameIndex | None = None  # the rebuilt database's names, after damage
        self._size: int | None = None
        self._names: dict[int, str] = {}  # no -> norm, of the rows read
        self._shown: dict[str, str] = {}  # norm -> shown, of the rows read
        self._all: list[str] | None = None  # every name, when FULL_SCAN or fewer
        self._answers: dict[tuple[str, int], list[str]] = {}
        self._rows: dict[int, tuple[int, bytes] | None] = {}  # code -> (n, postings), verified
        self._held = 0  # bytes of postings in _rows

    def close(self, wanted: str, limit: int = 3) -> list[str]:
        """As NameIndex.close: up to `limit` names (as shown) with a ratio of at least CUTOFF."""
        if self._memory is not None:
            return self._memory.close(wanted, limit)
        try:
            return self._close(wanted, limit)
        except IndexDamaged as err:
            if self._rebuilt is None:
                raise
            self._memory = NameIndex(self._rebuilt(err).shown_names())
            return self._memory.close(wanted, limit)

    def _close(self, wanted: str, limit: int) -> list[str]:
        found = self._answers.get((wanted, limit))
        if found is None:
            if len(self._answers) > _REMEMBERED or len(self._names) > _REMEMBERED:
                self._answers.clear()  # a long-lived process (the editor's) keeps no more
                if self._all is None:
                    self._names.clear()
                    self._shown.clear()
            pool = self._every() if self._count() <= FULL_SCAN else self._candidates(wanted)
            found = difflib.get_close_matches(wanted, pool, n=limit, cutoff=CUTOFF)
            found = [self._shown[name] for name in found]
            self._answers[wanted, limit] = found
        return list(found)

    def _count(self) -> int:
        if self._size is None:
            self._size = self.index.chains.size("names")
        return self._size

    def _keep(self, no: object, norm: object, shown: object, total: object) -> str:
        if not (
            isinstance(no, int)
            and isinstance(norm, str)
            and isinstance(shown, str)
            and _sum(self.index.key, no, norm, shown) == total
        ):
            raise IndexDamaged("a name row's sum does not match")
        self._names[no] = norm
        self._shown.setdefault(norm, shown)
        return norm

    def _every(self) -> list[str]:
        if self._all is None:
            rows = self.index.rows("SELECT no, norm, shown, sum FROM names ORDER BY no")
            if [row[0] for row in rows] != list(range(self._count())):
                raise IndexDamaged("the names are not numbered in order")
            self._all = [self._keep(*row) for row in rows]
        return self._all

    def _read_names(self, numbers: list[int]) -> None:
        missing = sorted({no for no in numbers if no not in self._names})
        for at in range(0, len(missing), _BATCH):
            part = missing[at : at + _BATCH]
            rows = self.index.rows(
                f"SELECT no, norm, shown, sum FROM names WHERE no IN ({','.join('?' * len(part))})",
                tuple(part),
            )
            for row in rows:
                self._keep(*row)
        if any(no not in self._names for no in numbers):
            raise IndexDamaged("a name the trigrams list is missing")

    def _spans(self, wanted: str) -> list[tuple[int, int, bytes]]:
        """(n, code, postings) of each of wanted's trigrams in the index, verified; the rows
        read are remembered (the common trigrams recur from one reference to the next)."""
        mine = sorted(set(trigrams(wanted)))
        known = self._rows
        if self._held > _HELD:
            known.clear()
            self._held = 0
        missing = [code for code in mine if code not in known]
        for at in range(0, len(missing), _BATCH):
            part = missing[at : at + _BATCH]
            rows = self.index.rows(
                "SELECT code, n, postings, sum FROM trigrams"
                f" WHERE code IN ({','.join('?' * len(part))})",
                tuple(part),
            )
            self.index.chains.absent("trigrams", set(part) - {row[0] for row in rows})
            for code in part:
                known[code] = None
            for code, n, blob, total in rows:
                if not (
                    isinstance(blob, bytes)
                    and isinstance(n, int)
                    and n > 0
                    and len(blob) == 4 * n
                    and _sum(self.index.key, code, n, blob) == total
                ):
                    raise IndexDamaged("a trigram row's sum does not match")
                if n > POSTINGS:  # never read past its n: only n is kept, once verified
                    blob = b""
                known[code] = (n, blob)
                self._held += len(blob)
        spans = [(row[0], code, row[1]) for code in mine if (row := known.get(code)) is not None]
        spans.sort()
        return spans

    def _candidates(self, wanted: str) -> list[str]:
        """As NameIndex._candidates: the names sharing the most of wanted's rarer trigrams."""
        picked = []
        read = 0
        for n, _, blob in self._spans(wanted):
            if read + n > POSTINGS:
                break
            picked += _layers(_unpacked(blob))
            read += n
        best = _most(picked, CANDIDATES * 2)
        self._read_names(best)
        return within_reach((self._names[no] for no in best), wanted)


def _most(layers: list[set[int]], wanted: int) -> list[int]:
    """The `wanted` numbers found in most of the layers, by (-count, number).

    Counted by sets (the loops over numbers stay in C): `levels[i]` holds the numbers found more
    than i times; each layer moves its numbers one level up."""
    levels: list[set[int]] = []
    for layer in layers:
        for i in range(len(levels) - 1, -1, -1):  # from the top: one move up per layer
            hit = levels[i] & layer
            if hit:
                if i + 1 == len(levels):
                    levels.append(hit)
                else:
                    levels[i + 1] |= hit
        if levels:
            levels[0] |= layer
        else:
            levels.append(set(layer))
    out: list[int] = []
    above: set[int] = set()
    for level in reversed(levels):
        out += sorted(level - above)
        if len(out) >= wanted:
            break
        above = level
    return out[:wanted]


def _layers(numbers: array[int]) -> list[set[int]]:
    """The postings of one trigram as sets: each number once, then those it has twice, ..."""
    once = set(numbers)
    if len(once) == len(numbers):
        return [once]
    layers: list[set[int]] = []
    for number, count in Counter(numbers).items():
        for i in range(count):
            if i == len(layers):
                layers.append(set())
            layers[i].add(number)
    return layers
