"""`varz-deck check`: tournament legality of decks (docs/reference/commands/, docs/reference/rules/, docs/reference/json.md, docs/reference/games.md)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    CardsOption,
    DateOption,
    DecksArgument,
    ExcludeOption,
    GameOption,
    LangOption,
    Output,
    OutputOption,
    check_date,
    color,
    deck_arguments,
    known_format,
    language,
    library,
    sources,
    terminal_width,
)
from varz_deck.core.messages.i18n import N_

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games.library import CardLibrary

CHECK_HELP = N_(
    "Check decks of every installed game for tournament legality under their rulebooks."
)


def check(
    decks: DecksArgument,
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--format",
            "-f",
            help=N_("Check under this format, whatever the decks say."),
            metavar="NAME",
        ),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help=N_("Treat warnings as errors (exit 1)."))
    ] = False,
    date: DateOption = None,
    exclude: ExcludeOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Check decks of every game for tournament legality under their rulebooks."""
    from varz_deck.games import check_decks

    chosen = language(lang)
    day = check_date(date, chosen)
    found = deck_arguments(decks, exclude, chosen)
    cards_of = library(cards, chosen, game, progress=output is Output.text)
    database = cards_of.primary()
    bundled = None if cards_of.explicit else cards_of.bundled
    if format is not None:
        near = None if cards_of.explicit else partial(_declared_databases, cards_of, found)
        format = known_format(format, database, bundled, chosen, near)
    declared = None if cards_of.explicit else cards_of.declared
    reports = check_decks(
        sources(found), database, format, open_other=bundled, date=day, open_declared=declared
    )
    sys.stdout.write(render_check(reports, output, chosen, strict))
    failed = any(not r.legal or (strict and r.warnings) for r in reports)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


def _declared_databases(library: CardLibrary, decks: list[Path | DeckSource]) -> list[CardDatabase]:
    """The databases of the games declared in a game.yaml above the deck files."""
    from varz_deck.core.game.yamlgame import declared_folder

    roots = {declared_folder(deck) for deck in decks if isinstance(deck, Path)}
    return [library.open(root) for root in sorted(r for r in roots if r is not None)]


def render_check(
    reports: list[DeckReport], output: Output, lang: str = "en", strict: bool = False
) -> str:
    diagnostics = [d for r in reports for d in r.diagnostics]
    if output is Output.json:
        from varz_deck.core.report import json_report

        return json_report.render_check(reports, lang)
    if output is Output.github:
        from varz_deck.core.report import github

        return github.render(diagnostics)
    if output is Output.sarif:
        from varz_deck.core.report import sarif
        from varz_deck.games import all_codes

        return sarif.render(diagnostics, all_codes(dict.fromkeys(r.game for r in reports)))
    from varz_deck.core.report import text

    # diagnostic lines wrap on a terminal (or at $COLUMNS); piped, each stays one line for grep
    shown = terminal_width()
    return text.render_check(reports, color=color(), width=shown, lang=lang, strict=strict)
