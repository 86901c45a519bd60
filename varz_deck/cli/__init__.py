"""The command line (the top layer): `varz_deck.cli.app` builds it; `main` is the entry point."""

from __future__ import annotations

from varz_deck.cli.app import app, main

__all__ = ["app", "main"]
