"""The command line (the top layer): `main` is the entry point; `app` the whole typer tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from varz_deck.cli.main import main

if TYPE_CHECKING:
    import typer

__all__ = ["app", "main"]


def __getattr__(name: str) -> typer.Typer:
    """`app`: the whole typer tree, built on first use (see varz_deck.cli.main)."""
    if name == "app":
        from varz_deck.cli.main import whole_app

        return whole_app()
    raise AttributeError(name)
