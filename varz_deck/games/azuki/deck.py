"""Reading an Azuki deck file (leader, gate, main, ikz) and looking its references up."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, cast

from varz_deck.core.cards.model import Format
from varz_deck.core.decks.entries import (
    Entry,
    ListWords,
    Slot,
    looks_like_code,
    lookup_ref,
    read_yaml_deck,
    resolve_format,
    resolve_sections,
    top_level_words,
)
from varz_deck.core.decks.entries import parse_text as read_list
from varz_deck.core.files.deckfiles import is_text_list
from varz_deck.core.files.source import LoadError
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, msg
from varz_deck.games.azuki.cards import HOME, AzukiCard, AzukiDatabase

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.registration.code import DecodedDeck

SLOTS = ("leader", "gate")
SECTIONS = ("main", "ikz")
CODE_FAMILY = "AZ"  # deck codes: AZ1… (varz_deck/games/azuki/registration/)
_OWN_WORDS = frozenset({"leader", "gate", "ikz", "ikz deck"})


class Pick(NamedTuple):
    """A single-card slot as written: the reference, its place, and the key's place."""

    ref: str | None
    mark: Mark | None
    key_mark: Mark | None


@dataclass
class AzukiDeck:
    """An Azuki deck as written, before its references are looked up."""

    path: str
    name: str | None = None
    format: str | None = None
    format_mark: Mark | None = None
    player: str | None = None
    event: str | None = None
    picks: dict[str, Pick] = field(default_factory=dict)
    entries: dict[str, list[Entry]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    section_marks: dict[str, Mark | None] = field(default_factory=dict)
    uncounted: set[str] = field(default_factory=set)
    readable: bool = True


@dataclass(frozen=True)
class AzukiView:
    """A deck with its references looked up: what every Azuki rule reads."""

    deck: AzukiDeck
    database: AzukiDatabase
    format: Format
    format_known: bool
    picked: dict[str, AzukiCard | None]
    slots: dict[str, tuple[Slot, ...]]
    date: datetime.date | None = field(default=None, kw_only=True)  # the day checked for

    @property
    def leader(self) -> AzukiCard | None:
        return self.picked.get("leader")

    def size(self, section: str) -> int:
        return sum(slot.entry.count for slot in self.slots[section])

    def counted(self, section: str) -> bool:
        return section in self.deck.section_marks and section not in self.deck.uncounted


def owns_deck(text: str) -> bool:
    """Whether a deck file's keys or headers are Azuki's (leader, gate, ikz), or the text is an
    Azuki deck code (`AZ` and a version digit)."""
    return looks_like_code(text, CODE_FAMILY) or bool(top_level_words(text) & _OWN_WORDS)


def read_deck(source: DeckSource) -> tuple[AzukiDeck, list[Diagnostic]]:
    """Read one deck (a file's text, an editor's buffer, standard input, or a deck code given as
    the argument); the diagnostics say what could not be read."""
    if source.argument is not None:
        from varz_deck.games.azuki.layout import (
            is_code_argument,  # only then: `check` starts faster
        )

        if is_code_argument(source.argument):
            shown = None if source.name == source.argument else source.name
            return read_code(source.argument, shown)
    deck = AzukiDeck(path=source.name, entries={s: [] for s in SECTIONS})
    if source.text is None:
        deck.readable = False
        err = source.problem or LoadError("F001", msg("F001", "no such file; check the path"))
        return deck, [diag(err.code, err.message, err.mark, file=source.name)]
    if is_text_list(source.name, source.text):  # by content: a .dek, stdin, no extension
        return deck, parse_text(source.text, deck)
    return deck, parse_yaml(source.text, deck)


def read_code(code: str, shown: str | None = None) -> tuple[AzukiDeck, list[Diagnostic]]:
    """An AzukiDeck from an Azuki deck code, as `read_deck` gives one from a file; F009 when it
    cannot be decoded."""
    from varz_deck.core.registration.code import read_code as read_code_of
    from varz_deck.games.azuki.layout import LAYOUT

    decoded, shown, problems = read_code_of(code, LAYOUT, shown)
    if decoded is None:
        return AzukiDeck(path=shown, readable=False), problems
    return to_deck(decoded, shown), []


def to_deck(decoded: DecodedDeck, shown: str) -> AzukiDeck:
    """The AzukiDeck a decoded code stands for; its references are card ids."""
    deck = AzukiDeck(path=shown, format=decoded.format)
    for slot in SLOTS:
        if decoded.slots[slot]:
            deck.picks[slot] = Pick(decoded.slots[slot], None, None)
    for section in SECTIONS:
        items = decoded.sections[section]
        deck.entries[section] = [Entry(section, ref, count, None) for ref, count in items]
        if items:
            deck.section_marks[section] = None
    return deck


def _set_pick(
    deck: AzukiDeck, slot: str, ref: str | None, value_mark: Mark, key_mark: Mark
) -> None:
    deck.picks[slot] = Pick(ref, value_mark, key_mark)


LIST_WORDS = ListWords(
    sections={"main deck": "main", "main": "main", "ikz": "ikz", "ikz deck": "ikz"},
    slots=SLOTS,
    outside=msg("F004", "{line} is outside a section; put it under Main Deck: or IKZ:"),
    set_slot=_set_pick,
    example="4 Alley Thug",
)


def parse_text(text: str, deck: AzukiDeck) -> list[Diagnostic]:
    """Fill deck from a plain-text list: Leader:, Gate:, Main Deck:, IKZ: (SPEC §2)."""
    return read_list(text, deck, LIST_WORDS)


def parse_yaml(text: str, deck: AzukiDeck) -> list[Diagnostic]:
    """Fill deck from YAML text."""
    doc, data, problems = read_yaml_deck(
        text,
        deck,
        schema="azuki-deck",
        slots=SLOTS,
        sections=SECTIONS,
        empty=msg("F004", "the deck file is empty; it needs leader, gate, main and ikz"),
    )
    if doc is None or data is None:
        return problems
    for slot in SLOTS:
        if slot in data:
            value = data[slot]
            ref = value.strip() if isinstance(value, str) and value.strip() else None
            deck.picks[slot] = Pick(ref, doc.mark((slot,)), doc.key_mark((slot,)))
    return problems


def resolve(
    deck: AzukiDeck,
    database: AzukiDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> tuple[AzukiView, list[Diagnostic]]:
    """Look up every reference: F005 unknown, F006 ambiguous, F008 misplaced, F003 repeated."""
    shown = deck.path
    fmt, known, problems = resolve_format(
        database, format_key, deck.format, deck.format_mark, shown, date
    )
    picked: dict[str, AzukiCard | None] = {}
    for slot in SLOTS:
        pick = deck.picks.get(slot)
        picked[slot] = None
        if pick is None or pick.ref is None:
            continue
        card, problem = _lookup_slot(pick.ref, slot, database, pick.mark, shown)
        if problem is not None:
            problems.append(problem)
        elif card is not None and card.home != slot:
            template = (
                msg("F008", "{card} is a {type} card, not a Leader; name a Leader card as leader")
                if slot == "leader"
                else msg("F008", "{card} is a {type} card, not a Gate; name a Gate card as gate")
            )
            problems.append(
                diag(
                    "F008",
                    template(card=CardName.of(card), type=card.type),
                    pick.mark,
                    file=shown,
                    section=slot,
                    card=card.id,
                )
            )
        else:
            picked[slot] = card
    slots, found = resolve_sections(
        {section: deck.entries[section] for section in SECTIONS},
        database,
        shown,
        lambda card, entry: _misplaced(card, entry, shown),
    )
    problems.extend(found)
    view = AzukiView(deck, database, fmt, known, picked, slots, date=date)
    return view, problems


def _misplaced(card: AzukiCard, entry: Entry, shown: str) -> Diagnostic | None:
    if card.home == entry.section:
        return None
    return diag(
        "F008",
        msg("F008", "{card} is a {type} card and cannot go in {section}; put it under {home}")(
            card=CardName.of(card), type=card.type, section=entry.section, home=card.home
        ),
        entry.mark,
        file=shown,
        section=entry.section,
        card=card.id,
    )


def _lookup_slot(
    ref: str, slot: str, database: AzukiDatabase, mark: Mark | None, shown: str
) -> tuple[AzukiCard | None, Diagnostic | None]:
    """A slot's reference; a name that several cards share means the one of the slot's type
    ("Raizan" in `leader:` is the Leader, not the entity)."""
    found = database.lookup(ref)
    if len(found) > 1:
        of_type = [card for card in found if HOME.get(card.type) == slot]
        if len(of_type) == 1:
            return cast("AzukiCard", of_type[0]), None
    card, problem = lookup_ref(ref, database, mark, shown, slot)
    return cast("AzukiCard | None", card), problem
