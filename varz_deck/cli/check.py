"""`varz-deck check`: tournament legality of decks (SPEC §3, §4, §5, §8)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    CardsOption,
    ExcludeOption,
    GameOption,
    LangOption,
    Output,
    OutputOption,
    color,
    deck_arguments,
    explicit_database,
    language,
    load_database,
    width,
)
from varz_deck.core.i18n import N_

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase
    from varz_deck.core.check import DeckReport

CHECK_HELP = N_("Check decks for tournament legality under the VARZ rulebook.")


def check(
    decks: Annotated[
        list[Path],
        typer.Argument(
            readable=False,
            help=N_(
                "Deck files (.yaml, .yml, .txt, .dek), folders of them, deck codes, "
                "or - for standard input."
            ),
            show_default=False,
        ),
    ],
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--format", "-f", help=N_("Check under this format, whatever the decks say.")),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help=N_("Treat warnings as errors (exit 1)."))
    ] = False,
    exclude: ExcludeOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Check decks for tournament legality under the VARZ rulebook."""
    from varz_deck.games import check_decks

    chosen = language(lang)
    decks = deck_arguments(decks, exclude, chosen)
    database = load_database(cards, chosen, game, progress=output is Output.text)
    others: dict[str, CardDatabase] = {}

    def bundled(key: str) -> CardDatabase:
        if key not in others:
            others[key] = load_database(None, chosen, key, progress=output is Output.text)
        return others[key]

    explicit = explicit_database(cards, game)
    reports = check_decks(decks, database, format, open_other=None if explicit else bundled)
    sys.stdout.write(render_check(reports, output, chosen))
    failed = any(not r.legal or (strict and r.warnings) for r in reports)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


def render_check(reports: list[DeckReport], output: Output, lang: str = "en") -> str:
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

    return text.render_check(reports, color=color(), width=width(), lang=lang)
