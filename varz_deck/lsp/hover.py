"""Hover on a card reference: the card's names, its fields as its card file gives them (type,
cost, colour, keywords, stats…), its text and its printings."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from varz_deck.core.sanitize import safe
from varz_deck.lsp.guard import guarded

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase
    from varz_deck.lsp.server import VarzServer

_NOT_SHOWN = {"id", "name", "names", "file", "line", "set", "text", "flavor", "aliases"}


def _value(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(safe(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{safe(k)}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return safe(value)


def printings(card: Any, database: CardDatabase) -> list[str]:
    """The ids the card is printed under: every printing of what the game counts a card by (its
    `identity`), then the card's alternate-art ids."""
    from varz_deck.games import get_game

    same = database.printings.get(get_game(database.game).identity(card)) or [card]
    ids = [c.id for c in same]
    ids.extend(a for a in getattr(card, "aliases", ()) if a not in ids)
    return ids


def card_markdown(card: Any, database: CardDatabase) -> str:
    names = [card.name, *(n for n in card.names.values() if n != card.name)]
    lines = [f"**{safe(' · '.join(names))}** `{safe(card.id)}`", "", "```yaml"]
    if is_dataclass(card):
        for f in fields(card):
            value = getattr(card, f.name)
            if f.name in _NOT_SHOWN or value in (None, (), {}, False, ""):
                continue
            lines.append(f"{f.name}: {_value(value)}")
    lines.append(f"printings: {_value(printings(card, database))}")
    lines.append("```")
    text = getattr(card, "text", None)
    if text:
        lines += ["", safe(text)]
    return "\n".join(lines)


def hover(server: VarzServer, params: types.HoverParams) -> types.Hover | None:
    from varz_deck.lsp.references import cards_at

    found = cards_at(server, params.text_document.uri, params.position)
    if found is None:
        return None
    doc, ref, cards = found
    database = server.library.of_game(server.deck_game(doc.uri).key).database
    if not cards or database is None:
        return None
    line = doc.line(params.position.line)
    span = types.Range(
        types.Position(params.position.line, server.units.count(line[: ref.start])),
        types.Position(params.position.line, server.units.count(line[: ref.end])),
    )
    body = "\n\n---\n\n".join(card_markdown(card, database) for card in cards)
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=body), range=span
    )


def register(server: VarzServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded
    def on_hover(ls: VarzServer, params: types.HoverParams) -> types.Hover | None:
        return hover(ls, params)
