"""The report page's SVG charts, drawn from a hand-made chart: every bar's place and size, the
labels, the legend, the description and the data table, computed here by hand from the page's
geometry: the page's width, bars placed in percent from 2% to 98%; 240 px high, 20 above the bars
and 40 below, so a plot 180 px high ending at y 200. The text is 13 px at any width."""

from __future__ import annotations

import datetime
import re

from varz_deck.core.analysis.glossary import entries
from varz_deck.core.analysis.htmlreport import render
from varz_deck.core.analysis.parts import COUNT, Analysis, Chart, Series, Verdict
from varz_deck.core.messages.i18n import msg

RED, BLUE = "#d62728", "#1f77b4"  # the palette's red and blue (core/analysis/plot.py), by hand


def page(stacked: bool) -> str:
    chart = Chart(
        "curve",
        msg("report", "Cost curve"),
        "Cost",
        ("1", "2", "3"),
        (Series("red", (2, 3, None), "red"), Series("blue", (1, 0, 4), "blue")),
        stacked=stacked,
        unit=COUNT,
        term="curve-turn",
    )
    day = datetime.date(2026, 12, 3)
    analysis = Analysis("x", "X", "deck", "deck.yaml", day, Verdict(True, None, ()), (), (chart,))
    return render(analysis, entries(), "en")


def bars(shown: str) -> list[tuple[str, ...]]:
    found = re.findall(
        r'<rect x="([\d.]+)%" y="([\d.]+)" width="([\d.]+)%" height="([\d.]+)" fill="(#\w+)">'
        r"<title>([^<]*)</title></rect>",
        shown,
    )
    return [tuple(f) for f in found]


def test_stacked_bars_stand_on_each_other_scaled_to_the_tallest_total() -> None:
    shown = page(stacked=True)
    # totals 3, 3, 4: 4 fills 180 (45 a card); slots of 32% from 2%, bars 22.4% wide 4.8% in
    assert bars(shown) == [
        ("6.80", "110.0", "22.40", "90.0", RED, "red, Cost 1: 2"),
        ("6.80", "65.0", "22.40", "45.0", BLUE, "blue, Cost 1: 1"),
        ("38.80", "65.0", "22.40", "135.0", RED, "red, Cost 2: 3"),
        ("38.80", "65.0", "22.40", "0.0", BLUE, "blue, Cost 2: 0"),
        ("70.80", "200.0", "22.40", "0.0", RED, "red, Cost 3: 0"),
        ("70.80", "20.0", "22.40", "180.0", BLUE, "blue, Cost 3: 4"),
    ]
    texts = re.findall(r'<text x="([\d.]+)%" y="([\d.]+)"([^>]*)>([^<]*)</text>', shown)
    assert {t[2] for t in texts} == {' text-anchor="middle" font-size="13" fill="#1a1a1a"'}
    assert [(x, y, word) for x, y, _, word in texts] == [
        ("18.00", "217", "1"),
        ("18.00", "60.0", "3"),  # the total, 5 above the stack
        ("50.00", "217", "2"),
        ("50.00", "60.0", "3"),
        ("82.00", "217", "3"),
        ("82.00", "15.0", "4"),
        ("50", "235", "Cost"),  # the axis
    ]
    legend = shown[shown.index('<ul class="legend">') : shown.index("</ul>")]  # above the chart
    assert re.findall(r'<li><svg [^>]*><rect [^>]*fill="(#\w+)"/></svg>(\w+)</li>', legend) == [
        (RED, "red"),
        (BLUE, "blue"),
    ]
    assert shown.index("</ul>") < shown.index("<svg xmlns")
    assert '<line x1="2.0%" y1="200" x2="98.0%" y2="200" stroke="#333"/>' in shown
    assert '<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="240" role="img"' in shown
    assert 'aria-labelledby="chart-0-t chart-0-d"' in shown
    assert (
        '<desc id="chart-0-d">Cost 1: red 2, blue 1; Cost 2: red 3, blue 0; Cost 3: red –, '
        "blue 4</desc>"
    ) in shown
    assert '<title id="chart-0-t">Cost curve</title>' in shown
    # one caption style: the section's heading names the chart (linked to its term), once
    assert '<h2 id="part-curve"><a href="#term-curve-turn">Cost curve</a></h2>' in shown
    assert '<figure id="figure-curve" aria-labelledby="part-curve">' in shown
    assert "<figcaption" not in shown and shown.count(">Cost curve<") == 2  # the heading, the title


def test_side_by_side_bars_share_a_slot_and_scale_to_the_tallest_bar() -> None:
    shown = page(stacked=False)
    # the tallest bar is 4 (45 a card); two bars of 11.2% in each slot; no totals
    assert bars(shown) == [
        ("6.80", "110.0", "11.20", "90.0", RED, "red, Cost 1: 2"),
        ("18.00", "155.0", "11.20", "45.0", BLUE, "blue, Cost 1: 1"),
        ("38.80", "65.0", "11.20", "135.0", RED, "red, Cost 2: 3"),
        ("50.00", "200.0", "11.20", "0.0", BLUE, "blue, Cost 2: 0"),
        ("70.80", "200.0", "11.20", "0.0", RED, "red, Cost 3: 0"),
        ("82.00", "20.0", "11.20", "180.0", BLUE, "blue, Cost 3: 4"),
    ]
    texts = re.findall(r'<text x="[\d.]+%" y="([\d.]+)"[^>]*>([^<]*)</text>', shown)
    assert [y for y, _ in texts] == ["217", "217", "217", "235"]


def test_many_categories_are_named_every_other_so_they_keep_apart() -> None:
    """Over 12 categories: every other one named under its bar, or every third (at most 12)."""
    turns = tuple(str(t) for t in range(1, 26))
    chart = Chart("t", msg("report", "Cost curve"), "Turn", turns, (Series("a", (1,) * 25),))
    day = datetime.date(2026, 12, 3)
    analysis = Analysis("x", "X", "deck", "deck.yaml", day, Verdict(True, None, ()), (), (chart,))
    shown = render(analysis, entries(), "en")
    named = re.findall(r'<text x="[\d.]+%" y="217"[^>]*>([^<]*)</text>', shown)
    assert named == ["1", "4", "7", "10", "13", "16", "19", "22", "25"]  # every third of 25
    assert len(re.findall(r"<rect x=", shown)) == 25


def test_the_chart_data_is_also_a_table() -> None:
    shown = page(stacked=True)
    table = shown[shown.index('<table id="table-curve"') : shown.index("</table>")]
    assert '<th scope="col">Cost</th>' in table
    assert '<th scope="col" class="n">Red</th><th scope="col" class="n">Blue</th>' in table
    rows = re.findall(r"<tr><th scope=\"row\">(\d)</th>(.*?)</tr>", table)
    values = [(c, re.findall(r">([^<]*)</td>", cells)) for c, cells in rows]
    assert values == [("1", ["2", "1"]), ("2", ["3", "0"]), ("3", ["–", "4"])]


def test_the_chart_speaks_the_pages_language() -> None:
    import datetime as dt

    from varz_deck.games import get_game

    get_game("varz")  # the game's words: its colours
    chart = Chart(
        "c", msg("report", "Goldfish figures"), "Cost", ("1",), (Series(msg("sim", "never"), (2,)),)
    )
    analysis = Analysis(
        "x", "X", "d", "d.yaml", dt.date(2026, 12, 3), Verdict(True, None, ()), (), (chart,)
    )
    shown = render(analysis, entries(), "ja")
    assert '<title id="chart-0-t">一人回しの数値</title>' in shown
    assert "<title>なし, Cost 1: 2</title>" in shown


def test_a_path_wraps_after_its_slashes_and_a_message_cell_is_in_the_pages_language() -> None:
    """A deck named by its path may break after each slash on a phone (`<wbr>`), never inside
    a folder's name; a table cell holding a message shows it in the page's language."""
    from varz_deck.core.analysis.parts import Column, Table

    columns = (Column("a"), Column("b"))  # the first column heads its row; the second is a cell
    table = Table("t", msg("report", "Cost curve"), columns, (("1", msg("sim", "never")),))
    day = datetime.date(2026, 12, 3)
    verdict = Verdict(True, None, ())
    analysis = Analysis("x", "decks/red/kagura.yaml", "deck", "d.yaml", day, verdict, (), (table,))
    shown = render(analysis, entries(), "ja")
    assert "decks/<wbr>red/<wbr>kagura.yaml" in shown
    assert "<td>なし</td>" in shown  # the catalogue's word for sim's "never"
