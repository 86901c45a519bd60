"""What changed between two card databases (`varz-deck cards diff`, docs/guides/card-data.md): cards added,
removed and changed field by field, formats changed field by field, and the decks whose check
differs. Every comparison is over the records' JSON (`to_json`), so a field a game or a format
gains later is compared with no change here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

from varz_deck.core.messages.i18n import CardName, Term, msg

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.messages.diagnostics import Diagnostic

R = TypeVar("R")  # a record compared field by field: a card or a format

# Where a card was read from, not what it is: a card moved in its file has not changed.
PLACE_FIELDS = frozenset({"file", "line"})
MAX_DEPTH = 16  # nested mappings deeper than this are compared whole


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field whose value differs; `path` walks into mappings (("names", "ja")). A value
    missing on one side is None there."""

    path: tuple[str, ...]
    old: object
    new: object

    def to_json(self) -> dict[str, object]:
        return {"path": list(self.path), "old": self.old, "new": self.new}


@dataclass(frozen=True, slots=True)
class RecordChange:
    """A card (by id) or a format (by key) present on both sides, with the fields that differ."""

    key: str
    name: str
    fields: tuple[FieldChange, ...]


@dataclass(frozen=True, slots=True)
class Changes:
    """Keys only in the new side, only in the old one, and on both with different fields; each
    in key order."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[RecordChange, ...]

    @property
    def counts(self) -> tuple[int, int, int]:
        return len(self.added), len(self.removed), len(self.changed)


@dataclass(frozen=True, slots=True)
class DeckChange:
    """A deck whose check differs: both reports, and the diagnostics only one side has."""

    old: DeckReport
    new: DeckReport
    gone: tuple[Diagnostic, ...]  # diagnostics of the old check only
    came: tuple[Diagnostic, ...]  # diagnostics of the new check only

    @property
    def verdict_changed(self) -> bool:
        return self.old.legal != self.new.legal


@overload
def plain(value: Mapping[str, object]) -> dict[str, object]: ...
@overload
def plain(value: object) -> object: ...
def plain(value: object) -> object:
    """A JSON value with tuples as lists and mappings as dicts (what a diff and JSON compare)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def diff_values(old: object, new: object, path: tuple[str, ...] = ()) -> list[FieldChange]:
    """The fields that differ: mappings compared key by key (in key order), anything else whole."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict) and len(path) < MAX_DEPTH:
        found: list[FieldChange] = []
        for key in sorted(old.keys() | new.keys()):
            found.extend(diff_values(old.get(key), new.get(key), (*path, key)))
        return found
    return [FieldChange(path, old, new)]


def list_items(change: FieldChange) -> tuple[list[object], list[object]] | None:
    """For a list that changed by more than its order: (items added, items removed), each in
    its list's order; None when either side is not a list or only the order changed."""
    if not isinstance(change.old, list) or not isinstance(change.new, list):
        return None
    added = [v for v in change.new if v not in change.old]
    removed = [v for v in change.old if v not in change.new]
    return (added, removed) if added or removed else None


def card_fields(card: CardRecord) -> dict[str, object]:
    """A card's JSON, without where it was read from."""
    return {k: v for k, v in plain(card.to_json()).items() if k not in PLACE_FIELDS}


def format_fields(fmt: Format) -> dict[str, object]:
    """A format's JSON as formats.yaml writes it: the game's own fields beside the common ones."""
    data: dict[str, Any] = plain(fmt.to_json())  # Any: its "extra" is the dict to_json makes
    data.pop("key", None)
    extra = data.pop("extra", None)
    for key, value in (extra or {}).items():
        data.setdefault(key, value)
    return data


def _changes(
    old: Mapping[str, R],
    new: Mapping[str, R],
    fields: Callable[[R], dict[str, object]],
    name: Callable[[R], str],
) -> Changes:
    changed = []
    for key in sorted(old.keys() & new.keys()):
        found = diff_values(fields(old[key]), fields(new[key]))
        if found:
            changed.append(RecordChange(key, name(new[key]), tuple(found)))
    return Changes(
        tuple(sorted(new.keys() - old.keys())),
        tuple(sorted(old.keys() - new.keys())),
        tuple(changed),
    )


def diff_cards(old: CardDatabase[CardT], new: CardDatabase[CardT]) -> Changes:
    """Cards by id: added, removed, and changed field by field (errata, names in every language)."""
    return _changes(old.cards, new.cards, card_fields, lambda card: str(card.name))


def diff_formats(old: CardDatabase[CardT], new: CardDatabase[CardT]) -> Changes:
    """Formats by key: added, removed, and changed field by field (bans, sets, dated changes)."""
    return _changes(old.formats, new.formats, format_fields, lambda fmt: str(fmt.name))


def diff_reports(old: Sequence[DeckReport], new: Sequence[DeckReport]) -> list[DeckChange]:
    """The decks (checked in the same order on both sides) whose verdict or diagnostics differ."""
    found = []
    for before, after in zip(old, new, strict=True):
        gone = tuple(d for d in before.diagnostics if d not in after.diagnostics)
        came = tuple(d for d in after.diagnostics if d not in before.diagnostics)
        if gone or came or before.legal != after.legal:
            found.append(DeckChange(before, after, gone, came))
    return found


def relative_file(card: CardRecord, root: Path) -> str:
    """The card's file as a path under its database's folder (as written when it is not)."""
    file = str(getattr(card, "file", "") or "")
    try:
        return Path(file).relative_to(root).as_posix()
    except ValueError:
        return file


# --------------------------------------------------------------------------- the report

_HEAD = msg("carddiff", "{old} → {new}")
_CARDS = msg("carddiff", "cards: {added} added, {removed} removed, {changed} changed")
_FORMATS = msg("carddiff", "formats: {added} added, {removed} removed, {changed} changed")
_DECKS = msg(
    "carddiff", "decks on {date}: {changed} of {total} changed, {verdicts} changed verdict"
)
_CARD = msg("carddiff", "{id} {name} ({file})")
_FORMAT = msg("carddiff", "{key} ({name})")
_LEGAL = msg("carddiff", "legal")
_ILLEGAL = msg("carddiff", "illegal")
_DECK = msg("carddiff", "{path}: {old} → {new}")
_FIELD = msg("carddiff", "{field}: {old} → {new}")
_ABSENT = msg("carddiff", "{folder} did not exist at {rev}: every card is new")


@dataclass(frozen=True)
class DatabaseDiff:
    """Everything `cards diff` found: the two databases, their labels, and the changes."""

    old: CardDatabase
    new: CardDatabase
    old_label: str
    new_label: str
    old_root: Path
    new_root: Path
    cards: Changes
    formats: Changes
    decks: tuple[DeckChange, ...] = ()
    checked: int = 0  # decks checked
    git: str | None = None
    date: str | None = None  # --date as given (JSON's "date"); None for today
    day: str = ""  # the day the decks were checked as of, --date's or today's

    @property
    def verdicts_changed(self) -> int:
        return sum(1 for d in self.decks if d.verdict_changed)


def diff_databases(
    old: CardDatabase,
    new: CardDatabase,
    labels: tuple[str, str],
    roots: tuple[Path, Path],
    reports: tuple[Sequence[DeckReport], Sequence[DeckReport]] = ((), ()),
    *,
    git: str | None = None,
    date: str | None = None,
    day: str,
) -> DatabaseDiff:
    """The whole comparison (`reports`: the same decks checked against old, then new, on
    `day`; `date`: --date as given)."""
    return DatabaseDiff(
        old,
        new,
        labels[0],
        labels[1],
        roots[0],
        roots[1],
        diff_cards(old, new),
        diff_formats(old, new),
        tuple(diff_reports(*reports)),
        len(reports[0]),
        git,
        date,
        day,
    )


def _value(value: object) -> str:
    from varz_deck.core.messages.sanitize import json_dumps

    return json_dumps(value, indent=None)


def _name(key: str, found: DatabaseDiff, lang: str) -> str | None:
    """The name of the card an id names, on either side, in the language; None for no card."""
    card = found.new.cards.get(key) or found.old.cards.get(key)
    return None if card is None else CardName.of(card).in_language(lang)


def _item(value: object, found: DatabaseDiff, lang: str, depth: int = 0) -> str:
    """A list item as formats.yaml writes it: text as written (a card id with its name), a
    mapping as `{key: value, ...}` without its empty values, a list as `[a, b]`."""
    from varz_deck.core.messages.sanitize import safe

    if isinstance(value, str):
        name = _name(value, found, lang)
        return safe(value) if name is None else f"{safe(value)} {safe(name)}"
    if depth >= MAX_DEPTH or not isinstance(value, (dict, list)):
        return _value(value)
    if isinstance(value, list):
        return "[" + ", ".join(_item(v, found, lang, depth + 1) for v in value) + "]"
    shown = [
        f"{safe(k)}: {_item(v, found, lang, depth + 1)}"
        for k, v in value.items()
        if v not in (None, [], {})
    ]
    return "{" + ", ".join(shown) + "}"


def _field_lines(change: FieldChange, found: DatabaseDiff, lang: str) -> list[str]:
    """One line for a field (`cost: 1 → 2`; `banned: + A, - B` for a list); a list of mappings
    (dated changes) gets a line per item added or removed, under the field's name."""
    from varz_deck.core.messages.sanitize import safe

    field = ".".join(change.path)
    name = _name(change.path[-1], found, lang) if len(change.path) > 1 else None
    if name is not None:  # a mapping keyed by card id (restrictions): the card's name too
        field = f"{field} {name}"
    items = list_items(change)
    if items is None:
        return [_FIELD(field=field, old=_value(change.old), new=_value(change.new)).render(lang)]
    added, removed = items
    marks = [f"+ {_item(v, found, lang)}" for v in added]
    marks += [f"- {_item(v, found, lang)}" for v in removed]
    if any(isinstance(v, dict) for v in (*added, *removed)):
        return [f"{safe(field)}:", *(f"  {mark}" for mark in marks)]
    return [f"{safe(field)}: {', '.join(marks)}"]


def _diagnostic_line(d: Diagnostic, lang: str) -> str:
    from varz_deck.core.messages.i18n import localized, term
    from varz_deck.core.messages.sanitize import safe

    place = safe(d.file or "") + (f":{d.line}:{d.column or 1}" if d.line else "")
    severity = term("severity", d.severity.value, lang)
    return f"{place}: {d.code} {severity}: {safe(localized(d, lang))}"


def render_text(
    found: DatabaseDiff, lang: str = "en", absent: bool = False, width: int | None = None
) -> str:
    """What a maintainer reads in a pull request: counts, then each change, grouped. With a
    width (a terminal's), a longer line wraps by words, its next lines hanging further in."""
    lines = [_HEAD(old=found.old_label, new=found.new_label).render(lang)]
    if absent:
        lines.append(_ABSENT(folder=found.new_label, rev=found.git or "").render(lang))
    cards = found.cards
    added, removed, changed = cards.counts
    lines.append(_CARDS(added=added, removed=removed, changed=changed).render(lang))

    def card_head(mark: str, key: str, db: CardDatabase, root: Path) -> str:
        card = db.cards[key]
        shown = CardName.of(card, quote=False)
        line = _CARD(id=key, name=shown, file=relative_file(card, root)).render(lang)
        return f"  {mark} {line}"

    lines += [card_head("+", key, found.new, found.new_root) for key in cards.added]
    lines += [card_head("-", key, found.old, found.old_root) for key in cards.removed]
    for change in cards.changed:
        lines.append(card_head("~", change.key, found.new, found.new_root))
        lines += [f"      {line}" for f in change.fields for line in _field_lines(f, found, lang)]
    formats = found.formats
    added, removed, changed = formats.counts
    lines.append(_FORMATS(added=added, removed=removed, changed=changed).render(lang))

    def format_head(mark: str, fmt: Format) -> str:
        name = Term("format", str(fmt.name))
        return f"  {mark} {_FORMAT(key=fmt.key, name=name).render(lang)}"

    lines += [format_head("+", found.new.formats[key]) for key in formats.added]
    lines += [format_head("-", found.old.formats[key]) for key in formats.removed]
    for change in formats.changed:
        lines.append(format_head("~", found.new.formats[change.key]))
        lines += [f"      {line}" for f in change.fields for line in _field_lines(f, found, lang)]
    if found.checked:
        counts = {"changed": len(found.decks), "total": found.checked, "date": found.day}
        lines.append(_DECKS(**counts, verdicts=found.verdicts_changed).render(lang))
    for deck in found.decks:
        mark = "✓" if deck.new.legal else "✗"
        old = _LEGAL if deck.old.legal else _ILLEGAL
        new = _LEGAL if deck.new.legal else _ILLEGAL
        lines.append(f"  {mark} {_DECK(path=deck.new.path, old=old, new=new).render(lang)}")
        lines += [f"      - {_diagnostic_line(d, lang)}" for d in deck.gone]
        lines += [f"      + {_diagnostic_line(d, lang)}" for d in deck.came]
    if width is None:
        return "\n".join(lines) + "\n"
    return _wrapped(lines, width)


def _wrapped(lines: list[str], width: int) -> str:
    from rich.text import Text

    from varz_deck.core.report.text import _console, _print

    console = _console(False, width)
    for line in lines:
        text = line.lstrip(" ")
        _print(console, Text(text), len(line) - len(text))
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def render_json(found: DatabaseDiff, lang: str = "en") -> str:
    """The `cards diff --output json` document (version 1; its shape is in the command's help)."""
    from varz_deck import __version__
    from varz_deck.core.report import json_document

    def card(key: str, db: CardDatabase, root: Path) -> dict[str, object]:
        record = db.cards[key]
        return {**card_fields(record), "file": relative_file(record, root)}

    def changed_card(change: RecordChange) -> dict[str, object]:
        record = found.new.cards[change.key]
        return {
            "id": change.key,
            "name": change.name,
            "file": relative_file(record, found.new_root),
            "fields": [f.to_json() for f in change.fields],
        }

    def fmt(key: str, db: CardDatabase) -> dict[str, object]:
        return {"key": key, **format_fields(db.formats[key])}

    def changed_format(change: RecordChange) -> dict[str, object]:
        fields = [f.to_json() for f in change.fields]
        return {"key": change.key, "name": change.name, "fields": fields}

    decks = [
        {
            "path": deck.new.path,
            "verdict_changed": deck.verdict_changed,
            "old": deck.old.to_json(lang),
            "new": deck.new.to_json(lang),
        }
        for deck in found.decks
    ]
    cards, formats = found.cards, found.formats
    summary = {
        "cards_added": len(cards.added),
        "cards_removed": len(cards.removed),
        "cards_changed": len(cards.changed),
        "formats_added": len(formats.added),
        "formats_removed": len(formats.removed),
        "formats_changed": len(formats.changed),
        "decks": found.checked,
        "decks_changed": len(found.decks),
        "verdicts_changed": found.verdicts_changed,
    }
    document = {
        "version": 1,
        "tool": f"varz-deck {__version__}",
        "old": found.old_label,
        "new": found.new_label,
        "git": found.git,
        "date": found.date,
        "cards": {
            "added": [card(k, found.new, found.new_root) for k in cards.added],
            "removed": [card(k, found.old, found.old_root) for k in cards.removed],
            "changed": [changed_card(c) for c in cards.changed],
        },
        "formats": {
            "added": [fmt(k, found.new) for k in formats.added],
            "removed": [fmt(k, found.old) for k in formats.removed],
            "changed": [changed_format(c) for c in formats.changed],
        },
        "decks": decks,
        "summary": summary,
    }
    return json_document(document)
