"""What every game's deck file shares: entries ("COUNT NAME" or card: count), their sections,
and the one resolver every game uses: the format (F007), each reference (F005 unknown, F006
ambiguous, F008 misplaced) and a card listed twice in a section (F003, whose copies still count,
docs/guides/player.md). Each game's deck reader (its package's deck.py) builds on these."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from varz_deck.core.cards.formats import card_keys
from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format
from varz_deck.core.files.schemas import schema_diagnostics
from varz_deck.core.files.source import LoadError
from varz_deck.core.files.strictyaml import Document, is_whole, load
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, Joined, Message, Quoted, msg

MAX_COUNT = 99
# A deck's unknown references: the first SUGGESTED get "did you mean" (a search of every card
# name), the first LISTED a diagnostic each; one more says the rest are not listed. Lines that
# repeat a card (F003) are bounded the same way. Bounds the
# work a deck of thousands of unknown names costs; a real deck is far below both.
SUGGESTED_PER_DECK = 50
LISTED_PER_DECK = 200
MAX_COUNT_DIGITS = 12  # a longer count is out of range without converting it
# "3 Ember Imp", "3x Ember Imp", "3× Ember Imp": the multiplier is joined to the count, so
# "3 X Ronin" is three of the card "X Ronin"
_ITEM = re.compile(r"\s*([0-9]+)[xX×]?\s+(\S.*?)\s*")
NEUTRAL_FORMAT = Format("?", "unknown format")
_TOP_KEY = re.compile(r"^[\"']?([A-Za-z][A-Za-z _-]*?)[\"']?[ \t]*:", re.MULTILINE)


def top_level_words(text: str) -> set[str]:
    """The keys of a YAML deck's top mapping, or a text list's headers, lower-cased: what tells
    one game's deck file from another's (Game.owns_deck), without parsing the file."""
    return {" ".join(m.group(1).lower().split()) for m in _TOP_KEY.finditer(text)}


def looks_like_code(text: str, family: str) -> bool:
    """Whether text (a DECK argument, or a file's start) starts like a deck code of a game's
    family of codes: its letters ("VZ", "AZ"), then a version digit."""
    stripped = text.lstrip()
    return stripped.startswith(family) and stripped[len(family) : len(family) + 1].isdigit()


@dataclass(frozen=True)
class Entry:
    """One line of a section: a card reference and how many, with its place."""

    section: str
    ref: str
    count: int
    mark: Mark | None


class DeckDraft(Protocol):
    """What every game's deck has while the core's readers fill it in (YAML and plain text)."""

    path: str
    readable: bool
    format: str | None
    format_mark: Mark | None
    entries: dict[str, list[Entry]]
    section_marks: dict[str, Mark | None]
    uncounted: set[str]


def read_section(deck: DeckDraft, section: str, value: Any, doc: Document) -> list[Diagnostic]:
    """Fill deck.entries[section] from a mapping (card: count) or list ("COUNT NAME") value;
    `deck` is any game's deck with `entries`, `uncounted` and `path`."""
    problems: list[Diagnostic] = []
    entries = deck.entries[section]
    if isinstance(value, dict):
        for ref, count in value.items():
            if _is_count(count) and ref.strip():
                entries.append(
                    Entry(section, ref.strip(), int(count), doc.key_mark((section, ref)))
                )
            else:
                deck.uncounted.add(section)  # the schema already reported it
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if not isinstance(item, str):
                deck.uncounted.add(section)
                continue
            entry, problem = parse_item(section, item, doc.mark((section, i)), deck.path)
            if entry is not None:
                entries.append(entry)
            else:
                deck.uncounted.add(section)  # the schema reported its shape or its count
                if problem is not None and _ITEM.fullmatch(item):
                    problems.append(problem)  # a count out of range, said with the card's name
    elif value is not None:
        deck.uncounted.add(section)
    return problems


def _is_count(value: Any) -> bool:
    return is_whole(value) and 1 <= value <= MAX_COUNT


def parse_item(
    section: str, text: str, mark: Mark | None, shown: str, *, example: str = ""
) -> tuple[Entry | None, Diagnostic | None]:
    """A "COUNT NAME" item ("2 Ember Imp", "2x Ember Imp"); an unreadable one is F004, its hint
    showing the game's `example` line when given."""
    match = _ITEM.fullmatch(text)
    if match is None:
        unreadable = (
            msg("F004", 'cannot read {item}; write COUNT NAME, e.g. "{example}"')(
                item=Quoted(text), example=example
            )
            if example
            else msg("F004", "cannot read {item}; write COUNT NAME")(item=Quoted(text))
        )
        return None, diag(
            "F004",
            unreadable,
            mark,
            file=shown,
            section=section,
        )
    digits = match.group(1)
    count = int(digits) if len(digits) <= MAX_COUNT_DIGITS else None  # never int() 4,301+ digits
    if count is None or not 1 <= count <= MAX_COUNT:
        typed = f"{digits[:8]}…" if count is None else count
        return None, diag(
            "F004",
            msg("F004", "count {count} for {card}; a count is a whole number from 1 to {max}")(
                count=typed, card=Quoted(match.group(2)), max=MAX_COUNT
            ),
            mark,
            file=shown,
            section=section,
        )
    return Entry(section, " ".join(match.group(2).split()), count, mark), None


@dataclass
class Unknowns:
    """How many unknown references of one deck were met so far (see SUGGESTED_PER_DECK)."""

    met: int = 0


def lookup_ref(
    ref: str,
    database: CardDatabase[CardT],
    mark: Mark | None,
    shown: str,
    section: str | None,
    unknowns: Unknowns | None = None,
) -> tuple[CardT | None, Diagnostic | None]:
    """The card a reference names, or F006 (ambiguous) or F005 (unknown, with "did you mean");
    with `unknowns` (the deck's count), past LISTED_PER_DECK unknown cards nothing is said."""
    found = database.lookup(ref)
    if len(found) == 1:
        return found[0], None
    if found:
        options = Joined(
            tuple(Message("", "{id} {card}")(id=c.id, card=Quoted(c.name)) for c in found), "; "
        )
        return None, diag(
            "F006",
            msg("F006", "{ref} can mean {n} different cards: {options}; use the id")(
                ref=Quoted(ref), n=len(found), options=options
            ),
            mark,
            file=shown,
            section=section,
        )
    suggest = True
    if unknowns is not None:
        unknowns.met += 1
        if unknowns.met > LISTED_PER_DECK:
            if unknowns.met > LISTED_PER_DECK + 1:
                return None, None
            rest = msg(
                "F005",
                "unknown card {ref}; more than {count:,} cards of this deck are unknown, so the "
                "rest are not listed: is this a deck file, and the right card database?",
            )
            return None, diag(
                "F005",
                rest(ref=Quoted(ref), count=LISTED_PER_DECK),
                mark,
                file=shown,
                section=section,
            )
        suggest = unknowns.met <= SUGGESTED_PER_DECK
    close = database.suggestions(ref) if suggest else []
    message = (
        msg("F005", "unknown card {ref}; did you mean {names}?")(
            ref=Quoted(ref), names=Joined(tuple(Quoted(c) for c in close), " or ")
        )
        if close
        else msg("F005", "unknown card {ref}; check the spelling or use the card id")(
            ref=Quoted(ref)
        )
    )
    return None, diag("F005", message, mark, file=shown, section=section)


def open_deck_yaml(
    text: str, deck: DeckDraft, sections: tuple[str, ...], empty: Message
) -> tuple[Document | None, list[Diagnostic]]:
    """A deck file's YAML document, or None: with F002 (unreadable), F003 (a key given twice;
    the repeat is not counted) and F004 (an empty file) for the deck at `deck.path`."""
    shown = deck.path
    try:
        doc = load(text)
    except LoadError as err:
        deck.readable = False
        return None, [diag(err.code, err.message, err.mark, file=shown)]
    problems: list[Diagnostic] = []
    for dup in doc.duplicates:
        section = dup.path[0] if len(dup.path) == 1 and dup.path[0] in sections else None
        template = (
            msg("F003", "card {key} is listed twice (first at line {line}); keep one line")
            if section
            else msg("F003", "key {key} is given twice (first at line {line}); keep one line")
        )
        problems.append(
            diag(
                "F003",
                template(key=Quoted(dup.key), line=dup.first.line),
                dup.second,
                file=shown,
                section=str(section) if section else None,
            )
        )
        if section:
            deck.uncounted.add(str(section))
    if doc.data is None:
        deck.readable = False
        problems.append(diag("F004", empty, file=shown))
        return None, problems
    return doc, problems


@dataclass(frozen=True)
class Slot(Generic[CardT]):
    """An entry and the printing it names (None when unknown, ambiguous or misplaced)."""

    entry: Entry
    card: CardT | None


def resolve_format(
    database: CardDatabase,
    format_key: str | None,
    written: str | None,
    mark: Mark | None,
    shown: str,
    date: datetime.date,
) -> tuple[Format, bool, list[Diagnostic]]:
    """The deck's format (an option given here wins over the file's; default standard) as in
    force on `date` (an id in its lists names every printing of its card), whether
    the database knows it, and F007 when it does not
    (placed at the file's `format:`)."""
    key = format_key or written or "standard"
    found = database.formats.get(key)
    if found is not None:
        return found.on(date, card_keys(database)), True, []
    problem = diag(
        "F007",
        msg("F007", "unknown format {format}; this card database has: {known}")(
            format=Quoted(key), known=Joined(tuple(sorted(database.formats)))
        ),
        mark if format_key is None else None,
        file=shown,
    )
    return NEUTRAL_FORMAT, False, [problem]


Misplaced = Callable[[CardRecord, Entry], "Diagnostic | None"]


def resolve_sections(
    entries: Mapping[str, Iterable[Entry]],
    database: CardDatabase[CardT],
    shown: str,
    misplaced: Misplaced,
    section_name: Callable[[str], object] = str,
) -> tuple[dict[str, tuple[Slot[CardT], ...]], list[Diagnostic]]:
    """Look up every entry of every section: F005/F006 for a reference that names no single
    card, `misplaced(card, entry)` (the game's F008) for a card that belongs elsewhere, and F003
    for a card listed again in its section, whose copies still count toward the section's size
    and every copy limit (docs/guides/player.md). Unknown and misplaced cards stay in their section with no
    card, so they count toward its size too (docs/reference/rules/: one problem, one diagnostic)."""
    problems: list[Diagnostic] = []
    slots: dict[str, tuple[Slot[CardT], ...]] = {}
    unknowns = Unknowns()
    repeats = 0
    entries = {section: tuple(listed) for section, listed in entries.items()}
    database.prefetch([entry.ref for listed in entries.values() for entry in listed])
    for section, listed in entries.items():
        resolved: list[Slot[CardT]] = []
        placed: dict[str, list[tuple[Entry, str | None]]] = {}
        for entry in listed:
            card, problem = lookup_ref(entry.ref, database, entry.mark, shown, section, unknowns)
            if problem is not None:
                problems.append(problem)
            elif card is not None:
                wrong = misplaced(card, entry)
                if wrong is not None:
                    problems.append(wrong)
                    card = None
                else:
                    printing = card.id if database.by_id(entry.ref) is not None else None
                    before = placed.setdefault(database.card_key(card), [])
                    first = _overlapping(before, printing)
                    if first is not None:
                        repeats += 1
                        if repeats <= LISTED_PER_DECK:
                            problems.append(
                                listed_twice(card, entry, first, section_name(section), shown)
                            )
                        elif repeats == LISTED_PER_DECK + 1:
                            problems.append(
                                _rest_not_listed(card, entry, section_name(section), shown)
                            )
                    else:
                        before.append((entry, printing))
            resolved.append(Slot(entry, card))
        slots[section] = tuple(resolved)
    return slots, problems


def _overlapping(before: list[tuple[Entry, str | None]], printing: str | None) -> Entry | None:
    """The first earlier line of the same card that this one repeats: an id names one printing,
    a name every printing (None), so two lines overlap unless both name different printings by
    id. The same rule whatever the width, the case or the order the printings load in."""
    for entry, other in before:
        if printing is None or other is None or other == printing:
            return entry
    return None


def _rest_not_listed(card: CardRecord, entry: Entry, section: object, shown: str) -> Diagnostic:
    """The F003 after LISTED_PER_DECK repeats: the rest of the deck's repeats are not listed
    (their copies still count), so a deck of thousands of repeated lines gets a short answer."""
    template = msg(
        "F003",
        "{card} is listed again in {section}; more than {count:,} lines of this deck repeat a "
        "card listed above, so the rest are not listed: list each card once, with its total count",
    )
    return diag(
        "F003",
        template(card=CardName.of(card), section=section, count=LISTED_PER_DECK),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )


def listed_twice(
    card: CardRecord, entry: Entry, first: Entry, section: object, shown: str
) -> Diagnostic:
    """F003 for a card listed again in a section, placed at the repeat, naming the first (its
    copies still count: docs/guides/player.md)."""
    template = (
        msg(
            "F003",
            "{card} is listed twice in {section} (also at line {line} as {ref}); "
            "list it once with the total count",
        )
        if first.mark
        else msg(
            "F003",
            "{card} is listed twice in {section} (also above as {ref}); "
            "list it once with the total count",
        )
    )
    return diag(
        "F003",
        template(
            card=CardName.of(card),
            section=section,
            line=first.mark.line if first.mark else 0,
            ref=Quoted(first.ref),
        ),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )


_META_KEYS = ("name", "player", "event", "format")


def read_yaml_deck(
    text: str,
    deck: DeckDraft,
    *,
    schema: str,
    slots: tuple[str, ...],
    sections: tuple[str, ...],
    empty: Message,
) -> tuple[Document | None, dict[str, Any] | None, list[Diagnostic]]:
    """The parts of a YAML deck every game shares: the document (F002–F004 and the game's deck
    schema), name/player/event/format, and the sections' entries. Returns the document and the
    data (references as typed) so the game can read its single-card slots (the lead card's and any other)."""
    doc, problems = open_deck_yaml(text, deck, sections, empty)
    if doc is None:
        return None, None, problems
    data: Any = doc.data
    if isinstance(data, dict):  # card references and names as typed (`lead: 1.10` stays "1.10")
        data = dict(data)
        for key in (*slots, *_META_KEYS):
            if key in data and data[key] is not None:
                data[key] = doc.text((key,), data[key])
        for section in sections:
            items = data.get(section)
            if isinstance(items, list):
                data[section] = [doc.text((section, i), item) for i, item in enumerate(items)]
    problems.extend(
        schema_diagnostics(
            schema,
            data,
            doc,
            "F004",
            file=deck.path,
            what=msg("schema", "a deck"),
            sections=sections,
        )
    )
    if not isinstance(data, dict):
        deck.readable = False
        return doc, None, problems
    for key in ("name", "player", "event"):
        if isinstance(data.get(key), str):
            setattr(deck, key, data[key])
    if "format" in data:
        deck.format = data["format"] if isinstance(data["format"], str) else None
        deck.format_mark = doc.mark(("format",))
    for section in sections:
        if section in data:
            deck.section_marks[section] = doc.key_mark((section,))
            found = read_section(deck, section, data[section], doc)
            said = {(d.line, d.column) for d in found}  # the schema's F004 there says less
            problems = [p for p in problems if p.code != "F004" or (p.line, p.column) not in said]
            problems.extend(found)
    return doc, data, problems


@dataclass(frozen=True)
class ListWords:
    """A game's words in a plain-text list (docs/guides/player.md): section headers (lower case, one space)
    to sections, its single-card slots, the F004 message for a line outside a section, and a
    card line of the game the F004 for an unreadable line shows (none: the hint names no card)."""

    sections: Mapping[str, str]
    slots: tuple[str, ...]
    outside: Message
    # slot, reference (None: nothing after the colon), the value's place, the header's place
    set_slot: Callable[[Any, str, str | None, Mark, Mark], None]
    example: str = ""
    headers: object = ""  # the section headers `outside` may name ("Crew: or Currents:")

    @property
    def fields(self) -> tuple[str, ...]:
        return (*self.slots, "format", "name", "player", "event")


def parse_text(text: str, deck: DeckDraft, words: ListWords) -> list[Diagnostic]:
    """Fill any game's deck from a plain-text list (docs/guides/player.md): `Header:` lines (a section, a
    slot, or format/name/player/event), then COUNT NAME lines; `#` starts a comment."""
    problems: list[Diagnostic] = []
    section: str | None = None
    seen_fields: dict[str, int] = {}
    fields = words.fields
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw) if "#" in raw else raw
        left = line.lstrip()
        if not left:
            continue
        mark = Mark(number, len(line) - len(left) + 1)
        stripped = left.rstrip()
        head, sep, rest = stripped.partition(":")
        word = " ".join(head.lower().split()) if sep and not stripped[0].isdigit() else ""
        if word and (word in words.sections or word in fields):
            rest = rest.strip()
            if word in words.sections:
                section = words.sections[word]
                deck.section_marks.setdefault(section, mark)
                if rest:
                    entry, problem = parse_item(
                        section,
                        rest,
                        Mark(number, line.index(rest) + 1),
                        deck.path,
                        example=words.example,
                    )
                    _add(deck, section, entry, problem, problems)
                continue
            value_mark = Mark(number, line.index(rest) + 1) if rest else mark
            first = seen_fields.get(word)
            if first is not None:
                problems.append(
                    diag(
                        "F003",
                        msg("F003", "{key}: is given twice (first at line {line}); keep one line")(
                            key=head.strip(), line=first
                        ),
                        mark,
                        file=deck.path,
                    )
                )
                continue
            seen_fields[word] = number
            if word in words.slots:
                words.set_slot(deck, word, rest or None, value_mark, mark)
            elif word == "format":
                deck.format, deck.format_mark = (rest or None), value_mark
            else:
                setattr(deck, word, rest or None)
            continue
        if section is None:
            problems.append(
                diag(
                    "F004",
                    words.outside(line=Quoted(stripped), headers=words.headers),
                    mark,
                    file=deck.path,
                )
            )
            continue
        entry, problem = parse_item(section, stripped, mark, deck.path, example=words.example)
        _add(deck, section, entry, problem, problems)
    return problems


def _add(
    deck: DeckDraft,
    section: str,
    entry: Entry | None,
    problem: Diagnostic | None,
    problems: list[Diagnostic],
) -> None:
    if entry is not None:
        deck.entries[section].append(entry)
    else:
        deck.uncounted.add(section)
        if problem is not None:
            problems.append(problem)


_COMMENT = re.compile(r"(^|\s)#")


def _strip_comment(line: str) -> str:
    """A line without its comment: `#` at the start or after white space."""
    match = _COMMENT.search(line)
    return line[: match.start()] if match else line
