"""The command line: the app, its commands, and the entry point.

Each command is a function in its own module (check, cards, rules, sim, register); this module
only puts them on the app. `varz-deck check …` builds just `check` (see `_command_for`).
Exit codes: 0 success, 1 problems found (an illegal deck, a dirty database), 2 usage error or an
unusable card database, 3 an internal error (a bug: run with --debug and report it).
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any, NoReturn

import typer

from varz_deck import __version__
from varz_deck.cli import cache, cards, check, lsp, register, rules, sim, tune
from varz_deck.cli.common import EXIT_INTERNAL
from varz_deck.core.i18n import N_, msg
from varz_deck.core.sanitize import SafeStream

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
cache_app = typer.Typer(help=cache.CACHE_HELP, no_args_is_help=True)
app.add_typer(cache_app, name="cache")


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


app.command("check", help=check.CHECK_HELP)(check.check)
cards_app.command("lint", help=cards.LINT_HELP)(cards.cards_lint)
cards_app.command("show", help=cards.SHOW_HELP)(cards.cards_show)
cards_app.command("search", help=cards.SEARCH_HELP)(cards.cards_search)
app.command("rules", help=rules.RULES_HELP)(rules.rules)
app.command("schema", help=rules.SCHEMA_HELP)(rules.schema)
app.command("sim", help=sim.SIM_HELP)(sim.sim)
app.command("stats", help=tune.STATS_HELP)(tune.stats)
app.command("tune", help=tune.TUNE_HELP)(tune.tune)
app.command("register", help=register.REGISTER_HELP)(register.register)
app.command("verify", help=register.VERIFY_HELP)(register.verify)
app.command("diff", help=register.DIFF_HELP)(register.diff)
app.command("code", help=register.CODE_HELP)(register.code)
app.command("lsp", help=lsp.LSP_HELP)(lsp.lsp)
cache_app.command("info", help=cache.INFO_HELP)(cache.cache_info)
cache_app.command("clear", help=cache.CLEAR_HELP)(cache.cache_clear)


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
    # The one output layer (issue 11): no raw control or bidi character reaches a stream.
    sys.stdout = SafeStream(sys.stdout, allow_sgr=True)
    sys.stderr = SafeStream(sys.stderr, allow_sgr=True)
    try:
        command, prog, rest = _command_for(args)
        chosen = _help_language(args)
        if chosen != "en":
            _translate_help(command, chosen)
        _name_arguments(command, "--help" in rest or "-h" in rest or not rest)
        command.main(args=rest, prog_name=prog, standalone_mode=True)
        _flush_or_exit(saved[0])
    except SystemExit:
        _flush_or_exit(saved[0])
        raise
    except BrokenPipeError:  # `| head -1`: the reader has gone; not an error worth a word
        _quiet_exit()
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


def _flush_or_exit(stream: Any) -> None:
    """Flush stdout; a closed or broken stdout is a quiet non-zero exit, not a traceback."""
    try:
        stream.flush()
    except (BrokenPipeError, ValueError, OSError):
        _quiet_exit()


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


def _name_arguments(command: Any, helping: bool) -> None:
    """Usage names real arguments (`DECK...`, `NAME`, not click 8.5's `{decks}...` or
    `{name}:<card|deck|…>`); a choice argument's choices are listed one per line after the
    options, where no line wraps them. When help is shown, `--format` lists the bundled database's formats (read only
    then: a normal run never pays for it)."""
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "argument" and param.metavar is None:
            name = (param.name or "arg").upper()
            if param.nargs == -1 and name.endswith("S"):
                name = name[:-1]  # DECK..., as usage lines write it
            shown = name + ("..." if param.nargs == -1 else "")
            shown = shown if param.required else f"[{shown}]"
            param.metavar = shown
            param.make_metavar = lambda *_args, _shown=shown, **_kwargs: _shown  # no `{…}`
            choices = getattr(param.type, "choices", None)
            if choices and helping:  # one per line after the options: never cut at a hyphen
                listed = "\n".join(f"  {getattr(c, 'value', c)}" for c in choices)
                command.epilog = f"\b\n{name}:\n{listed}"
        if helping and "--format" in getattr(param, "opts", ()) and param.help:
            formats = _bundled_formats()
            if formats:
                param.help = f"{param.help} ({', '.join(formats)})"
    for sub in getattr(command, "commands", {}).values():
        _name_arguments(sub, helping)


def _bundled_formats() -> list[str]:
    """The formats of the bundled databases of every game, for `--format`'s help."""
    from varz_deck.core.database import DatabaseError, resolve_root
    from varz_deck.games import game_keys, open_database

    found: dict[str, None] = {}
    for key in game_keys():
        try:
            found.update(dict.fromkeys(sorted(open_database(resolve_root(None, key)).formats)))
        except (DatabaseError, OSError):
            continue
    return list(found)


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
