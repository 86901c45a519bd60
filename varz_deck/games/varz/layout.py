"""VARZ's registration layout: hash header `varz-deck-hash v1`, the hero, spells/skills/portals,
`VZ1` deck codes, a card identified by its name (every printing), the words its reports use, and
the portals' heading with their Shield Life. The core's deck reader (deck codes) and registrar
read it through `Varz.layout`."""

from __future__ import annotations

from varz_deck.core.messages.i18n import Message, Term, msg
from varz_deck.core.registration.canonical import CanonicalDeck, Layout
from varz_deck.games.varz.cards import Card
from varz_deck.games.varz.declaration import DECLARATION


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
    game=DECLARATION.key,
    header=DECLARATION.hash_header,
    slots=DECLARATION.slot_keys,
    sections=DECLARATION.section_keys,
    prefix=f"{DECLARATION.code_family}1",
    identity=_identity,
    slot_lines={"hero": msg("register", "hero: {hero}")},
    slot_moves={"hero": msg("register", "hero: {registered} → {presented}")},
    slot_words={"hero": msg("register", "hero")},
    code_words={"hero": msg("F009", "hero")},
    code_damaged={"hero": msg("F009", "its hero id is damaged")},
    code_trailing=msg("F009", "it has data after the portals; it is damaged"),
    section_heading=_heading,
)
