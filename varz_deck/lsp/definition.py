"""Go to definition: from a card reference to the card's line in its card file (cards carry the
`file` and `line` the database read them from). A name two cards share goes to both."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from varz_deck.lsp.guard import guarded

if TYPE_CHECKING:
    from varz_deck.lsp.server import VarzServer


def definition(server: VarzServer, params: types.DefinitionParams) -> list[types.Location] | None:
    from varz_deck.lsp.references import cards_at

    found = cards_at(server, params.text_document.uri, params.position)
    if found is None:
        return None
    locations = []
    for card in found[2]:
        if not card.file:
            continue
        path = Path(card.file)
        uri = from_fs_path(str(path if path.is_absolute() else Path.cwd() / path))
        if uri is None:
            continue
        line = max(int(card.line or 1) - 1, 0)
        where = types.Range(types.Position(line, 0), types.Position(line, 0))
        locations.append(types.Location(uri=uri, range=where))
    return locations or None


def register(server: VarzServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded
    def on_definition(
        ls: VarzServer, params: types.DefinitionParams
    ) -> list[types.Location] | None:
        return definition(ls, params)
