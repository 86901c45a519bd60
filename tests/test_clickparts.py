"""The parts of typer's copy of click the command line uses that typer does not export: each
is held by varz_deck/cli/clickparts.py alone, and each still does what we use it for (a typer
release that moves or changes one fails here, not in a player's terminal)."""

from __future__ import annotations

import ast
from pathlib import Path

import typer
from typer.testing import CliRunner

from varz_deck.cli import clickparts
from varz_deck.cli.helpformat import CellHelpFormatter

PACKAGE = Path(__file__).resolve().parent.parent / "varz_deck"
FRAMEWORKS = ("typer", "click", "pygls", "lsprotocol", "django", "ninja")


def _private_imports(path: Path) -> list[str]:
    """The modules a source file imports that are a framework's private ones (`typer._click`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] in FRAMEWORKS and any(p.startswith("_") for p in parts[1:]):
                found.append(name)
    return found


def test_only_clickparts_imports_a_frameworks_private_module() -> None:
    private = {
        path.relative_to(PACKAGE).as_posix(): _private_imports(path)
        for path in PACKAGE.rglob("*.py")
    }
    assert {path for path, names in private.items() if names} == {"cli/clickparts.py"}


def test_the_private_import_finder_finds_one() -> None:
    assert _private_imports(PACKAGE / "cli" / "clickparts.py") == [
        "typer._click",
        "typer._click.core",
        "typer._click.formatting",
        "typer._click.formatting.HelpFormatter",
        "typer._click.globals",
        "typer._click.globals.get_current_context",
        "typer._types",
        "typer._types.TyperChoice",
    ]


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def show(deck: str) -> None:
        typer.echo(f"context: {clickparts.current_context() is not None}")

    return app


def test_the_current_context_is_the_commands_and_none_outside() -> None:
    assert clickparts.current_context() is None
    result = CliRunner().invoke(_app(), ["x.yaml"])
    assert result.output == "context: True\n"


def test_the_help_formatter_hook_is_the_one_typer_runs() -> None:
    command = typer.main.get_command(_app())
    context = command.make_context("show", ["x.yaml"])
    was = type(context.make_formatter())
    try:
        clickparts.format_help_with(CellHelpFormatter)
        assert type(context.make_formatter()) is CellHelpFormatter
    finally:
        clickparts.format_help_with(was)
    assert issubclass(CellHelpFormatter, clickparts.HelpFormatter)
    assert {"write_usage", "write_heading", "write_text", "write_dl"} <= set(
        vars(clickparts.HelpFormatter)
    )


def test_an_arguments_usage_name_is_shown_as_written() -> None:
    command = typer.main.get_command(_app())
    (param,) = [p for p in command.params if p.param_type_name == "argument"]
    context = command.make_context("show", ["x.yaml"])
    clickparts.show_as(param, "DECK")
    assert param.metavar == "DECK"
    assert param.make_metavar(context) == "DECK"  # as an error names it ("Missing argument")
    was = context.formatter_class
    clickparts.format_help_with(CellHelpFormatter)  # writes a required argument bare
    try:
        formatter = context.make_formatter()
        command.format_usage(context, formatter)
    finally:
        clickparts.format_help_with(was)
    assert formatter.getvalue() == "Usage: show [OPTIONS] DECK\n"


def test_typers_choice_takes_the_choices_its_subclass_gives() -> None:
    class Lazy(clickparts.TyperChoice[str]):
        def __init__(self) -> None:
            super().__init__((), case_sensitive=True)

        @property
        def choices(self) -> tuple[str, ...]:
            return ("game", "deck")

        @choices.setter
        def choices(self, _value: object) -> None:
            pass

    assert Lazy().convert("deck", None, None) == "deck"
