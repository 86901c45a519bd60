"""Reading VARZ deck files (YAML mapping or list form, plain-text lists) into a Deck, with F001–F004."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from varz_deck.core.decks.entries import (
    Entry,
    ListWords,
    looks_like_code,
    read_yaml_deck,
    top_level_words,
)
from varz_deck.core.decks.entries import parse_text as read_list
from varz_deck.core.files.deckfiles import is_text_list
from varz_deck.core.files.source import LoadError
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import msg
from varz_deck.games.varz.cards import SECTIONS

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.registration.code import DecodedDeck

CODE_FAMILY = "VZ"  # deck codes: VZ1… (varz_deck/games/varz/registration/)

_SECTION_WORDS = {
    "spells": "spells", "deck": "spells", "main deck": "spells", "spell deck": "spells",
    "skills": "skills", "skill deck": "skills",
    "portals": "portals", "portal deck": "portals",
}  # fmt: skip
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


def owns_deck(text: str) -> bool:
    """Whether a deck file's keys or headers are VARZ's (hero, spells, skills, portals), or the
    text is a VARZ deck code (`VZ` and a version digit)."""
    return looks_like_code(text, CODE_FAMILY) or bool(top_level_words(text) & _OWN_WORDS)


def read_deck(source: DeckSource) -> tuple[Deck, list[Diagnostic]]:
    """Read one deck (a file's text, an editor's buffer, standard input, or a deck code given as
    the argument); the diagnostics say what could not be read."""
    if source.argument is not None:
        from varz_deck.games.varz.layout import is_code_argument  # only then: `check` starts faster

        if is_code_argument(source.argument):
            shown = None if source.name == source.argument else source.name
            return read_code(source.argument, shown)
    deck = Deck(path=source.name)
    if source.text is None:
        deck.readable = False
        err = source.problem or LoadError("F001", msg("F001", "no such file; check the path"))
        return deck, [diag(err.code, err.message, err.mark, file=source.name)]
    if is_text_list(source.name, source.text):  # by content: a .dek, stdin, no extension
        return deck, parse_text(source.text, deck)
    return deck, parse_yaml(source.text, deck)


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


def _set_hero(deck: Deck, slot: str, ref: str | None, value_mark: Mark, key_mark: Mark) -> None:
    deck.hero_key_mark = key_mark
    if ref:
        deck.hero, deck.hero_mark = ref, value_mark


LIST_WORDS = ListWords(
    sections=_SECTION_WORDS,
    slots=("hero",),
    outside=msg("F004", "{line} is outside a section; put it under Spells:, Skills: or Portals:"),
    set_slot=_set_hero,
    example="2 Crimson VAZ",
)


def parse_text(text: str, deck: Deck) -> list[Diagnostic]:
    """Fill deck from a plain-text list (SPEC §2): headers, then COUNT NAME lines."""
    return read_list(text, deck, LIST_WORDS)


def read_code(code: str, shown: str | None = None) -> tuple[Deck, list[Diagnostic]]:
    """A Deck from a VARZ deck code, as `read_deck` gives one from a file; F009 when it cannot
    be decoded."""
    from varz_deck.core.registration.code import read_code as read_code_of
    from varz_deck.games.varz.layout import LAYOUT

    decoded, shown, problems = read_code_of(code, LAYOUT, shown)
    if decoded is None:
        return Deck(path=shown, readable=False), problems
    return to_deck(decoded, shown), []


def to_deck(decoded: DecodedDeck, shown: str) -> Deck:
    """The Deck a decoded code stands for; its references are card ids."""
    deck = Deck(path=shown, format=decoded.format)
    if decoded.slots["hero"]:
        deck.hero = decoded.slots["hero"]
    for section in SECTIONS:
        items = decoded.sections[section]
        deck.entries[section] = [Entry(section, ref, count, None) for ref, count in items]
        if items:
            deck.section_marks[section] = None
    return deck
