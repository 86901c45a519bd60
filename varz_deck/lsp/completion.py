"""Completion of card references, in every language of the database (docs/guides/editors.md).

A card is offered by each of its names (English and every translation) and by its id, matched
the way references are (NFKC, case-folded): names that start with what was typed first, then
names with a word that starts with it, then names that contain it, then names that hold its
letters in order from the start of a word ("dragn" finds "Dragon"; the same rule in every
script). After a single-card slot's key only the cards of that slot are offered, in a section
only the cards that belong there (the game says which: its `section_of`). The cards legal in the
deck's format come first; the others follow, each saying why it is not legal there (banned, or
in none of the format's sets). The entry is written the way the file writes them: `Name: 1` in a
mapping, `- 1 Name` in a list, `1 Name` in a text list. The search is varz_deck.lsp.index's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from varz_deck.core.cards.model import Format
from varz_deck.core.messages.i18n import Joined, Message, Term, msg, nmsg
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.index import LIMIT
from varz_deck.lsp.lines import header_line, list_style, reference_on, typing_at, yaml_key

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase, CardRecord
    from varz_deck.core.game import Game
    from varz_deck.lsp.documents import Document
    from varz_deck.lsp.index import Key
    from varz_deck.lsp.server import VarzServer

_BANNED = msg("lsp", "not legal in {format}: banned")
_NOT_IN_SETS = nmsg(
    "lsp", "not legal in {format}: only in set {sets}", "not legal in {format}: only in sets {sets}"
)


def fits(game: Game, place: str | None) -> Callable[[CardRecord], bool] | None:
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


def deck_format(server: VarzServer, doc: Document, database: CardDatabase) -> Format | None:
    """The format the deck was last checked in, as on the day it was checked for."""
    report = server.reports.get(doc.uri)
    if report is None:
        return None
    checked = getattr(report.view, "format", None)
    if isinstance(checked, Format):
        return checked
    fmt = database.formats.get(report.format)
    return fmt.on(report.date) if fmt is not None and report.date is not None else fmt


def not_legal(game: Game, database: CardDatabase, fmt: Format, card: CardRecord) -> Message | None:
    """Why a card is not legal in a format (banned, in none of its sets), or None: legal. Every
    printing of what the game counts a card by counts."""
    printings = database.printings.get(game.identity(card)) or [card]
    shown = Term("format", fmt.name)
    if {p.id for p in printings} & set(fmt.banned):
        return _BANNED(format=shown)
    sets = sorted({p.set for p in printings})
    if fmt.sets is not None and not set(sets) & set(fmt.sets):
        return _NOT_IN_SETS(format=shown, sets=Joined(tuple(sets)), n=len(sets))
    return None


def legal_first(
    server: VarzServer, doc: Document, game: Game, found: list[tuple[int, Key]]
) -> list[tuple[int, Key, Message | None]]:
    """The search's keys, those legal in the deck's format first (each as found), then the
    others with why they are not legal; at most LIMIT."""
    database = server.library.of_game(game.key).database
    fmt = deck_format(server, doc, database) if database is not None else None
    if fmt is None or database is None:
        return [(rank, key, None) for rank, key in found[:LIMIT]]
    fetch = getattr(database.printings, "fetch", None)
    if fetch is not None:  # a database read from its index: the printings in one query
        fetch({game.identity(key.card) for _, key in found})
    marked = [(rank, key, not_legal(game, database, fmt, key.card)) for rank, key in found]
    marked.sort(key=lambda item: item[2] is not None)  # stable: each part keeps the search's order
    return marked[:LIMIT]


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
    # the line section_of stops at (not every line above it), then the line being typed
    words = section_words(game)
    head = header_line(doc.text, doc.offset(number, 0, server.units), yaml, words)
    lines = [line] if head is None else [doc.line(doc.position(head, server.units)[0]), line]
    typing = typing_at(
        lines,
        len(lines) - 1,
        column,
        yaml=yaml,
        slots=game.slots,
        words=words,
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
    for rank, key, why in legal_first(server, doc, game, index.search(typing.typed, wanted)):
        card = key.card
        label = key.shown if key.lang != "id" else card.name
        written = key.shown
        name = yaml_key(written) if yaml and "{key}" in typing.template else written
        text = typing.template.format(name=written, key=name)
        also = [n for n in (card.name, *card.names.values()) if n != label]
        description = key.shown if key.lang == "id" else " / ".join(also[:2])
        if why is not None:
            description = " · ".join(x for x in (why.render(server.lang), description) if x)
        items.append(
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind.Value,
                detail=detail(game, card),
                label_details=types.CompletionItemLabelDetails(description=description or None),
                sort_text=f"{int(why is not None)}{rank}{len(items):04d}",
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
