"""The VARZ `Tuner` (varz_deck/core/game.py): `stats` and `tune` read a deck and compute."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from varz_deck.core.cards.model import CardDatabase
from varz_deck.games.varz.sim.model import Model
from varz_deck.games.varz.tune.model import Loaded, load, model_of
from varz_deck.games.varz.tune.odds import DrawCache, mean_on_curve, spell_odds
from varz_deck.games.varz.tune.report import VarzTune
from varz_deck.games.varz.tune.stats import VarzStats
from varz_deck.games.varz.tune.swaps import sweep
from varz_deck.games.varz.tune.tables import table

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.declared import DeclaredGame


def tune_model(loaded: Loaded, model: Model, *, target: float, on: str, mulligan: str) -> VarzTune:
    cache = DrawCache()
    odds = spell_odds(model, on, cache(model, on, mulligan))
    mean = mean_on_curve(model, odds)
    swaps = sweep(loaded.view, model, on, mulligan, cache)
    goal = Fraction(str(target))
    tables = {side: table(side, goal) for side in ("play", "draw")}
    warnings = (loaded.warning,) if loaded.warning is not None else ()
    return VarzTune(loaded, model, on, mulligan, target, odds, mean, tuple(swaps), tables, warnings)


class VarzTuner:
    """docs/reference/commands/tune.md for VARZ."""

    options = frozenset({"tune", "target", "on", "mulligan", "plot"})

    def __init__(self, game: DeclaredGame) -> None:
        self.game = game  # what reads and checks the decks: VARZ's

    def stats(
        self, source: DeckSource, database: CardDatabase, *, date: datetime.date
    ) -> VarzStats:
        loaded = load(self.game, source, database, date=date)
        warnings = (loaded.warning,) if loaded.warning is not None else ()
        return VarzStats(loaded, warnings)

    def tune(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        target: float,
        on: str,
        mulligan: str,
        date: datetime.date,
    ) -> VarzTune:
        loaded = load(self.game, source, database, bounded=True, date=date)
        return tune_model(
            loaded, model_of(loaded, source.name), target=target, on=on, mulligan=mulligan
        )
