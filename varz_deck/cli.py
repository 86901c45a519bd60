"""The command line: parse options, call the core, render, return an exit code.

Exit codes: 0 success, 1 problems found (an illegal deck, a dirty database), 2 usage error or an
unusable card database, 3 an internal error (a bug: run with --debug and report it).
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from varz_deck import __version__

if TYPE_CHECKING:
    from varz_deck.cards import CardDatabase
    from varz_deck.check import DeckReport
    from varz_deck.diagnostics import Diagnostic

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
_DEBUG = False

app = typer.Typer(
    name="varz-deck",
    help="Deck legality checker, card-data linter and goldfish simulator for the VARZ TCG.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
cards_app = typer.Typer(help="Work with a card database: lint it.", no_args_is_help=True)
app.add_typer(cards_app, name="cards")


class Output(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class SchemaName(str, Enum):
    card = "card"
    deck = "deck"
    formats = "formats"


CardsOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Option(
        "--cards",
        help="Card database folder (default: $VARZ_DECK_CARDS, else the bundled database).",
        show_default=False,
    ),
]
OutputOption = Annotated[Output, typer.Option("--output", "-o", help="Output format.")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"varz-deck {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Check VARZ decks against the rulebook, lint card data, simulate opening hands."""


def _color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    from varz_deck.diagnostics import safe

    typer.echo(f"varz-deck: {safe(message)}", err=True)
    raise typer.Exit(code)


def load_database(cards: Path | None) -> CardDatabase:
    """The card database for a command, or exit 2 with a pointer to `cards lint`."""
    from varz_deck.database import DatabaseError, open_database, resolve_root

    root = resolve_root(cards)
    try:
        return open_database(root)
    except DatabaseError as err:
        first = err.diagnostics[0] if err.diagnostics else None
        where = ""
        if first is not None:
            where = f" (first: {first.file or root}"
            where += f":{first.line}" if first.line else ""
            where += f" {first.code} {first.message})"
        count = len(err.diagnostics)
        _fail(
            f"card database {root} is invalid: {count} problem{'s' if count != 1 else ''}{where}; "
            f"run `varz-deck cards lint {root}` to see them all"
        )


@app.command()
def check(
    decks: Annotated[
        list[Path], typer.Argument(help="Deck files (.yaml, .yml or .txt).", show_default=False)
    ],
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--format", "-f", help="Check under this format, whatever the decks say."),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help="Treat warnings as errors (exit 1).")
    ] = False,
    cards: CardsOption = None,
) -> None:
    """Check decks for tournament legality under the VARZ rulebook."""
    from varz_deck.check import check_decks

    database = load_database(cards)
    reports = check_decks(decks, database, format)
    sys.stdout.write(_render_check(reports, output))
    failed = any(not r.legal or (strict and r.warnings) for r in reports)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


def _render_check(reports: list[DeckReport], output: Output) -> str:
    diagnostics = [d for r in reports for d in r.diagnostics]
    if output is Output.json:
        from varz_deck.report import json_report

        return json_report.render_check(reports)
    if output is Output.github:
        from varz_deck.report import github

        return github.render(diagnostics)
    if output is Output.sarif:
        from varz_deck.report import sarif

        return sarif.render(diagnostics)
    from varz_deck.report import text

    return text.render_check(reports, color=_color(), width=_width())


def _width() -> int:
    try:
        return max(60, os.get_terminal_size().columns)
    except OSError:
        return 100


@cards_app.command("lint")
def cards_lint(
    dirs: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(
            help="Card database folders (default: --cards, $VARZ_DECK_CARDS, bundled).",
            show_default=False,
        ),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help="Treat warnings (C1xx) as problems (exit 1).")
    ] = False,
    cards: CardsOption = None,
) -> None:
    """Validate card databases: schema, ids, printings, classes, keywords, formats.

    Exit 0 when clean (warnings allowed), 1 when any error is found (with --strict, any
    warning too), 2 when a folder does not exist.
    """
    from varz_deck.database import lint_database, resolve_root

    roots = list(dirs) if dirs else [resolve_root(cards)]
    for root in roots:
        if not root.is_dir():
            what = "does not exist" if not root.exists() else "is not a folder"
            _fail(f"card database {root} {what}; give the folder that holds the card files")
    files: dict[str, list[Diagnostic]] = {}
    for root in roots:
        result = lint_database(root)
        for path, diags in result.files.items():
            files.setdefault(path, []).extend(diags)
    diagnostics = [d for diags in files.values() for d in diags]
    if output is Output.json:
        from varz_deck.report import json_report

        rendered = json_report.render_lint(files)
    elif output is Output.github:
        from varz_deck.report import github

        rendered = github.render(diagnostics)
    elif output is Output.sarif:
        from varz_deck.report import sarif

        rendered = sarif.render(diagnostics)
    else:
        from varz_deck.report import text

        rendered = text.render_lint(
            files, ", ".join(map(str, roots)), color=_color(), width=_width()
        )
    sys.stdout.write(rendered)
    failed = any(d.is_error or strict for d in diagnostics)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


@app.command()
def rules(
    code: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help="A code (V105) to explain; without it, list every code.", show_default=False
        ),
    ] = None,
) -> None:
    """List every diagnostic code with its rulebook section, or explain one."""
    import difflib

    from rich.console import Console
    from rich.table import Table

    from varz_deck.codes import all_codes

    codes = all_codes()
    width = None if sys.stdout.isatty() else 160
    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=False, width=width)
    if code is None:
        table = Table(box=None, pad_edge=False)
        for heading in ("code", "severity", "name", "rulebook"):
            table.add_column(heading, no_wrap=True)
        table.add_column("what it flags", overflow="fold")
        for info in codes.values():
            table.add_row(info.code, info.severity.value, info.name, info.section, info.summary)
        console.print(table)
        return
    found = codes.get(code.upper())
    if found is None:
        close = difflib.get_close_matches(code.upper(), list(codes), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `varz-deck rules` lists them"
        _fail(f"unknown code {code!r}{hint}")
    info = found
    console.print(f"{info.code} {info.name} ({info.severity.value})")
    console.print(f"rulebook: {info.section}")
    console.print("")
    console.print(info.doc or info.summary)


@app.command()
def schema(name: Annotated[SchemaName, typer.Argument(help="Which schema.")]) -> None:
    """Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."""
    from varz_deck.schemas import schema_text

    sys.stdout.write(schema_text(name.value))


def _register_optional_commands() -> None:
    try:
        from varz_deck.cli_sim import sim
    except ImportError:  # pragma: no cover - the simulator ships with the package
        return
    app.command("sim")(sim)


_register_optional_commands()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; turn any unexpected exception into a one-line message."""
    global _DEBUG
    args = list(sys.argv[1:] if argv is None else argv)
    _DEBUG = "--debug" in args or bool(os.environ.get("VARZ_DECK_DEBUG"))
    args = [a for a in args if a != "--debug"]
    for stream in (sys.stdout, sys.stderr):  # a report beats a UnicodeEncodeError on cp1252
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        app(args=args, prog_name="varz-deck", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("varz-deck: interrupted\n")
        sys.exit(130)
    except BaseException as exc:
        if _DEBUG:
            raise
        sys.stderr.write(
            f"varz-deck: internal error ({type(exc).__name__}); this is a bug: "
            "run again with --debug and report it\n"
        )
        sys.exit(EXIT_INTERNAL)
