"""Looking Tidewright cards up for people (`cards show`, `cards search`).

Filters: `--type` takes the card types, `--color` a sea (a captain matches each of its seas),
`--cost` a cost, `--keyword` a word of the card's text (Tidewright prints no keywords). `--class`
is not Tidewright's: the command refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from varz_deck.core.cards.cardinfo import (
    CardQuery,
    find_card,
    format_status,
    status_renderable,
    text_matches,
)
from varz_deck.core.cards.model import CardDatabase, normalize
from varz_deck.core.messages.i18n import ENGLISH, CardName, Message, msg
from varz_deck.core.messages.sanitize import safe

from tidewright.cards import SEAS, TYPES, TideCard

FIELD_LABELS: tuple[tuple[str, Message], ...] = (
    ("type", msg("field", "type")),
    ("set", msg("field", "set")),
    ("seas", msg("field", "seas")),
    ("sea", msg("field", "sea")),
    ("renown", msg("field", "renown")),
    ("cost", msg("field", "cost")),
    ("might", msg("field", "might")),
    ("text", msg("field", "text")),
)


def _haystack(card: TideCard) -> Iterable[str | None]:
    yield card.id
    yield card.name
    yield from card.names.values()
    yield card.text


def _seas(card: TideCard) -> tuple[str, ...]:
    return card.seas or ((card.sea,) if card.sea else ())


def matches(card: TideCard, query: CardQuery) -> bool:
    """Whether a card fits every filter (text: any language, ignoring case and width)."""
    if not text_matches(query.text, _haystack(card)):
        return False
    if query.type and card.type != normalize(query.type):
        return False
    if query.color and normalize(query.color) not in _seas(card):
        return False
    if query.cost is not None and card.cost != query.cost:
        return False
    return not query.keyword or normalize(query.keyword) in normalize(card.text or "").split()


def search_table(cards: Sequence[TideCard], lang: str = ENGLISH) -> Table:
    """The search result: id, name, type, sea(s), cost, might."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    for heading in ("id", "name", "type", "sea", "cost", "might"):
        table.add_column(msg("field", heading).render(lang), no_wrap=heading != "name")
    for card in cards:
        name = card.name_in(lang)
        table.add_row(
            safe(card.id),
            safe(name if name == card.name else f"{name} ({card.name})"),
            card.type,
            "/".join(_seas(card)),
            "" if card.cost is None else str(card.cost),
            "" if card.might is None else str(card.might),
        )
    return table


def card_panel(card: TideCard, database: CardDatabase, lang: str = ENGLISH) -> RenderableType:
    """One card in full: every field, every name, its format status."""
    fields = Table.grid(padding=(0, 2))
    fields.add_column(style="bold", no_wrap=True)
    fields.add_column(overflow="fold")
    fields.add_row(msg("field", "id").render(lang), safe(card.id))
    fields.add_row(msg("field", "name").render(lang), safe(card.name))
    for language, name in sorted(card.names.items()):
        named = msg("field", "name ({language})")(language=language)
        fields.add_row(named.render(lang), safe(name))
    for field, label in FIELD_LABELS:
        value = getattr(card, field)
        if value is not None and value != ():
            shown = ", ".join(value) if isinstance(value, tuple) else str(value)
            fields.add_row(label.render(lang), safe(shown))
    title = CardName.of(card, quote=False).in_language(lang)
    printings = database.printings.get(card.name, [card])
    return Panel(
        Group(
            fields,
            Text(""),
            Text(msg("cards", "Formats").render(lang), style="bold underline"),
            status_renderable(format_status(printings, database), lang),
        ),
        title=Text(safe(title if title == card.name else f"{title} / {card.name}"), style="bold"),
        subtitle=Text(card.type),
        expand=False,
    )


class TideLookup:
    """`cards show` / `cards search` for Tidewright: --color is a sea."""

    def filters(self, database: CardDatabase) -> Mapping[str, Sequence[str]]:
        return {"type": TYPES, "color": SEAS}

    def find(self, database: CardDatabase, ref: str) -> TideCard:
        card: TideCard = find_card(database, ref)
        return card

    def search(self, database: CardDatabase, query: CardQuery) -> list[TideCard]:
        found = (c for c in database.cards.values() if matches(c, query))
        return sorted(found, key=lambda c: c.id)

    def card_panel(self, card: TideCard, database: CardDatabase, lang: str) -> RenderableType:
        return card_panel(card, database, lang)

    def search_table(self, cards: Sequence[TideCard], lang: str) -> RenderableType:
        return search_table(cards, lang)


LOOKUP = TideLookup()
