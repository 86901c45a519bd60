"""Hover on a card reference: the card's names, its fields as its card file gives them (type,
cost, colour, keywords, stats…) in a YAML block that parses as YAML, its text and its printings;
in a deck, the card's exact figures in that deck (castable on curve…), named as the glossary
names them."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING

import yaml
from lsprotocol import types

from varz_deck.core.messages.i18n import msg
from varz_deck.core.messages.sanitize import safe
from varz_deck.lsp.guard import guarded

if TYPE_CHECKING:
    from varz_deck.core.analysis.parts import Part
    from varz_deck.core.cards.model import CardDatabase, CardRecord
    from varz_deck.core.game import Game
    from varz_deck.lsp.documents import Document
    from varz_deck.lsp.server import VarzServer

_IN_THIS_DECK = msg("lsp", "In this deck as it is now ({on}, mulligan {mulligan}):")
_NOT_SHOWN = {"id", "name", "names", "file", "line", "set", "text", "flavor", "aliases"}


_BACKTICKS = re.compile("`+")


def _plain(value: object) -> object:
    """A card field's value as YAML's plain data: text escaped (controls and bidi overrides made
    visible), sequences as lists, mappings and records as mappings."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (tuple, list, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {safe(k): _plain(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, datetime.date):
        return value.isoformat()
    return safe(value)


def _shown(value: object) -> bool:
    """Whether a field is worth a line: not unset, empty or false (a 0 is shown)."""
    return (
        value is not None
        and value is not False
        and not (isinstance(value, (str, tuple, list, dict, set, frozenset)) and not value)
    )


class _Dumper(yaml.SafeDumper):
    """YAML as card files write it: lists on one line (`[a, b]`), mappings a key a line."""

    def represent_list(self, data: Iterable[object]) -> yaml.SequenceNode:
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Dumper.add_representer(list, _Dumper.represent_list)


def _yaml_block(data: dict[str, object]) -> list[str]:
    """A fenced YAML block of data, its fence longer than any run of backticks inside."""
    text = yaml.dump(
        data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, default_flow_style=False
    )
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "yaml", text.rstrip("\n"), fence]


def printings(card: CardRecord, database: CardDatabase) -> list[str]:
    """The ids the card is printed under: every printing of what the game counts a card by (its
    `identity`), then the card's alternate-art ids."""
    from varz_deck.games import get_game

    same = database.printings.get(get_game(database.game).identity(card)) or [card]
    ids = [c.id for c in same]
    ids.extend(a for a in getattr(card, "aliases", ()) if a not in ids)
    return ids


def card_markdown(card: CardRecord, database: CardDatabase) -> str:
    names = [card.name, *(n for n in card.names.values() if n != card.name)]
    lines = [f"**{safe(' · '.join(names))}** `{safe(card.id)}`", ""]
    shown: dict[str, object] = {}
    if is_dataclass(card):
        for f in fields(card):
            value = getattr(card, f.name)
            if f.name not in _NOT_SHOWN and _shown(value):
                shown[f.name] = _plain(value)
    shown["printings"] = _plain(printings(card, database))
    lines += _yaml_block(shown)
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
    game = server.deck_game(doc.uri)
    shown = [
        card_markdown(card, database) + figures_markdown(server, doc, game, card) for card in cards
    ]
    body = "\n\n---\n\n".join(shown)
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=body), range=span
    )


def _parts(server: VarzServer, doc: Document, game: Game) -> tuple[Part, ...]:
    """`varz-deck tune`'s parts for the buffer as it is (defaults: on the play, the game's
    mulligan), computed once per text; () when the game has no tuner or the deck is unusable."""
    cached = server.figures.get(doc.uri)
    if cached is not None and cached[0] == doc.text:
        return cached[1]
    from varz_deck.core.analysis.capabilities import DeckUnusable
    from varz_deck.core.files.source import DeckSource

    tuner, database = game.tuner, server.library.of_game(game.key).database
    parts: tuple[Part, ...] = ()
    if tuner is not None and "tune" in tuner.options and database is not None:
        mulligan = "auto" if "mulligan" in tuner.options else "none"
        source = DeckSource.from_text(str(doc.path), doc.text)
        try:
            outcome = tuner.tune(
                source, database, target=0.9, on="play", mulligan=mulligan, date=server.day()
            )
            parts = tuple(outcome.parts())
        except DeckUnusable:
            parts = ()
    server.figures[doc.uri] = (doc.text, parts)
    return parts


def figures_markdown(server: VarzServer, doc: Document, game: Game, card: CardRecord) -> str:
    """The card's row of the deck's exact per-card tables, one glossary-named figure a line, and
    where the terms are explained; "" when the deck gives the card none."""
    from varz_deck.core.analysis.glossary import GLOSSARY_HINT, entries
    from varz_deck.core.analysis.htmlreport import figure_text
    from varz_deck.core.analysis.parts import Figure, Table
    from varz_deck.core.messages.i18n import CardName

    glossary, lang = entries(game), server.lang
    lines: list[str] = []
    for part in _parts(server, doc, game):
        if not isinstance(part, Table):
            continue
        for row in part.rows:
            if not (row and isinstance(row[0], CardName) and row[0].name == card.name):
                continue
            lines.append(f"**{safe(part.title.render(lang))}**")
            for column, cell in zip(part.columns, row, strict=True):
                entry = glossary.get(column.term or "")
                if entry is not None and isinstance(cell, Figure):
                    lines.append(f"- {safe(entry.name.render(lang))}: {figure_text(cell, lang)}")
    if not lines:
        return ""
    tuner = game.tuner
    mulligan = "auto" if tuner is not None and "mulligan" in tuner.options else "none"
    head = _IN_THIS_DECK(on=msg("sim", "on the play"), mulligan=mulligan).render(lang)
    return "\n\n" + "\n".join([safe(head), "", *lines, "", safe(GLOSSARY_HINT.render(lang))])


def register(server: VarzServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded
    def on_hover(ls: VarzServer, params: types.HoverParams) -> types.Hover | None:
        return hover(ls, params)
