"""`varz-deck cards show REF` and `varz-deck cards search`: card look-up for people.

The finding and the rendering are in varz_deck.games.varz.cardinfo; this module reads options and prints.
Exit codes: 0 found, 1 no card (or an ambiguous reference), 2 usage error or unusable database.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli import EXIT_PROBLEMS, CardsOption, LangOption, language, load_database
from varz_deck.core.i18n import N_
from varz_deck.games import DEFAULT_GAME

if TYPE_CHECKING:
    from rich.console import Console

SHOW_HELP = N_(
    "Show one card in full: every field, every name, its printings, and the formats that "
    "ban or restrict it. REF is a card id or a name in any language."
)
SEARCH_HELP = N_(
    "List the cards that match TEXT (in any language, ignoring case and width) and every "
    "filter given. Exit 1 when none match."
)


def _console() -> Console:
    from rich.console import Console

    width = None if sys.stdout.isatty() else 120
    return Console(highlight=False, markup=False, emoji=False, width=width)


def cards_show(
    ref: Annotated[str, typer.Argument(help=N_("Card id or name."), show_default=False)],
    cards: CardsOption = None,
    lang: LangOption = None,
) -> None:
    """Show one card in full."""
    from varz_deck.core.diagnostics import safe
    from varz_deck.games.varz.cardinfo import CardNotFound, card_panel, find_card

    chosen = language(lang)
    database = load_database(cards, chosen, supported=(DEFAULT_GAME,))
    try:
        card = find_card(database, ref)
    except CardNotFound as err:
        typer.echo(f"varz-deck: {safe(err.message.render(chosen))}", err=True)
        raise typer.Exit(EXIT_PROBLEMS) from None
    console = _console()
    console.print(card_panel(card, database, chosen))


def cards_search(
    text: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(help=N_("Text to find in ids, names and card text."), show_default=False),
    ] = None,
    type: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--type", help=N_("Card type: hero, skill, portal, spil, command, slash.")),
    ] = None,
    color: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--color", help=N_("Colour: red, blue, green, purple, yellow, silver, colorless.")
        ),
    ] = None,
    cost: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--cost", help=N_("Cost, exactly."), min=0),
    ] = None,
    klass: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--class", help=N_("Skill class (fighter, ninja, ...) or generic.")),
    ] = None,
    keyword: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--keyword", help=N_("Keyword (haste, move, atk, ...).")),
    ] = None,
    cards: CardsOption = None,
    lang: LangOption = None,
) -> None:
    """List the cards that match."""
    from varz_deck.core.i18n import nmsg
    from varz_deck.games.varz.cardinfo import Query, search, search_table

    chosen = language(lang)
    database = load_database(cards, chosen, supported=(DEFAULT_GAME,))
    query = Query(text=text, type=type, color=color, cost=cost, klass=klass, keyword=keyword)
    found = search(database, query)
    console = _console()
    if found:
        console.print(search_table(found, chosen))
    summary = nmsg("cards", "{n} card found", "{n} cards found")(n=len(found))
    console.print(summary.render(chosen))
    if not found:
        raise typer.Exit(EXIT_PROBLEMS)
