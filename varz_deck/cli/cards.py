"""`varz-deck cards lint`, `cards show REF` and `cards search`: card data for CI and for people.

Each game's `CardLookup` (its `lookup`) finds and renders cards; this module reads options, checks
the filters against the game's words (exit 2 with "did you mean") and prints.
Exit codes: 0 found, 1 no card (or an ambiguous reference), 2 usage error or unusable database.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.cardsdiff import DIFF_HELP as DIFF_HELP
from varz_deck.cli.cardsdiff import cards_diff as cards_diff
from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CardsOption,
    GameOption,
    LangOption,
    Output,
    OutputOption,
    color,
    database_folder,
    fail,
    game_of,
    language,
    load_database,
    progress_bar,
    refuse_option,
    terminal_width,
    width,
)
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from varz_deck.core.messages.diagnostics import Diagnostic

SHOW_HELP = N_(
    "Show one card in full: every field, every name, its printings, and the formats that "
    "ban or restrict it. REF is a card id or a name in any language."
)
SEARCH_HELP = N_(
    "List the cards that match TEXT (in any language, ignoring case and width) and every "
    "filter given. Exit 1 when none match."
)


LINT_HELP = N_(
    "Validate card databases: schema, ids, printings, classes, keywords, formats.\n\n"
    "Exit 0 when clean (warnings allowed), 1 when any error is found (with --strict, any "
    "warning too), 2 when a folder does not exist."
)


def _lint_root(cards: Path | None, lang: str) -> Path:
    """The folder `cards lint` reads without one given: --cards, else $VARZ_DECK_CARDS, else the
    current folder when it holds card files (or a formats.yaml). Never the bundled database: a
    maintainer reading "clean" must be reading about their own data."""
    from varz_deck.core.cards.discovery import holds_card_files
    from varz_deck.games.library import named_root

    named = named_root(cards)
    if named is not None:
        return named
    if holds_card_files(Path.cwd()):
        return Path(".")
    no_cards = msg(
        "cli",
        "this folder is not a card database (no formats.yaml, and no YAML file with a cards: "
        "list); give the card-data folder: varz-deck cards lint DIR",
    )
    fail(no_cards, EXIT_USAGE, lang)


def cards_lint(
    dirs: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(
            readable=False,  # an unreadable path is reported (F001), not a usage error
            help=N_(
                "Card database folders (default: --cards, $VARZ_DECK_CARDS, else the current "
                "folder when it holds card files)."
            ),
            show_default=False,
        ),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help=N_("Treat warnings (C1xx) as problems (exit 1)."))
    ] = False,
    cards: CardsOption = None,
    lang: LangOption = None,
) -> None:
    """Validate card databases: schema, ids, printings, classes, keywords, formats.

    Exit 0 when clean (warnings allowed), 1 when any error is found (with --strict, any
    warning too), 2 when a folder does not exist or its game.yaml declares no usable game.
    """
    from varz_deck.games import lint_database

    chosen = language(lang)
    roots = list(dirs) if dirs else [_lint_root(cards, chosen)]
    for root in roots:
        database_folder(root, chosen)
    files: dict[str, list[Diagnostic]] = {}
    unusable = False  # a folder whose game.yaml declares no usable game: exit 2
    for root in roots:
        linting = msg("cli", "linting {root}")(root=str(root))
        bar = progress_bar(linting, chosen, output is Output.text)
        try:
            result = lint_database(root, bar)
        finally:
            if bar is not None:
                bar.close()
        unusable = unusable or result.unusable
        for path, diags in result.files.items():
            files.setdefault(path, []).extend(diags)
    diagnostics = [d for diags in files.values() for d in diags]
    if output is Output.json:
        from varz_deck.core.report import json_report

        rendered = json_report.render_lint(files, chosen)
    elif output is Output.github:
        from varz_deck.core.report import github

        rendered = github.render(diagnostics)
    elif output is Output.sarif:
        from varz_deck.core.report import sarif
        from varz_deck.games import all_codes

        rendered = sarif.render(diagnostics, all_codes())
    else:
        from varz_deck.core.report import text

        rendered = text.render_lint(
            files, ", ".join(map(str, roots)), color=color(), width=terminal_width(), lang=chosen
        )
    sys.stdout.write(rendered)
    failed = any(d.is_error or strict for d in diagnostics)
    raise typer.Exit(EXIT_USAGE if unusable else EXIT_PROBLEMS if failed else EXIT_OK)


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, width=width(), file=sys.stdout)


def _fitted(table: RenderableType, console: Console) -> RenderableType:
    """The table when it fits the console's width without breaking a word; else each row as a
    block: its first two cells on a line, the others under them joined by ` · `."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    if not isinstance(table, Table):
        return table
    unbounded = type(console)(file=io.StringIO(), width=100_000)  # a measure not cut to the width
    if unbounded.measure(table).maximum <= console.width:
        return table
    blocks: list[RenderableType] = []
    for i in range(table.row_count):
        cells = [str(column._cells[i]) for column in table.columns]
        blocks.append(Text("  ".join(cells[:2]), style="bold"))
        headers = [str(column.header) for column in table.columns]
        rest = " · ".join(f"{h}: {c}" for h, c in zip(headers[2:], cells[2:], strict=True) if c)
        if rest:
            blocks.append(Padding(Text(rest), (0, 0, 0, 2)))
    return Group(*blocks)


def cards_show(
    ref: Annotated[str, typer.Argument(help=N_("Card id or name."), show_default=False)],
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Show one card in full."""
    from varz_deck.core.cards.cardinfo import CardNotFound

    chosen = language(lang)
    database = load_database(cards, chosen, game)
    lookup = game_of(database).lookup
    try:
        card = lookup.find(database, ref)
    except CardNotFound as err:
        fail(err.message, EXIT_PROBLEMS, chosen)
    console = _console()
    console.print(lookup.card_panel(card, database, chosen))


def cards_search(
    text: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(help=N_("Text to find in ids, names and card text."), show_default=False),
    ] = None,
    type: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--type",
            help=N_("Card type, as the game's card files name it."),
        ),
    ] = None,
    color: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--color",
            help=N_("Colour or element, as the game's card files name it."),
        ),
    ] = None,
    cost: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--cost", help=N_("Cost, exactly."), min=0),
    ] = None,
    klass: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--class",
            help=N_("Class or trait, as the game's card files name it."),
        ),
    ] = None,
    keyword: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--keyword", help=N_("Keyword (haste, move, atk, ...).")),
    ] = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """List the cards that match."""
    from varz_deck.core.cards.cardinfo import CardQuery, unknown_filter
    from varz_deck.core.messages.i18n import nmsg

    chosen = language(lang)
    database = load_database(cards, chosen, game)
    the_game = game_of(database)
    lookup = the_game.lookup
    words = lookup.filters(database)
    for option, value in (("type", type), ("color", color), ("class", klass)):
        if value is None:
            continue
        if option not in words:
            refuse_option(the_game, f"--{option}", chosen)
        problem = unknown_filter(f"--{option}", value, words[option], the_game.name)
        if problem is not None:
            fail(problem, EXIT_USAGE, chosen)
    query = CardQuery(text=text, type=type, color=color, cost=cost, klass=klass, keyword=keyword)
    found = lookup.search(database, query)
    console = _console()
    if found:
        console.print(_fitted(lookup.search_table(found, chosen), console))
    summary = nmsg("cards", "{n} card found", "{n} cards found")(n=len(found))
    console.print(summary.render(chosen))
    if not found:
        raise typer.Exit(EXIT_PROBLEMS)
