"""Completion's table in the card index: every way to write a card (each name in each
language, and its id) as a row of the index file, so that an editor's completion reads the few
rows it shows instead of holding every card.

`keys(no, norm, shown, lang, card)`: `no` the key's place in `keys_of`'s order, `norm` its
normalized text (as references are matched), `shown` as written, `lang` a language or "id",
`card` the card's row in `cards`; an index on `norm` finds the keys that start with a text.
`chars(ch, n, sum, postings)` and `postings(no, nos)`: for each character of the normalized
keys, the numbers of the keys that hold it (`n` of them; ascending uint32, little-endian; `sum`
a blake2b-64 of them, checked on read): a text or a run of letters can only be in a key that
holds all its characters. When this Python's SQLite has FTS5's trigram tokenizer (probed once,
in memory), `keys_fts` indexes `norm` by trigrams, for texts of three characters or more.

Every query answers the keys asked for in `no` order: candidates from the `norm` index, the
trigrams or the postings, their text checked by SQLite (`substr`, `instr`, `GLOB`), so only
matches reach Python; the caller ranks them and stops reading when it has enough. The tables
are written from the in-memory database a cold build made, by `write`, inside
`cardindex.write`'s transaction; `attach` hands a reader to the database opened from the file.

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
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from varz_deck.core.cards._hash import blake2b
from varz_deck.core.cards.model import CardT, normalize

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from varz_deck.core.cards.model import CardDatabase

_TABLES = (
    "CREATE TABLE keys(no INTEGER PRIMARY KEY, norm TEXT NOT NULL, shown TEXT NOT NULL,"
    " lang TEXT NOT NULL, card INTEGER NOT NULL)",
    # `n` beside the character, the postings in a table of their own: counts read apart
    "CREATE TABLE chars(ch TEXT PRIMARY KEY, n INTEGER NOT NULL, sum INTEGER NOT NULL,"
    " postings INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE postings(no INTEGER PRIMARY KEY, nos BLOB NOT NULL)",
)
_AFTER = ("CREATE INDEX keys_norm ON keys(norm, no)",)
_TRIGRAMS = "tokenize='trigram case_sensitive 1', detail='none'"
_FTS = (
    "CREATE VIRTUAL TABLE keys_fts USING fts5(norm, content='keys', content_rowid='no',"
    f" columnsize=0, {_TRIGRAMS})"
)
_ROW = "SELECT k.no, k.norm, k.shown, k.lang, c.id FROM keys k JOIN cards c ON c.ord = k.card"
_ATTRIBUTE = "_key_table"
_BATCH = 900  # numbers per query at most (SQLite before 3.32 takes 999 parameters)
_FEW = 4096  # candidates the text checks in SQLite sort out faster than more postings would


class Damaged(Exception):
    """A row of the completion table whose sum does not match."""


class Row(NamedTuple):
    no: int
    norm: str
    shown: str
    lang: str  # "en", "ja", "zh", …, or "id"
    card_id: str


def keys_of(database: CardDatabase[CardT]) -> Iterator[tuple[str, str, str, CardT]]:
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
    connection: sqlite3.Connection, database: CardDatabase[CardT], rows: Mapping[int, int]
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
    for place, (ch, nos) in enumerate(holding.items()):
        data = _packed(nos)
        connection.execute("INSERT INTO postings VALUES (?, ?)", (place, data))
        connection.execute(
            "INSERT INTO chars VALUES (?, ?, ?, ?)", (ch, len(nos), _sum(data), place)
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


def _glob(text: str) -> str:
    """text as a GLOB pattern that matches itself."""
    return "".join(f"[{ch}]" if ch in "*?[" else ch for ch in text)


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

    def _rows(
        self, numbers: NDArray[np.uint32] | Iterable[int], where: str, args: tuple[str | int, ...]
    ) -> Iterator[Row]:
        """The rows of these key numbers (ascending) that pass `where`, a batch at a time:
        SQLite checks the text, only the rows that pass reach Python."""
        found = iter(numbers.tolist() if hasattr(numbers, "tolist") else numbers)
        size = 64  # most searches stop within the first rows: batches grow as they go on
        while batch := list(islice(found, size)):
            marks = ", ".join("?" * len(batch))
            sql = f"{_ROW} WHERE k.no IN ({marks}){where} ORDER BY k.no"
            for row in self.connection.execute(sql, (*batch, *args)):
                yield Row(*row)
            size = min(size * 4, _BATCH)

    def _holding(self, chars: Iterable[str]) -> NDArray[np.uint32]:
        """The numbers of keys that hold every one of chars (ascending, a NumPy array), or
        of a few more: the rarest characters' keys are intersected until few are left."""
        import numpy as np

        wanted = sorted(set(chars))
        sizes: dict[str, int] = {}
        for start in range(0, len(wanted), _BATCH):
            part = wanted[start : start + _BATCH]
            marks = ", ".join("?" * len(part))
            sql = f"SELECT ch, n FROM chars WHERE ch IN ({marks})"
            sizes.update(self.connection.execute(sql, part))
        numbers = np.zeros(0, dtype="<u4")
        if len(sizes) < len(wanted):  # a character no key holds
            return numbers
        for n, ch in enumerate(sorted(wanted, key=lambda ch: (sizes[ch], ch))):
            ((data, total),) = self.connection.execute(
                "SELECT p.nos, c.sum FROM chars c JOIN postings p ON p.no = c.postings"
                " WHERE c.ch = ?",
                (ch,),
            )
            if not isinstance(data, bytes) or _sum(data) != total or len(data) % 4:
                raise Damaged(f"the keys holding {ch!r}: their sum does not match")
            holding = np.frombuffer(data, dtype="<u4")
            holding = holding[holding < self.count]
            if n == 0:
                numbers = holding
            else:
                mask = np.zeros(self.count, dtype=bool)
                mask[holding] = True
                numbers = numbers[mask[numbers]]
            if len(numbers) <= _FEW:
                break
        return numbers

    def starting(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text starts with text, in order."""
        if not text:
            return (Row(*row) for row in self.connection.execute(f"{_ROW} ORDER BY k.no"))
        if not _encodable(text):
            return iter(())
        where, args = " AND substr(k.norm, 1, ?) = ?", (len(text), text)
        after = _after(text)
        bound = "" if after is None else " AND norm < ?"
        found = self.connection.execute(
            f"SELECT no FROM keys WHERE norm >= ?{bound} LIMIT ?",
            (text, *([after] if after is not None else []), _FEW + 1),
        ).fetchall()
        if len(found) > _FEW:  # many: the first ones come soon in the keys' order
            sql = f"{_ROW} WHERE substr(k.norm, 1, ?) = ? ORDER BY k.no"
            return (Row(*row) for row in self.connection.execute(sql, args))
        return self._rows(sorted(no for (no,) in found), where, args)

    def containing(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text holds text, in order."""
        if not _encodable(text):
            return iter(())
        where, args = " AND instr(k.norm, ?) > 0", (text,)
        if self.fts and len(text) >= 3:
            grams = dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2))
            match = " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)
            found = self.connection.execute(
                "SELECT rowid FROM keys_fts WHERE keys_fts MATCH ? ORDER BY rowid", (match,)
            )
            return self._rows((no for (no,) in found), where, args)
        return self._rows(self._holding(text), where, args)

    def in_order(self, letters: list[str]) -> Iterator[Row]:
        """The keys whose normalized text holds these letters in this order, in order."""
        if not _encodable(*letters):
            return iter(())
        pattern = "*" + "".join(_glob(ch) + "*" for ch in letters)
        return self._rows(self._holding(letters), " AND k.norm GLOB ?", (pattern,))


def attach(database: CardDatabase[CardT], connection: sqlite3.Connection) -> None:
    """Give a database read from an index file its completion table (when the file has one)."""
    with contextlib.suppress(LookupError, sqlite3.Error):
        setattr(database, _ATTRIBUTE, KeyTable(connection))


def table_of(database: CardDatabase[CardT]) -> KeyTable | None:
    """The completion table of a database read from an index file; None for one in memory."""
    found = getattr(database, _ATTRIBUTE, None)
    return found if isinstance(found, KeyTable) else None
