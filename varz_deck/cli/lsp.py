"""`varz-deck lsp`: the Language Server on stdio (docs/guides/editors.md), from the `lsp` extra."""

from __future__ import annotations

from varz_deck.cli.common import CardsOption, fail
from varz_deck.core.messages.i18n import N_, msg

LSP_HELP = N_("Run the Language Server (stdio) for deck files and card files in any editor.")
_MISSING = msg(
    "cli",
    "the language server needs pygls and lsprotocol: pip install pygls lsprotocol (or, in a "
    "clone of varz-deck: pip install '.[lsp]')",
)


def lsp(cards: CardsOption = None) -> None:
    """Run the Language Server (stdio) for deck files and card files in any editor."""
    try:
        from varz_deck.lsp.main import serve
    except ImportError:  # no `lsp` extra: pygls or lsprotocol is missing
        fail(_MISSING)  # exit 2

    serve(cards)
