"""`analyse`: a deck checked, then measured by every analysis capability its game has, as the
figures of one report page (`varz-deck report`, the server's figures page)."""

from __future__ import annotations

import datetime

from varz_deck.core.analysis.capabilities import AnalysedGame, SimRequest
from varz_deck.core.analysis.parts import Analysis, Omitted, Part, Verdict
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.files.source import DeckSource
from varz_deck.core.messages.i18n import Message, msg

REPORT_GAMES = 20_000  # the report's goldfish games: quick, and said on the page with the seed

NO_TUNER = msg("report", "This game has no tuner: no on-curve odds or swaps.")
NO_SIM = msg("report", "This game has no simulator: no goldfish figures.")
_SIM_SETTINGS = msg(
    "report",
    "Goldfish: {games:,} games, seed {seed}, {turns} turns, {on}, mulligan {mulligan}.",
)
_ON = {"play": msg("sim", "on the play"), "draw": msg("sim", "on the draw")}


def analyse(
    game: AnalysedGame,
    source: DeckSource,
    database: CardDatabase,
    *,
    date: datetime.date,
    seed: int = 1,
    games: int = REPORT_GAMES,
    on: str = "play",
) -> Analysis:
    """Check the deck and run the analysis capabilities its game has (DeckUnusable when the deck
    cannot be read at all)."""
    report = game.check_deck(source, database, None, date)
    verdict = Verdict(report.legal, report.format, tuple(report.diagnostics))
    answer: list[Message] = []
    parts: list[Part] = []
    settings: list[Message] = []
    tuner = game.tuner
    if tuner is not None:
        stats = tuner.stats(source, database, date=date)
        answer += stats.answer()
        parts += stats.parts()
        if "tune" in tuner.options:
            mulligan = "auto" if "mulligan" in tuner.options else "none"
            tuned = tuner.tune(source, database, target=0.9, on=on, mulligan=mulligan, date=date)
            answer += tuned.answer()
            parts += tuned.parts()
        else:
            parts.append(Omitted("tune", msg("report", "On-curve odds"), NO_TUNER))
    else:
        parts.append(Omitted("tune", msg("report", "On-curve odds"), NO_TUNER))
    goldfish = game.goldfish
    if goldfish is not None:
        request = SimRequest(
            deck=source, games=games, seed=seed, turns=8, on=on, mulligan="auto", date=date
        )
        outcome = goldfish.simulate(request, database)
        answer += outcome.answer()
        parts += outcome.parts()
        settings.append(_SIM_SETTINGS(games=games, seed=seed, turns=8, on=_ON[on], mulligan="auto"))
    else:
        parts.append(Omitted("sim", msg("report", "Goldfish figures"), NO_SIM))
    return Analysis(
        game=game.key,
        game_name=game.name,
        title=report.name or source.name,
        deck=source.name,
        date=date,
        verdict=verdict,
        answer=tuple(answer),
        parts=tuple(parts),
        settings=tuple(settings),
    )
