"""Tidewright's registration layout: hash header `tidewright-deck-hash v1`, the captain, crew and
currents, `TW1` deck codes, a card counted by its name, and the words its reports use."""

from __future__ import annotations

from typing import Any

from varz_deck.core.messages.i18n import msg
from varz_deck.core.registration.canonical import Layout

from tidewright.cards import GAME_KEY
from tidewright.deck import SECTIONS, SLOTS

HASH_HEADER = "tidewright-deck-hash v1"
PREFIX = "TW1"


def _identity(card: Any) -> str:
    return str(card.name)  # every printing of a card is the same card


LAYOUT = Layout(
    game=GAME_KEY,
    header=HASH_HEADER,
    slots=SLOTS,
    sections=SECTIONS,
    prefix=PREFIX,
    identity=_identity,
    slot_lines={"captain": msg("register", "captain: {captain}")},
    slot_moves={"captain": msg("register", "captain: {registered} → {presented}")},
    slot_words={"captain": msg("register", "captain")},
    code_words={"captain": msg("F009", "captain")},
    code_damaged={"captain": msg("F009", "its captain id is damaged")},
    code_trailing=msg("F009", "it has data after the currents; it is damaged"),
)


def is_code_argument(argument: str) -> bool:
    """Whether a DECK argument that names no file is read as a Tidewright deck code (`TW1…`)."""
    from varz_deck.core.registration.code import is_code_argument as is_code_of

    return is_code_of(argument, LAYOUT)
