"""`varz-deck stats` and `varz-deck tune` (docs/reference/commands/tune.md), from the game's `Tuner`."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from varz_deck.cli.common import (
    EXIT_USAGE,
    CardsOption,
    DateOption,
    DeckArgument,
    GameOption,
    LangOption,
    check_date,
    color,
    dated,
    deck_database,
    fail,
    game_of,
    language,
    one_deck,
    plot_format,
    refuse_option,
    width,
    write_plot,
)
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.analysis.capabilities import DeckUnusable, Outcome
    from varz_deck.core.files.source import DeckSource

EXIT_UNREADABLE = 1
DEFAULT_TARGET = 0.9
STATS_HELP = N_("Counts, cost curve and the game's own figures of a deck, instantly.")
TUNE_HELP = N_(
    "Exact on-curve odds per card, the legal one-card swaps, and the sources a splash needs."
)


class On(str, Enum):
    play = "play"
    draw = "draw"


class Mulligan(str, Enum):
    none = "none"
    auto = "auto"


class TuneOutput(str, Enum):
    text = "text"
    json = "json"


OutputOption = Annotated[
    TuneOutput, typer.Option("--output", "-o", help=N_("Output format (JSON stays in English)."))
]
PlotOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Option(
        "--plot", help=N_("Also write the charts to FILE.svg or FILE.png."), show_default=False
    ),
]


def stats(
    deck: DeckArgument,
    output: OutputOption = TuneOutput.text,
    plot: PlotOption = None,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Counts, cost curve and the game's own figures of a deck, instantly."""
    chosen = language(lang)
    day = check_date(date, chosen)
    source = one_deck(deck, chosen)
    fmt = plot_format(plot, chosen)
    database = deck_database(source, cards, chosen, game, output is TuneOutput.text)
    the_game = game_of(database)
    tuner = the_game.tuner
    if tuner is None:  # a game without stats (docs/reference/games.md: exit 2 naming the game)
        refuse_option(the_game, "stats", chosen)
    if plot is not None and "plot" not in tuner.options:
        refuse_option(the_game, "--plot", chosen)
    try:
        outcome = tuner.stats(source, database, date=day)
    except _unusable_type() as err:
        _unusable(err, source, chosen)
    _emit(outcome, output, plot, fmt, chosen, day)


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
    on: Annotated[On, typer.Option("--on", help=N_("Go first (play) or second (draw)."))] = On.play,
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
    output: OutputOption = TuneOutput.text,
    plot: PlotOption = None,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Exact on-curve odds per card, the legal one-card swaps, and the sources a splash needs.

    JSON output stays in English (it is for programs); the text report follows --lang.
    """
    chosen = language(lang)
    day = check_date(date, chosen)
    source = one_deck(deck, chosen)
    fmt = plot_format(plot, chosen)
    database = deck_database(source, cards, chosen, game, output is TuneOutput.text)
    the_game = game_of(database)
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
        _unusable(err, source, chosen)
    _emit(outcome, output, plot, fmt, chosen, day)


def _unusable_type() -> type[DeckUnusable]:
    from varz_deck.core.analysis.capabilities import DeckUnusable

    return DeckUnusable


def _emit(
    outcome: Outcome,
    output: TuneOutput,
    plot: Path | None,
    fmt: str | None,
    lang: str,
    day: datetime.date,
) -> None:
    import sys

    for warning in outcome.warnings:
        typer.echo(msg("sim", "warning: {message}")(message=warning).render(lang), err=True)
    if output is TuneOutput.json:
        from varz_deck.core.messages.sanitize import json_dumps

        sys.stdout.write(json_dumps(dated(outcome.to_json(), day), allow_nan=False) + "\n")
    else:
        sys.stdout.write(outcome.render_text(color=color(), width=min(width(), 100), lang=lang))
    if plot is not None and fmt is not None:
        write_plot(plot, lambda: outcome.plot(fmt, lang), lang)


def _unusable(err: DeckUnusable, deck: DeckSource, lang: str) -> NoReturn:
    """The reasons a deck cannot be used on stderr, then exit 1."""
    from varz_deck.core.messages.i18n import localized
    from varz_deck.core.messages.sanitize import safe

    for d in err.diagnostics:
        place = f":{d.line}:{d.column}" if d.line else ""
        typer.echo(
            f"{safe(d.file or deck.name)}{place}: {d.code} {safe(localized(d, lang))}", err=True
        )
    if err.message is not None:
        fail(err.message, EXIT_UNREADABLE, lang)
    raise typer.Exit(EXIT_UNREADABLE)
