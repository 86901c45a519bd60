"""Reading VARZ deck files (YAML mapping or list form, plain-text lists) into a Deck, with F001–F004."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from varz_deck.core.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.entries import Entry, parse_item, read_yaml_deck, top_level_words
from varz_deck.core.i18n import Quoted, msg
from varz_deck.core.source import DECK_FILE_LIMIT, LoadError, read_text
from varz_deck.games.varz.cards import SECTIONS

_SECTION_WORDS = {
    "spells": "spells", "deck": "spells", "main deck": "spells", "spell deck": "spells",
    "skills": "skills", "skill deck": "skills",
    "portals": "portals", "portal deck": "portals",
}  # fmt: skip
_FIELD_WORDS = ("hero", "format", "name", "player", "event")
_OWN_WORDS = frozenset(
    {"hero", "spells", "skills", "portals", "spell deck", "skill deck", "portal deck"}
)


@dataclass
class Deck:
    """A deck as written, before its references are looked up."""

    path: str
    name: str | None = None
    format: str | None = None
    format_mark: Mark | None = None
    player: str | None = None
    event: str | None = None
    hero: str | None = None
    hero_mark: Mark | None = None
    hero_key_mark: Mark | None = None
    entries: dict[str, list[Entry]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    section_marks: dict[str, Mark | None] = field(default_factory=dict)
    uncounted: set[str] = field(default_factory=set)
    readable: bool = True

    def has_section(self, section: str) -> bool:
        return section in self.section_marks


def owns_deck(text: str) -> bool:
    """Whether a deck file's keys or headers are VARZ's (hero, spells, skills, portals)."""
    return bool(top_level_words(text) & _OWN_WORDS)


def read_deck(path: Path, shown: str | None = None) -> tuple[Deck, list[Diagnostic]]:
    """Read one deck file (or a deck code); the diagnostics say what could not be read."""
    if str(path).lstrip().startswith("VZ"):  # a deck code, unless a file has that name
        from varz_deck.games.varz.registration.code import read_code_argument

        decoded = read_code_argument(path, shown)
        if decoded is not None:
            return decoded
    shown = shown if shown is not None else str(path)
    deck = Deck(path=shown)
    try:
        text = read_text(path, DECK_FILE_LIMIT)
    except LoadError as err:
        deck.readable = False
        return deck, [diag(err.code, err.message, err.mark, file=shown)]
    if path.suffix.lower() == ".txt":
        return deck, parse_text(text, deck)
    return deck, parse_yaml(text, deck)


def parse_yaml(text: str, deck: Deck) -> list[Diagnostic]:
    """Fill deck from YAML text."""
    doc, data, problems = read_yaml_deck(
        text,
        deck,
        schema="deck",
        slots=("hero",),
        sections=SECTIONS,
        empty=msg("F004", "the deck file is empty; it needs hero, spells, skills and portals"),
    )
    if doc is not None and data is not None and "hero" in data:
        deck.hero_key_mark = doc.key_mark(("hero",))
        if isinstance(data["hero"], str) and data["hero"].strip():
            deck.hero = data["hero"].strip()
            deck.hero_mark = doc.mark(("hero",))
    return problems


def parse_text(text: str, deck: Deck) -> list[Diagnostic]:
    """Fill deck from a plain-text list (SPEC §2): headers, then COUNT NAME lines."""
    problems: list[Diagnostic] = []
    section: str | None = None
    seen_fields: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        column = len(line) - len(line.lstrip()) + 1
        mark = Mark(number, column)
        stripped = line.strip()
        head, sep, rest = stripped.partition(":")
        word = " ".join(head.lower().split())
        if sep and not stripped[0].isdigit() and (word in _SECTION_WORDS or word in _FIELD_WORDS):
            rest = rest.strip()
            if word in _SECTION_WORDS:
                section = _SECTION_WORDS[word]
                deck.section_marks.setdefault(section, mark)
                if rest:
                    entry, problem = parse_item(
                        section, rest, Mark(number, line.index(rest) + 1), deck.path
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
            if word == "hero":
                deck.hero_key_mark = mark
                if rest:
                    deck.hero, deck.hero_mark = rest, value_mark
            elif word == "format":
                deck.format, deck.format_mark = (rest or None), value_mark
            else:
                setattr(deck, word, rest or None)
            continue
        if section is None:
            problems.append(
                diag(
                    "F004",
                    msg(
                        "F004",
                        "{line} is outside a section; put it under Spells:, Skills: or Portals:",
                    )(line=Quoted(stripped)),
                    mark,
                    file=deck.path,
                )
            )
            continue
        entry, problem = parse_item(section, stripped, mark, deck.path)
        _add(deck, section, entry, problem, problems)
    return problems


def _add(
    deck: Deck,
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
