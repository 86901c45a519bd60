"""Looking Azuki cards up for people (`cards show`, `cards search`): the game's `CardLookup`
(varz_deck/core/game.py). Finding by reference, text matching and the formats' verdicts are the
core's (varz_deck/core/cards/cardinfo.py).

Filters: `--type` takes Azuki's card types, `--color` its elements, `--class` a trait (Azuki has
no classes; traits such as "Black Jade" are what cards are grouped by), `--keyword` a keyword
(`on play` matches on_play). Every value from the card files is escaped (`safe`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from varz_deck.core.cards.cardinfo import (
    CardQuery,
    FunctionLookup,
    add_fields,
    format_status,
    names_grid,
    panel_title,
    result_name,
    result_table,
    status_renderable,
    text_matches,
)
from varz_deck.core.cards.model import CardDatabase, normalize
from varz_deck.core.messages.i18n import ENGLISH, Joined, Message, msg, term, value_text
from varz_deck.core.messages.sanitize import safe
from varz_deck.games.azuki.cards import ELEMENTS, AzukiCard
from varz_deck.games.azuki.declaration import DECLARATION

TYPES = tuple(DECLARATION.types)
# The game's words, so the extractor finds them; translated with term(group, value) (`sim --plot`
# says the elements too).
TERMS = (
    msg("element", "fire"),
    msg("element", "water"),
    msg("element", "earth"),
    msg("element", "lightning"),
    msg("element", "neutral"),
    msg("azuki card type", "leader"),
    msg("azuki card type", "gate"),
    msg("azuki card type", "entity"),
    msg("azuki card type", "spell"),
    msg("azuki card type", "weapon"),
    msg("azuki card type", "ikz"),
    msg("azuki card type", "ikz_token"),
)
FIELD_LABELS: tuple[tuple[str, Message], ...] = (
    ("type", msg("field", "type")),
    ("set", msg("field", "set")),
    ("elements", msg("field", "elements")),
    ("cost", msg("field", "cost")),
    ("attack", msg("field", "attack")),
    ("health", msg("field", "health")),
    ("gate_power", msg("field", "gate power")),
    ("traits", msg("field", "traits")),
    ("keywords", msg("field", "keywords")),
    ("aliases", msg("field", "other ids")),
    ("text", msg("field", "text")),
)


def _word(value: str) -> str:
    """A keyword or trait as matched: normalized, underscores as spaces."""
    return normalize(value.replace("_", " "))


def _haystack(card: AzukiCard) -> Iterable[str | None]:
    yield card.id
    yield from card.aliases
    yield card.name
    yield from card.names.values()
    yield from card.traits
    yield card.text


def matches(card: AzukiCard, query: CardQuery) -> bool:
    """Whether a card fits every filter (text: any language, ignoring case and width)."""
    if not text_matches(query.text, _haystack(card)):
        return False
    if query.type and card.type != normalize(query.type):
        return False
    if query.color and normalize(query.color) not in card.elements:
        return False
    if query.cost is not None and card.cost != query.cost:
        return False
    if query.klass and _word(query.klass) not in {_word(t) for t in card.traits}:
        return False
    return not (query.keyword and _word(query.keyword) not in {_word(k) for k in card.keywords})


def search(database: CardDatabase, query: CardQuery) -> list[AzukiCard]:
    """Every card that fits the query, in id order."""
    return sorted((c for c in database.cards.values() if matches(c, query)), key=lambda c: c.id)


def _elements(card: AzukiCard, lang: str) -> str:
    return str(value_text(Joined(tuple(term("element", e, lang) for e in card.elements)), lang))


def _stats(card: AzukiCard) -> str:
    if card.attack is not None or card.health is not None:
        return f"{card.attack if card.attack is not None else '–'}/{card.health or '–'}"
    if card.gate_power is not None:
        return f"GP {card.gate_power}"
    return ""


def search_table(cards: Sequence[AzukiCard], lang: str = ENGLISH) -> Table:
    """The search result: id, name (and English name), type, elements, cost, stats, traits."""
    table = result_table(
        (
            msg("field", "id"),
            msg("field", "name"),
            msg("field", "type"),
            msg("field", "elements"),
            msg("field", "cost"),
            msg("field", "stats"),
            msg("field", "traits / keywords"),
        ),
        lang,
    )
    for card in cards:
        extras = Joined((*card.traits, *card.keywords))
        table.add_row(
            safe(card.id),
            result_name(card, lang),
            term("azuki card type", card.type, lang),
            _elements(card, lang),
            str(card.cost) if card.cost is not None else "",
            _stats(card),
            safe(str(value_text(extras, lang))),
        )
    return table


def _value(card: AzukiCard, field: str, lang: str) -> str | None:
    value = getattr(card, field)
    if value is None or value == ():
        return None
    if field == "type":
        return term("azuki card type", value, lang)
    if field == "elements":
        return _elements(card, lang)
    if isinstance(value, tuple):
        return safe(str(value_text(Joined(value), lang)))
    return safe(value)


def card_panel(card: AzukiCard, database: CardDatabase, lang: str = ENGLISH) -> RenderableType:
    """One card in full: every field, every name, its format status."""
    fields = names_grid(card, lang)
    add_fields(fields, card, FIELD_LABELS, _value, msg("field", "file"), lang)
    return Panel(
        Group(
            fields,
            Text(""),
            Text(msg("cards", "Formats").render(lang), style="bold underline"),
            status_renderable(format_status([card], database), lang),
        ),
        title=panel_title(card, lang),
        subtitle=Text(term("azuki card type", card.type, lang)),
        expand=False,
    )


def _filters(database: CardDatabase) -> Mapping[str, Sequence[str]]:
    """--color is an element, --class a trait."""
    traits = sorted({t for c in database.cards.values() for t in c.traits}, key=normalize)
    return {"type": TYPES, "color": ELEMENTS, "class": tuple(traits)}


# `cards show` / `cards search` for Azuki
LOOKUP = FunctionLookup(_filters, search, card_panel, search_table)
