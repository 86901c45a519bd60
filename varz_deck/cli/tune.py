"""`varz-deck stats` and `varz-deck tune` (docs/reference/commands/tune.md), from the game's `Tuner`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.common import (
    EXIT_USAGE,
    CardsOption,
    DateOption,
    DeckArgument,
    GameOption,
    LangOption,
    Mulligan,
    On,
    OnOption,
    PlotOption,
    ReportOutputOption,
    TextOrJson,
    fail,
    open_deck,
    refuse_option,
    unusable,
    warn_outcome,
    width,
    write_outcome,
)
from varz_deck.core.messages.i18n import N_

if TYPE_CHECKING:
    from varz_deck.core.analysis.capabilities import DeckUnusable

DEFAULT_TARGET = 0.9
STATS_HELP = N_("Counts, cost curve and the game's own figures of a deck, instantly.")
TUNE_HELP = N_(
    "Exact on-curve odds per card, the legal one-card swaps, and the sources a splash needs."
)


def stats(
    deck: DeckArgument,
    output: ReportOutputOption = TextOrJson.text,
    plot: PlotOption = None,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Counts, cost curve and the game's own figures of a deck, instantly."""
    chosen, day, source, database, the_game, fmt = open_deck(
        deck, date, cards, game, lang, output is TextOrJson.text, plot
    )
    tuner = the_game.tuner
    if tuner is None:  # a game without stats (docs/reference/games.md: exit 2 naming the game)
        refuse_option(the_game, "stats", chosen)
    if plot is not None and "plot" not in tuner.options:
        refuse_option(the_game, "--plot", chosen)
    try:
        outcome = tuner.stats(source, database, date=day)
    except _unusable_type() as err:
        unusable(err, source, chosen)
    warn_outcome(outcome, chosen)
    write_outcome(outcome, output, plot, fmt, chosen, day, min(width(), 100))


def tune(
    deck: DeckArgument,
    target: Annotated[
        float,
        typer.Option(
            "--target",
            min=0.01,
            max=0.99,
            help=N_("Probability the source tables aim for (0.01 to 0.99)."),
        ),
    ] = DEFAULT_TARGET,
    on: OnOption = On.play,
    mulligan: Annotated[
        Optional[Mulligan],  # noqa: UP045
        typer.Option(
            "--mulligan",
            help=N_(
                "auto: send back a hand with no early play; none: keep all (default: auto, as "
                "sim; none for a game without a mulligan)."
            ),
            show_default=False,
        ),
    ] = None,
    output: ReportOutputOption = TextOrJson.text,
    plot: PlotOption = None,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Exact on-curve odds per card, the legal one-card swaps, and the sources a splash needs.

    JSON output stays in English (it is for programs); the text report follows --lang.
    """
    chosen, day, source, database, the_game, fmt = open_deck(
        deck, date, cards, game, lang, output is TextOrJson.text, plot
    )
    tuner = the_game.tuner
    if (
        tuner is None or "tune" not in tuner.options
    ):  # docs/reference/games.md: exit 2 naming the game
        refuse_option(the_game, "tune", chosen)
    if mulligan is Mulligan.auto and "mulligan" not in tuner.options:
        refuse_option(the_game, "--mulligan auto", chosen)
    if mulligan is None:
        mulligan = Mulligan.auto if "mulligan" in tuner.options else Mulligan.none
    if target != DEFAULT_TARGET and "target" not in tuner.options:
        refuse_option(the_game, "--target", chosen)
    if plot is not None and "plot" not in tuner.options:
        refuse_option(the_game, "--plot", chosen)
    from varz_deck.core.analysis.tuning import DeckTooLarge

    try:
        outcome = tuner.tune(
            source,
            database,
            target=round(target, 6),
            on=on.value,
            mulligan=mulligan.value,
            date=day,
        )
    except DeckTooLarge as err:  # a usage error: the deck is far over its sections' sizes
        assert err.message is not None
        fail(err.message, EXIT_USAGE, chosen)
    except _unusable_type() as err:
        unusable(err, source, chosen)
    warn_outcome(outcome, chosen)
    write_outcome(outcome, output, plot, fmt, chosen, day, min(width(), 100))


def _unusable_type() -> type[DeckUnusable]:
    from varz_deck.core.analysis.capabilities import DeckUnusable

    return DeckUnusable
