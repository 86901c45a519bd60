"""Looking VARZ cards up for people: one card in full (`cards show`), a filtered list (`cards
search`): the game's `CardLookup` (varz_deck/core/game.py). Finding by reference and text matching
are the core's (varz_deck/core/cards/cardinfo.py).

Pure functions: they find cards and build rich renderables in a language; the CLI prints them.
Every value from the card files is escaped (`safe`) before it reaches a renderable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from varz_deck.core.cards.cardinfo import (
    CardQuery,
    FunctionLookup,
    add_fields,
    names_grid,
    panel_title,
    result_name,
    result_table,
    status_renderable,
    text_matches,
)
from varz_deck.core.cards.cardinfo import format_status as format_status_of
from varz_deck.core.cards.model import CardDatabase, Format, normalize
from varz_deck.core.messages.i18n import (
    ENGLISH,
    Joined,
    Message,
    Term,
    msg,
    term,
    value_text,
)
from varz_deck.core.messages.sanitize import safe
from varz_deck.games.varz.cards import CARD_TYPES, COLORLESS, COLORS, GENERIC, SKILL_CLASSES, Card

# Field labels, in the order a card shows them.
FIELD_LABELS: tuple[tuple[str, Message], ...] = (
    ("type", msg("field", "type")),
    ("set", msg("field", "set")),
    ("color", msg("field", "color")),
    ("cost", msg("field", "cost")),
    ("power", msg("field", "power")),
    ("life", msg("field", "life")),
    ("shield_life", msg("field", "Shield Life")),
    ("skill_classes", msg("field", "skill classes")),
    ("skill_class", msg("field", "skill class")),
    ("evolution_level", msg("field", "evolution level")),
    ("memory", msg("field", "Memory")),
    ("vaz", msg("field", "VAZ skill")),
    ("classes", msg("field", "classes")),
    ("keywords", msg("field", "keywords")),
    ("legendary", msg("field", "legendary")),
    ("rarity", msg("field", "rarity")),
    ("text", msg("field", "text")),
    ("flavor", msg("field", "flavor")),
    ("v_sync", msg("field", "V-Sync")),
)
_YES, _NO = msg("field", "yes"), msg("field", "no")
_TRAILING_NUMBER = re.compile(r"[+]?[0-9]+$")


def _haystack(card: Card) -> Iterable[str]:
    yield card.id
    yield card.name
    yield from card.names.values()
    if card.text:
        yield card.text
    if card.v_sync:
        yield str(card.v_sync.get("name", ""))
        yield str(card.v_sync.get("text", ""))


def _keyword_matches(wanted: str, keywords: Sequence[str]) -> bool:
    """`move` matches move2, `atk` and `atk+` match atk+2, `atk+2` only atk+2."""
    for keyword in keywords:
        word = normalize(keyword)
        if wanted in (word, _TRAILING_NUMBER.sub("", word), _TRAILING_NUMBER.sub("", word)[:-1]):
            return True
    return False


def matches(card: Card, query: CardQuery) -> bool:
    """Whether a card fits every filter; text matches width- and case-insensitively, any language."""
    if not text_matches(query.text, _haystack(card)):
        return False
    if query.type and card.type != normalize(query.type):
        return False
    if query.color and card.color != normalize(query.color):
        return False
    if query.cost is not None and card.cost != query.cost:
        return False
    if query.klass:
        wanted = normalize(query.klass)
        classes = {*card.skill_classes, *card.classes, card.skill_class}
        if wanted not in {normalize(c) for c in classes if c}:
            return False
    return not (query.keyword and not _keyword_matches(normalize(query.keyword), card.keywords))


def search(database: CardDatabase, query: CardQuery) -> list[Card]:
    """Every printing that fits the query, in id order."""
    return sorted((c for c in database.cards.values() if matches(c, query)), key=lambda c: c.id)


def _stats(card: Card) -> str:
    if card.type == "hero":
        return f"{card.life}/{card.power} · Lv{card.evolution_level} · M{card.memory}"
    if card.type == "portal":
        return f"SL {card.shield_life}"
    if card.power is not None:
        return f"{card.power}"
    return ""


def search_table(cards: Sequence[Card], lang: str = ENGLISH) -> Table:
    """The search result as a table: id, name (and English name), type, colour, cost, stats."""
    table = result_table(
        (
            msg("field", "id"),
            msg("field", "name"),
            msg("field", "type"),
            msg("field", "color"),
            msg("field", "cost"),
            msg("field", "stats"),
            msg("field", "classes / keywords"),
        ),
        lang,
    )
    for card in cards:
        classes = (*card.skill_classes, *card.classes, *filter(None, [card.skill_class]))
        extras = Joined((*(Term("class", c) for c in classes), *card.keywords))
        table.add_row(
            safe(card.id),
            result_name(card, lang),
            term("card type", card.type, lang),
            term("color", card.color, lang) if card.color else "",
            str(card.cost) if card.cost is not None else "",
            _stats(card),
            str(value_text(extras, lang)),
        )
    return table


# --------------------------------------------------------------------------- show


def _value(card: Card, field: str, lang: str) -> str | None:
    value = getattr(card, field)
    if value is None or value == () or (field in ("vaz", "legendary") and not value):
        return None
    if field == "type":
        return term("card type", value, lang)
    if field == "color":
        return term("color", value, lang)
    if field in ("skill_classes", "classes"):
        return str(value_text(Joined(tuple(Term("class", c) for c in value)), lang))
    if field == "skill_class":
        return term("class", value, lang)
    if field == "keywords":
        return str(value_text(Joined(tuple(value)), lang))
    if isinstance(value, bool):
        return (_YES if value else _NO).render(lang)
    if field == "v_sync":
        parts = [str(value.get(key)) for key in ("name", "power", "text") if value.get(key)]
        return safe(" · ".join(parts))
    return safe(value)


def format_status(card: Card, database: CardDatabase) -> list[tuple[Format, Message]]:
    """The formats that ban or restrict a card (any printing), or whose sets leave it out."""
    return format_status_of(database.printings.get(card.name, [card]), database)


def card_panel(card: Card, database: CardDatabase, lang: str = ENGLISH) -> RenderableType:
    """One card in full: every field, every name, its printings, its format status."""
    fields = names_grid(card, lang)
    add_fields(fields, card, FIELD_LABELS, _value, msg("field", "file"), lang)

    printings = Table(box=None, pad_edge=False, header_style="bold")
    for column in (msg("field", "id"), msg("field", "set"), msg("field", "rarity")):
        printings.add_column(column.render(lang))
    for printing in sorted(database.printings.get(card.name, [card]), key=lambda c: c.id):
        printings.add_row(safe(printing.id), safe(printing.set), safe(printing.rarity or ""))

    formats = status_renderable(format_status(card, database), lang)

    return Panel(
        Group(
            fields,
            Text(""),
            Text(msg("cards", "Printings").render(lang), style="bold underline"),
            printings,
            Text(""),
            Text(msg("cards", "Formats").render(lang), style="bold underline"),
            formats,
        ),
        title=panel_title(card, lang),
        subtitle=Text(term("card type", card.type, lang)),
        expand=False,
    )


def _filters(database: CardDatabase) -> Mapping[str, Sequence[str]]:
    """--type, --color and --class take the game's words."""
    return {
        "type": CARD_TYPES,
        "color": (*COLORS, COLORLESS),
        "class": (*SKILL_CLASSES, GENERIC),
    }


# `cards show` / `cards search` for VARZ
LOOKUP = FunctionLookup(_filters, search, card_panel, search_table)
