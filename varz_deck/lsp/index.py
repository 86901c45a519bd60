"""The card index completion searches: every name and id of a database's cards in one string,
searched with one regular expression in C, so a 10,000-card database answers within a few
milliseconds. Built once per database (varz_deck.lsp.library keeps it with the database)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from varz_deck.core.cards import normalize

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase

LIMIT = 50  # items per answer; the list is incomplete, so the editor asks again as you type
_WORD_BREAKS = frozenset(" -(/,.・")


@dataclass(frozen=True)
class Key:
    """One way to write a card: a name in a language, or its id."""

    shown: str
    lang: str  # "en", "ja", "zh", …, or "id"
    card: Any


class CardIndex:
    """Every name and id of a database's cards, for completion."""

    def __init__(self, database: CardDatabase) -> None:
        self.database = database
        keys: list[Key] = []
        seen: set[tuple[str, str]] = set()
        for card in database.cards.values():
            for lang, shown in (("en", card.name), *card.names.items(), ("id", card.id)):
                if (shown, card.id) not in seen and shown:
                    seen.add((shown, card.id))
                    keys.append(Key(shown, lang, card))
        self.keys = keys
        self.norm = [normalize(k.shown).replace("\n", " ") for k in keys]
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
        self, typed: str, wanted: Callable[[Any], bool] | None = None
    ) -> list[tuple[int, Key]]:
        """(rank, key) of the keys that match what was typed, best first; `wanted(card)` keeps
        only the cards that fit the place. Each pattern matches a whole line of the joined keys
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
            fuzzy = re.escape(letters[0]) + "".join(
                f"[^{re.escape(ch)}\n]*{re.escape(ch)}" for ch in letters[1:]
            )
            for match in re.finditer(fuzzy, self.joined):
                take(self._line(match.start()), 3)
                if len(found) >= LIMIT * 2:
                    break
        chosen = sorted(
            found.items(), key=lambda item: (item[1], len(self.norm[item[0]]), self.norm[item[0]])
        )
        return [(rank, self.keys[i]) for i, rank in chosen]
