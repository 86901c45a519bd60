"""Completion's table in the card index (issue 27): every way to write a card (each name in each
language, and its id) as a row of the index file, so that an editor's completion reads the few
rows it shows instead of holding every card.

`keys(no, norm, shown, lang, card)`: `no` the key's place in `keys_of`'s order, `norm` its
normalized text (as references are matched), `shown` as written, `lang` a language or "id",
`card` the card's row in `cards`; an index on `norm` finds the keys that start with a text.
`chars(ch, nos, sum)`: for each character of the normalized keys, the numbers of the keys that
hold it (ascending uint32, little-endian; `sum` a blake2b-64 of them, checked on read): the keys
that may hold a text or a run of letters are those that hold all its characters. When this
Python's SQLite has FTS5's trigram tokenizer (probed once, in memory), `keys_fts` indexes `norm`
by trigrams, for texts of three characters or more. Every query answers rows in `no` order and is
a superset of (or exactly) the keys asked for: the caller checks each row, ranks, and stops
reading when it has enough. The tables are written from the in-memory database a cold build
made, by `write`, inside `cardindex.write`'s transaction; `attach` hands a reader to the
database opened from the file.

Why not scan: a scan of 400,000 keys (100,000 cards) with `instr()` or `GLOB` takes 0.1 s, and
so does a regular expression over all of them held in memory; the postings make the "letters
in order" pass and one- or two-character texts cost what their candidates cost.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from varz_deck.core._hash import blake2b
from varz_deck.core.cards import normalize

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase

_TABLES = (
    "CREATE TABLE keys(no INTEGER PRIMARY KEY, norm TEXT NOT NULL, shown TEXT NOT NULL,"
    " lang TEXT NOT NULL, card INTEGER NOT NULL)",
    "CREATE TABLE chars(ch TEXT PRIMARY KEY, nos BLOB NOT NULL, sum INTEGER NOT NULL)"
    " WITHOUT ROWID",
)
_AFTER = ("CREATE INDEX keys_norm ON keys(norm, no)",)
_TRIGRAMS = "tokenize='trigram case_sensitive 1', detail='none'"
_FTS = (
    "CREATE VIRTUAL TABLE keys_fts USING fts5(norm, content='keys', content_rowid='no',"
    f" {_TRIGRAMS})"
)
_ROW = "SELECT k.no, k.norm, k.shown, k.lang, c.id FROM keys k JOIN cards c ON c.ord = k.card"
_ATTRIBUTE = "_key_table"
_BATCH = 500  # rows per query at most


class Damaged(Exception):
    """A row of the completion table whose sum does not match."""


class Row(NamedTuple):
    no: int
    norm: str
    shown: str
    lang: str  # "en", "ja", "zh", …, or "id"
    card_id: str


def keys_of(database: CardDatabase[Any]) -> Iterator[tuple[str, str, str, Any]]:
    """(norm, shown, lang, card) of every way to write a card, in completion's order: each card
    of `database.cards` by its English name, its other names, then its id; a text a card already
    has, or an empty one, once."""
    seen: set[tuple[str, str]] = set()
    for card in database.cards.values():
        for lang, shown in (("en", card.name), *card.names.items(), ("id", card.id)):
            if (shown, card.id) not in seen and shown:
                seen.add((shown, card.id))
                yield normalize(shown).replace("\n", " "), shown, lang, card


@cache
def trigrams_available() -> bool:
    """Whether this Python's SQLite has FTS5 with the trigram tokenizer (and its options)."""
    try:
        connection = sqlite3.connect(":memory:")
    except sqlite3.Error:  # pragma: no cover - an in-memory database always opens
        return False
    try:
        connection.execute(f"CREATE VIRTUAL TABLE temp.t USING fts5(x, {_TRIGRAMS})")
        return True
    except sqlite3.Error:
        return False
    finally:
        connection.close()


def _sum(data: bytes) -> int:
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "big", signed=True)


def _packed(numbers: list[int]) -> bytes:
    packed = array("I", numbers)
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian everywhere
        packed.byteswap()
    return packed.tobytes()


def write(
    connection: sqlite3.Connection, database: CardDatabase[Any], rows: Mapping[int, int]
) -> None:
    """Fill the completion tables of an index being written; `rows`: id(card) -> its row."""
    for statement in _TABLES:
        connection.execute(statement)
    holding: dict[str, list[int]] = {}
    keys = []
    for no, (norm, shown, lang, card) in enumerate(keys_of(database)):
        keys.append((no, norm, shown, lang, rows[id(card)]))
        for ch in set(norm):
            holding.setdefault(ch, []).append(no)
    connection.executemany("INSERT INTO keys VALUES (?, ?, ?, ?, ?)", keys)
    connection.executemany(
        "INSERT INTO chars VALUES (?, ?, ?)",
        ((ch, data, _sum(data)) for ch, nos in holding.items() for data in [_packed(nos)]),
    )
    for statement in _AFTER:
        connection.execute(statement)
    if trigrams_available():
        connection.execute(_FTS)
        connection.execute("INSERT INTO keys_fts(keys_fts) VALUES ('rebuild')")


def _after(text: str) -> str | None:
    """The first text after every text that starts with text (None: there is none)."""
    while text:
        last = ord(text[-1]) + 1
        if last == 0xD800:  # no key holds a surrogate
            last = 0xE000
        if last <= 0x10FFFF:
            return text[:-1] + chr(last)
        text = text[:-1]
    return None


def _encodable(*texts: str) -> bool:
    try:
        for text in texts:
            text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no key holds one
        return False
    return True


class KeyTable:
    """The completion tables of an open index file."""

    def __init__(self, connection: sqlite3.Connection, *, fts: bool | None = None) -> None:
        self.connection = connection
        found = {
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE name IN ('keys', 'chars', 'keys_fts')"
            )
        }
        if not {"keys", "chars"} <= found:
            raise LookupError("the index has no completion table")
        usable = "keys_fts" in found and trigrams_available()
        self.fts = usable if fts is None else fts and usable
        (last,) = connection.execute("SELECT max(no) FROM keys").fetchone()
        self.count = 0 if last is None else last + 1

    def _rows(self, numbers: Iterable[int]) -> Iterator[Row]:
        """The rows of these key numbers (ascending), a batch at a time."""
        batch: list[int] = []
        size = 50  # most searches stop within the first rows: batches grow as they go on
        for no in numbers:
            batch.append(int(no))
            if len(batch) >= size:
                yield from self._batch(batch)
                batch, size = [], min(size * 2, _BATCH)
        if batch:
            yield from self._batch(batch)

    def _batch(self, batch: list[int]) -> Iterator[Row]:
        marks = ", ".join("?" * len(batch))
        for row in self.connection.execute(f"{_ROW} WHERE k.no IN ({marks}) ORDER BY k.no", batch):
            yield Row(*row)

    def _holding(self, chars: Iterable[str]) -> Any:
        """The numbers of the keys that hold every one of chars, ascending (a NumPy array)."""
        import numpy as np

        wanted = sorted(set(chars))
        found = {}
        for start in range(0, len(wanted), _BATCH):
            part = wanted[start : start + _BATCH]
            marks = ", ".join("?" * len(part))
            for ch, data, total in self.connection.execute(
                f"SELECT ch, nos, sum FROM chars WHERE ch IN ({marks})", part
            ):
                if not isinstance(data, bytes) or _sum(data) != total or len(data) % 4:
                    raise Damaged(f"the keys holding {ch!r}: their sum does not match")
                numbers = np.frombuffer(data, dtype="<u4")
                found[ch] = numbers[numbers < self.count]
        if len(found) < len(wanted):
            return np.zeros(0, dtype="<u4")
        arrays = sorted(found.values(), key=len)
        numbers = arrays[0]
        for other in arrays[1:]:  # the rarest first: the set only shrinks
            if not len(numbers):
                break
            mask = np.zeros(self.count, dtype=bool)
            mask[other] = True
            numbers = numbers[mask[numbers]]
        return numbers

    def starting(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text starts with text, in order."""
        if not text:
            return (Row(*row) for row in self.connection.execute(f"{_ROW} ORDER BY k.no"))
        if not _encodable(text):
            return iter(())
        after = _after(text)
        if after is None:
            found = self.connection.execute("SELECT no FROM keys WHERE norm >= ?", (text,))
        else:
            found = self.connection.execute(
                "SELECT no FROM keys WHERE norm >= ? AND norm < ?", (text, after)
            )
        return self._rows(sorted(no for (no,) in found))

    def containing(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text holds text (and maybe some that do not), in order."""
        if not _encodable(text):
            return iter(())
        if self.fts and len(text) >= 3:
            grams = dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2))
            match = " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)
            found = self.connection.execute(
                "SELECT rowid FROM keys_fts WHERE keys_fts MATCH ? ORDER BY rowid", (match,)
            )
            return self._rows(no for (no,) in found)
        return self._rows(self._holding(text))

    def in_order(self, letters: list[str]) -> Iterator[Row]:
        """The keys whose normalized text may hold these letters in this order, in order."""
        if not _encodable(*letters):
            return iter(())
        return self._rows(self._holding(letters))


def attach(database: CardDatabase[Any], connection: sqlite3.Connection) -> None:
    """Give a database read from an index file its completion table (when the file has one)."""
    with contextlib.suppress(LookupError, sqlite3.Error):
        setattr(database, _ATTRIBUTE, KeyTable(connection))


def table_of(database: CardDatabase[Any]) -> KeyTable | None:
    """The completion table of a database read from an index file; None for one in memory."""
    found = getattr(database, _ATTRIBUTE, None)
    return found if isinstance(found, KeyTable) else None
