"""Completion of card references, in every language of the database (SPEC §10).

A card is offered by each of its names (English and every translation) and by its id, matched
the way references are (NFKC, case-folded): names that start with what was typed first, then
names with a word that starts with it, then names that contain it, then names that hold its
letters in order ("dragn" finds "Dragon"). After `hero:`/`leader:`/`gate:` only cards of that
slot are offered, in a section only the cards that belong there. The entry is written the way
the file writes them: `Name: 1` in a mapping, `- 1 Name` in a list, `1 Name` in a text list.

The index is built once per database: every key in one string, searched with one regular
expression in C, so a 10,000-card database answers within a few milliseconds.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from varz_deck.core.cards import normalize
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.lines import list_style, reference_on, typing_at, yaml_key

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase
    from varz_deck.core.game import Game
    from varz_deck.lsp.server import VarzServer

LIMIT = 50  # items per answer; the list is incomplete, so the editor asks again as you type
_WORD_BREAKS = frozenset(" -(/,.・")


@dataclass(frozen=True)
class Key:
    """One way to write a card: a name in a language, or its id."""

    shown: str
    lang: str  # "en", "ja", "zh", …, or "id"
    card: Any


class CardIndex:
    """Every name and id of a database's cards, for completion."""

    def __init__(self, database: CardDatabase) -> None:
        self.database = database
        keys: list[Key] = []
        seen: set[tuple[str, str]] = set()
        for card in database.cards.values():
            for lang, shown in (("en", card.name), *card.names.items(), ("id", card.id)):
                if (shown, card.id) not in seen and shown:
                    seen.add((shown, card.id))
                    keys.append(Key(shown, lang, card))
        self.keys = keys
        self.norm = [normalize(k.shown).replace("\n", " ") for k in keys]
        self.joined = "\n" + "\n".join(self.norm)  # each key follows a line break
        self.starts: list[int] = []
        offset = 1
        for norm in self.norm:
            self.starts.append(offset)
            offset += len(norm) + 1

    def _line(self, offset: int) -> int:
        """The key whose text holds offset (a leading line break belongs to the key after it)."""
        return bisect.bisect_right(self.starts, offset + 1) - 1

    def search(self, typed: str, wanted: Any = None) -> list[tuple[int, Key]]:
        """(rank, key) of the keys that match what was typed, best first; `wanted(card)` keeps
        only the cards that fit the place. Each pattern matches a whole line of the joined keys
        (one match per key), and the search stops once enough keys of the better ranks are in."""
        query = normalize(typed)
        letters = [ch for ch in query if not ch.isspace()]
        found: dict[int, int] = {}

        def take(i: int, rank: int) -> None:
            if found.get(i, 4) > rank and (wanted is None or wanted(self.keys[i].card)):
                found[i] = rank

        # literal-led patterns, so the engine jumps from candidate to candidate
        for match in re.finditer("\n" + re.escape(query), self.joined):
            take(self._line(match.start()), 0)
            if len(found) >= LIMIT * 2:
                break
        if query and len(found) < LIMIT:
            for match in re.finditer(re.escape(query), self.joined):
                before = self.joined[match.start() - 1]
                take(
                    self._line(match.start()),
                    0 if before == "\n" else 1 if before in _WORD_BREAKS else 2,
                )
                if len(found) >= LIMIT * 2:
                    break
        if len(letters) > 1 and len(found) < LIMIT:  # the letters in order ("dragn": Dragon)
            fuzzy = re.escape(letters[0]) + "".join(
                f"[^{re.escape(ch)}\n]*{re.escape(ch)}" for ch in letters[1:]
            )
            for match in re.finditer(fuzzy, self.joined):
                take(self._line(match.start()), 3)
                if len(found) >= LIMIT * 2:
                    break
        chosen = sorted(
            found.items(), key=lambda item: (item[1], len(self.norm[item[0]]), self.norm[item[0]])
        )
        return [(rank, self.keys[i]) for i, rank in chosen]


def _fits(game: Game, place: str | None) -> Any:
    """A test for the cards that belong in a slot or section (None: any card)."""
    if place is None:
        return None
    home = _home(game)
    return lambda card: home(card) == place


def _home(game: Game) -> Any:
    if game.key == "varz":
        from varz_deck.games.varz.cards import SECTION_OF_TYPE

        return lambda card: SECTION_OF_TYPE.get(card.type)
    return lambda card: getattr(card, "home", None)


def section_words(game: Game) -> dict[str, str]:
    """Header word -> section, for finding the section a line is in."""
    words = {name: name for name in (*game.sections, *game.slots)}
    words.update(game.list_words.sections)
    return words


def detail(card: Any) -> str:
    """id · type · cost · colour (or elements)."""
    parts = [card.id, card.type]
    if getattr(card, "cost", None) is not None:
        parts.append(f"cost {card.cost}")
    colour = getattr(card, "color", None) or "/".join(getattr(card, "elements", ()) or ())
    if colour:
        parts.append(colour)
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
    wanted = _fits(game, typing.slot or typing.section)
    start = types.Position(number, server.units.count(line[: typing.start]))
    end = types.Position(number, server.units.count(line[:end_column]))
    items: list[types.CompletionItem] = []
    for rank, key in index.search(typing.typed, wanted)[:LIMIT]:
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
                detail=detail(card),
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
