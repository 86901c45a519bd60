"""The canonical form of a deck and its hash (docs/deck-hash.md is the specification).

Game-independent: a game describes its registration with a `Layout` (its hash header, its
single-card slots and sections, its deck-code prefix, how cards are identified and the words its
messages use). A card's identity is `Layout.identity` (by name, so every printing of one
name, or by id, with alias ids, as the game counts copies); it is written as the smallest id, in code-point order, among
the printings of that identity. References the database cannot resolve to one card are kept as
`?` + the normalised reference, so an illegal deck still has a stable record.

The sheet shows a card by the printing the player named, not by its canonical id: `shown_printing`
(the hash and the canonical text never depend on it).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol
from weakref import WeakKeyDictionary

from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, normalize
from varz_deck.core.decks.entries import Entry
from varz_deck.core.messages.i18n import Message

if TYPE_CHECKING:
    from varz_deck.core.messages.diagnostics import Diagnostic

HASH_VERSION = 1
HASH_LENGTH = 10  # base32 characters: 50 bits
HASH_PATTERN = re.compile(r"v1-[a-z2-7]{10}")
UNKNOWN = "?"
DEFAULT_FORMAT = "standard"

_CANONICAL_IDS: WeakKeyDictionary[CardDatabase, dict[str, str]] = WeakKeyDictionary()
# Reference -> (key, card, the printing it names): a batch of decks names the same cards over and over.
_RESOLVED: WeakKeyDictionary[
    CardDatabase, dict[str, tuple[str, CardRecord | None, CardRecord | None]]
] = WeakKeyDictionary()
_RESOLVED_LIMIT = 50_000


def _lookup(database: CardDatabase[CardT], ref: str, slot: str) -> list[CardT]:
    return list(database.lookup(ref))


def _no_heading(canonical: CanonicalDeck, section: str) -> Message | None:
    return None


@dataclass(frozen=True)
class Layout(Generic[CardT]):
    """What one game's registration is made of (its Registrar's `layout`).

    `slot_lines`, `slot_moves`, `slot_words` are the messages the reports use for each slot
    (`"{slot}: {card}"`, `"{slot}: {registered} → {presented}"`, `"{slot}"`); `code_words`,
    `code_damaged` and `code_trailing` those a damaged deck code's F009 uses. `pick` looks a
    slot's reference up (a game may prefer the slot's card type); `section_heading` may give a
    section's heading in the text report (None: "section (size)").
    """

    game: str
    header: str  # the canonical text's first line, e.g. "varz-deck-hash v1"
    slots: tuple[str, ...]
    sections: tuple[str, ...]
    prefix: str  # the deck code's prefix, e.g. "VZ1"
    identity: Callable[[CardT], str]
    slot_lines: Mapping[str, Message]
    slot_moves: Mapping[str, Message]
    slot_words: Mapping[str, Message]
    code_words: Mapping[str, Message]
    code_damaged: Mapping[str, Message]
    code_trailing: Message
    pick: Callable[[CardDatabase[CardT], str, str], list[CardT]] = _lookup
    section_heading: Callable[[CanonicalDeck, str], Message | None] = _no_heading

    @property
    def lead(self) -> str:
        return self.slots[0]

    @property
    def family(self) -> str:
        """The prefix without its version digit ("VZ"): what tells this game's codes apart."""
        return self.prefix.rstrip("0123456789")


@dataclass(frozen=True, slots=True)
class CanonicalCard:
    """One line of the canonical list: identity key, total copies, the card (None if unknown)."""

    key: str
    count: int
    card: CardRecord | None
    ref: str
    shown: CardRecord | None = field(
        default=None, compare=False
    )  # the printing a sheet shows (None: `card`)

    @property
    def printing(self) -> CardRecord | None:
        """The printing to show: the one the player named (`shown_printing`), else the
        canonical card (None when unknown)."""
        return self.shown if self.shown is not None else self.card

    @property
    def shown_id(self) -> str:
        """The id a sheet shows: the printing's, or the alias id the player wrote (a card with
        alias ids is one card printed under several); empty when unknown."""
        printing = self.printing
        if printing is None:
            return ""
        written = self.ref.strip().upper()
        return written if written in getattr(printing, "aliases", ()) else str(printing.id)

    @property
    def known(self) -> bool:
        return self.card is not None

    @property
    def name(self) -> str:
        """The card's canonical name, or the reference as written when it is unknown."""
        return str(self.card.name) if self.card is not None else self.ref


@dataclass(frozen=True, slots=True)
class CanonicalDeck:
    """What a deck hash covers: format, the slots' cards and every card with its count."""

    format: str
    slots: dict[str, CanonicalCard | None]
    sections: dict[str, tuple[CanonicalCard, ...]]
    layout: Layout = field(compare=False)

    @property
    def complete(self) -> bool:
        """Every reference (format, slots, cards) resolved to one thing in the database."""
        keys = [self.format, *(c.key for c in self.cards())]
        keys.extend(c.key for c in self.slots.values() if c is not None)
        return not any(k.startswith(UNKNOWN) for k in keys)

    @property
    def lead(self) -> CanonicalCard | None:
        """The deck's lead card (the game's `lead` slot)."""
        return self.slots.get(self.layout.lead)

    def cards(self) -> Iterator[CanonicalCard]:
        for section in self.layout.sections:
            yield from self.sections[section]

    def size(self, section: str) -> int:
        return sum(c.count for c in self.sections[section])

    def text(self) -> str:
        """The canonical text the hash is computed from (UTF-8, LF line ends)."""
        lines = [self.layout.header, f"format:{self.format}"]
        for slot in self.layout.slots:
            card = self.slots.get(slot)
            lines.append(f"{slot}:{card.key if card else ''}")
        for section in self.layout.sections:
            lines.append(f"{section}:")
            lines.extend(f"{c.key} {c.count}" for c in self.sections[section])
        return "".join(line + "\n" for line in lines)

    def hash(self) -> str:
        return hash_text(self.text())


def hash_text(text: str) -> str:
    """`v1-` + the first 10 characters of the lowercase RFC 4648 base32 of SHA-256(text)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"v{HASH_VERSION}-" + base64.b32encode(digest).decode("ascii")[:HASH_LENGTH].lower()


def normalize_hash(text: str) -> str | None:
    """A typed hash in canonical spelling (case, spaces; 0→o, 1→l, 8→b), or None if malformed."""
    cleaned = "".join(text.split()).lower()
    head, sep, body = cleaned.partition("-")
    if not sep:
        return None
    body = body.translate(str.maketrans("018", "olb"))
    candidate = f"{head}-{body}"
    return candidate if HASH_PATTERN.fullmatch(candidate) else None


def canonical_id(
    database: CardDatabase[CardT], card: CardT, identity: Callable[[CardT], str]
) -> str:
    """The id that stands for every printing of the card's identity: the smallest one."""
    ids = _CANONICAL_IDS.get(database)
    if ids is None:
        ids = _CANONICAL_IDS[database] = {}
    key = identity(card)
    found = ids.get(key)
    if found is None:  # one identity's printings, not every card's (a card index reads few)
        found = ids[key] = min(p.id for p in database.printings[key])
    return found


def shown_printing(
    database: CardDatabase[CardT],
    named: CardT,
    ref: str,
    identity: Callable[[CardT], str],
    format: str,
) -> CardT:
    """The printing a sheet shows for a reference that resolved to the printing `named`.

    An id the player wrote is shown as written. A name means its first printing in the database's
    order when that printing's set is in the format (or the format lists no sets), else the newest
    printing that is (the highest id: the database keeps no release dates), else the first one.
    """
    if database.by_id(ref) is not None:
        return named
    fmt = database.formats.get(format)
    sets = fmt.sets if fmt is not None else None
    if sets is None or getattr(named, "set", None) in sets:
        return named
    printings = database.printings.get(identity(named), ())
    legal = [p for p in printings if getattr(p, "set", None) in sets]
    return max(legal, key=lambda p: p.id) if legal else named


class Readable(Protocol):
    @property
    def readable(self) -> bool: ...


def hashable(deck: Readable, problems: Sequence[Diagnostic]) -> bool:
    """Whether every line of the deck (any game's, or a ReadDeck) was read: no F001–F004 (or
    F009) while reading it."""
    return bool(deck.readable) and not any(d.is_error for d in problems)


def canonicalize(
    layout: Layout,
    database: CardDatabase,
    *,
    format: str | None,
    slots: Mapping[str, str | None],
    entries: Mapping[str, Sequence[Entry]],
    format_key: str | None = None,
) -> CanonicalDeck:
    """The canonical form of a deck that was read completely: its format (`format_key`
    overrides it), each slot's reference (None: empty) and each section's entries."""
    key = format_key or format or DEFAULT_FORMAT
    fmt = key if key in database.formats else UNKNOWN + normalize(key)
    picked: dict[str, CanonicalCard | None] = {}
    for slot in layout.slots:
        ref = slots.get(slot)
        picked[slot] = None if ref is None else _slot(layout, database, ref, slot, fmt)
    sections: dict[str, tuple[CanonicalCard, ...]] = {}
    for section in layout.sections:
        merged: dict[str, CanonicalCard] = {}
        for entry in entries.get(section, ()):
            item = _canonical(layout, database, entry.ref, entry.count, fmt)
            seen = merged.get(item.key)
            if seen is not None:  # the first reference of the card is the one shown
                item = CanonicalCard(
                    seen.key, seen.count + item.count, seen.card, seen.ref, seen.shown
                )
            merged[item.key] = item
        sections[section] = tuple(merged[k] for k in sorted(merged))
    return CanonicalDeck(fmt, picked, sections, layout)


def _slot(layout: Layout, database: CardDatabase, ref: str, slot: str, fmt: str) -> CanonicalCard:
    found = layout.pick(database, ref, slot)
    if len(found) == 1:
        key = canonical_id(database, found[0], layout.identity)
        shown = shown_printing(database, found[0], ref, layout.identity, fmt)
        return CanonicalCard(key, 1, database.cards[key], ref, shown)
    return CanonicalCard(UNKNOWN + normalize(ref), 1, None, ref)


def _canonical(
    layout: Layout, database: CardDatabase, ref: str, count: int, fmt: str
) -> CanonicalCard:
    known = _RESOLVED.get(database)
    if known is None or len(known) > _RESOLVED_LIMIT:
        known = _RESOLVED[database] = {}
    hit = known.get(ref)
    if hit is None:
        found = database.lookup(ref)
        if len(found) == 1:
            key = canonical_id(database, found[0], layout.identity)
            hit = known[ref] = (key, database.cards[key], found[0])
        else:
            hit = known[ref] = (UNKNOWN + normalize(ref), None, None)
    shown = None
    if hit[2] is not None:
        shown = shown_printing(database, hit[2], ref, layout.identity, fmt)
    return CanonicalCard(hit[0], count, hit[1], ref, shown)
