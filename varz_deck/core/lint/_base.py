"""What the card-data checks look at: a card file's entries, the whole database, formats.yaml."""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from varz_deck.core.cards.model import CardModel
from varz_deck.core.files.strictyaml import Document, Path
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.filecodes import F003
from varz_deck.core.messages.i18n import Quoted, msg
from varz_deck.core.messages.rulebook import Rule


@dataclass(frozen=True)
class Entry:
    """One card mapping of a card file: its data, its places, and its Card if the schema passed.

    Only the places the cross-file checks point at are kept (the card, each of its fields, each
    translation), so the documents themselves can be dropped as soon as a file is done.
    """

    file: str
    index: int
    raw: dict[str, object]
    set_code: str | None
    card: LintedCard | None
    marks: dict[tuple[str | int, ...], Mark]

    @property
    def id(self) -> str | None:
        value = self.raw.get("id")
        return value if isinstance(value, str) else None

    def mark(self, *path: str | int) -> Mark:
        for end in range(len(path), -1, -1):
            found = self.marks.get(path[:end])
            if found is not None:
                return found
        return Mark(1, 1)

    def where(self) -> str:
        mark = self.mark("id") if self.id is not None else self.mark()
        return f"{self.file}:{mark.line}:{mark.column}"


@dataclass(frozen=True)
class CardFile:
    """One card file: its document, its entries, the schema paths C001 flagged."""

    doc: Document
    shown: str
    entries: list[Entry]
    bad_paths: set[Path]


@dataclass(frozen=True)
class Cards:
    """Every card file's entries, for the checks across files."""

    entries: list[Entry]
    game: LintedGame


@dataclass(frozen=True)
class FormatsFile:
    """formats.yaml, with what its checks need of the database's entries."""

    doc: Document
    shown: str
    known_sets: set[str]  # each entry's set code (its id's prefix when its file has none)
    ids: dict[str, str | None]  # each id -> the name of its first entry's card (None: no card)
    sets_of_name: dict[str, set[str]]  # each card name -> the sets of its printings
    cards: dict[str, str] | None = None  # each id -> the card it is a printing of (its identity)

    def card(self, card_id: str) -> str:
        """The card an id names: every printing of it together (the id itself when unknown)."""
        return (self.cards or {}).get(card_id) or card_id


class Release(NamedTuple):
    """A card file's `set:` code and `released:` day, and where the day is written."""

    code: str
    day: datetime.date
    mark: Mark | None


@dataclass(frozen=True)
class SetReleases:
    """Every card file's set release day, in file order: (the file as shown, its release)."""

    files: list[tuple[str, Release]]


def entries(doc: Document, shown: str, bad_paths: set[Path], game: LintedGame) -> Iterator[Entry]:
    """Every card mapping of a file; a Card for each one the schema accepted."""
    data = doc.data
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        return
    set_block = data.get("set")
    set_code = set_block.get("code") if isinstance(set_block, dict) else None
    set_code = set_code if isinstance(set_code, str) else None
    bad = {p[1] for p in bad_paths if len(p) >= 2 and p[0] == "cards"}
    if () in bad_paths or ("cards",) in bad_paths:
        bad = set(range(len(raw_cards)))
    placed = doc.marks
    for i, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            continue
        here = placed.get(("cards", i))
        card = None
        if i not in bad:
            line = (here or doc.mark(("cards", i)) or Mark(1, 1)).line
            card = game.make_card(raw, set_code, shown, line)
        marks: dict[tuple[str | int, ...], Mark] = {} if here is None else {(): here}
        for key in raw:
            mark = placed.get(("cards", i, key))
            if mark is not None:
                marks[(key,)] = mark
        names = raw.get("names")
        for lang in names if isinstance(names, dict) else ():
            mark = placed.get(("cards", i, "names", lang))
            if mark is not None:
                marks[("names", lang)] = mark
        yield Entry(shown, i, raw, set_code, card, marks)


def unique_cards(entries: list[Entry]) -> list[Entry]:
    """Entries with a valid card, the first printing of each id only."""
    seen: set[str] = set()
    out = []
    for entry in entries:
        if entry.card is not None and entry.card.id not in seen:
            seen.add(entry.card.id)
            out.append(entry)
    return out


def duplicate_keys(doc: Document, shown: str) -> Iterator[Diagnostic]:
    """F003: a key given twice in a card file or formats.yaml."""
    for dup in doc.duplicates:
        yield diag(
            F003,
            msg("F003", "key {key} is given twice (first at line {line}); keep one")(
                key=Quoted(dup.key), line=dup.first.line
            ),
            dup.second,
            file=shown,
        )


class LintedCard(Protocol):
    """A game's card as the checks read it: a CardRecord, which every game's card class derives
    from, with the line of its card file it was read from (each game's card has one)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def set(self) -> str: ...
    @property
    def names(self) -> Mapping[str, str]: ...
    @property
    def line(self) -> int: ...


class LintedGame(CardModel[Any], Protocol):
    """A game as `cards lint` and opening a database see it: its card model and its own checks
    of each card file (registered on a `Rulebook[CardFile]`, as the core's are)."""

    def card_rules(self) -> Mapping[str, Rule[CardFile]]: ...
