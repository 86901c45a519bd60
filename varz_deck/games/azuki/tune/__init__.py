"""`varz-deck stats` and `varz-deck tune` for Azuki (docs/reference/commands/tune.md): exact, no sampling.

Azuki's resource is the IKZ: 1 a turn up to 10, plus the second player's token (`sim.ikz_on`); it
does not depend on any shuffle and the IKZ deck is fixed, so there is no swap to try and no source
table: `tune` gives, per main-deck card, the exact probability that it is castable on its curve
turn T0 (the first turn the IKZ pays its cost) = P(drawn by T0), hypergeometric, and the expected
delay past T0 (`core.tuning.on_curve`; the sum runs to the turn every card has been seen, exact
with no cut). The `auto` mulligan of `sim` is only sampled there, so `tune` takes `--mulligan none`.

`model.py` reads the deck, `odds.py` computes the figures, `stats.py` is `stats`, `report.py` turns
a tune into JSON and text, `plot.py` draws the cost curve, and `tuner.py` is the `Tuner` the game
hands out (made with the game). There is no `swaps.py` or `tables.py`: the IKZ deck is fixed.
"""

from __future__ import annotations

from varz_deck.games.azuki.tune.model import load
from varz_deck.games.azuki.tune.odds import Figures, card_figures, curve_turn, last_turn, p_drawn
from varz_deck.games.azuki.tune.report import NO_SWAPS, AzukiTune
from varz_deck.games.azuki.tune.stats import AzukiStats
from varz_deck.games.azuki.tune.tuner import AzukiTuner

__all__ = [
    "NO_SWAPS",
    "AzukiStats",
    "AzukiTune",
    "AzukiTuner",
    "Figures",
    "card_figures",
    "curve_turn",
    "last_turn",
    "load",
    "p_drawn",
]
