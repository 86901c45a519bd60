"""The goldfish simulator behind `varz-deck sim` (docs/reference/commands/, docs/reference/json.md, docs/guides/player.md).

The model is docs/guides/player.md What is decided by the two shuffles alone is computed exactly (`exact.py`:
hypergeometric odds; the spell and skill decks are shuffled apart, so P(castable by turn t) is
P(drawn by turn t) × P(the Holder pays it on turn t), with or without the mulligan). What depends on
play is sampled (`montecarlo.py`) and carries a standard error.

Policy (`policy.py` is its plain-Python specification):

* Casting: each turn every 0-cost spell is cast, then the set of spells that spends the most VAZ,
  colour rules of docs/guides/player.md included (off-colour VAZ pays only its own colour). Ties go to the set
  that spends most on off-colour spells, then to the most expensive cards.
* Discarding: down to 6 at the end of the turn, most expensive first (off-colour before hero colour
  at equal cost).
* `auto` mulligan: a hand with no opener (a card the Holder of turn 1 pays with probability ≥ ½)
  goes back whole and 5 new cards are drawn. With 2 VAZ on turn 1 and more cards wanted than drawn
  from turn 3 on, a hand is rarely worth breaking up: on the bundled example decks, returning the
  cards not castable by turn 2 lowered the curve score by 2–4%, while this rule raises turn-1 VAZ
  spent by up to 1.5% and keeps the curve score within 0.1% of never mulliganing.
* "Drawn by turn t" counts the cards held (the kept hand and the draws); "cast on curve" means a copy
  was cast on the card's curve turn, the first turn whose Holder has at least its cost in skills.
* Curve score: the VAZ spent so far, summed over the turns (Karsten's "compounded mana spent"):
  VAZ spent on turn s counts T − s + 1 times.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.games.varz.sim.model import Model, ModelError, build_model
    from varz_deck.games.varz.sim.montecarlo import Options
    from varz_deck.games.varz.sim.report import (
        compare_to_json,
        dumps,
        render_compare_text,
        render_text,
        to_json,
    )
    from varz_deck.games.varz.sim.run import Comparison, Result, compare, simulate

# name -> the module that defines it; loaded on first use, so that a module that needs only the
# closed forms (sim/exact.py, e.g. `varz-deck tune`) does not pay for NumPy and the Monte Carlo.
_WHERE = {
    "Model": "model", "ModelError": "model", "build_model": "model",
    "Options": "montecarlo",
    "compare_to_json": "report", "dumps": "report", "render_compare_text": "report",
    "render_text": "report", "to_json": "report",
    "Comparison": "run", "Result": "run", "compare": "run", "simulate": "run",
}  # fmt: skip

__all__ = [
    "Comparison",
    "Model",
    "ModelError",
    "Options",
    "Result",
    "build_model",
    "compare",
    "compare_to_json",
    "dumps",
    "render_compare_text",
    "render_text",
    "simulate",
    "to_json",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
