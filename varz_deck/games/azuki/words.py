"""Azuki's deck words where they are its own: the F004 of a list line outside a section, the
words that tell an Azuki deck file from another game's, the register report's section headings
and a deck code's damaged end (core/game/declared.py makes the rest from the declaration).

`MADE` marks the messages the core makes from the declaration, so this game's catalogue keeps
their translations (Leader, its slots' lines, an empty deck file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.core.messages.i18n import Message, msg

if TYPE_CHECKING:
    from varz_deck.core.registration.canonical import CanonicalDeck

OUTSIDE = msg("F004", "{line} is outside a section; put it under Main Deck: or IKZ:")
# The keys and list headers only an Azuki deck has ("main" is too common a word to tell).
OWN_WORDS = frozenset({"leader", "gate", "ikz", "ikz deck"})
CODE_TRAILING = msg("F009", "it has data after the IKZ deck; it is damaged")
_HEADINGS = {
    "main": msg("register", "main deck ({size})"),
    "ikz": msg("register", "IKZ deck ({size})"),
}


def section_heading(canonical: CanonicalDeck, section: str) -> Message | None:
    """A section's heading in the register report: "main deck (50)", "IKZ deck (11)"."""
    return _HEADINGS[section](size=canonical.size(section))


MADE = (
    msg("report", "leader {name}"),
    msg("page", "Leader"),
    msg("F004", "the deck file is empty; it needs leader, gate, main and ikz"),
    msg("register", "leader: {leader}"),
    msg("register", "gate: {gate}"),
    msg("register", "leader: {registered} → {presented}"),
    msg("register", "gate: {registered} → {presented}"),
    msg("register", "leader"),
    msg("register", "gate"),
    msg("F009", "leader"),
    msg("F009", "gate"),
    msg("F009", "its leader id is damaged"),
    msg("F009", "its gate id is damaged"),
)
