"""The sentences a VARZ `sim` report opens with: what a player can act on, from the figures the
JSON carries (`report.to_json`), so the text and the JSON never disagree."""

from __future__ import annotations

from typing import Any

from varz_deck.core.messages.i18n import Message, msg

STARVED = 0.6  # a turn spending under this share of its VAZ is the one worth a sentence
Z95 = 1.959963984540054

_OPENERS = msg(
    "sim",
    "Opening hands: {p} hold a spell you can pay on turn 1 (exact, mulligan {mulligan}).",
)
_USED = msg(
    "sim",
    "VAZ used: over {turns} turns you spend {used} of the VAZ you have (sampled).",
)
_EMPTY = msg(
    "sim",
    "From turn {turn} you spend only {spent} of {vaz} VAZ: your hand is nearly empty ({hand} "
    "cards), so more cards or costlier spells would use the rest.",
)
_STUCK = msg(
    "sim",
    "From turn {turn} you spend only {spent} of {vaz} VAZ with {hand} cards in hand: they cost "
    "more than you can pay, or need VAZ of another colour.",
)
_FULL = msg("sim", "You spend at least {share} of your VAZ on every turn.")
_V_SYNC = msg("sim", "Your hero reaches V-Sync (evolution level {level}) on turn {turn}.")
_NO_V_SYNC = msg(
    "sim", "Your hero does not reach V-Sync (evolution level {level}) within {turns} turns."
)


def pct(p: float, se: float | None = None) -> str:
    """A percentage, with its 95% interval when sampled."""
    text = f"{100 * p:.2f}%" if 0.9995 <= p < 1 else f"{100 * p:.1f}%"
    if not se:
        return text
    spread = 100 * Z95 * se
    return f"{text} ±{spread:.2f}" if spread < 0.1 else f"{text} ±{spread:.1f}"


def answer(doc: dict[str, Any]) -> tuple[Message, ...]:
    """2–4 sentences from one deck's `sim` JSON document."""
    turns = doc["turns"]
    out = [_OPENERS(p=pct(doc["p_opener"]), mulligan=doc["mulligan"])]
    out.append(_USED(turns=len(turns), used=pct(doc["vaz_used"], doc["vaz_used_se"])))
    starved = next(
        (t for t in turns if t["vaz"] and t["mean_vaz_spent"] < STARVED * t["vaz"]), None
    )
    if starved is None:
        out.append(_FULL(share=f"{100 * STARVED:.0f}%"))
    else:
        figures = {
            "turn": starved["turn"],
            "spent": f"{starved['mean_vaz_spent']:.1f}",
            "vaz": starved["vaz"],
            "hand": f"{starved['mean_hand_size']:.1f}",
        }
        out.append((_EMPTY if starved["mean_hand_size"] < 1 else _STUCK)(**figures))
    level = doc["hero"]["evolution_level"]
    if doc["v_sync_turn"] is None:
        out.append(_NO_V_SYNC(level=level, turns=len(turns)))
    else:
        out.append(_V_SYNC(level=level, turn=doc["v_sync_turn"]))
    return tuple(out)
