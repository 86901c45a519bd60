"""Azuki's registration layout: hash header `azuki-deck-hash v1`, leader and gate, main and ikz,
`AZ1` deck codes, a card identified by its id (alias ids name the same card), and the words its
reports use. The deck reader (deck.py) and the registration (registration/) both build on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.registration.canonical import CanonicalDeck, Layout
from varz_deck.games.azuki.cards import HOME, AzukiCard

if TYPE_CHECKING:
    from varz_deck.core.registration.code import DecodedDeck

SLOTS = ("leader", "gate")
SECTIONS = ("main", "ikz")
HASH_HEADER = "azuki-deck-hash v1"
PREFIX = "AZ1"
MAIN_DECK = 50
IKZ_DECK = 11  # 10 IKZ and the IKZ Token (A104)


def _identity(card: AzukiCard) -> str:
    return card.id  # alias ids (alternate art) are looked up to the card's own id


def _pick(database: CardDatabase[AzukiCard], ref: str, slot: str) -> list[AzukiCard]:
    """A slot's reference: a name several cards share means the one of the slot's type
    ("Raizan" under leader: is the Leader), as the check reads it."""
    found = list(database.lookup(ref))
    if len(found) > 1:
        of_type = [card for card in found if HOME.get(card.type) == slot]
        if len(of_type) == 1:
            return of_type
    return found


_HEADINGS = {
    "main": msg("register", "main deck ({size})"),
    "ikz": msg("register", "IKZ deck ({size})"),
}


def _heading(canonical: CanonicalDeck, section: str) -> Message | None:
    return _HEADINGS[section](size=canonical.size(section))


LAYOUT: Layout[AzukiCard] = Layout(
    game="azuki",
    header=HASH_HEADER,
    slots=SLOTS,
    sections=SECTIONS,
    prefix=PREFIX,
    identity=_identity,
    slot_lines={
        "leader": msg("register", "leader: {leader}"),
        "gate": msg("register", "gate: {gate}"),
    },
    slot_moves={
        "leader": msg("register", "leader: {registered} → {presented}"),
        "gate": msg("register", "gate: {registered} → {presented}"),
    },
    slot_words={"leader": msg("register", "leader"), "gate": msg("register", "gate")},
    code_words={"leader": msg("F009", "leader"), "gate": msg("F009", "gate")},
    code_damaged={
        "leader": msg("F009", "its leader id is damaged"),
        "gate": msg("F009", "its gate id is damaged"),
    },
    code_trailing=msg("F009", "it has data after the IKZ deck; it is damaged"),
    pick=_pick,
    section_heading=_heading,
)


def is_code_argument(argument: str) -> bool:
    """Whether a DECK argument that names no file is read as an Azuki deck code (`AZ1…`)."""
    from varz_deck.core.registration.code import is_code_argument as is_code_of

    return is_code_of(argument, LAYOUT)


def decode(code: str) -> DecodedDeck:
    """Decode an Azuki deck code (`AZ1…`), or raise CodeError saying why."""
    from varz_deck.core.registration.code import decode as decode_of

    return decode_of(code, LAYOUT)
