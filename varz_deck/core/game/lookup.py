"""`cards show` and `cards search` for a declared game: filters by type, colour (the fields the
game names as its colours), cost and a word of the text; a card shown with every declared field."""

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
    names_grid,
    panel_title,
    status_renderable,
    text_matches,
)
from varz_deck.core.cards.model import CardDatabase, normalize
from varz_deck.core.game.cards import Declared, DeclaredCard
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.messages.sanitize import safe


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


class DeclaredLookup:
    """A declared game's card look-up (`CardLookup`)."""

    def __init__(self, game: Declared) -> None:
        self.game = game

    def filters(self, database: CardDatabase[DeclaredCard]) -> Mapping[str, Sequence[str]]:
        found: dict[str, Sequence[str]] = {"type": tuple(self.game.declaration.types)}
        words = [w for name in self.game.colours for w in self.game.declaration.fields[name].words]
        if words:
            found["color"] = tuple(dict.fromkeys(words))
        return found

    def find(self, database: CardDatabase[DeclaredCard], ref: str) -> DeclaredCard | None:
        return find_card(database, ref)

    def matches(self, card: DeclaredCard, query: CardQuery) -> bool:
        haystack: Iterable[str | None] = (
            card.id,
            card.name,
            *card.names.values(),
            card.fields.get("text"),
        )
        if not text_matches(query.text, haystack):
            return False
        if query.type and card.type != normalize(query.type):
            return False
        if query.color and normalize(query.color) not in self.game.colours_of(card):
            return False
        if query.cost is not None and (
            self.game.cost is None or card.fields.get(self.game.cost) != query.cost
        ):
            return False
        text = normalize(str(card.fields.get("text") or ""))
        return not query.keyword or normalize(query.keyword) in text.split()

    def search(self, database: CardDatabase[DeclaredCard], query: CardQuery) -> list[DeclaredCard]:
        found = (c for c in database.cards.values() if self.matches(c, query))
        return sorted(found, key=lambda c: c.id)

    def card_panel(
        self, card: DeclaredCard, database: CardDatabase[DeclaredCard], lang: str
    ) -> RenderableType:
        grid = names_grid(card, lang)
        rows = (("type", card.type), ("set", card.set), *card.fields.items())
        for field, value in rows:
            if value is not None and value != ():
                grid.add_row(Message("field", field).render(lang), safe(_shown(value)))
        printings = database.printings.get(database.card_key(card), [card])
        return Panel(
            Group(
                grid,
                Text(""),
                Text(msg("cards", "Formats").render(lang), style="bold underline"),
                status_renderable(format_status(printings, database), lang),
            ),
            title=panel_title(card, lang),
            subtitle=Text(card.type),
            expand=False,
        )

    def search_table(self, cards: Sequence[DeclaredCard], lang: str) -> RenderableType:
        table = Table(box=None, pad_edge=False, header_style="bold")
        columns = ["id", "name", "type", *(["color"] if self.game.colours else [])]
        columns += [self.game.cost] if self.game.cost else []
        for heading in columns:
            table.add_column(Message("field", heading).render(lang), no_wrap=heading != "name")
        for card in cards:
            name = card.name_in(lang)
            row = [
                safe(card.id),
                safe(name if name == card.name else f"{name} ({card.name})"),
                card.type,
            ]
            if self.game.colours:
                row.append("/".join(self.game.colours_of(card)))
            if self.game.cost:
                row.append(_shown(card.fields.get(self.game.cost)))
            table.add_row(*row)
        return table
