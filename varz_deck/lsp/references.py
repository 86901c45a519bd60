"""The card reference under the cursor and the cards it names (for hover, definition, fixes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from varz_deck.lsp.lines import Ref, reference_on

if TYPE_CHECKING:
    from lsprotocol import types

    from varz_deck.lsp.documents import Document
    from varz_deck.lsp.server import VarzServer


def reference_at(server: VarzServer, doc: Document, number: int) -> Ref | None:
    """The reference on a line of a deck (whatever the cursor's column on that line)."""
    game = server.deck_game(doc.uri)
    return reference_on(doc.line(number), not doc.is_text_list, game.slots)


def cards_at(
    server: VarzServer, uri: str, position: types.Position
) -> tuple[Document, Ref, list[Any]] | None:
    """The document, the reference under the cursor and every card it can mean."""
    doc = server.document(uri)
    if doc is None or server.is_card_file(uri):
        return None
    ref = reference_at(server, doc, position.line)
    if ref is None:
        return None
    database = server.library.of_game(server.deck_game(uri).key).database
    if database is None:
        return None
    return doc, ref, list(database.lookup(ref.text))
