"""Azuki goldfish: draw and IKZ odds, exact where a closed form exists (rules page, "Starting a
game", "Turns").

Model: the 50-card main deck is shuffled and 7 drawn. The first player (`on="play"`) skips the
first turn's draw; the second draws on turn 1. Each player gains 1 IKZ a turn up to 10 (the first
player's first turn starts with that gain), and the second player has the IKZ token: one extra IKZ
once, on any turn. So on turn t the most a player can pay for one card is min(t, 10), plus 1 on
the draw (the token spent that turn).

* Exact (no mulligan, `exact.py`): P(a card in the opening 7) and P(drawn by turn t) are
  hypergeometric; P(castable on turn t) = P(drawn by turn t) × [cost ≤ IKZ on turn t] (the IKZ do
  not depend on the shuffle). Every exact figure has `_se` 0.
* Mulligan `auto` (Monte Carlo, vectorised NumPy, `montecarlo.py`): a hand with no card castable by
  turn 3 goes to the bottom of the deck whole, 7 new cards are drawn, then the deck is shuffled
  (once per game). Figures then carry a standard error.

The rest: `model.py` reads and checks the deck and builds its model, `run.py` runs one deck,
`report.py` turns runs into the JSON (one deck, or two compared) and into text, `plot.py` draws the
charts, and `goldfish.py` is the `Goldfish` the game hands out (made with the game).
"""

from __future__ import annotations

from varz_deck.games.azuki.sim.exact import HAND, MAX_IKZ, ikz_on, p_among, seen_by
from varz_deck.games.azuki.sim.goldfish import AzukiGoldfish, AzukiOutcome
from varz_deck.games.azuki.sim.model import SECTION_SIZES, Model, SimCard, build_model, cost_groups
from varz_deck.games.azuki.sim.montecarlo import MULLIGAN_BY_TURN, monte_carlo, sample
from varz_deck.games.azuki.sim.report import compare, to_json
from varz_deck.games.azuki.sim.run import Run

__all__ = [
    "HAND",
    "MAX_IKZ",
    "MULLIGAN_BY_TURN",
    "SECTION_SIZES",
    "AzukiGoldfish",
    "AzukiOutcome",
    "Model",
    "Run",
    "SimCard",
    "build_model",
    "compare",
    "cost_groups",
    "ikz_on",
    "monte_carlo",
    "p_among",
    "sample",
    "seen_by",
    "to_json",
]
