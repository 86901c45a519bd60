"""VARZ's words for the figures `sim`, `stats`, `tune` and `report` show (core/analysis/glossary.py).

The shared entries the VARZ model makes precise (a spell's curve turn is the Holder's VAZ) are
restated here under the same key; the rest are VARZ's own (VAZ, V-Sync, the skill deck's swaps).
"""

from __future__ import annotations

from varz_deck.core.analysis.glossary import EXACT, SAMPLED, Entry, name_in
from varz_deck.core.messages.i18n import Message, msg

GLOSSARY: tuple[Entry, ...] = (
    Entry(
        "mulligan",
        msg("glossary", "mulligan"),
        msg(
            "glossary",
            "auto: a 5-card hand with no opener (a spell the Holder of turn 1 pays with probability "
            "½ or more) is sent back whole and 5 new cards drawn, once; none: every hand is kept. "
            "Every command defaults to auto, and says which it used.",
        ),
    ),
    Entry(
        "castable-by",
        msg("glossary", "castable by turn T"),
        msg(
            "glossary",
            "In hand by turn T, and the Holder on turn T can pay its cost: a spell of the hero's "
            "colour with any VAZ, a spell of another colour only with VAZ of its own colour.",
        ),
        symbol="P(castable ≤T)",
        json=("sim: cards[].p_castable_by_turn",),
        kind=EXACT,
        see=("in-hand-by", "castable-on-curve"),
    ),
    Entry(
        "curve-turn",
        msg("glossary", "curve turn"),
        msg(
            "glossary",
            "The first turn whose Holder holds at least the spell's cost in VAZ of any colour: "
            "min(2T, 9) VAZ on turn T on the play, min(2T+1, 9) on the draw.",
        ),
        symbol="T0",
        json=("tune: spells[].on_curve_turn",),
        kind=EXACT,
    ),
    Entry(
        "vaz-available",
        msg("glossary", "VAZ available"),
        msg(
            "glossary",
            "The VAZ the Holder can make on a turn: one for each skill in it, 2 more each turn "
            "up to 9.",
        ),
        symbol="VAZ",
        json=("sim: turns[].vaz",),
        kind=EXACT,
    ),
    Entry(
        "vaz-spent",
        msg("glossary", "VAZ spent"),
        msg("glossary", "The VAZ the goldfish game's player spends on a turn, on average."),
        json=("sim: turns[].mean_vaz_spent",),
        kind=SAMPLED,
        see=("vaz-used",),
    ),
    Entry(
        "all-vaz-spent",
        msg("glossary", "all VAZ spent"),
        msg(
            "glossary",
            "The share of goldfish games in which every VAZ available on a turn is spent.",
        ),
        json=("sim: turns[].p_all_vaz_spent",),
        kind=SAMPLED,
    ),
    Entry(
        "vaz-used",
        msg("glossary", "VAZ used"),
        msg(
            "glossary",
            "The VAZ spent over the turns simulated, as a share of the VAZ available over them: "
            "100% means every VAZ was spent on every turn. It replaces the curve score.",
        ),
        json=("sim: vaz_used",),
        kind=SAMPLED,
        see=("vaz-spent",),
    ),
    Entry(
        "hand-size",
        msg("glossary", "cards in hand"),
        msg("glossary", "The cards in hand at the end of a turn, on average."),
        json=("sim: turns[].mean_hand_size",),
        kind=SAMPLED,
    ),
    Entry(
        "v-sync-turn",
        msg("glossary", "V-Sync turn"),
        msg(
            "glossary",
            "The first turn the hero's level (the skills in the Holder) reaches its evolution "
            "level.",
        ),
        json=("sim: v_sync_turn",),
        kind=EXACT,
    ),
    Entry(
        "skills-needed",
        msg("glossary", "VAZ skills needed"),
        msg(
            "glossary",
            "The fewest VAZ skills of a colour that make a spell of cost C of that colour "
            "castable by turn T with the target probability (Karsten's tables); – where 9 are "
            "not enough.",
        ),
        json=("tune: tables[].rows[].by_turn",),
        kind=EXACT,
    ),
    Entry(
        "swap",
        msg("glossary", "one-card swap"),
        msg(
            "glossary",
            "One skill out of the skill deck and one legal skill in. The best swaps raise the "
            "lowest castable-on-curve figure; when none does, the skill deck is already the best "
            "it can be one swap away.",
        ),
        json=("tune: swaps[]",),
        kind=EXACT,
        see=("castable-on-curve",),
    ),
)


def named(key: str) -> Message:
    """The name of a term of VARZ's glossary (its own entry, else the shared one)."""
    return name_in(GLOSSARY, key)
