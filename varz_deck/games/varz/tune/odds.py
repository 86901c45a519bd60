"""Exact on-curve figures: draw curves, on-curve odds and expected delays (closed forms)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from varz_deck.core.analysis.tuning import on_curve
from varz_deck.games.varz.sim.exact import (
    first_turn_with,
    holder_size,
    is_opener,
    p_pays,
    p_seen,
    seen_by,
)
from varz_deck.games.varz.sim.model import Model, SpellCard


@dataclass(frozen=True, slots=True)
class SpellOdds:
    """One spell's exact on-curve figures."""

    on_curve_turn: int | None
    p_drawn: Fraction  # P(drawn by the curve turn)
    p_pays: Fraction  # P(the Holder on the curve turn pays it)
    p_on_curve: Fraction
    expected_delay: Fraction | None


def last_turn(model: Model, on: str) -> int:
    """The first turn by which every spell has been seen and the Holder is full."""
    n, s = model.n_spells, model.n_skills
    t = 1
    while seen_by(t, on, n) < n or holder_size(t, on, s) < s:
        t += 1
    return t


def openers(model: Model, on: str, mulligan: str) -> tuple[bool, ...]:
    """Which spells the `auto` mulligan keeps a hand for (all False for `none`)."""
    if mulligan != "auto":
        return tuple(False for _ in model.cards)
    return tuple(is_opener(model, card, on) for card in model.cards)


def draw_curves(model: Model, on: str, mulligan: str) -> tuple[tuple[Fraction, ...], ...]:
    """Per spell, P(drawn by turn t) for t = 1..last_turn (exact, `exact.p_seen`).

    By symmetry a card's curve depends only on its copies, whether it is an opener and how many
    copies of other openers the deck has, so cards alike share one computation."""
    n = model.n_spells
    last = last_turn(model, on)
    flags = openers(model, on, mulligan)
    opener_copies = sum(c.copies for c, f in zip(model.cards, flags, strict=True) if f)
    rows: dict[tuple[int, bool, int], tuple[Fraction, ...]] = {}
    out = []
    for k, card in enumerate(model.cards):
        key = (card.copies, flags[k], opener_copies - (card.copies if flags[k] else 0))
        row = rows.get(key)
        if row is None:
            row = tuple(
                p_seen(model, k, seen_by(t, on, n), mulligan, on, flags) for t in range(1, last + 1)
            )
            rows[key] = row
        out.append(row)
    return tuple(out)


def spell_odds(
    model: Model, on: str, draws: tuple[tuple[Fraction, ...], ...]
) -> tuple[SpellOdds, ...]:
    """Every spell's on-curve probability and expected delay, given its draw curve."""
    last = last_turn(model, on)
    out = []
    for k, card in enumerate(model.cards):
        t0 = first_turn_with(card.cost, on, model.n_skills)
        if t0 is None:
            out.append(SpellOdds(None, Fraction(0), Fraction(0), Fraction(0), None))
            continue
        row = draws[k]

        def drawn(t: int, row: tuple[Fraction, ...] = row) -> Fraction:
            return row[min(t, last) - 1]

        def pays(t: int, card: SpellCard = card) -> Fraction:
            return p_pays(model, card, t, on)

        p, delay = on_curve(drawn, pays, t0, last)
        out.append(SpellOdds(t0, drawn(t0), pays(t0), p, delay))
    return tuple(out)


class DrawCache:
    """Draw curves by everything they depend on: the side, the mulligan, each spell's copies and
    which spells are openers (the only way the skill deck reaches the spell draws)."""

    def __init__(self) -> None:
        self._curves: dict[
            tuple[str, str, tuple[int, ...], tuple[bool, ...]], tuple[tuple[Fraction, ...], ...]
        ] = {}

    def __call__(self, model: Model, on: str, mulligan: str) -> tuple[tuple[Fraction, ...], ...]:
        key = (on, mulligan, tuple(c.copies for c in model.cards), openers(model, on, mulligan))
        curves = self._curves.get(key)
        if curves is None:
            curves = draw_curves(model, on, mulligan)
            self._curves[key] = curves
        return curves


def mean_on_curve(model: Model, odds: tuple[SpellOdds, ...]) -> Fraction:
    """The deck's average on-curve probability, each copy counted once."""
    n = model.n_spells
    if n == 0:
        return Fraction(0)
    return (
        sum((o.p_on_curve * c.copies for o, c in zip(odds, model.cards, strict=True)), Fraction(0))
        / n
    )
