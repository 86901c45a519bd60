"""The sentences a VARZ `tune` report opens with, from the figures its JSON carries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from varz_deck.core.analysis.parts import card_name
from varz_deck.core.messages.i18n import CardName, Message, msg

_LOWEST = msg(
    "tune",
    "Your spell least likely on curve is {card} (cost {cost}): castable on curve {p} of the "
    "time, on turn {turn}.",
)
_MEAN = msg("tune", "On average a spell is castable on curve {p} of the time (exact).")
_BEST = msg(
    "tune",
    "Swap one {out} for one {into}: the lowest rises to {p} and the mean changes by {change} points.",
)
_GOOD = msg(
    "tune",
    "Good news: no one-card swap of the skill deck raises the lowest odds; it is already the "
    "best one swap away.",
)
_NONE = msg("tune", "There is no legal one-card swap of the skill deck to try.")


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def answer(doc: dict[str, Any], names: Mapping[str, CardName] = {}) -> tuple[Message, ...]:
    """2–3 sentences from a `tune` JSON document: the weakest spell, the mean, the best swap;
    `names` gives a card id's name in every language (else its English name)."""

    spells = [s for s in doc["spells"] if s["on_curve_turn"] is not None]
    out: list[Message] = []
    if spells:
        low = min(spells, key=lambda s: (s["p_on_curve"], -s["cost"]))
        out.append(
            _LOWEST(
                card=card_name(low, names),
                cost=low["cost"],
                p=_pct(low["p_on_curve"]),
                turn=low["on_curve_turn"],
            )
        )
        out.append(_MEAN(p=_pct(doc["mean_p_on_curve"])))
    swaps = doc["swaps"]
    if not swaps:
        out.append(_NONE)
    elif swaps[0]["min_p_on_curve"] > doc["min_p_on_curve"]:
        best = swaps[0]
        change = 100 * (best["mean_p_on_curve"] - doc["mean_p_on_curve"])
        out.append(
            _BEST(
                out=card_name(best["out"], names),
                into=card_name(best["in"], names),
                p=_pct(best["min_p_on_curve"]),
                change=f"{change:+.1f}",
            )
        )
    else:
        out.append(_GOOD)
    return tuple(out)
