"""`varz-deck stats` and `varz-deck tune` for VARZ (docs/reference/commands/tune.md), exact: no figure here is sampled.

The model is docs/guides/player.md (`sim/model.py`) and the closed forms are `sim/exact.py`'s; this package adds:

* **On curve** (`odds.py`). A spell's curve turn T0 is the first turn whose Holder holds at least
  its cost (min(2t, 9) skills on the play, min(2t + 1, 9) on the draw). P(on curve) = P(drawn by T0)
  × P(the Holder on T0 pays it): the two decks are shuffled apart and the mulligan looks only at the
  spells, so this is exact under both mulligan policies (`exact.p_seen`). A spell of the hero's
  colour (or colourless) is paid by any C skills; one of colour X ≠ hero needs C VAZ skills of X
  among the Holder's (hypergeometric over the skill deck, rulebook 6.1).
* **Expected delay** (`odds.py`). E[first turn t ≥ T0 at which it is drawn by t and payable on t] −
  T0 (`core.tuning.on_curve`). The sum runs to the turn by which every spell has been seen and the
  Holder is full (turn 26 on the play with 30 spells, before the deck runs out); past it nothing
  changes, so the figure is exact with no horizon cut. It is null when the spell can never be paid.
* **Swaps** (`swaps.py`). Every one-card change of the skill deck: one skill out (one copy), one
  skill of the database in that the hero may use (its class or generic; VAZ skills of any colour),
  keeping V111 (one copy of a non-VAZ skill), V112 (non-VAZ skills ≤ Memory), V113 (class), V114
  (every off-colour spell keeps a VAZ skill of its colour) and the format on the day (V115–V118,
  as core/cards/formats.py's `Legality` says them for check). Only the
  skill deck changes, so the draw factor is cached; with the `auto` mulligan it depends on which
  spells count as openers (a turn-1 pay probability of ½ or more), and is cached by that set, the
  side, the mulligan and the copies (`DrawCache`). Swaps are ranked by the on-curve probabilities
  sorted lowest first, compared in that order (the lowest spell's first, ties broken by the next
  lowest), then by the mean over the deck's cards (each copy counts once); a second ranking by that
  mean alone is in the text.
* **Tables** (Karsten-style, `tables.py`). For a colour X other than the hero's, cost C (1–9) and
  turn T (1–8): the fewest VAZ skills of X in a 9-card skill deck so that the Holder on turn T holds
  at least C of them with the target probability. This is the VAZ part only (Karsten's tables assume
  the card is in hand): P(castable by T) for a card drawn by T. The figures are the same for every
  colour X.

The rest: `model.py` reads and checks the deck and builds its model, `stats.py` is `stats`,
`report.py` turns a tune into JSON and text, `plot.py` draws the charts, and `tuner.py` is the
`Tuner` the game hands out (`Varz.tuner`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.games.varz.tune.model import Loaded, load, model_of
    from varz_deck.games.varz.tune.odds import (
        DrawCache,
        SpellOdds,
        draw_curves,
        last_turn,
        mean_on_curve,
        openers,
        spell_odds,
    )
    from varz_deck.games.varz.tune.report import VarzTune, render_tune
    from varz_deck.games.varz.tune.stats import VarzStats
    from varz_deck.games.varz.tune.swaps import Swap, skill_class_of, swap_candidates, sweep
    from varz_deck.games.varz.tune.tables import table, vaz_needed
    from varz_deck.games.varz.tune.tuner import VarzTuner, tune_model

# Each name's module, imported on first use: `complete` reads the odds and swaps without the
# report's charts (and numpy behind them).
_HOMES = {
    "model": ("Loaded", "load", "model_of"),
    "odds": ("DrawCache", "SpellOdds", "draw_curves", "last_turn", "mean_on_curve", "openers",
             "spell_odds"),
    "report": ("VarzTune", "render_tune"),
    "stats": ("VarzStats",),
    "swaps": ("Swap", "skill_class_of", "swap_candidates", "sweep"),
    "tables": ("table", "vaz_needed"),
    "tuner": ("VarzTuner", "tune_model"),
}  # fmt: skip
_HOME = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "DrawCache",
    "Loaded",
    "SpellOdds",
    "Swap",
    "VarzStats",
    "VarzTune",
    "VarzTuner",
    "draw_curves",
    "last_turn",
    "load",
    "mean_on_curve",
    "model_of",
    "openers",
    "render_tune",
    "skill_class_of",
    "spell_odds",
    "swap_candidates",
    "sweep",
    "table",
    "tune_model",
    "vaz_needed",
]
