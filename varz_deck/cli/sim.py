"""`varz-deck sim`: goldfish statistics for a deck (docs/reference/commands/, docs/reference/json.md, docs/guides/player.md), from the game's `Goldfish`."""

from __future__ import annotations

from pathlib import Path
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
    check_date,
    deck_database,
    fail,
    game_of,
    language,
    one_deck,
    plot_format,
    progress_bar,
    refuse_option,
    unusable,
    warn_outcome,
    width,
    write_outcome,
)
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    pass

MAX_GAMES = 100_000_000
SIM_HELP = N_(
    "Goldfish a deck: draw odds and the game's milestones turn by turn; exact where a closed "
    "form exists."
)


def sim(
    deck: DeckArgument,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help=N_("Games to simulate."))
    ] = 100_000,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help=N_("Random seed: same seed, same output."))
    ] = 1,
    turns: Annotated[int, typer.Option("--turns", min=1, max=30, help=N_("Turns per game."))] = 8,
    on: OnOption = On.play,
    mulligan: Annotated[
        Mulligan,
        typer.Option(
            "--mulligan", help=N_("auto: send back a hand with no turn-1 play; none: keep all.")
        ),
    ] = Mulligan.auto,
    output: ReportOutputOption = TextOrJson.text,
    vs: Annotated[
        Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
        typer.Option(
            "--vs",
            help=N_("Compare with this deck on the same random numbers."),
            show_default=False,
        ),
    ] = None,
    plot: PlotOption = None,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
    debug: Annotated[bool, typer.Option("--debug", hidden=True, help="Print timings.")] = False,
) -> None:
    """Goldfish a deck: draw odds and the game's milestones turn by turn; exact where a closed
    form exists.

    JSON output stays in English (it is for programs); the text report follows --lang.
    """
    import time

    from varz_deck.core.analysis.capabilities import DeckUnusable, SimRequest
    from varz_deck.core.analysis.tuning import DeckTooLarge

    chosen = language(lang)
    day = check_date(date, chosen)
    if games > MAX_GAMES:
        too_many = msg("sim", "--games {games} is too many; at most {most}")
        fail(too_many(games=f"{games:,}", most=f"{MAX_GAMES:,}"), EXIT_USAGE, chosen)
    fmt = plot_format(plot, chosen)
    source = one_deck(deck, chosen)
    other = one_deck(vs, chosen) if vs is not None else None
    database = deck_database(source, cards, chosen, game, progress=output is TextOrJson.text)
    goldfish = game_of(database).goldfish
    if (
        goldfish is None
    ):  # a game without a simulator (docs/reference/games.md: exit 2 naming the game)
        refuse_option(game_of(database), "sim", chosen)
    given = {"vs": other is not None, "plot": plot is not None}
    for option, used in given.items():
        if used and option not in goldfish.options:
            refuse_option(game_of(database), f"--{option}", chosen)
    progress = progress_bar(msg("sim", "simulating"), chosen, output is TextOrJson.text)
    request = SimRequest(
        deck=source,
        games=games,
        seed=seed,
        turns=turns,
        on=on.value,
        mulligan=mulligan.value,
        vs=other,
        progress=progress,
        date=day,
    )
    started = time.perf_counter()
    try:
        outcome = goldfish.simulate(request, database)
    except DeckTooLarge as err:  # a usage error: the deck is far over its sections' sizes
        assert err.message is not None
        fail(err.message, EXIT_USAGE, chosen)
    except DeckUnusable as err:
        unusable(err, source, chosen)
    finally:
        if progress is not None:
            progress.close()
    elapsed = time.perf_counter() - started
    warn_outcome(outcome, chosen)
    if debug:
        typer.echo(f"debug: simulated in {elapsed:.2f} s", err=True)
    write_outcome(outcome, output, plot, fmt, chosen, day, width())
