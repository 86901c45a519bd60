"""Completion's table in the card index (issue 27): every way to write a card (each name in each
language, and its id) as a row of the index file, so that an editor's completion reads the few
rows it shows instead of holding every card.

`keys(no, norm, shown, lang, card)`: `no` the key's place in `keys_of`'s order, `norm` its
normalized text (as references are matched), `shown` as written, `lang` a language or "id",
`card` the card's row in `cards`. When this Python's SQLite has FTS5's trigram tokenizer
(probed once, in memory), `keys_fts` indexes `norm` by trigrams; without it, substrings are
found with `instr()` over the table. Every query answers rows in `no` order and is a superset of
(or exactly) the keys asked for: the caller checks each row, ranks and stops reading when it
has enough. The rows are written from the in-memory database a cold build made, by `write`,
inside `cardindex.write`'s transaction; `attach` hands a reader to the database opened from it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from varz_deck.core.cards import normalize

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase

_TABLE = (
    "CREATE TABLE keys(no INTEGER PRIMARY KEY, norm TEXT NOT NULL, shown TEXT NOT NULL,"
    " lang TEXT NOT NULL, card INTEGER NOT NULL)"
)
_TRIGRAMS = "tokenize='trigram case_sensitive 1', detail='none'"
_FTS = (
    "CREATE VIRTUAL TABLE keys_fts USING fts5(norm, content='keys', content_rowid='no',"
    f" {_TRIGRAMS})"
)
_ROW = "SELECT k.no, k.norm, k.shown, k.lang, c.id FROM keys k JOIN cards c ON c.ord = k.card"
_ATTRIBUTE = "_key_table"


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


def write(
    connection: sqlite3.Connection, database: CardDatabase[Any], rows: Mapping[int, int]
) -> None:
    """Fill the completion table of an index being written; `rows`: id(card) -> its row."""
    connection.execute(_TABLE)
    connection.executemany(
        "INSERT INTO keys VALUES (?, ?, ?, ?, ?)",
        (
            (no, norm, shown, lang, rows[id(card)])
            for no, (norm, shown, lang, card) in enumerate(keys_of(database))
        ),
    )
    if trigrams_available():
        connection.execute(_FTS)
        connection.execute("INSERT INTO keys_fts(keys_fts) VALUES ('rebuild')")


def _glob(text: str) -> str:
    """text as a GLOB pattern matching itself."""
    return "".join(f"[{ch}]" if ch in "*?[" else ch for ch in text)


def _encodable(*texts: str) -> bool:
    try:
        for text in texts:
            text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no key holds one
        return False
    return True


class KeyTable:
    """The completion table of an open index file."""

    def __init__(self, connection: sqlite3.Connection, *, fts: bool | None = None) -> None:
        self.connection = connection
        found = {
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE name IN ('keys', 'keys_fts')"
            )
        }
        if "keys" not in found:
            raise LookupError("the index has no completion table")
        usable = "keys_fts" in found and trigrams_available()
        self.fts = usable if fts is None else fts and usable

    def _rows(self, sql: str, args: Iterable[Any]) -> Iterator[Row]:
        for row in self.connection.execute(sql, tuple(args)):
            yield Row(*row)

    def _containing(self, text: str, extra: str, args: tuple[Any, ...]) -> Iterator[Row]:
        if self.fts and len(text) >= 3:
            grams = dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2))
            match = " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)
            return self._rows(
                f"{_ROW} JOIN keys_fts f ON f.rowid = k.no WHERE keys_fts MATCH ?{extra}"
                " ORDER BY f.rowid",
                (match, *args),
            )
        return self._rows(f"{_ROW} WHERE instr(k.norm, ?) > 0{extra} ORDER BY k.no", (text, *args))

    def starting(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text starts with text, in order."""
        if not text:
            return self._rows(f"{_ROW} ORDER BY k.no", ())
        if not _encodable(text):
            return iter(())
        return self._containing(text, " AND substr(k.norm, 1, ?) = ?", (len(text), text))

    def containing(self, text: str) -> Iterator[Row]:
        """The keys whose normalized text holds text (and maybe a few that do not), in order."""
        if not _encodable(text):
            return iter(())
        return self._containing(text, "", ())

    def in_order(self, letters: list[str]) -> Iterator[Row]:
        """The keys whose normalized text holds these letters in this order, in order."""
        if not _encodable(*letters):
            return iter(())
        pattern = "*" + "".join(_glob(ch) + "*" for ch in letters)
        return self._rows(f"{_ROW} WHERE k.norm GLOB ? ORDER BY k.no", (pattern,))


def attach(database: CardDatabase[Any], connection: sqlite3.Connection) -> None:
    """Give a database read from an index file its completion table (when the file has one)."""
    with contextlib.suppress(LookupError, sqlite3.Error):
        setattr(database, _ATTRIBUTE, KeyTable(connection))


def table_of(database: CardDatabase[Any]) -> KeyTable | None:
    """The completion table of a database read from an index file; None for one in memory."""
    found = getattr(database, _ATTRIBUTE, None)
    return found if isinstance(found, KeyTable) else None
