"""The helpers `cards show` and `cards search` of every game share (varz_deck/core/cards/cardinfo.py):
the search result's table, a card's name in it, the panel's fields grid and title, and the lookup
made of a game's functions. Each is checked here on its own, rendered as a terminal shows it."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import Console, RenderableType
from rich.table import Table

from varz_deck.core.cards.cardinfo import (
    CardQuery,
    FunctionLookup,
    add_fields,
    names_grid,
    panel_title,
    result_name,
    result_table,
)
from varz_deck.core.cards.model import CardDatabase, CardRecord
from varz_deck.core.messages.i18n import msg

BOLD = "\x1b[1m"


@dataclass(frozen=True)
class Card(CardRecord):
    id: str
    name: str
    set: str = "X1"
    type: str = "spell"
    names: Mapping[str, str] = field(default_factory=dict)
    file: str = ""
    line: int = 0
    text: str | None = None


IMP = Card("X1-001", "Ember Imp", names={"zh": "余烬", "ja": "エンバー"}, file="a.yaml", line=3)


def shown(renderable: RenderableType, width: int = 40, color: bool = False) -> str:
    console = Console(
        file=io.StringIO(),
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        highlight=False,
    )
    console.print(renderable)
    written = console.file
    assert isinstance(written, io.StringIO)
    return written.getvalue()


def lines(renderable: RenderableType, width: int = 40) -> list[str]:
    return [line.rstrip() for line in shown(renderable, width).splitlines()]


# --------------------------------------------------------------------------- result_table


def headings(*names: str) -> list:
    return [msg("field", n) for n in names]


def test_a_result_table_wraps_only_the_name_and_the_last_column() -> None:
    for names, no_wrap in (
        (("id", "name"), [True, False]),
        (("id", "name", "type"), [True, False, False]),
        (("id", "name", "type", "cost"), [True, False, True, False]),
        (("id", "name", "type", "cost", "text"), [True, False, True, True, False]),
    ):
        table = result_table(headings(*names), "en")
        assert [c.no_wrap for c in table.columns] == no_wrap, names
        assert [c.overflow for c in table.columns] == ["fold"] * len(names)


def test_a_result_table_folds_a_long_name_instead_of_cutting_it() -> None:
    table = result_table(headings("id", "name"), "en")
    table.add_row("X1", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    # 20 cells: the id keeps its 2 and the gap takes 2; the name folds at 16, every letter shown
    assert lines(table, 20) == ["id  name", "X1  ABCDEFGHIJKLMNOP", "    QRSTUVWXYZ"]


def test_a_result_table_has_no_box_no_edge_padding_and_bold_headings() -> None:
    table = result_table([*headings("id", "name"), msg("test", "kind")], "ja")
    table.add_row("X1-001", "Imp", "spell")
    assert lines(table) == ["ID      名前  kind", "X1-001  Imp   spell"]
    coloured = shown(table, color=True)
    assert coloured.startswith(BOLD + "ID")
    assert BOLD + "名前" in coloured


# --------------------------------------------------------------------------- result_name


def test_a_result_name_is_the_language_s_with_the_english_after_it() -> None:
    assert result_name(IMP, "en") == "Ember Imp"
    assert result_name(IMP, "ja") == "エンバー (Ember Imp)"
    assert result_name(IMP, "fr") == "Ember Imp"  # no French name: the English one, once
    evil = Card("X1-002", "Evil\x1b[2J Imp")
    assert result_name(evil, "en") == "Evil\\x1b[2J Imp"


# --------------------------------------------------------------------------- names_grid


def test_the_names_grid_lists_the_id_and_every_name_sorted_by_language() -> None:
    assert lines(names_grid(IMP, "en")) == [
        "id         X1-001",
        "name       Ember Imp",
        "name (ja)  エンバー",
        "name (zh)  余烬",
    ]
    assert lines(names_grid(IMP, "ja")) == [
        "ID          X1-001",
        "名前        Ember Imp",
        "名前（ja）  エンバー",
        "名前（zh）  余烬",
    ]


def test_the_names_grid_escapes_what_a_card_file_says() -> None:
    card = Card("X1-\x07", "Evil\x1b[2J", names={"ja": "悪\u202eい"})
    assert lines(names_grid(card, "en")) == [
        "id         X1-\\x07",
        "name       Evil\\x1b[2J",
        "name (ja)  悪\\u202eい",
    ]


def test_the_names_grid_labels_are_bold_and_never_break() -> None:
    coloured = shown(names_grid(IMP, "en"), color=True)
    for label in ("id", "name", "name (ja)", "name (zh)"):
        assert BOLD + label in coloured
    # 16 cells: the labels keep their 9 and the gap its 2; only the values wrap, in 5
    card = Card("X1-001", "Ember Imp", names={"ja": "Ember Imp"})
    assert lines(names_grid(card, "en"), 16) == [
        "id         X1-00",
        "           1",
        "name       Ember",
        "           Imp",
        "name (ja)  Ember",
        "           Imp",
    ]


def test_the_names_grid_folds_a_long_value_instead_of_cutting_it() -> None:
    card = Card("X1-002", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert lines(names_grid(card, "en"), 20) == [
        "id    X1-002",
        "name  ABCDEFGHIJKLMN",
        "      OPQRSTUVWXYZ",
    ]


# --------------------------------------------------------------------------- add_fields


def _value(card: Card, name: str, lang: str) -> str | None:
    value = getattr(card, name)
    return None if value is None else f"{value}/{lang}"


def test_add_fields_adds_the_fields_with_a_value_then_the_file() -> None:
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    card = Card("X1-003", "Imp", text="Deal 1.", file="cards/a\x07.yaml", line=12)
    labels = (("type", msg("test", "kind")), ("text", msg("test", "words")))
    add_fields(grid, card, labels, _value, msg("field", "name"), "ja")
    assert lines(grid) == ["kind   spell/ja", "words  Deal 1./ja", "名前   cards/a\\x07.yaml:12"]


def test_add_fields_leaves_out_a_field_with_no_value_and_a_card_of_no_file() -> None:
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    labels = (("type", msg("test", "kind")), ("text", msg("test", "words")))
    add_fields(grid, Card("X1-004", "Imp"), labels, _value, msg("field", "name"), "en")
    assert lines(grid) == ["kind  spell/en"]


# --------------------------------------------------------------------------- panel_title


def test_a_panel_title_is_bold_the_language_s_name_then_the_english_one() -> None:
    assert panel_title(IMP, "ja").plain == "エンバー / Ember Imp"
    assert panel_title(IMP, "en").plain == "Ember Imp"
    assert panel_title(IMP, "fr").plain == "Ember Imp"
    assert panel_title(Card("X1-005", "Evil\x1b[2J"), "en").plain == "Evil\\x1b[2J"
    assert shown(panel_title(IMP, "en"), color=True).startswith(BOLD + "Ember Imp")


# --------------------------------------------------------------------------- FunctionLookup


def test_a_function_lookup_passes_each_call_to_the_game_s_function() -> None:
    calls: list[tuple] = []
    database = CardDatabase([IMP])

    def filters_of(db: CardDatabase) -> Mapping[str, tuple[str, ...]]:
        calls.append(("filters", db))
        return {"type": ("spell",)}

    def search_in(db: CardDatabase, query: CardQuery) -> list[Card]:
        calls.append(("search", db, query))
        return [IMP]

    def panel(card: Card, db: CardDatabase, lang: str) -> str:
        calls.append(("panel", card, db, lang))
        return "the panel"

    def table(cards: Sequence[Card], lang: str) -> str:
        calls.append(("table", cards, lang))
        return "the table"

    lookup = FunctionLookup(filters_of, search_in, panel, table)
    query = CardQuery(text="imp")
    assert lookup.filters(database) == {"type": ("spell",)}
    assert lookup.search(database, query) == [IMP]
    assert lookup.card_panel(IMP, database, "ja") == "the panel"
    assert lookup.search_table([IMP], "zh") == "the table"
    assert calls == [
        ("filters", database),
        ("search", database, query),
        ("panel", IMP, database, "ja"),
        ("table", [IMP], "zh"),
    ]
    assert lookup.find(database, "ember imp") is IMP
    assert lookup.find(database, "X1-001") is IMP
