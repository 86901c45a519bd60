"""The helpers the games' analyses, charts and reports share, each checked on its own: the cost
curve and castable-on-curve parts (core/analysis/parts.py), the cost curve's bars in SVG and through
matplotlib (core/analysis/plot.py), the report console (core/analysis/console.py), the rounding of
figures for JSON (core/analysis/tuning.py) and a card record's common fields (core/cards/model.py).
The expected values are worked out by hand from the drawing's geometry."""

from __future__ import annotations

import math

import pytest

from varz_deck.core.analysis.console import printed, report_console
from varz_deck.core.analysis.parts import (
    COUNT,
    NUMBER,
    PERCENT,
    TURN,
    CardColumns,
    Chart,
    Column,
    Figure,
    Series,
    Table,
    curve_chart,
    on_curve_table,
)
from varz_deck.core.analysis.plot import axes, curve_bars, stacked_bars
from varz_deck.core.analysis.tuning import rounded
from varz_deck.core.cards.model import CardFields, record_fields
from varz_deck.core.messages.i18n import CardName, Message, Term, msg

# --------------------------------------------------------------------------- curve_chart


def test_the_curve_chart_stacks_each_group_s_copies_per_cost() -> None:
    title, axis = msg("stats", "Cost curve"), msg("stats", "Cost")
    curve = [
        {"cost": 1, "by_colour": {"red": 2, "blue": 1}},
        {"cost": 3, "by_colour": {"blue": 4}},
    ]
    chart = curve_chart(
        title, axis, curve, "by_colour", ("red", "blue", "green"), "colour", {"red": "crimson"}
    )
    assert chart == Chart(
        "curve",
        title,
        axis,
        ("1", "3"),
        (
            Series(Term("colour", "red"), (2, 0), "crimson"),
            Series(Term("colour", "blue"), (1, 4), None),
            Series(Term("colour", "green"), (0, 0), None),
        ),
        stacked=True,
        unit=COUNT,
    )
    assert chart.unit == "count" and chart.axis is axis


# --------------------------------------------------------------------------- on_curve_table


def test_the_on_curve_table_has_a_row_per_spell_with_its_figures_in_their_units() -> None:
    titles = CardColumns(msg("field", "card"), msg("field", "cost"), msg("field", "copies"))
    spells = [
        {
            "id": "X1-001",
            "name": "Imp",
            "cost": 2,
            "copies": 3,
            "on_curve_turn": 2,
            "p_on_curve": 0.75,
            "expected_delay": 0.5,
            "colour": "red",
        },
        {
            "id": "X1-002",
            "name": "Bolt",
            "cost": 5,
            "copies": 1,
            "on_curve_turn": 5,
            "p_on_curve": 0.25,
            "expected_delay": 2.25,
            "colour": "blue",
        },
    ]
    names = {"X1-001": CardName("Imp", (("ja", "インプ"),), quote=False)}

    def named(key: str) -> Message:
        return msg("glossary", key)

    colour = (Column("colour"), lambda s: Term("colour", s["colour"]))
    table = on_curve_table(msg("tune", "On curve"), titles, spells, names, named, (colour,))
    assert table == Table(
        "on-curve",
        msg("tune", "On curve"),
        (
            Column(titles.card),
            Column(titles.cost),
            Column("colour"),
            Column(titles.copies),
            Column(msg("glossary", "curve-turn"), "curve-turn"),
            Column(msg("glossary", "castable-on-curve"), "castable-on-curve"),
            Column(msg("glossary", "delay"), "delay"),
        ),
        (
            (
                CardName("Imp", (("ja", "インプ"),), quote=False),
                Figure(2, COUNT),
                Term("colour", "red"),
                Figure(3, COUNT),
                Figure(2, TURN),
                Figure(0.75, PERCENT),
                Figure(0.5, NUMBER),
            ),
            (
                CardName("Bolt", quote=False),
                Figure(5, COUNT),
                Term("colour", "blue"),
                Figure(1, COUNT),
                Figure(5, TURN),
                Figure(0.25, PERCENT),
                Figure(2.25, NUMBER),
            ),
        ),
    )
    assert [c.term for c in table.columns] == [
        None,
        None,
        None,
        None,
        "curve-turn",
        "castable-on-curve",
        "delay",
    ]
    assert [f.unit for f in table.rows[1] if isinstance(f, Figure)] == [
        "count",
        "count",
        "turn",
        "percent",
        "number",
    ]


def test_the_on_curve_table_without_extra_columns() -> None:
    titles = CardColumns(msg("field", "card"), msg("field", "cost"), msg("field", "copies"))
    spell = {
        "id": "X1-003",
        "name": "Wall",
        "cost": 1,
        "copies": 2,
        "on_curve_turn": 1,
        "p_on_curve": 1.0,
        "expected_delay": 0.0,
    }
    table = on_curve_table(msg("tune", "On curve"), titles, [spell], {}, lambda k: msg("g", k))
    assert [c.title for c in table.columns][:3] == [titles.card, titles.cost, titles.copies]
    assert table.rows == (
        (
            CardName("Wall", quote=False),
            Figure(1, COUNT),
            Figure(2, COUNT),
            Figure(1, TURN),
            Figure(1.0, PERCENT),
            Figure(0.0, NUMBER),
        ),
    )


# --------------------------------------------------------------------------- curve_bars

ROWS = [(1, [("red", 2), ("blue", 1)]), (3, [("blue", 2), ("odd", 2)])]


def test_curve_bars_stack_each_cost_s_groups_from_the_bottom() -> None:
    # a panel 300 - 90 = 210 high from y 40, so its bottom at 250; the tallest bar holds 4 copies
    # (axis to 4); two costs share 860 - 50 - 20 = 790: a slot of 395, a bar 237 wide, 79 in
    out, seen = curve_bars(ROWS, 40, {"red": "#f00", "blue": "#00f"}, "Cost")
    grid, ymax = axes(40, 210, 4)
    assert ymax == 4.0
    assert out[: len(grid)] == grid
    assert out[len(grid) :] == [
        '<rect x="129.0" y="145.0" width="237.0" height="105.0" fill="#f00"/>',
        '<rect x="129.0" y="92.5" width="237.0" height="52.5" fill="#00f"/>',
        '<text x="247.5" y="266.0" font-size="11" text-anchor="middle">1</text>',
        '<rect x="524.0" y="145.0" width="237.0" height="105.0" fill="#00f"/>',
        # a group with no colour of its own: the palette's grey
        '<rect x="524.0" y="40.0" width="237.0" height="105.0" fill="#7f7f7f"/>',
        '<text x="642.5" y="266.0" font-size="11" text-anchor="middle">3</text>',
        '<text x="445.0" y="284.0" font-size="11" text-anchor="middle">Cost</text>',
    ]
    assert seen == ["red", "blue", "odd"]


def test_curve_bars_of_no_cost_draw_the_axes_to_1_and_the_label() -> None:
    out, seen = curve_bars([], 10, {}, "x & y")
    grid, _ = axes(10, 210, 1)
    assert out == [
        *grid,
        '<text x="445.0" y="254.0" font-size="11" text-anchor="middle">x &amp; y</text>',
    ]
    assert seen == []


def test_curve_bars_of_one_cost_fill_the_width() -> None:
    out, _ = curve_bars([(0, [("red", 13)])], 0, {}, "")
    grid, ymax = axes(0, 210, 13)
    assert ymax == 15.0  # ticks of 3 above 10 copies: 13 rounds up to 15
    # one slot of 790: a bar 474 wide from 50 + 158; 13 of 15 is 182 of the 210
    assert out[len(grid) :] == [
        '<rect x="208.0" y="28.0" width="474.0" height="182.0" fill="#7f7f7f"/>',
        '<text x="445.0" y="226.0" font-size="11" text-anchor="middle">0</text>',
        '<text x="445.0" y="244.0" font-size="11" text-anchor="middle"></text>',
    ]


class Axes:
    def __init__(self) -> None:
        self.bars: list[tuple] = []

    def bar(
        self, x: float, height: float, *, bottom: float, color: str, label: str | None
    ) -> object:
        self.bars.append((x, height, bottom, color, label))
        return None


def test_stacked_bars_stack_each_cost_and_label_each_group_once() -> None:
    ax = Axes()
    rows = [(1, [("red", 2), ("blue", 1), ("green", 3)]), (3, [("blue", 2), ("odd", 2)])]
    drawn = stacked_bars(ax, rows, {"red": "#f00", "blue": "#00f", "green": "#0f0"}, str.upper)
    assert ax.bars == [
        (1, 2, 0, "#f00", "RED"),
        (1, 1, 2, "#00f", "BLUE"),
        (1, 3, 3, "#0f0", "GREEN"),
        (3, 2, 0, "#00f", None),
        (3, 2, 2, "#7f7f7f", "ODD"),
    ]
    assert drawn == {"red", "blue", "green", "odd"}


# --------------------------------------------------------------------------- report console


def test_the_report_console_writes_standard_colours_into_memory() -> None:
    console = report_console(True, 40)
    console.print("[bold]Deck[/bold] 12 cards :smile: [color(196)]x[/]")
    # no highlighting of the number, no emoji; colour 196 (255, 0, 0) brought down to the
    # nearest of the 16 standard ones: red (31), not 256-colour escapes
    assert printed(console) == "\x1b[1mDeck\x1b[0m 12 cards :smile: \x1b[31mx\x1b[0m\n"


def test_the_report_console_without_colour_writes_plain_text_at_its_width() -> None:
    console = report_console(False, 12)
    console.print("[bold red]Deck[/] 12 :smile: one two three")
    assert [line.rstrip() for line in printed(console).splitlines()] == [
        "Deck 12",
        ":smile: one",
        "two three",
    ]
    assert "\x1b" not in printed(console)
    assert console.width == 12
    assert not console.is_terminal and console.color_system is None


def test_the_report_console_wraps_long_lines_at_its_width() -> None:
    console = report_console(True, 10)
    console.print("aaaa bbbb cccc")
    console.print("x" * 12)
    assert [line.rstrip() for line in printed(console).splitlines()] == [
        "aaaa bbbb",
        "cccc",
        "xxxxxxxxxx",
        "xx",
    ]


def test_the_report_console_keeps_to_the_standard_colours_on_any_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a terminal that says it takes 24-bit colour still gets the 16 standard ones, the nearest:
    # (255, 0, 0) is red (170, 0, 0), not bright red (255, 85, 85); (0, 255, 0) green likewise
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.setenv("TERM", "xterm-256color")
    console = report_console(True, 40)
    console.print("[color(196)]x[/] [#00ff00]y[/]")
    assert printed(console) == "\x1b[31mx\x1b[0m \x1b[32my\x1b[0m\n"


def test_the_report_console_is_a_terminal_only_with_colour() -> None:
    from rich.control import Control

    # a terminal keeps control codes (a bell here); plain text in memory drops them
    coloured = report_console(True, 40)
    coloured.print(Control.bell(), "x")
    assert printed(coloured) == "\x07x\n"
    plain = report_console(False, 40)
    plain.print(Control.bell(), "x")
    assert printed(plain) == "x\n"


def test_the_report_console_keeps_its_colours_under_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # colour asked for is given: NO_COLOR is the command's to weigh (cli.common.color), not rich's
    monkeypatch.setenv("NO_COLOR", "1")
    console = report_console(True, 40)
    console.print("[red]x[/]")
    assert printed(console) == "\x1b[31mx\x1b[0m\n"


def test_the_report_console_draws_rounded_boxes_even_on_a_legacy_windows_console(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rich.console
    from rich.panel import Panel

    monkeypatch.setattr(rich.console, "detect_legacy_windows", lambda: True)
    console = report_console(False, 20)
    console.print(Panel("x", expand=False))
    assert printed(console) == "╭───╮\n│ x │\n╰───╯\n"


# --------------------------------------------------------------------------- rounded


def test_rounded_rounds_floats_to_9_decimals_in_any_nesting_of_lists() -> None:
    value = [0.1234567894, [2.0000000006, [-1e-12, 3]], "s", None, True]
    assert rounded(value) == [0.123456789, [2.000000001, [0.0, 3]], "s", None, True]
    zero = rounded([-1e-12])
    assert isinstance(zero, list) and math.copysign(1, zero[0]) == 1.0  # never -0.0
    negative_zero = rounded(-0.0)
    assert isinstance(negative_zero, float) and math.copysign(1, negative_zero) == 1.0
    assert rounded(1.23456789012) == 1.23456789
    assert rounded(7) == 7 and isinstance(rounded(7), int)
    assert rounded(True) is True
    assert rounded({"a": 0.1234567894}) == {"a": 0.1234567894}  # mappings are not walked
    assert rounded((0.1234567894,)) == (0.1234567894,)


# --------------------------------------------------------------------------- record_fields


def test_record_fields_takes_the_set_given_else_the_id_s_prefix() -> None:
    raw = {"id": "VZ01-007", "name": "Imp", "type": "spell", "names": {"ja": "インプ"}, "x": 1}
    fields = record_fields(raw, None, "cards/a.yaml", 4)
    assert fields == {
        "id": "VZ01-007",
        "name": "Imp",
        "type": "spell",
        "set": "VZ01",
        "file": "cards/a.yaml",
        "line": 4,
        "names": {"ja": "インプ"},
    }
    assert fields["names"] is not raw["names"]  # a copy: the record never shares the file's
    assert record_fields(raw, "PROMO", "b.yaml", 9)["set"] == "PROMO"
    assert record_fields(raw, "", "b.yaml", 9)["set"] == ""  # given, even empty


@pytest.mark.parametrize("names", [None, {}])
def test_record_fields_of_a_card_of_no_other_names(names: dict | None) -> None:
    raw: dict[str, object] = {"id": "AZ-BT01-002", "name": "Imp", "type": "unit"}
    if names is not None:
        raw["names"] = names
    fields = record_fields(raw, None, "c.yaml", 1)
    assert fields["names"] == {}
    assert fields["set"] == "AZ"  # the prefix before the first dash only


# --------------------------------------------------------------------------- CardFields


def test_every_card_class_starts_with_the_common_fields_in_record_fields_order() -> None:
    from dataclasses import fields

    from varz_deck.core.game.cards import DeclaredCard
    from varz_deck.games.azuki.cards import AzukiCard
    from varz_deck.games.varz.cards import Card

    common = list(record_fields({"id": "X-1", "name": "X", "type": "t"}, None, "f", 1))
    assert [f.name for f in fields(CardFields)] == common
    for card_class in (Card, AzukiCard, DeclaredCard):
        assert [f.name for f in fields(card_class)][: len(common)] == common
    card = Card("VZ01-007", "Imp", "spell", "VZ01")  # positionally, in that order
    assert (card.file, card.line, card.names, card.color) == ("", 0, {}, None)
    assert list(card.to_json())[:8] == [*common, "color"]
