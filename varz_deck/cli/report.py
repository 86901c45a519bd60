"""`varz-deck report DECK [--output FILE]`: one self-contained HTML page of a deck's analysis."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from varz_deck.cli.common import (
    EXIT_USAGE,
    CardsOption,
    DateOption,
    DeckArgument,
    GameOption,
    LangOption,
    fail,
    open_deck,
    unusable,
)
from varz_deck.core.messages.i18n import N_, msg

REPORT_HELP = N_(
    "Write one HTML page of a deck: legality, curve, odds per card, best swaps, resources per turn."
)


def report(
    deck: DeckArgument,
    output: Annotated[
        Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
        typer.Option(
            "--output",
            "-o",
            help=N_("Write the page to FILE (default: standard output)."),
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=100, max=1_000_000, help=N_("Goldfish games to simulate.")
        ),
    ] = 20_000,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help=N_("Random seed: same seed, same page."))
    ] = 1,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Write one HTML page of a deck: legality, curve, odds per card, best swaps, resources per
    turn. It is self-contained (no script, no outside resource) and prints as it shows."""
    import sys

    from varz_deck.core.analysis.analyse import analyse
    from varz_deck.core.analysis.capabilities import DeckUnusable
    from varz_deck.core.analysis.glossary import entries
    from varz_deck.core.analysis.htmlreport import render
    from varz_deck.core.analysis.tuning import DeckTooLarge
    from varz_deck.core.files.output import write_file_atomic

    chosen, day, source, database, the_game, _ = open_deck(
        deck, date, cards, game, lang, progress=output is not None
    )
    try:
        analysis = analyse(the_game, source, database, date=day, seed=seed, games=games)
    except DeckTooLarge as err:
        assert err.message is not None
        fail(err.message, EXIT_USAGE, chosen)
    except DeckUnusable as err:
        unusable(err, source, chosen)
    page = render(analysis, entries(the_game), chosen)
    if output is None:
        sys.stdout.write(page)
        return
    try:
        write_file_atomic(output, page.encode("utf-8"))
    except OSError as err:
        cannot = msg("report", "cannot write {file}: {error}")
        fail(cannot(file=str(output), error=err.strerror or str(err)), EXIT_USAGE, chosen)
    typer.echo(msg("report", "wrote {file}")(file=str(output)).render(chosen), err=True)
