"""Closed forms: what the shuffle alone decides without a mulligan (hypergeometric), and the IKZ
each turn."""

from __future__ import annotations

from math import comb
from typing import TypedDict

from varz_deck.games.azuki.sim.model import Model

HAND = 7


MAX_IKZ = 10


class _Odds(TypedDict):
    p_in_opening_hand: float
    p_drawn_by_turn: list[float]
    p_castable_by_turn: list[float]


class Figures(_Odds, total=False):
    """One card's (or one cost's) figures: `exact` gives the probabilities, `exact_with_se` and
    the sampled run their standard errors too."""

    p_in_opening_hand_se: float
    p_drawn_by_turn_se: list[float]
    p_castable_by_turn_se: list[float]


def seen_by(turn: int, on: str) -> int:
    """Cards drawn by the end of turn `turn`'s draw (the opening hand included)."""
    return HAND + turn - (1 if on == "play" else 0)


def ikz_on(turn: int, on: str) -> int:
    """The most IKZ a player can spend on one turn: 1 a turn up to 10, +1 token on the draw."""
    return min(turn, MAX_IKZ) + (1 if on == "draw" else 0)


def p_among(total: int, copies: int, seen: int) -> float:
    """P(at least one of `copies` among the first `seen` of `total` cards)."""
    seen = min(seen, total)
    return 1.0 - comb(total - copies, seen) / comb(total, seen)


def exact(model: Model, turns: int, on: str) -> list[Figures]:
    """Per card: P(in the opening 7), P(drawn by turn t), P(castable on turn t); no mulligan."""
    n = model.size
    out: list[Figures] = []
    for card in model.cards:
        drawn = [p_among(n, card.copies, seen_by(t, on)) for t in range(1, turns + 1)]
        castable = [p if card.cost <= ikz_on(t, on) else 0.0 for t, p in enumerate(drawn, start=1)]
        out.append(
            {
                "p_in_opening_hand": p_among(n, card.copies, HAND),
                "p_drawn_by_turn": drawn,
                "p_castable_by_turn": castable,
            }
        )
    return out


def exact_with_se(figures: Figures, turns: int) -> Figures:
    figures["p_in_opening_hand_se"] = 0.0
    figures["p_drawn_by_turn_se"] = [0.0] * turns
    figures["p_castable_by_turn_se"] = [0.0] * turns
    return figures
