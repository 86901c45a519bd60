"""Where a card reference is on a line of a deck file, and what the line being typed needs.

The checkers read a whole file; an editor asks about one place, in a file that may be half
typed and not parse at all. These patterns read one line the way docs/guides/player.md writes entries: a slot
(`slot: Name`), a mapping entry (`  Name: 3`), a list item (`  - 3 Name`, `- 3x Name`) or a text
list's `3 Name` line, and give the reference's span (code points within the line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from varz_deck.core.decks.entries import MAX_COUNT

_COMMENT = re.compile(r"(^|\s)#")
_YAML_SLOT = re.compile(r"(?P<key>[A-Za-z_][A-Za-z_ ]*?)[ \t]*:[ \t]*(?P<rest>.*)")
_YAML_LIST = re.compile(
    r"(?P<lead>[ \t]*-[ \t]+)(?P<q>[\"']?)(?P<n>[0-9]+)[xX×]?[ \t]+(?P<ref>.*?)(?P=q)[ \t]*"
)
_YAML_MAP = re.compile(r"(?P<lead>[ \t]+)(?P<q>[\"']?)(?P<ref>[^ \t\"'-].*?|-[^ \t].*?)(?P=q)[ \t]*:[ \t]*(?P<n>[0-9]+)?[ \t]*")  # fmt: skip
_TEXT_ENTRY = re.compile(r"(?P<lead>[ \t]*)(?P<n>[0-9]+)[xX×]?[ \t]+(?P<ref>.*?)[ \t]*")
_TEXT_HEADER = re.compile(r"[ \t]*(?P<key>[A-Za-z][A-Za-z _]*?)[ \t]*:[ \t]*(?P<rest>.*)")
_TOP_KEY = re.compile(r"(?P<key>[A-Za-z_][A-Za-z_ ]*?)[ \t]*:")
_LIST_STYLE = re.compile(r"^[ \t]+-[ \t]+[\"']?[0-9]", re.MULTILINE)

# Plain YAML scalars that cannot start with these, or hold ": " / " #", need quotes.
_NEEDS_QUOTES = re.compile(r"^[-?:,\[\]{}#&*!|>'\"%@`\s]|: |\s#|:$|\s$")


def strip_comment(line: str) -> str:
    match = _COMMENT.search(line)
    return line[: match.start()] if match else line


@dataclass(frozen=True)
class Ref:
    """A card reference on one line: its text and span, its count (and span), its slot."""

    text: str
    start: int
    end: int
    count: int | None = None
    count_start: int = 0
    count_end: int = 0
    slot: str | None = None  # the key of a single-card slot (the lead card's, …)


def _unquote(value: str, start: int) -> tuple[str, int, int]:
    end = start + len(value)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1], start + 1, end - 1
    return value, start, end


def reference_on(line: str, yaml: bool, slots: Sequence[str]) -> Ref | None:
    """The card reference a deck line holds, if any."""
    body = strip_comment(line).rstrip()
    if yaml:
        if not body[:1].isspace():
            match = _YAML_SLOT.fullmatch(body)
            if match and match.group("key").lower() in slots and match.group("rest"):
                text, start, end = _unquote(match.group("rest"), match.start("rest"))
                return Ref(text, start, end, slot=match.group("key").lower()) if text else None
            return None
        match = _YAML_LIST.fullmatch(body) or _YAML_MAP.fullmatch(body)
    else:
        header = _TEXT_HEADER.fullmatch(body)
        if header and header.group("key").strip().lower() in slots and header.group("rest"):
            rest = header.group("rest")
            return Ref(rest, header.start("rest"), header.start("rest") + len(rest),
                       slot=header.group("key").strip().lower())  # fmt: skip
        match = _TEXT_ENTRY.fullmatch(body)
    if match is None or not match.group("ref"):
        return None
    count = match.group("n")
    return Ref(
        match.group("ref"),
        match.start("ref"),
        match.end("ref"),
        int(count) if count else None,
        match.start("n") if count else 0,
        match.end("n") if count else 0,
    )


def section_of(
    lines: Sequence[str], number: int, yaml: bool, words: Mapping[str, str]
) -> str | None:
    """The section line `number` is in: the nearest header above it (YAML: a top-level key;
    a text list: a `Header:` line of one of the game's header words), or None."""
    for i in range(number - 1, -1, -1):
        line = strip_comment(lines[i])
        if not line.strip():
            continue
        if yaml:
            if line[:1].isspace() or line.startswith("-"):
                continue
            match = _TOP_KEY.match(line)
            return words.get(match.group("key").strip().lower()) if match else None
        match = _TEXT_HEADER.fullmatch(line.rstrip())
        if match and _word(match) in words:
            return words[_word(match)]
    return None


def _word(header: re.Match[str]) -> str:
    """A header's word as the game names it: lower case, single spaces."""
    return " ".join(header.group("key").lower().split())


# A line `section_of` can stop at (YAML: a top-level line; a text list: a `Word:` line), at the
# start of the text or after a line break: searched for led by the break, as fast as a search goes
_HEADER_BODY = {True: r"[^\s#-]", False: r"[ \t]*(?P<key>[A-Za-z][A-Za-z _]*?)[ \t]*:"}
_HEADER = {yaml: re.compile(body) for yaml, body in _HEADER_BODY.items()}
_HEADER_AFTER = {
    yaml: [re.compile(brk + body) for brk in ("\n", "\r")] for yaml, body in _HEADER_BODY.items()
}


def header_line(text: str, end: int, yaml: bool, words: Mapping[str, str]) -> int | None:
    """Where the line `section_of` stops at above offset `end` starts (YAML: the last top-level
    line; a text list: the last `Word:` line of one of the game's header words), found in the
    text at once rather than line by line up the thousands of entries a section may hold."""
    found = {m.start() + 1: m for p in _HEADER_AFTER[yaml] for m in p.finditer(text, 0, end)}
    first = _HEADER[yaml].match(text, 0, end)
    if first is not None:
        found[0] = first
    for at in sorted(found, reverse=True):
        if yaml or _word(found[at]) in words:
            return at
    return None


def list_style(text: str) -> bool:
    """Whether a YAML deck writes its sections as lists ("- 3 Name") rather than mappings."""
    return bool(_LIST_STYLE.search(text))


def yaml_key(name: str) -> str:
    """A card name as a YAML scalar: quoted when plain style would read it otherwise."""
    if _NEEDS_QUOTES.search(name):
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return name


@dataclass(frozen=True)
class Typing:
    """What the line before the cursor asks to complete: the typed text and where it starts,
    the slot (single card) or the section, and how an entry is written there."""

    typed: str
    start: int  # code-point column where the replaced text starts
    slot: str | None
    section: str | None
    template: str  # "{name}" with the count and markers the file's style needs


_PARTIAL_LIST = re.compile(r"(?P<lead>[ \t]*-[ \t]+)(?P<typed>[^0-9 \t].*)?")
_PARTIAL_LIST_COUNT = re.compile(r"(?P<lead>[ \t]*-[ \t]+[\"']?[0-9]+[xX×]?[ \t]+)(?P<typed>.*)")
_PARTIAL_MAP = re.compile(r"(?P<lead>[ \t]+)(?P<typed>[^ \t\-:#][^:#]*)?")
_PARTIAL_TEXT_COUNT = re.compile(r"(?P<lead>[ \t]*[0-9]+[xX×]?[ \t]+)(?P<typed>.*)")
_PARTIAL_TEXT = re.compile(r"(?P<lead>[ \t]*)(?P<typed>[^0-9 \t:#][^:#]*)")  # fmt: skip


def typing_at(
    lines: Sequence[str],
    number: int,
    column: int,
    *,
    yaml: bool,
    slots: Sequence[str],
    words: Mapping[str, str],
    listed: bool,
) -> Typing | None:
    """What to complete at (line, code-point column), or None where no card reference goes."""
    before = lines[number][:column] if number < len(lines) else ""
    if "#" in before and _COMMENT.search(before):
        return None
    header = (_YAML_SLOT if yaml else _TEXT_HEADER).fullmatch(before)
    if header is not None and (not yaml or not before[:1].isspace()):
        key = " ".join(header.group("key").lower().split())
        if key in slots:
            return Typing(header.group("rest"), header.start("rest"), key, None, "{name}")
        if yaml or key in words or ":" in header.group("rest"):
            return None
    section = section_of(lines, number, yaml, words)
    if section is None:
        return None
    if yaml:
        counted = _PARTIAL_LIST_COUNT.fullmatch(before)
        if counted:
            return Typing(counted.group("typed"), counted.start("typed"), None, section, "{name}")
        dashed = _PARTIAL_LIST.fullmatch(before)
        if dashed:
            start = dashed.end("lead")
            return Typing(dashed.group("typed") or "", start, None, section, "1 {name}")
        mapped = _PARTIAL_MAP.fullmatch(before)
        if mapped:
            start = mapped.end("lead")
            template = "- 1 {name}" if listed else "{key}: 1"
            return Typing(mapped.group("typed") or "", start, None, section, template)
        return None
    counted = _PARTIAL_TEXT_COUNT.fullmatch(before)
    if counted:
        return Typing(counted.group("typed"), counted.start("typed"), None, section, "{name}")
    plain = _PARTIAL_TEXT.fullmatch(before)
    if plain or not before.strip():
        start = plain.start("typed") if plain else len(before)
        return Typing(plain.group("typed") if plain else "", start, None, section, "1 {name}")
    return None


def valid_count(count: int) -> bool:
    return 1 <= count <= MAX_COUNT
