"""What `cards show` and `cards search` share across games: finding one card by a reference (with
F005/F006-like messages), matching search text, and checking a filter against the game's words.

Each game's `CardLookup` (varz_deck/core/game.py) uses these and adds its own filters and its own
renderables.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol

from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format, normalize
from varz_deck.core.messages.i18n import Joined, Message, Quoted, msg

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table
    from rich.text import Text

CUTOFF = 0.6  # difflib's ratio for "did you mean"


class CardNotFound(Exception):
    """A reference that names no card, or more than one; `message` says which and what to do."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class CardQuery:
    """What `cards search` filters on; empty fields match every card."""

    text: str | None = None
    type: str | None = None
    color: str | None = None
    cost: int | None = None
    klass: str | None = None
    keyword: str | None = None


def find_card(database: CardDatabase[CardT], ref: str) -> CardT:
    """The card a reference (id, or name in any language) names; CardNotFound otherwise: an
    ambiguous name lists the cards it can mean (F006), an unknown one suggests close names (F005).
    """
    found = database.lookup(ref)
    if len(found) == 1:
        return found[0]
    if found:
        options = Joined(
            tuple(Message("", "{id} {card}")(id=c.id, card=Quoted(c.name)) for c in found), "; "
        )
        raise CardNotFound(
            msg("cards", "{ref} can mean {n} different cards: {options}; use the id")(
                ref=Quoted(ref), n=len(found), options=options
            )
        )
    close = database.suggestions(ref)
    if close:
        raise CardNotFound(
            msg("cards", "no card {ref}; did you mean {names}?")(
                ref=Quoted(ref), names=Joined(tuple(Quoted(c) for c in close), " or ")
            )
        )
    raise CardNotFound(
        msg("cards", "no card {ref}; `varz-deck cards search` lists cards")(ref=Quoted(ref))
    )


def text_matches(wanted: str | None, haystack: Iterable[str | None]) -> bool:
    """Whether the search text occurs in any of the strings, ignoring case and width (any
    language); no text matches everything."""
    if not wanted or not normalize(wanted):
        return True
    needle = normalize(wanted)
    return any(needle in normalize(part) for part in haystack if part)


def unknown_filter(option: str, value: str, known: Sequence[str], game: str) -> Message | None:
    """None when `value` is one of the game's words for the option (ignoring case and width),
    else the usage error to give: the close words ("did you mean"), or all of them."""
    if normalize(value) in {normalize(k) for k in known}:
        return None
    close = difflib.get_close_matches(normalize(value), [normalize(k) for k in known], 3, CUTOFF)
    if close:
        return msg("cards", "{game} has no {option} {value}; did you mean {close}?")(
            game=game,
            option=option,
            value=Quoted(value),
            close=Joined(tuple(Quoted(c) for c in close), " or "),
        )
    return msg("cards", "{game} has no {option} {value}; did you mean one of {known}?")(
        game=game, option=option, value=Quoted(value), known=Joined(tuple(known))
    )


def format_status(
    printings: Sequence[CardRecord], database: CardDatabase
) -> list[tuple[Format, Message]]:
    """The formats that ban or restrict a card (any of its printings), or whose sets leave it
    out."""
    ids = {p.id for p in printings}
    sets = {p.set for p in printings}
    out: list[tuple[Format, Message]] = []
    for fmt in database.formats.values():
        if ids & set(fmt.banned):
            out.append((fmt, msg("cards", "banned")))
        limits = [n for i, n in fmt.restricted.items() if i in ids]
        if limits:
            out.append((fmt, msg("cards", "restricted to {n}")(n=min(limits))))
        if fmt.sets is not None and not sets & set(fmt.sets):
            out.append((fmt, msg("cards", "not in its sets ({sets})")(sets=Joined(fmt.sets))))
    return out


def status_renderable(status: Sequence[tuple[Format, Message]], lang: str) -> RenderableType:
    """The formats part of a card panel: each format's verdict, or a line saying there is none."""
    from rich.table import Table
    from rich.text import Text

    from varz_deck.core.messages.i18n import term

    if not status:
        return Text(msg("cards", "not banned or restricted in any format").render(lang))
    formats = Table(box=None, pad_edge=False, show_header=False)
    formats.add_column(style="bold")
    formats.add_column()
    for fmt, what in status:
        formats.add_row(term("format", fmt.name, lang), what.render(lang))
    return formats


def result_table(headings: Sequence[Message], lang: str) -> Table:
    """A search result's table with its column headings: the name (the second) and the last column
    wrap by words; the short ones never break."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for i, heading in enumerate(headings):
        wraps = i == 1 or i == len(headings) - 1
        table.add_column(heading.render(lang), no_wrap=not wraps, overflow="fold")
    return table


def result_name(card: CardRecord, lang: str) -> str:
    """A card's name in a search result: in the language, with the English one after it."""
    from varz_deck.core.messages.sanitize import safe

    name = card.name_in(lang)
    return safe(name if name == card.name else f"{name} ({card.name})")


def names_grid(card: CardRecord, lang: str) -> Table:
    """The fields grid of a card panel, begun with the card's id and its names in every language."""
    from rich.table import Table

    from varz_deck.core.messages.sanitize import safe

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(msg("field", "id").render(lang), safe(card.id))
    grid.add_row(msg("field", "name").render(lang), safe(card.name))
    for language, name in sorted(card.names.items()):
        named = msg("field", "name ({language})")(language=language)
        grid.add_row(named.render(lang), safe(name))
    return grid


def add_fields(
    grid: Table,
    card: CardT,
    labels: Sequence[tuple[str, Message]],
    value: Callable[[CardT, str, str], str | None],
    file: Message,
    lang: str,
) -> None:
    """A card panel's labelled fields (those with a value to show), then the file it was read from
    (labelled `file`)."""
    from varz_deck.core.messages.sanitize import safe

    for field, label in labels:
        shown = value(card, field, lang)
        if shown is not None:
            grid.add_row(label.render(lang), shown)
    if card.file:
        grid.add_row(file.render(lang), safe(f"{card.file}:{card.line}"))


def panel_title(card: CardRecord, lang: str) -> Text:
    """A card panel's title: the name in the language, and the English one after it."""
    from rich.text import Text

    from varz_deck.core.messages.i18n import CardName
    from varz_deck.core.messages.sanitize import safe

    title = CardName.of(card, quote=False).in_language(lang)
    if title != card.name:
        title = f"{title} / {card.name}"
    return Text(safe(title), style="bold")


class CardLookup(Protocol[CardT]):
    """`varz-deck cards show` and `cards search` for one game, of its card class `CardT`. The
    finding by reference and the text matching are the core's (varz_deck/core/cards/cardinfo.py); the
    filters and the renderables are the game's."""

    def filters(self, database: CardDatabase) -> Mapping[str, Sequence[str]]:
        """The words each filter option takes ("type", "color", "class"), for "did you mean";
        an option missing here is one the game cannot honour (a usage error naming the game)."""
        ...

    def find(self, database: CardDatabase[CardT], ref: str) -> CardT:
        """The card a reference names; CardNotFound (varz_deck.core.cards.cardinfo) otherwise."""
        ...

    def search(self, database: CardDatabase[CardT], query: CardQuery) -> list[CardT]:
        """Every card that fits the query, in id order."""
        ...

    def card_panel(self, card: CardT, database: CardDatabase[CardT], lang: str) -> RenderableType:
        """One card in full, as a rich renderable."""
        ...

    def search_table(self, cards: Sequence[CardT], lang: str) -> RenderableType:
        """A search result, as a rich renderable."""
        ...


@dataclass(frozen=True)
class FunctionLookup(Generic[CardT]):
    """A game's `CardLookup` made of its functions: its filters' words, its search, its panel and
    its search table; finding by reference is the core's `find_card`."""

    filters_of: Callable[[CardDatabase], Mapping[str, Sequence[str]]]
    search_in: Callable[[CardDatabase, CardQuery], list[CardT]]
    panel: Callable[[CardT, CardDatabase, str], RenderableType]
    table: Callable[[Sequence[CardT], str], RenderableType]

    def filters(self, database: CardDatabase) -> Mapping[str, Sequence[str]]:
        return self.filters_of(database)

    def find(self, database: CardDatabase[CardT], ref: str) -> CardT:
        return find_card(database, ref)

    def search(self, database: CardDatabase[CardT], query: CardQuery) -> list[CardT]:
        return self.search_in(database, query)

    def card_panel(self, card: CardT, database: CardDatabase[CardT], lang: str) -> RenderableType:
        return self.panel(card, database, lang)

    def search_table(self, cards: Sequence[CardT], lang: str) -> RenderableType:
        return self.table(cards, lang)
