"""A simulation run: the exact figures and the Monte Carlo sums of one deck, or of two compared."""

from __future__ import annotations

from dataclasses import dataclass

from varz_deck.games.varz.sim.exact import Exact, exact
from varz_deck.games.varz.sim.model import Model
from varz_deck.games.varz.sim.montecarlo import Options, Progress, Sums, compare_sums, simulate_sums


@dataclass(frozen=True)
class Result:
    """One deck's run: its model, the options, its closed forms and its sampled sums."""

    model: Model
    options: Options
    exact: Exact
    sums: Sums


@dataclass(frozen=True)
class Comparison:
    """Two decks run on common random numbers; `difference` holds the sums of b − a per game.

    `common` pairs the index in a and the index in b of every card (by name) in both decks."""

    a: Result
    b: Result
    difference: Sums
    common: tuple[tuple[int, int], ...]


def _exact(model: Model, options: Options) -> Exact:
    return exact(model, options.turns, options.on, options.mulligan)


def simulate(model: Model, options: Options, progress: Progress | None = None) -> Result:
    """Simulate `options.games` goldfish games of one deck."""
    _, sums = simulate_sums(model, options, progress)
    return Result(model, options, _exact(model, options), sums)


def compare(a: Model, b: Model, options: Options, progress: Progress | None = None) -> Comparison:
    """Simulate two decks on the same random numbers (how a player tests a swap)."""
    pair = compare_sums(a, b, options, progress)
    return Comparison(
        Result(a, options, _exact(a, options), pair.sums_a),
        Result(b, options, _exact(b, options), pair.sums_b),
        pair.difference,
        tuple(pair.common),
    )
