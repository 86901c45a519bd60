"""Azuki's words for the figures `sim`, `stats`, `tune` and `report` show (core/analysis/glossary.py).

Azuki pays costs with IKZ: the shared entries that depend on paying are restated here under the
same key, in IKZ.
"""

from __future__ import annotations

from varz_deck.core.analysis.glossary import EXACT, Entry, dropped, name_in
from varz_deck.core.messages.i18n import Message, msg

GLOSSARY: tuple[Entry, ...] = (
    dropped("cast-on-curve"),  # Azuki's goldfish draws and takes the mulligan; it casts nothing
    Entry(
        "goldfish-game",
        msg("glossary", "goldfish game"),
        msg(
            "glossary",
            "A game played alone, with no opponent: the simulator shuffles, draws and takes the "
            "mulligan, and counts when each card is in hand and payable; it plays no card.",
        ),
    ),
    Entry(
        "mulligan",
        msg("glossary", "mulligan"),
        msg(
            "glossary",
            "auto: an opening 7 with no card castable by turn 3 is sent back whole and 7 new cards "
            "drawn, once; none: every hand is kept. Every command defaults to auto, and says which "
            "it used.",
        ),
    ),
    Entry(
        "curve-turn",
        msg("glossary", "curve turn"),
        msg("glossary", "The first turn the IKZ area holds at least the card's cost in IKZ."),
        symbol="T0",
        json=("tune: spells[].on_curve_turn",),
        kind=EXACT,
    ),
    Entry(
        "ikz-available",
        msg("glossary", "IKZ available"),
        msg(
            "glossary",
            "The IKZ a player can pay with on turn T: T, up to 10, and on the draw 1 more once (the "
            "IKZ token).",
        ),
        symbol="IKZ",
        kind=EXACT,
    ),
)


def named(key: str) -> Message:
    """The name of a term of Azuki's glossary (its own entry, else the shared one)."""
    return name_in(GLOSSARY, key)
