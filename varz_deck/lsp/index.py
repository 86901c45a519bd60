"""What completion searches: every name and id of a database's cards.

A database read from the card index (core/cards/cardindex.py) is searched in its completion table
(core/cards/keyindex.py), a few rows at a time: `IndexedKeys`. One in memory (an editor's card file
linted clean, no cache) is searched as one string, with one regular expression in C:
`CardIndex`, built once per database (varz_deck.lsp.library keeps either with the database).
Both answer the same keys, ranked the same way, in the same order.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from varz_deck.core.cards import keyindex
from varz_deck.core.cards.model import normalize

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase, CardRecord

LIMIT = 50  # items per answer; the list is incomplete, so the editor asks again as you type
_WORD_BREAKS = frozenset(" -(/,.・")
_AFTER_BREAK = "[\n" + re.escape("".join(sorted(_WORD_BREAKS))) + "]"


def in_order(letters: list[str]) -> re.Pattern[str]:
    """The letters in order within one key, the first starting a word (after a line break: the
    key's start, or a word break): "dragn" finds "Azure Dragon Server", and, as "ragn" does not,
    "红龙" does not find 朱红飞龙 (a character starts no word inside a run of Chinese or Japanese
    script, as a letter starts none inside an English word)."""
    first = re.escape(letters[0])
    rest = "".join(f"[^{re.escape(ch)}\n]*{re.escape(ch)}" for ch in letters[1:])
    # led by the literal (the engine jumps from one to the next), then what stands before it
    return re.compile(f"{first}(?<={_AFTER_BREAK}{first}){rest}")


@dataclass(frozen=True)
class Key:
    """One way to write a card: a name in a language, or its id."""

    shown: str
    lang: str  # "en", "ja", "zh", …, or "id"
    card: CardRecord


class CardIndex:
    """Every name and id of a database's cards, for completion."""

    def __init__(self, database: CardDatabase) -> None:
        self.database = database
        self.keys: list[Key] = []
        self.norm: list[str] = []
        for norm, shown, lang, card in keyindex.keys_of(database):
            self.keys.append(Key(shown, lang, card))
            self.norm.append(norm)
        self.joined = "\n" + "\n".join(self.norm)  # each key follows a line break
        self.starts: list[int] = []
        offset = 1
        for norm in self.norm:
            self.starts.append(offset)
            offset += len(norm) + 1

    def _line(self, offset: int) -> int:
        """The key whose text holds offset (a leading line break belongs to the key after it)."""
        return bisect.bisect_right(self.starts, offset + 1) - 1

    def search(
        self,
        typed: str,
        wanted: Callable[[CardRecord], bool] | None = None,
        limit: int | None = None,
    ) -> list[tuple[int, Key]]:
        """(rank, key) of the keys that match what was typed, best first; `wanted(card)` keeps
        only the cards that fit the place; `limit`: at most so many. Each pattern matches a whole line of the joined keys
        (one match per key), and the search stops once enough keys of the better ranks are in."""
        query = normalize(typed)
        letters = [ch for ch in query if not ch.isspace()]
        found: dict[int, int] = {}

        def take(i: int, rank: int) -> None:
            if found.get(i, 4) > rank and (wanted is None or wanted(self.keys[i].card)):
                found[i] = rank

        # literal-led patterns, so the engine jumps from candidate to candidate
        for match in re.finditer("\n" + re.escape(query), self.joined):
            take(self._line(match.start()), 0)
            if len(found) >= LIMIT * 2:
                break
        if query and len(found) < LIMIT:
            for match in re.finditer(re.escape(query), self.joined):
                before = self.joined[match.start() - 1]
                take(
                    self._line(match.start()),
                    0 if before == "\n" else 1 if before in _WORD_BREAKS else 2,
                )
                if len(found) >= LIMIT * 2:
                    break
        if len(letters) > 1 and len(found) < LIMIT:  # the letters in order ("dragn": Dragon)
            for match in in_order(letters).finditer(self.joined):
                take(self._line(match.start()), 3)
                if len(found) >= LIMIT * 2:
                    break
        chosen = sorted(
            found.items(), key=lambda item: (item[1], len(self.norm[item[0]]), self.norm[item[0]])
        )
        return [(rank, self.keys[i]) for i, rank in chosen[:limit]]


class IndexedKeys:
    """The same search over a database's completion table in its index file: the table's
    queries give the candidate keys in order, and each pass of `CardIndex.search` runs over
    them here as it runs over the joined string there (the same matches, the same stop), so the
    answer is the same; only the cards of the keys looked at are read."""

    def __init__(self, database: CardDatabase, table: keyindex.KeyTable) -> None:
        self.database = database
        self.table = table
        self.memory: CardIndex | None = None  # after the table was found damaged

    def search(
        self,
        typed: str,
        wanted: Callable[[CardRecord], bool] | None = None,
        limit: int | None = None,
    ) -> list[tuple[int, Key]]:
        """As CardIndex.search; a damaged table is left for the keys in memory."""
        if self.memory is None:
            try:
                return self._search(typed, wanted, limit)
            except (keyindex.Damaged, sqlite3.Error):
                self.memory = CardIndex(self.database)
        return self.memory.search(typed, wanted, limit)

    def _search(
        self, typed: str, wanted: Callable[[CardRecord], bool] | None, limit: int | None
    ) -> list[tuple[int, Key]]:
        query = normalize(typed)
        letters = [ch for ch in query if not ch.isspace()]
        found: dict[int, int] = {}
        rows: dict[int, keyindex.Row] = {}
        fits: dict[str, bool] = {}

        def take(row: keyindex.Row, rank: int) -> bool:
            """Rank a key; True once enough keys are in."""
            if found.get(row.no, 4) > rank:
                ok = fits.get(row.card_id)
                if ok is None:
                    ok = fits[row.card_id] = wanted is None or wanted(self.card(row))
                if ok:
                    found[row.no] = rank
                    rows[row.no] = row
            return len(found) >= LIMIT * 2

        for row in self.table.starting(query):
            if row.norm.startswith(query) and take(row, 0):
                break
        if query and len(found) < LIMIT:
            pattern = re.compile(re.escape(query))
            for row in self.table.containing(query):
                if any(
                    take(row, 0 if start == 0 else 1 if row.norm[start - 1] in _WORD_BREAKS else 2)
                    for start in (m.start() for m in pattern.finditer(row.norm))
                ):
                    break
        if len(letters) > 1 and len(found) < LIMIT:
            fuzzy = in_order(letters)
            for row in self.table.in_order(letters):
                if fuzzy.search("\n" + row.norm) and take(row, 3):
                    break
        chosen = sorted(
            found.items(), key=lambda item: (item[1], len(rows[item[0]].norm), rows[item[0]].norm)
        )
        return [(rank, self.key(rows[no])) for no, rank in chosen[:limit]]

    def card(self, row: keyindex.Row) -> CardRecord:
        return self.database.cards[row.card_id]

    def key(self, row: keyindex.Row) -> Key:
        return Key(row.shown, row.lang, self.card(row))
