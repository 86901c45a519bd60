"""The entry point, and the command tree.

Each command is a function in its own module (check, cards, rules, sim, tune, register, lsp,
cache, serve); this module only puts them on the app. `varz-deck check …` imports and builds just
`check` (see `_command_for`); help and the groups build the whole tree.
Exit codes: 0 success, 1 problems found (an illegal deck, a dirty database), 2 usage error or an
unusable card database, 3 an internal error (a bug: run with --debug and report it).
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Annotated, Any, NoReturn, TextIO, TypedDict

import typer

from varz_deck import __version__
from varz_deck.cli.clickparts import Command, show_as
from varz_deck.cli.common import EXIT_INTERNAL, EXIT_USAGE
from varz_deck.core.messages.i18n import N_, msg
from varz_deck.core.messages.sanitize import SafeStream
from varz_deck.games import GameUnavailable

_DEBUG = False

# name -> (module under varz_deck.cli, function, help constant): `varz-deck NAME …` imports only
# its own module (start-up time: see benchmarks/bench_check.py); the groups build the whole tree.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": ("check", "check", "CHECK_HELP"),
    "rules": ("rules", "rules", "RULES_HELP"),
    "schema": ("rules", "schema", "SCHEMA_HELP"),
    "sim": ("sim", "sim", "SIM_HELP"),
    "stats": ("tune", "stats", "STATS_HELP"),
    "tune": ("tune", "tune", "TUNE_HELP"),
    "complete": ("complete", "complete", "COMPLETE_HELP"),
    "explain": ("explain", "explain", "EXPLAIN_HELP"),
    "report": ("report", "report", "REPORT_HELP"),
    "register": ("register", "register", "REGISTER_HELP"),
    "verify": ("register", "verify", "VERIFY_HELP"),
    "diff": ("register", "diff", "DIFF_HELP"),
    "code": ("register", "code", "CODE_HELP"),
    "lsp": ("lsp", "lsp", "LSP_HELP"),
    "serve": ("serve", "serve", "SERVE_HELP"),
    "manage": ("manage", "manage", "MANAGE_HELP"),
}
GROUPS: dict[str, tuple[str, str, dict[str, tuple[str, str]]]] = {
    "cards": (
        "cards",
        "CARDS_HELP",
        {
            "lint": ("cards_lint", "LINT_HELP"),
            "show": ("cards_show", "SHOW_HELP"),
            "search": ("cards_search", "SEARCH_HELP"),
            "diff": ("cards_diff", "DIFF_HELP"),
        },
    ),
    "cache": (
        "cache",
        "CACHE_HELP",
        {"info": ("cache_info", "INFO_HELP"), "clear": ("cache_clear", "CLEAR_HELP")},
    ),
    "event": (
        "serve",
        "EVENT_HELP",
        {"create": ("event_create", "CREATE_HELP"), "list": ("event_list", "LIST_HELP")},
    ),
}


class _Settings(TypedDict):
    """What every Typer of the command line is made with."""

    pretty_exceptions_enable: bool
    rich_markup_mode: None
    context_settings: dict[str, list[str]]


_SETTINGS: _Settings = {
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"varz_deck.cli.{name}")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"varz-deck {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Show the version.")),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help=N_(
                "Language of the messages (default: $VARZ_DECK_LANG, else the locale, else en)."
            ),
        ),
    ] = None,
) -> None:
    """Check decks against the rulebook, lint card data, simulate opening hands."""


def build_app() -> typer.Typer:
    """The whole command tree (help, completion, tests)."""
    whole = typer.Typer(
        name="varz-deck",
        help=N_(
            "Deck legality checker, card-data linter and goldfish simulator for trading card games."
        ),
        no_args_is_help=True,
        **_SETTINGS,
    )
    whole.callback()(_root)
    for name, (module_name, function, help_name) in COMMANDS.items():
        module = _module(module_name)
        summary = getattr(module, help_name)  # short_help: the whole summary, never cut to "…"
        context = _context(module, function)
        whole.command(name, help=summary, short_help=summary, context_settings=context)(
            getattr(module, function)
        )
    for group, (module_name, help_name, commands) in GROUPS.items():
        module = _module(module_name)
        sub = typer.Typer(help=_group_help(module, help_name), no_args_is_help=True)
        for name, (function, command_help) in commands.items():
            summary = getattr(module, command_help)
            sub.command(name, help=summary, short_help=summary)(getattr(module, function))
        whole.add_typer(sub, name=group)
    return whole


def _context(module: ModuleType, function: str) -> dict[str, object] | None:
    """A command's own click context settings (`manage` passes what follows it on)."""
    found = getattr(module, "CONTEXT_SETTINGS", {}).get(function)
    return dict(found) if found else None


def _group_help(module: ModuleType, help_name: str) -> str:
    found = getattr(module, help_name, None)
    return found if isinstance(found, str) else _CARDS_HELP


_CARDS_HELP = N_("Work with a card database: lint it, show a card, search cards.")
_APP: typer.Typer | None = None


def whole_app() -> typer.Typer:
    """The whole tree, built once on first use (the entry point builds only what it runs)."""
    global _APP
    if _APP is None:
        _APP = build_app()
    return _APP


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; turn any unexpected exception into a one-line message."""
    global _DEBUG
    args = list(sys.argv[1:] if argv is None else argv)
    _DEBUG = "--debug" in args or bool(os.environ.get("VARZ_DECK_DEBUG"))
    args = [a for a in args if a != "--debug"]
    if sys.stdout is None or sys.stderr is None:  # started with `>&-` or `2>&-`: nowhere to say it
        sys.exit(EXIT_CLOSED)
    for stream in (sys.stdout, sys.stderr):  # a report beats a UnicodeEncodeError on cp1252
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    saved = sys.stdout, sys.stderr
    # The one output layer: no raw control or bidi character reaches a stream.
    sys.stdout = SafeStream(sys.stdout, allow_sgr=True)
    sys.stderr = SafeStream(sys.stderr, allow_sgr=True)
    try:
        if args == ["--version"]:  # no command tree, no game: the quickest answer
            sys.stdout.write(f"varz-deck {__version__}\n")
            _flush_or_exit(saved[0])
            return
        chosen = _help_language(args)
        args = _lang_after_command(args)
        command, prog, rest = _command_for(args)
        if chosen != "en":
            _translate_help(command, chosen)
        helping = "--help" in rest or "-h" in rest or not rest
        _name_arguments(command, _helped(command, rest) if helping else None)
        from varz_deck.cli.helpformat import help_language, install

        install()
        with help_language(chosen):
            command.main(args=rest, prog_name=prog, standalone_mode=True)
        _flush_or_exit(saved[0])
    except SystemExit:
        _flush_or_exit(saved[0])
        raise
    except BrokenPipeError:  # `| head -1`: the reader has gone; not an error worth a word
        _quiet_exit()
    except GameUnavailable as exc:  # a plugin game that fails: a usage problem, not our bug
        if _DEBUG:  # its author wants the traceback
            raise
        sys.stderr.write(f"varz-deck: {exc.message.render(_help_language(args))}\n")
        sys.exit(EXIT_USAGE)
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
    finally:
        sys.stdout, sys.stderr = saved


# Output could not be written: stdout closed (`>&-`) or its reader gone (`| head -1`).
EXIT_CLOSED = 1


def _quiet_exit() -> NoReturn:
    """Leave without a word when stdout is gone; keep Python from complaining at shutdown."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
    except (OSError, ValueError):
        pass
    os._exit(EXIT_CLOSED)


def _flush_or_exit(stream: TextIO) -> None:
    """Flush stdout; a closed or broken stdout is a quiet non-zero exit, not a traceback."""
    try:
        stream.flush()
    except (BrokenPipeError, ValueError, OSError):
        _quiet_exit()


def _lang_after_command(args: list[str]) -> list[str]:
    """`varz-deck --lang ja check …` as `varz-deck check … --lang ja`: the language given before
    the command goes to the command, which takes it as its own option; before help or nothing it
    has chosen the help's language already and is dropped."""
    lead: list[str] = []
    while args and (args[0] == "--lang" or args[0].startswith("--lang=")):
        taken = 1 if "=" in args[0] else 2
        lead, args = lead + args[:taken], args[taken:]
    if not lead or not args or all(a in ("--help", "-h") for a in args):
        return args
    last = lead[-1:] if lead[-1].startswith("--lang=") else lead[-2:]  # the last one given
    cut = args.index("--") if "--" in args else len(args)
    return [*args[:cut], *last, *args[cut:]]


def _command_for(args: list[str]) -> tuple[Command, str, list[str]]:
    """The click command to run: just the named command when there is one, else the whole tree.

    Building every command's parameters costs more than checking a deck, so `varz-deck check …`
    builds only `check`; usage and help read the same.
    """
    name = args[0] if args else ""
    found = COMMANDS.get(name)
    if found is not None:
        module_name, function, help_name = found
        module = _module(module_name)
        single = typer.Typer(add_completion=False, **_SETTINGS)  # completion is the whole app's
        context = _context(module, function)
        single.command(name=name, help=getattr(module, help_name), context_settings=context)(
            getattr(module, function)
        )
        return typer.main.get_command(single), f"varz-deck {name}", args[1:]
    return typer.main.get_command(whole_app()), "varz-deck", args


def _helped(command: Command, rest: list[str]) -> Command:
    """The command whose help is asked for: the group's subcommand `rest` names before its
    options (`cards lint --help`), else the command itself."""
    for word in rest:
        sub = getattr(command, "commands", {}).get(word)
        if sub is None:
            break
        command = sub
    return command


def _name_arguments(command: Command, helped: Command | None) -> None:
    """Usage names real arguments (`DECK...`, `NAME`, not click 8.5's `{decks}...` or
    `{name}:<card|deck|…>`); the command whose help is shown (`helped`) lists a choice
    argument's choices one per line after the options, where no line wraps them, and its
    `--format` the bundled databases' formats (read only then: a normal run, and the tree's
    own help, never pay for them or import a game)."""
    helping = command is helped
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "argument" and param.metavar is None:
            name = (param.name or "arg").upper()
            if param.nargs == -1 and name.endswith("S"):
                name = name[:-1]  # DECK..., as usage lines write it
            shown = name + ("..." if param.nargs == -1 else "")
            shown = shown if param.required else f"[{shown}]"
            show_as(param, shown)
            choices = getattr(param.type, "choices", None) if helping else None
            if choices:  # one per line after the options: never cut at a hyphen
                listed = "\n".join(f"  {getattr(c, 'value', c)}" for c in choices)
                command.epilog = f"\b\n{name}:\n{listed}"
        if helping and "--format" in getattr(param, "opts", ()) and param.help:
            formats = _bundled_formats()
            if formats:
                param.help = f"{param.help} ({', '.join(formats)})"
    for sub in getattr(command, "commands", {}).values():
        _name_arguments(sub, helped)


def _bundled_formats() -> list[str]:
    """The formats of the bundled databases of every game, for `--format`'s help."""
    from varz_deck.core.lint.database import DatabaseError
    from varz_deck.games import GameUnavailable, game_keys, open_database
    from varz_deck.games.library import bundled_root

    found: dict[str, None] = {}
    for key in game_keys():
        try:
            found.update(dict.fromkeys(sorted(open_database(bundled_root(key)).formats)))
        except (DatabaseError, OSError, GameUnavailable):  # help still shows the others'
            continue
    return list(found)


def _help_language(args: list[str]) -> str:
    """The language for help texts, from `--lang` anywhere on the line, else the environment."""
    from varz_deck.core.messages.i18n import choose_language, normalize_language, option_from_argv

    option = option_from_argv(args)
    return choose_language(option if normalize_language(option) else None)


def _translate_help(command: Any, lang: str) -> None:
    """Put the command tree's help texts (marked with N_) in a language, before it runs.

    Duck-typed over click's Command/Group/Parameter (typer ships its own copy of click).
    """
    from varz_deck.core.messages.i18n import gettext_in

    if getattr(command, "help", None):
        command.help = gettext_in(lang, command.help)
    if getattr(command, "short_help", None):
        command.short_help = gettext_in(lang, command.short_help)
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = gettext_in(lang, param.help)
    for sub in getattr(command, "commands", {}).values():
        _translate_help(sub, lang)
