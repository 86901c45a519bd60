"""The parts of typer's own copy of click that the command line needs and typer does not export.

Typer runs a private copy of click (`typer._click`) and exports neither its help formatter, its
context's formatter hook, its current context nor its choice type. This is the only module that
imports them; tests/test_clickparts.py fails on a typer release that moves or changes one.
"""

from __future__ import annotations

from typing import Any

from typer._click import core as _core
from typer._click.formatting import HelpFormatter
from typer._click.globals import get_current_context
from typer._types import TyperChoice

__all__ = [
    "Command",
    "Context",
    "HelpFormatter",
    "Parameter",
    "TyperChoice",
    "current_context",
    "format_help_with",
    "show_as",
]

# the classes of typer's click commands, contexts and parameters, for annotations
Command = _core.Command
Context = _core.Context
Parameter = _core.Parameter


def format_help_with(formatter: type[HelpFormatter]) -> None:
    """Every context formats its help with `formatter` (click's `Context.formatter_class`)."""
    _core.Context.formatter_class = formatter


def current_context() -> Context | None:
    """The context of the command running, or None outside one."""
    return get_current_context(silent=True)


def show_as(param: Any, shown: str) -> None:
    """An argument's usage name as written (`DECK...`), not click 8.5's `{decks}...`: its
    `metavar`, as `typer.Argument(metavar=...)` would set it (Typer writes a required one in
    braces in a usage line; CellHelpFormatter.write_usage writes it bare)."""
    param.metavar = shown
