"""The canonical form of a deck and its hash (README "Deck hash" is the specification).

A card's identity is its printing group (every printing of one name); it is written as the smallest
id, in code-point order, among those printings. References the database cannot resolve to one card
are kept as `?` + the normalised reference, so an illegal deck still has a stable record.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from varz_deck.core.cards import CardDatabase, normalize
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.games.varz.cards import SECTIONS, Card
from varz_deck.games.varz.deck import Deck

HASH_VERSION = 1
HASH_HEADER = "varz-deck-hash v1"
HASH_LENGTH = 10  # base32 characters: 50 bits
HASH_PATTERN = re.compile(r"v1-[a-z2-7]{10}")
UNKNOWN = "?"
DEFAULT_FORMAT = "standard"

_CANONICAL_IDS: WeakKeyDictionary[CardDatabase, dict[str, str]] = WeakKeyDictionary()
# Reference -> (key, card): a batch of decks names the same cards over and over.
_RESOLVED: WeakKeyDictionary[CardDatabase, dict[str, tuple[str, Card | None]]] = WeakKeyDictionary()
_RESOLVED_LIMIT = 50_000


@dataclass(frozen=True, slots=True)
class CanonicalCard:
    """One line of the canonical list: identity key, total copies, the card (None if unknown)."""

    key: str
    count: int
    card: Card | None
    ref: str

    @property
    def known(self) -> bool:
        return self.card is not None

    @property
    def name(self) -> str:
        """The card's canonical name, or the reference as written when it is unknown."""
        return self.card.name if self.card is not None else self.ref


@dataclass(frozen=True, slots=True)
class CanonicalDeck:
    """What a deck hash covers: format, hero and every card with its count, per section."""

    format: str
    hero: CanonicalCard | None
    sections: dict[str, tuple[CanonicalCard, ...]]

    @property
    def complete(self) -> bool:
        """Every reference (format, hero, cards) resolved to one thing in the database."""
        keys = [self.format, *(c.key for c in self.cards())]
        if self.hero is not None:
            keys.append(self.hero.key)
        return not any(k.startswith(UNKNOWN) for k in keys)

    def cards(self) -> Iterator[CanonicalCard]:
        for section in SECTIONS:
            yield from self.sections[section]

    def size(self, section: str) -> int:
        return sum(c.count for c in self.sections[section])

    def shield_life(self) -> int:
        return sum((c.card.shield_life or 0) * c.count for c in self.sections["portals"] if c.card)

    def text(self) -> str:
        """The canonical text the hash is computed from (UTF-8, LF line ends)."""
        lines = [HASH_HEADER, f"format:{self.format}", f"hero:{self.hero.key if self.hero else ''}"]
        for section in SECTIONS:
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


def canonical_id(database: CardDatabase, card: Card) -> str:
    """The id that stands for every printing of the card: the smallest one."""
    ids = _CANONICAL_IDS.get(database)
    if ids is None:
        ids = {name: min(p.id for p in printings) for name, printings in database.printings.items()}
        _CANONICAL_IDS[database] = ids
    return ids[card.name]


def hashable(deck: Deck, problems: Sequence[Diagnostic]) -> bool:
    """Whether every line of the deck was read: no F001–F004 (or F009) while reading it."""
    return deck.readable and not any(d.is_error for d in problems)


def canonicalize(
    deck: Deck, database: CardDatabase, format_key: str | None = None
) -> CanonicalDeck:
    """The canonical form of a deck that was read completely (see `hashable`)."""
    key = format_key or deck.format or DEFAULT_FORMAT
    fmt = key if key in database.formats else UNKNOWN + normalize(key)
    hero = None
    if deck.hero is not None:
        hero = _canonical(database, deck.hero, 1)
    sections: dict[str, tuple[CanonicalCard, ...]] = {}
    for section in SECTIONS:
        merged: dict[str, CanonicalCard] = {}
        for entry in deck.entries[section]:
            item = _canonical(database, entry.ref, entry.count)
            seen = merged.get(item.key)
            if seen is not None:
                item = CanonicalCard(seen.key, seen.count + item.count, seen.card, seen.ref)
            merged[item.key] = item
        sections[section] = tuple(merged[k] for k in sorted(merged))
    return CanonicalDeck(fmt, hero, sections)


def _canonical(database: CardDatabase, ref: str, count: int) -> CanonicalCard:
    known = _RESOLVED.get(database)
    if known is None or len(known) > _RESOLVED_LIMIT:
        known = _RESOLVED[database] = {}
    hit = known.get(ref)
    if hit is None:
        found = database.lookup(ref)
        if len(found) == 1:
            key = canonical_id(database, found[0])
            hit = known[ref] = (key, database.cards[key])
        else:
            hit = known[ref] = (UNKNOWN + normalize(ref), None)
    return CanonicalCard(hit[0], count, hit[1], ref)
