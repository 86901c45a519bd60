"""A simulation run: the figures of one deck, per card and per cost, exact or sampled."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from varz_deck.core.analysis.capabilities import SimRequest
from varz_deck.games.azuki.sim.exact import Figures, exact, exact_with_se
from varz_deck.games.azuki.sim.model import Model, SimCard, cost_groups
from varz_deck.games.azuki.sim.montecarlo import rate, sample, sampled


def _group_model(model: Model) -> Model:
    """One pseudo-card per cost, holding every copy of that cost (for P(a card of cost c))."""
    groups = cost_groups(model)
    cards = tuple(
        SimCard(f"cost {cost}", "", sum(model.cards[k].copies for k in ks), cost)
        for cost, ks in groups
    )
    return Model(model.path, model.name, model.leader, cards)


@dataclass(frozen=True)
class Run:
    """One deck's figures: per card and per cost, and the per-game samples (`auto` only)."""

    model: Model
    cards: list[Figures]
    costs: list[Figures]
    p_mulligan: float = 0.0
    p_mulligan_se: float = 0.0
    mull: Any = None
    first: Any = None  # (games, cards) first positions
    group_first: Any = None  # (games, costs)


def run(model: Model, request: SimRequest, first_ids: Sequence[str] = ()) -> Run:
    """The figures of one deck: exact without a mulligan, sampled with the `auto` one."""
    import numpy as np

    turns, on = request.turns, request.on
    grouped = _group_model(model)
    if request.mulligan == "none":
        cards = [exact_with_se(f, turns) for f in exact(model, turns, on)]
        costs = [exact_with_se(f, turns) for f in exact(grouped, turns, on)]
        return Run(model, cards, costs)
    mull, first = sample(model, turns, on, request.games, request.seed, first_ids)
    groups = cost_groups(model)
    group_first = np.stack([first[:, ks].min(axis=1) for _, ks in groups], axis=1)
    cards = [sampled(first[:, k], c.cost, turns, on) for k, c in enumerate(model.cards)]
    costs = [sampled(group_first[:, i], cost, turns, on) for i, (cost, _) in enumerate(groups)]
    p_mulligan, p_mulligan_se = rate(mull)
    return Run(model, cards, costs, p_mulligan, p_mulligan_se, mull, first, group_first)
