"""The command line: parse options, call the core, render, return an exit code.

Exit codes: 0 success, 1 problems found (an illegal deck, a dirty database), 2 usage error or an
unusable card database, 3 an internal error (a bug: run with --debug and report it).
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

from varz_deck import __version__
from varz_deck.core.i18n import N_, msg, nmsg

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase
    from varz_deck.core.check import DeckReport
    from varz_deck.core.diagnostics import Diagnostic
    from varz_deck.core.i18n import Message

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
_DEBUG = False

app = typer.Typer(
    name="varz-deck",
    help=N_("Deck legality checker, card-data linter and goldfish simulator for the VARZ TCG."),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
cards_app = typer.Typer(
    help=N_("Work with a card database: lint it, show a card, search cards."), no_args_is_help=True
)
app.add_typer(cards_app, name="cards")


class Output(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class Lang(str, Enum):
    en = "en"
    ja = "ja"
    zh = "zh"


class SchemaName(str, Enum):
    card = "card"
    deck = "deck"
    formats = "formats"
    azuki_card = "azuki-card"
    azuki_deck = "azuki-deck"


CardsOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Option(
        "--cards",
        help=N_("Card database folder (default: $VARZ_DECK_CARDS, else the bundled database)."),
        show_default=False,
    ),
]
GameOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--game",
        help=N_("Without --cards: use the bundled card database of this game (varz, azuki)."),
        show_default=False,
    ),
]
OutputOption = Annotated[Output, typer.Option("--output", "-o", help=N_("Output format."))]
LangOption = Annotated[
    Optional[Lang],  # noqa: UP045
    typer.Option(
        "--lang",
        help=N_("Language of the messages (default: $VARZ_DECK_LANG, else the locale, else en)."),
        show_default=False,
        case_sensitive=False,
    ),
]


def language(lang: Lang | None) -> str:
    """The language a command speaks: --lang, else $VARZ_DECK_LANG, else the locale, else en."""
    from varz_deck.core.i18n import choose_language

    return choose_language(lang.value if lang is not None else None)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"varz-deck {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Show the version.")),
    ] = False,
) -> None:
    """Check VARZ decks against the rulebook, lint card data, simulate opening hands."""


def _color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _fail(message: str | Message, code: int = EXIT_USAGE, lang: str | None = None) -> NoReturn:
    """`varz-deck: <message>` on stderr, then exit; a Message is said in the language (default:
    $VARZ_DECK_LANG, else the locale, else English)."""
    from varz_deck.core.diagnostics import safe

    if not isinstance(message, str):
        from varz_deck.core.i18n import choose_language

        message = message.render(lang or choose_language())
    typer.echo(f"varz-deck: {safe(message)}", err=True)
    raise typer.Exit(code)


_DATABASE_INVALID = nmsg(
    "cli",
    "card database {root} is invalid: {count} problem{where}; "
    "run `varz-deck cards lint {root}` to see them all",
    "card database {root} is invalid: {count} problems{where}; "
    "run `varz-deck cards lint {root}` to see them all",
)


def load_database(
    cards: Path | None,
    lang: str | None = None,
    game: str | None = None,
    supported: tuple[str, ...] | None = None,
) -> CardDatabase:
    """The card database for a command, or exit 2 with a pointer to `cards lint` (or when the
    command does not support the database's game: `supported` lists the games it does)."""
    from varz_deck.core.database import DatabaseError, open_database, resolve_root
    from varz_deck.core.i18n import choose_language, localized
    from varz_deck.games import game_keys

    if game is not None and game not in game_keys():
        unknown = msg("cli", "unknown game {game}; known: {known}")
        _fail(unknown(game=repr(game), known=", ".join(game_keys())), lang=lang)
    root = resolve_root(cards, game)
    try:
        database = open_database(root)
    except DatabaseError as err:
        chosen = lang or choose_language()
        first = err.diagnostics[0] if err.diagnostics else None
        where = ""
        if first is not None:
            place = f"{first.file or root}" + (f":{first.line}" if first.line else "")
            where = msg("cli", " (first: {place} {code} {message})")(
                place=place, code=first.code, message=localized(first, chosen)
            ).render(chosen)
        count = len(err.diagnostics)
        _fail(_DATABASE_INVALID(root=str(root), count=count, where=where, n=count), lang=chosen)
    if supported is not None and database.game not in supported:
        unsupported = msg("cli", "this command does not support {game} card databases yet ({root})")
        _fail(unsupported(game=database.game, root=str(root)), lang=lang)
    return database


@app.command(help=N_("Check decks for tournament legality under the VARZ rulebook."))
def check(
    decks: Annotated[
        list[Path], typer.Argument(help=N_("Deck files (.yaml, .yml or .txt)."), show_default=False)
    ],
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--format", "-f", help=N_("Check under this format, whatever the decks say.")),
    ] = None,
    output: OutputOption = Output.text,
    strict: Annotated[
        bool, typer.Option("--strict", help=N_("Treat warnings as errors (exit 1)."))
    ] = False,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Check decks for tournament legality under the VARZ rulebook."""
    from varz_deck.core.check import check_decks

    chosen = language(lang)
    database = load_database(cards, chosen, game)
    reports = check_decks(decks, database, format)
    sys.stdout.write(_render_check(reports, output, chosen))
    failed = any(not r.legal or (strict and r.warnings) for r in reports)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


def _render_check(reports: list[DeckReport], output: Output, lang: str = "en") -> str:
    diagnostics = [d for r in reports for d in r.diagnostics]
    if output is Output.json:
        from varz_deck.core.report import json_report

        return json_report.render_check(reports, lang)
    if output is Output.github:
        from varz_deck.core.report import github

        return github.render(diagnostics)
    if output is Output.sarif:
        from varz_deck.core.report import sarif

        return sarif.render(diagnostics)
    from varz_deck.core.report import text

    return text.render_check(reports, color=_color(), width=_width(), lang=lang)


def _width() -> int:
    try:
        return max(60, os.get_terminal_size().columns)
    except OSError:
        return 100


_LINT_HELP = N_(
    "Validate card databases: schema, ids, printings, classes, keywords, formats.\n\n"
    "Exit 0 when clean (warnings allowed), 1 when any error is found (with --strict, any "
    "warning too), 2 when a folder does not exist."
)


@cards_app.command("lint", help=_LINT_HELP)
def cards_lint(
    dirs: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(
            help=N_("Card database folders (default: --cards, $VARZ_DECK_CARDS, bundled)."),
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
    warning too), 2 when a folder does not exist.
    """
    from varz_deck.core.database import lint_database, resolve_root

    chosen = language(lang)
    roots = list(dirs) if dirs else [resolve_root(cards)]
    for root in roots:
        if not root.is_dir():
            problem = (
                msg(
                    "cli",
                    "card database {root} does not exist; give the folder that holds the card files",
                )
                if not root.exists()
                else msg(
                    "cli",
                    "card database {root} is not a folder; give the folder that holds the card files",
                )
            )
            _fail(problem(root=str(root)), lang=chosen)
    files: dict[str, list[Diagnostic]] = {}
    for root in roots:
        result = lint_database(root)
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

        rendered = sarif.render(diagnostics)
    else:
        from varz_deck.core.report import text

        rendered = text.render_lint(
            files, ", ".join(map(str, roots)), color=_color(), width=_width(), lang=chosen
        )
    sys.stdout.write(rendered)
    failed = any(d.is_error or strict for d in diagnostics)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


@app.command(help=N_("List every diagnostic code with its rulebook section, or explain one."))
def rules(
    code: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help=N_("A code (V105) to explain; without it, list every code."), show_default=False
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """List every diagnostic code with its rulebook section, or explain one."""
    import difflib

    from rich.console import Console
    from rich.table import Table

    from varz_deck.core.codes import all_codes
    from varz_deck.core.i18n import msg, term

    chosen = language(lang)
    codes = all_codes()
    width = None if sys.stdout.isatty() else 160
    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=False, width=width)
    if code is None:
        table = Table(box=None, pad_edge=False)
        headings = [
            msg("rules", "code"),
            msg("rules", "severity"),
            msg("rules", "name"),
            msg("rules", "rulebook"),
        ]
        for heading in headings:
            table.add_column(heading.render(chosen), no_wrap=True)
        table.add_column(msg("rules", "what it flags").render(chosen), overflow="fold")
        for info in codes.values():
            severity = term("severity", info.severity.value, chosen)
            summary = term("summary", info.summary, chosen)
            table.add_row(info.code, severity, info.name, info.section, summary)
        console.print(table)
        return
    found = codes.get(code.upper())
    if found is None:
        close = difflib.get_close_matches(code.upper(), list(codes), n=3)
        unknown = (
            msg("cli", "unknown code {code}; did you mean {close}?")
            if close
            else msg("cli", "unknown code {code}; `varz-deck rules` lists them")
        )
        _fail(unknown(code=repr(code), close=", ".join(close)), lang=chosen)
    info = found
    severity = term("severity", info.severity.value, chosen)
    console.print(f"{info.code} {info.name} ({severity})")
    console.print(msg("rules", "rulebook: {section}")(section=info.section).render(chosen))
    console.print("")
    if chosen != "en":  # the rule's summary in the language; its examples stay as written
        console.print(term("summary", info.summary, chosen))
        console.print("")
    console.print(info.doc or info.summary)


@app.command(help=N_("Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."))
def schema(name: Annotated[SchemaName, typer.Argument(help=N_("Which schema."))]) -> None:
    """Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."""
    from varz_deck.core.schemas import schema_text

    sys.stdout.write(schema_text(name.value))


def _register_optional_commands() -> None:
    from varz_deck.cli.cards import SEARCH_HELP, SHOW_HELP, cards_search, cards_show

    cards_app.command("show", help=SHOW_HELP)(cards_show)
    cards_app.command("search", help=SEARCH_HELP)(cards_search)
    try:
        from varz_deck.cli.sim import SIM_HELP, sim
    except ImportError:  # pragma: no cover - the simulator ships with the package
        return
    app.command("sim", help=SIM_HELP)(sim)

    from varz_deck.cli.register import (
        CODE_HELP,
        DIFF_HELP,
        REGISTER_HELP,
        VERIFY_HELP,
        code,
        diff,
        register,
        verify,
    )

    for name, command, text in (
        ("register", register, REGISTER_HELP),
        ("verify", verify, VERIFY_HELP),
        ("diff", diff, DIFF_HELP),
        ("code", code, CODE_HELP),
    ):
        app.command(name, help=text)(command)


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
        command, prog, rest = _command_for(args)
        chosen = _help_language(args)
        if chosen != "en":
            _translate_help(command, chosen)
        command.main(args=rest, prog_name=prog, standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        interrupted = msg("cli", "interrupted").render(_help_language(args))
        sys.stderr.write(f"varz-deck: {interrupted}\n")
        sys.exit(130)
    except BaseException as exc:
        if _DEBUG:
            raise
        internal = msg(
            "cli",
            "internal error ({error}); this is a bug: run again with --debug and report it",
        )(error=type(exc).__name__)
        sys.stderr.write(f"varz-deck: {internal.render(_help_language(args))}\n")
        sys.exit(EXIT_INTERNAL)


def _command_for(args: list[str]) -> tuple[Any, str, list[str]]:
    """The click command to run: just the named command when there is one, else the whole tree.

    Building every command's parameters costs more than checking a deck, so `varz-deck check …`
    builds only `check`; usage and help read the same.
    """
    name = args[0] if args else ""
    for info in app.registered_commands:
        callback = info.callback
        if callback is not None and (info.name or callback.__name__.replace("_", "-")) == name:
            single = typer.Typer(
                pretty_exceptions_enable=False,
                rich_markup_mode=None,
                context_settings={"help_option_names": ["-h", "--help"]},
            )
            single.command(name=name, help=info.help)(callback)
            return typer.main.get_command(single), f"varz-deck {name}", args[1:]
    return typer.main.get_command(app), "varz-deck", args


def _help_language(args: list[str]) -> str:
    """The language for help texts, from `--lang` anywhere on the line, else the environment."""
    from varz_deck.core.i18n import choose_language, normalize_language, option_from_argv

    option = option_from_argv(args)
    return choose_language(option if normalize_language(option) else None)


def _translate_help(command: Any, lang: str) -> None:
    """Put the command tree's help texts (marked with N_) in a language, before it runs.

    Duck-typed over click's Command/Group/Parameter (typer ships its own copy of click).
    """
    from varz_deck.core.i18n import gettext_in

    if getattr(command, "help", None):
        command.help = gettext_in(lang, command.help)
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = gettext_in(lang, param.help)
    for sub in getattr(command, "commands", {}).values():
        _translate_help(sub, lang)
