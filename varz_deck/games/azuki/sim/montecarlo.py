"""The `auto` mulligan, sampled: NumPy over games, each card's first position in the order seen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from varz_deck.games.azuki.sim.exact import HAND, Figures, ikz_on, seen_by
from varz_deck.games.azuki.sim.model import Model

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MULLIGAN_BY_TURN = 3


def sample(
    model: Model, turns: int, on: str, games: int, seed: int, first_ids: Sequence[str] = ()
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp]]:
    """Per game under the `auto` mulligan: whether it mulliganed, and each card's first position
    in the order the cards are seen (the deck size when never seen).

    The cards named in `first_ids` take the first places of the shuffled slots, in that order, so
    two decks sampled with one seed and the same `first_ids` see those cards on the same random
    numbers (common random numbers, `sim --vs`)."""
    import numpy as np

    rank = {card_id: i for i, card_id in enumerate(first_ids)}
    slots = sorted(range(len(model.cards)), key=lambda k: rank.get(model.cards[k].id, len(rank)))
    kinds = np.repeat(np.array(slots, dtype=np.intp), [model.cards[k].copies for k in slots])
    rng = np.random.default_rng(seed)
    n = len(kinds)
    costs = np.array([c.cost for c in model.cards])
    perm = np.argsort(rng.random((games, n)), axis=1)
    hand = kinds[perm[:, :HAND]]
    playable = costs[hand] <= ikz_on(MULLIGAN_BY_TURN, on)
    mull = np.asarray(~playable.any(axis=1), dtype=bool)
    rest = np.concatenate([perm[:, 2 * HAND :], perm[:, :HAND]], axis=1)
    order = np.argsort(rng.random(rest.shape), axis=1)
    rest = np.take_along_axis(rest, order, axis=1)
    after = np.concatenate([perm[:, HAND : 2 * HAND], rest], axis=1)
    seq = np.where(mull[:, None], after, perm)
    drawn_kinds = kinds[seq]
    positions = np.arange(n)
    first = np.empty((games, len(model.cards)), dtype=np.intp)
    for k in range(len(model.cards)):
        first[:, k] = np.where(drawn_kinds == k, positions, n).min(axis=1)
    return mull, first


def rate(hits: npt.NDArray[np.generic]) -> tuple[float, float]:
    """The mean of a 0/1 (or -1/0/1) per-game array and its standard error."""
    import numpy as np

    games = len(hits)
    mean = float(hits.mean())
    return mean, float(np.sqrt(max(float(hits.var()), 0.0) / games))


def sampled(first: npt.NDArray[np.intp], cost: int, turns: int, on: str) -> Figures:
    """The figures of one card (or group of cards) from its first positions."""
    p, se, c, c_se = [], [], [], []
    for t in range(1, turns + 1):
        mean, err = rate(first < seen_by(t, on))
        ok = cost <= ikz_on(t, on)
        p.append(mean)
        se.append(err)
        c.append(mean if ok else 0.0)
        c_se.append(err if ok else 0.0)
    opening, opening_se = rate(first < HAND)
    return {
        "p_in_opening_hand": opening,
        "p_in_opening_hand_se": opening_se,
        "p_drawn_by_turn": p,
        "p_drawn_by_turn_se": se,
        "p_castable_by_turn": c,
        "p_castable_by_turn_se": c_se,
    }


def monte_carlo(
    model: Model, turns: int, on: str, games: int, seed: int
) -> tuple[float, list[Figures]]:
    """P(mulligan) and per-card figures with standard errors under the `auto` mulligan."""
    mull, first = sample(model, turns, on, games, seed)
    out = [sampled(first[:, k], card.cost, turns, on) for k, card in enumerate(model.cards)]
    return float(mull.mean()), out
