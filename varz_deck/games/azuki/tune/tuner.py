"""The Azuki `Tuner` (varz_deck/core/game.py): `stats` and `tune` read a deck (with the game that
made it) and compute; `stats` only counts, so it reads a deck of any size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.core.cards.model import CardDatabase
from varz_deck.games.azuki.sim.model import DeckChecker
from varz_deck.games.azuki.tune.model import load
from varz_deck.games.azuki.tune.odds import card_figures
from varz_deck.games.azuki.tune.report import AzukiTune
from varz_deck.games.azuki.tune.stats import AzukiStats

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource


class AzukiTuner:
    """docs/reference/commands/tune.md for Azuki: per-card figures and the cost curve; no swaps (fixed IKZ deck)."""

    options = frozenset({"tune", "on", "plot"})

    def __init__(self, game: DeckChecker) -> None:
        self.game = game

    def stats(
        self, source: DeckSource, database: CardDatabase, *, date: datetime.date
    ) -> AzukiStats:
        model, report, warnings = load(self.game, source, database, bounded=False, date=date)
        return AzukiStats(model, report, warnings)

    def tune(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        target: float,
        on: str,
        mulligan: str,
        date: datetime.date,
    ) -> AzukiTune:
        model, _, warnings = load(self.game, source, database, date=date)
        return AzukiTune(model, on, target, tuple(card_figures(model, on)), warnings)
