"""One card file's own part of `cards lint`, which depends only on its bytes (and the game), and
its text form for the lint store (core/lint/lintstore.py).

The text leaves the file's path out (a diagnostic's `file` is filled in when read back, an entry's
and its card's are the path read under), so a renamed or moved file is a hit. Its head is the
diagnostics and each entry's summary (what the whole-database checks choose their groups by);
each entry is a line of its own, read and decoded only when a check needs it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from varz_deck.core.cards.formats import set_release
from varz_deck.core.cards.model import normalize
from varz_deck.core.files.source import LoadError, decode
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load
from varz_deck.core.lint import cards, schema
from varz_deck.core.lint._base import CardFile, Entry, Release, duplicate_keys, entries
from varz_deck.core.messages.diagnostics import (
    Diagnostic,
    Mark,
    Unencodable,
    diag,
    from_tagged,
    to_tagged,
)

if TYPE_CHECKING:
    from varz_deck.core.lint._base import LintedGame
    from varz_deck.core.messages.rulebook import Rule

# What the whole-database checks look at of an entry, as JSON has it: its id, its file's set code,
# and of its card (None without one) the id, identity, name, set and each name normalised.
Summary = list[Any]


class FileLint:
    """A card file's diagnostics and entries. Read from the store, an entry is decoded when a
    check first asks for it: `line(i)` gives its JSON (None when it cannot), `again()` every
    entry of the file checked again."""

    __slots__ = (
        "_again", "_entries", "_line", "_lines", "game", "problems", "release", "shown", "summaries"
    )  # fmt: skip

    def __init__(
        self,
        problems: list[Diagnostic],
        summaries: list[Summary],
        shown: str,
        game: LintedGame,
        found: list[Entry] | None = None,
        line: Callable[[int], str | None] | None = None,
        again: Callable[[], list[Entry]] | None = None,
        lines: Callable[[int], list[str] | None] | None = None,
        release: Release | None = None,
    ) -> None:
        self.problems, self.summaries, self.shown, self.game = problems, summaries, shown, game
        self.release = (
            release  # the set code and release day of the file's `set:` (docs/guides/card-data.md)
        )
        self._entries: list[Entry | None] = (
            list(found) if found is not None else [None] * len(summaries)
        )
        self._line, self._again, self._lines = line, again, lines

    def entry(self, i: int) -> Entry:
        made = self._entries[i]
        if made is None:
            assert self._line is not None and self._again is not None
            text = self._line(i)
            if text is None:
                self._entries = list(self._again())
                if len(self._entries) != len(self.summaries):
                    raise ValueError("a file checked again that does not fit its summaries")
                made = self._entries[i]
                assert made is not None
            else:
                made = self._entries[i] = _entry(json.loads(text), self.shown, self.game)
        return made

    def entries(self) -> list[Entry]:
        if self._lines is not None and None in self._entries:
            found = self._lines(len(self.summaries))  # one read for all, rather than one for each
            if found is not None:
                for i, text in enumerate(found):
                    if self._entries[i] is None:
                        self._entries[i] = _entry(json.loads(text), self.shown, self.game)
        return [self.entry(i) for i in range(len(self.summaries))]


def lint_file(
    content: bytes, shown: str, game: LintedGame, card_rules: list[Rule[CardFile]]
) -> FileLint | None:
    """A card file's own checks (F003, C001, the game's card rules, IN_FILE) and entries; None
    when it is no card file (no top-level `cards:`)."""
    try:
        doc = load(decode(content), aliases=True, node_cap=CARD_NODE_CAP)
    except LoadError as err:
        return FileLint([diag(err.code, err.message, err.mark, file=shown)], [], shown, game, [])
    if not (isinstance(doc.data, dict) and "cards" in doc.data):
        return None
    problems: list[Diagnostic] = list(duplicate_keys(doc, shown))
    card_found, bad_paths = schema.schema_violations(game.card_schema, doc, shown)
    problems.extend(card_found)
    view = CardFile(doc, shown, list(entries(doc, shown, bad_paths, game)), bad_paths)
    for rule in card_rules:
        problems.extend(rule.check(view))
    problems.extend(cards.IN_FILE.run(view))
    summaries = [summary(entry, game) for entry in view.entries]
    found = set_release(doc.data)
    release = None if found is None else Release(*found, doc.mark(("set", "released")))
    return FileLint(problems, summaries, shown, game, view.entries, release=release)


def summary(entry: Entry, game: LintedGame) -> Summary:
    card = entry.card
    if card is None:
        return [entry.id, entry.set_code, None, None, None, None, []]
    keys = [normalize(card.name), *(normalize(name) for name in card.names.values())]
    return [entry.id, entry.set_code, card.id, game.identity(card), card.name, card.set, keys]


# --------------------------------------------------------------------------- the store's text


def encode(result: FileLint | None) -> tuple[str, list[str]] | None:
    """The head and the entries' lines of a file's result without its path; None when they
    cannot be stored exactly (a value JSON does not give back as it is, see `exact`; or the path
    in a message). Diagnostics go through their tagged form (core/messages/diagnostics.py)."""
    if result is None:
        return "null", []
    shown = result.shown
    try:
        problems = []
        for problem in result.problems:
            if problem.file != shown:
                return None
            tagged = to_tagged(problem)
            tagged[3] = None  # the file: the path it is read under
            problems.append(tagged)
        release = result.release
        head_data = {
            "d": problems,
            "s": result.summaries,
            "r": None if release is None else _release_json(release),
        }
        if not exact(head_data):
            return None
        head = json.dumps(head_data, ensure_ascii=False)
        lines = []
        for entry in result.entries():
            marks = [[list(path), m.line, m.column] for path, m in entry.marks.items()]
            line = entry.card.line if entry.card is not None else None
            data = [entry.index, entry.raw, entry.set_code, marks, line]
            if not exact(data):
                return None
            lines.append(json.dumps(data, ensure_ascii=False))
    except (Unencodable, TypeError, ValueError, RecursionError):
        return None
    quoted = json.dumps(shown)[1:-1]
    for text in (head, *lines):
        if shown in text or quoted in text:
            return None
        try:
            text.encode("utf-8")  # a lone surrogate would not go into SQLite
        except UnicodeEncodeError:
            return None
    return head, lines


def decode_result(
    head: str,
    shown: str,
    game: LintedGame,
    line: Callable[[int], str | None],
    again: Callable[[], list[Entry]],
    lines: Callable[[int], list[str] | None] | None = None,
) -> FileLint | None:
    """The result encode() gave, read under the path `shown` (None: no card file); `line`,
    `again` and `lines` (given the number of entries) give them when first needed (FileLint)."""
    data = json.loads(head)
    if data is None:
        return None
    problems = [from_tagged(d, shown) for d in data["d"]]
    found = data["r"]
    release = None
    if found is not None:
        code, day, at_line, at_column = found
        mark = Mark(at_line, at_column) if at_line is not None else None
        release = Release(code, datetime.date.fromisoformat(day), mark)
    return FileLint(problems, data["s"], shown, game, None, line, again, lines, release)


def _release_json(release: Release) -> list[str | int | None]:
    mark = release.mark
    place = [mark.line, mark.column] if mark is not None else [None, None]
    return [release.code, release.day.isoformat(), *place]


def _entry(data: list[Any], shown: str, game: LintedGame) -> Entry:
    index, raw, set_code, marks, line = data
    card = game.make_card(raw, set_code, shown, line) if line is not None else None
    return Entry(
        shown, index, raw, set_code, card, {tuple(p): Mark(ln, col) for p, ln, col in marks}
    )


_SCALARS = frozenset({str, int, float, bool, type(None)})


def exact(value: object) -> bool:
    """Whether JSON gives the value back as it is, every part of the same type: str, int,
    float, bool, None, and lists and str-keyed dicts of those (no tuple, subclass or other key)."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is list:
        return all(map(exact, value))  # type: ignore[call-overload]
    if kind is dict:
        assert isinstance(value, dict)
        return all(type(key) is str for key in value) and all(map(exact, value.values()))
    return False
