"""VARZ's registration layout: hash header `varz-deck-hash v1`, the hero, spells/skills/portals,
`VZ1` deck codes, a card identified by its name (every printing), and the words its reports use.
The deck reader (deck.py) and the registration (registration/) both build on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.core.messages.i18n import Message, Term, msg
from varz_deck.core.registration.canonical import CanonicalDeck, Layout

if TYPE_CHECKING:
    from varz_deck.core.registration.code import DecodedDeck
from varz_deck.games.varz.cards import SECTIONS, Card

HASH_HEADER = "varz-deck-hash v1"
PREFIX = "VZ1"


def _identity(card: Card) -> str:
    return card.name  # every printing of one name is one card


def _heading(canonical: CanonicalDeck, section: str) -> Message | None:
    if section != "portals":
        return None
    return msg("register", "{section} ({size}, Shield Life {life})")(
        section=Term("section", section), size=canonical.size(section), life=shield_life(canonical)
    )


def shield_life(canonical: CanonicalDeck) -> int:
    """The portals' total Shield Life (unknown cards count 0)."""
    portals = canonical.sections["portals"]
    return sum((c.card.shield_life or 0) * c.count for c in portals if isinstance(c.card, Card))


LAYOUT: Layout[Card] = Layout(
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


def is_code_argument(argument: str) -> bool:
    """Whether a DECK argument that names no file is read as a VARZ deck code (`VZ1…`)."""
    from varz_deck.core.registration.code import is_code_argument as is_code_of

    return is_code_of(argument, LAYOUT)


def decode(code: str) -> DecodedDeck:
    """Decode a VARZ deck code (`VZ1…`), or raise CodeError saying why."""
    from varz_deck.core.registration.code import decode as decode_of

    return decode_of(code, LAYOUT)
