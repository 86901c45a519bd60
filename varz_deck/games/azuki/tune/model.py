"""The deck `stats` and `tune` read: its model (sim/model.py), its check report, its warnings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.core.analysis.capabilities import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.games.azuki.sim.model import DeckChecker, Model, build_model

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource

_EMPTY = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")


def load(
    game: DeckChecker,
    source: DeckSource,
    database: CardDatabase,
    *,
    bounded: bool = True,
    date: datetime.date,
) -> tuple[Model, DeckReport, tuple[Message, ...]]:
    model, report = build_model(game, source, database, bounded=bounded, date=date)
    if model.size == 0 and report.view is not None and not report.view.slots["main"]:
        raise DeckUnusable(message=_EMPTY(path=source.name))
    warnings = (NOT_LEGAL_TUNED(path=source.name, n=report.errors),) if report.errors else ()
    return model, report, warnings
