"""`varz-deck complete`: a half-built deck filled into a legal one (docs/guides/complete.md)."""

from __future__ import annotations

import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    CardsOption,
    DateOption,
    DeckArgument,
    GameOption,
    LangOption,
    fail,
    known_format,
    open_deck,
    refuse_option,
    say_diagnostics,
)
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.complete import Completed, DeckNotUsable

COMPLETE_HELP = N_(
    "Fill a half-built deck into a legal one on the day, keeping every card written."
)


class CompleteOutput(str, Enum):
    yaml = "yaml"
    txt = "txt"
    json = "json"


def complete(
    deck: DeckArgument,
    format: Annotated[
        Optional[str],  # noqa: UP045 - typer needs Optional on Python 3.10
        typer.Option(
            "--format",
            "-f",
            help=N_("Complete for this format, whatever the deck says."),
            metavar="NAME",
        ),
    ] = None,
    output: Annotated[
        CompleteOutput,
        typer.Option("--output", "-o", help=N_("Output format of the completed deck.")),
    ] = CompleteOutput.yaml,
    explain: Annotated[
        bool,
        typer.Option("--explain", help=N_("Say why each card was added, one line per card.")),
    ] = False,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Fill a half-built deck into a legal one on the day, keeping every card written.

    The completed deck goes to standard output; what could not be kept, what ordered the cards
    added and (--explain) why each was added go to standard error. Exit 1 when no legal deck
    keeps the cards written (the rule that rules it out is named).
    """
    chosen, day, source, database, the_game, _ = open_deck(deck, date, cards, game, lang)
    completion = getattr(the_game, "completion", None)
    if completion is None or not hasattr(the_game, "declaration"):
        refuse_option(the_game, "complete", chosen)
    if format is not None:
        format = known_format(format, database, None, chosen)
    from varz_deck.core.game.complete import DeckNotUsable, NoCompletion
    from varz_deck.core.game.complete import complete as complete_deck

    try:
        done = complete_deck(the_game, source, database, format, day, completion)
    except DeckNotUsable as err:
        _unusable(err, source, chosen)
    except NoCompletion as err:
        fail(err.said, EXIT_PROBLEMS, chosen)
    _say(done, explain, chosen)
    from varz_deck.core.game.writedeck import render

    sys.stdout.write(render(done, output.value, day, chosen))
    raise typer.Exit(EXIT_OK)


_DROPPED = msg("complete", "{section}: {count} × {card} cannot be kept ({code}): replaced")
_ADDED = msg("complete", "{section}: +{count} × {card}: {why}")


def _say(done: Completed, explain: bool, lang: str) -> None:
    """What could not be kept, what ordered the additions, and (--explain) each card added."""
    from varz_deck.core.messages.i18n import CardName
    from varz_deck.core.messages.sanitize import safe

    declaration = done.draft.declaration
    for gone in done.dropped:
        line = _DROPPED(
            section=declaration.section(gone.section).title,
            count=gone.count,
            card=CardName.of(gone.card),
            code=gone.code,
        )
        typer.echo(safe(line.render(lang)), err=True)
    typer.echo(safe(done.measure.render(lang)), err=True)
    if not explain:
        return
    for section, added in done.added():
        why = added.why.render(lang) if added.why is not None else ""
        line = _ADDED(
            section=declaration.section(section).title,
            count=added.count,
            card=CardName.of(added.card),
            why=why,
        )
        typer.echo(safe(line.render(lang)), err=True)


def _unusable(err: DeckNotUsable, deck: DeckSource, lang: str) -> NoReturn:
    """Why the deck cannot be completed as written, on stderr, then exit 1."""
    say_diagnostics(err.diagnostics, deck, lang)
    raise typer.Exit(EXIT_PROBLEMS)
