"""Exact on-curve figures: P(drawn by the curve turn) and the expected delay (closed forms)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from varz_deck.core.analysis.tuning import on_curve
from varz_deck.games.azuki.sim.exact import MAX_IKZ, ikz_on, seen_by
from varz_deck.games.azuki.sim.model import Model


def p_drawn(total: int, copies: int, seen: int) -> Fraction:
    """P(at least one of `copies` among the first `seen` of `total` cards), exactly."""
    seen = min(seen, total)
    if seen <= 0 or copies <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(total - copies, seen), comb(total, seen))


def curve_turn(cost: int, on: str) -> int | None:
    """The first turn whose IKZ pays `cost`; None when no turn does."""
    for t in range(1, MAX_IKZ + 2):
        if ikz_on(t, on) >= cost:
            return t
    return None


def last_turn(n: int, on: str) -> int:
    """The first turn by which every card has been seen and the IKZ is at its most."""
    t = 1
    while seen_by(t, on) < n or ikz_on(t, on) < ikz_on(MAX_IKZ, on):
        t += 1
    return t


@dataclass(frozen=True)
class Figures:
    on_curve_turn: int | None
    p_on_curve: Fraction
    expected_delay: Fraction | None


def card_figures(model: Model, on: str) -> list[Figures]:
    n = model.size
    last = last_turn(n, on)
    out = []
    for card in model.cards:
        t0 = curve_turn(card.cost, on)
        if t0 is None or n == 0:
            out.append(Figures(None, Fraction(0), None))
            continue

        def drawn(t: int, copies: int = card.copies) -> Fraction:
            return p_drawn(n, copies, seen_by(t, on))

        def pays(t: int, cost: int = card.cost) -> Fraction:
            return Fraction(1 if ikz_on(t, on) >= cost else 0)

        p, delay = on_curve(drawn, pays, t0, last)
        out.append(Figures(t0, p, delay))
    return out
