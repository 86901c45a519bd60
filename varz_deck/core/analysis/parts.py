"""What `varz-deck report` and the server's pages show of a deck: the figures as data.

A game's outcomes (`Outcome`, `Outcome`) describe their figures as parts (tables, charts,
and the tables left out with the reason), built from their own JSON documents, so a page and the
JSON never disagree. `analyse` runs a deck through the capabilities its game has (check, stats,
tune, sim) and collects the parts; `core.htmlreport` draws them. Nothing here names a game.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from varz_deck.core.messages.i18n import CardName, Message, Term

if TYPE_CHECKING:
    from varz_deck.core.messages.diagnostics import Diagnostic

PERCENT = "percent"
NUMBER = "number"
COUNT = "count"
TURN = "turn"


@dataclass(frozen=True)
class Figure:
    """One number: a probability (PERCENT, 0..1), a mean (NUMBER), a COUNT or a TURN; `se` is
    its standard error when sampled (None: exact)."""

    value: float | None
    unit: str = NUMBER
    se: float | None = None

    @property
    def exact(self) -> bool:
        return self.se is None


Cell = str | Figure | Message | Term | CardName  # words: core.i18n.value_text renders them


@dataclass(frozen=True)
class Column:
    """A table's column: its title, and the glossary key of the figure it holds (None: a label)."""

    title: Message | str
    term: str | None = None


@dataclass(frozen=True)
class Table:
    key: str  # the part's anchor on the page ("cards", "swaps")
    title: Message
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: Message | None = None


@dataclass(frozen=True)
class Series:
    """One set of bars: a label and a value per category (None: no bar), and the name of the
    colour they are drawn in (core/analysis/plot.py's palette; None: the next series colour)."""

    label: Message | Term | str
    values: tuple[float | None, ...]
    colour: str | None = None


@dataclass(frozen=True)
class Chart:
    """Bars by category: stacked (a total split by series, e.g. cards by colour) or side by side
    (e.g. resources available and spent per turn)."""

    key: str
    title: Message
    axis: Message  # what the categories are ("Cost", "Turn")
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    stacked: bool = True
    unit: str = COUNT
    term: str | None = None  # the glossary key of the figure the bars show
    note: Message | None = None


@dataclass(frozen=True)
class Omitted:
    """A part left out because it does not apply, and the one line saying why."""

    key: str
    title: Message
    reason: Message


Part = Table | Chart | Omitted


@dataclass(frozen=True)
class Verdict:
    legal: bool
    format: str | None
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Analysis:
    """Everything a report page shows of one deck."""

    game: str  # the game's key (its glossary: core.glossary.entries)
    game_name: str
    title: str  # the deck's name, else its file
    deck: str  # the deck's file name as given
    date: datetime.date
    verdict: Verdict
    answer: tuple[Message, ...]
    parts: tuple[Part, ...]
    settings: tuple[Message, ...] = field(default=())  # how the figures were made (seed, games)


def card_name(card: Mapping[str, Any], names: Mapping[str, CardName]) -> CardName:
    """A JSON document's card (its `id` and English `name`) named in every language it has."""
    return names.get(card["id"], CardName(card["name"], quote=False))


def curve_chart(
    title: Message,
    axis: Message,
    curve: Sequence[Mapping[str, Any]],
    by: str,
    groups: Iterable[str],
    group_term: str,
    palette: Mapping[str, str],
) -> Chart:
    """The cost curve as a stacked bar per cost, split by a group of the game's (the entries'
    `by` counts: a colour, an element), each group in its colour of the palette."""
    return Chart(
        "curve",
        title,
        axis,
        tuple(str(e["cost"]) for e in curve),
        tuple(
            Series(Term(group_term, g), tuple(e[by].get(g, 0) for e in curve), palette.get(g))
            for g in groups
        ),
        unit=COUNT,
    )


@dataclass(frozen=True)
class CardColumns:
    """A game's titles of the columns that name a card, its cost and its copies."""

    card: Message
    cost: Message
    copies: Message


def on_curve_table(
    title: Message,
    titles: CardColumns,
    spells: Sequence[Mapping[str, Any]],
    names: Mapping[str, CardName],
    named: Callable[[str], Message],
    extra: Sequence[tuple[Column, Callable[[Mapping[str, Any]], Cell]]] = (),
) -> Table:
    """`tune`'s castable on curve per card (its `spells`): the card, its cost, the game's `extra`
    columns, its copies, its curve turn, castable on curve and expected delay, each figure's column
    titled by the game's glossary (`named`)."""
    figures = ("curve-turn", "castable-on-curve", "delay")
    return Table(
        "on-curve",
        title,
        (
            Column(titles.card),
            Column(titles.cost),
            *(column for column, _ in extra),
            Column(titles.copies),
            *(Column(named(key), key) for key in figures),
        ),
        tuple(
            (
                card_name(s, names),
                Figure(s["cost"], COUNT),
                *(cell(s) for _, cell in extra),
                Figure(s["copies"], COUNT),
                Figure(s["on_curve_turn"], TURN),
                Figure(s["p_on_curve"], PERCENT),
                Figure(s["expected_delay"], NUMBER),
            )
            for s in spells
        ),
    )
