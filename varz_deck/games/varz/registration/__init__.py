"""VARZ registration: the game's `Layout` (hash header, hero, spells/skills/portals, `VZ1` codes,
cards identified by name), reading its deck codes, and its sheet (sheet.py).

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/); `REGISTRAR` is what `Varz.registrar` gives the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.entries import Entry
from varz_deck.core.i18n import Message, Term, msg
from varz_deck.core.registration import code as codes
from varz_deck.core.registration.canonical import CanonicalDeck, Layout
from varz_deck.core.registration.canonical import canonicalize as canonical_form
from varz_deck.core.registration.register import ReadDeck, Registration, registration
from varz_deck.games.varz.cards import SECTIONS
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import Deck, read_deck

HASH_HEADER = "varz-deck-hash v1"
PREFIX = "VZ1"


def _identity(card: Any) -> str:
    return str(card.name)  # every printing of one name is one card


def _heading(canonical: CanonicalDeck, section: str) -> Message | None:
    if section != "portals":
        return None
    return msg("register", "{section} ({size}, Shield Life {life})")(
        section=Term("section", section), size=canonical.size(section), life=shield_life(canonical)
    )


def shield_life(canonical: CanonicalDeck) -> int:
    """The portals' total Shield Life (unknown cards count 0)."""
    return sum((c.card.shield_life or 0) * c.count for c in canonical.sections["portals"] if c.card)


LAYOUT = Layout(
    game="varz",
    header=HASH_HEADER,
    slots=("hero",),
    sections=SECTIONS,
    prefix=PREFIX,
    identity=_identity,
    slot_lines={"hero": msg("register", "hero: {hero}")},
    slot_moves={"hero": msg("register", "hero: {registered} → {presented}")},
    slot_words={"hero": msg("register", "hero")},
    code_words={"hero": msg("F009", "hero")},
    code_damaged={"hero": msg("F009", "its hero id is damaged")},
    code_trailing=msg("F009", "it has data after the portals; it is damaged"),
    section_heading=_heading,
)


def canonicalize(
    deck: Deck, database: CardDatabase, format_key: str | None = None
) -> CanonicalDeck:
    """The canonical form of a VARZ deck that was read completely."""
    return canonical_form(
        LAYOUT,
        database,
        format=deck.format,
        slots={"hero": deck.hero},
        entries=deck.entries,
        format_key=format_key,
    )


def is_code(path: Path) -> bool:
    return codes.is_code(path, LAYOUT)


def read_code_argument(
    path: Path, shown: str | None = None
) -> tuple[Deck, list[Diagnostic]] | None:
    """The deck a DECK argument's code holds, or None when the argument is a path, not a code."""
    return read_code(str(path), shown) if is_code(path) else None


def read_code(code: str, shown: str | None = None) -> tuple[Deck, list[Diagnostic]]:
    """A Deck from a code, as `read_deck` gives one from a file; F009 when it cannot be decoded."""
    decoded, shown, problems = codes.read_code(code, LAYOUT, shown)
    if decoded is None:
        return Deck(path=shown, readable=False), problems
    return to_deck(decoded, shown), []


def to_deck(decoded: codes.DecodedDeck, shown: str) -> Deck:
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


def register_deck(
    path: Path,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
) -> Registration:
    """Read (a file or a deck code), check and canonicalise one VARZ deck."""
    deck, problems = read_deck(path)
    report = check_parsed(deck, problems, database, format_key)
    read = ReadDeck(
        path=deck.path,
        readable=deck.readable,
        problems=problems,
        format=deck.format,
        slots={"hero": deck.hero},
        entries=deck.entries,
        player=deck.player,
        event=deck.event,
    )
    return registration(
        LAYOUT,
        read,
        report,
        database,
        player=player,
        event=event,
        format_key=format_key,
        is_code=is_code(path),
    )


class VarzRegistrar:
    """`register`, `verify`, `diff`, `code` for VARZ decks."""

    layout = LAYOUT

    def is_code(self, path: Path) -> bool:
        return is_code(path)

    def register(
        self,
        path: Path,
        database: CardDatabase,
        *,
        player: str | None = None,
        event: str | None = None,
        format_key: str | None = None,
    ) -> Registration:
        return register_deck(path, database, player=player, event=event, format_key=format_key)

    def encode(self, canonical: CanonicalDeck) -> str:
        return codes.encode(canonical)

    def render_sheet(self, registration: Registration, lang: str) -> str:
        from varz_deck.games.varz.registration.sheet import render_sheet

        return render_sheet(registration, lang)


REGISTRAR = VarzRegistrar()


def decode(code: str) -> codes.DecodedDeck:
    """Decode a VARZ deck code (`VZ1…`), or raise CodeError saying why."""
    return codes.decode(code, LAYOUT)
