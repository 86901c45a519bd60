"""Completion of card references, in every language of the database (SPEC §10).

A card is offered by each of its names (English and every translation) and by its id, matched
the way references are (NFKC, case-folded): names that start with what was typed first, then
names with a word that starts with it, then names that contain it, then names that hold its
letters in order ("dragn" finds "Dragon"). After a single-card slot's key only the cards of that
slot are offered, in a section only the cards that belong there (the game says which: its
`section_of`). The entry is written the way the file writes them: `Name: 1` in a mapping,
`- 1 Name` in a list, `1 Name` in a text list. The search is varz_deck.lsp.index's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from varz_deck.lsp.guard import guarded
from varz_deck.lsp.index import LIMIT
from varz_deck.lsp.lines import list_style, reference_on, typing_at, yaml_key

if TYPE_CHECKING:
    from varz_deck.core.game import Game
    from varz_deck.lsp.server import VarzServer


def fits(game: Game, place: str | None) -> Callable[[Any], bool] | None:
    """A test for the cards that belong in a slot or section (None: any card)."""
    if place is None:
        return None
    return lambda card: game.section_of(card) == place


def section_words(game: Game) -> dict[str, str]:
    """Header word -> section, for finding the section a line is in."""
    words = {name: name for name in (*game.sections, *game.slots)}
    words.update(game.list_words.sections)
    return words


def detail(game: Game, card: Any) -> str:
    """id · type · cost · the card's colours."""
    parts = [card.id, card.type]
    if getattr(card, "cost", None) is not None:
        parts.append(f"cost {card.cost}")
    colours = "/".join(game.colours_of(card))
    if colours:
        parts.append(colours)
    return " · ".join(str(p) for p in parts)


def complete(server: VarzServer, params: types.CompletionParams) -> types.CompletionList | None:
    doc = server.document(params.text_document.uri)
    if doc is None or server.is_card_file(doc.uri):
        return None
    game = server.deck_game(doc.uri)
    loaded = server.library.of_game(game.key)
    index = loaded.index()
    if index is None:
        return None
    number = params.position.line
    line = doc.line(number)
    column = server.units.index(line, params.position.character)
    yaml = not doc.is_text_list
    lines = [doc.line(i) for i in range(max(0, number - 400), number + 1)]
    offset = max(0, number - 400)
    typing = typing_at(
        lines,
        number - offset,
        column,
        yaml=yaml,
        slots=game.slots,
        words=section_words(game),
        listed=yaml and list_style(doc.text),
    )
    if typing is None:
        return None
    written_ref = reference_on(line, yaml, game.slots)
    end_column = column
    if written_ref is not None and written_ref.start <= column <= written_ref.end:
        # completing inside a written entry: replace its reference, keep its count
        keyed = yaml and not line.lstrip().startswith("-")
        typing = replace(typing, start=written_ref.start, template="{key}" if keyed else "{name}")
        end_column = written_ref.end
    if typing.slot is not None and yaml:
        typing = replace(typing, template="{key}")
    wanted = fits(game, typing.slot or typing.section)
    start = types.Position(number, server.units.count(line[: typing.start]))
    end = types.Position(number, server.units.count(line[:end_column]))
    items: list[types.CompletionItem] = []
    for rank, key in index.search(typing.typed, wanted, LIMIT):
        card = key.card
        label = key.shown if key.lang != "id" else card.name
        written = key.shown
        name = yaml_key(written) if yaml and "{key}" in typing.template else written
        text = typing.template.format(name=written, key=name)
        also = [n for n in (card.name, *card.names.values()) if n != label]
        items.append(
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind.Value,
                detail=detail(game, card),
                label_details=types.CompletionItemLabelDetails(
                    description=key.shown if key.lang == "id" else " / ".join(also[:2]) or None
                ),
                sort_text=f"{rank}{len(items):04d}",
                # clients that keep only items starting with the typed text still show the others
                filter_text=key.shown if rank == 0 else typing.typed,
                text_edit=types.TextEdit(types.Range(start, end), text),
            )
        )
    return types.CompletionList(is_incomplete=True, items=items)


def register(server: VarzServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[" ", ":", "-"]),
    )
    @guarded
    def completion(ls: VarzServer, params: types.CompletionParams) -> types.CompletionList | None:
        return complete(ls, params)
