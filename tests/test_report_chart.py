"""The report page's SVG charts, drawn from a hand-made chart: every bar's place and size, the
labels, the legend, the description and the data table, computed here by hand from the page's
geometry (640×260, 48 left, 36 bottom, 16 top, so a plot of 576×208 ending at y 224)."""

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
        r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#\w+)">'
        r"<title>([^<]*)</title></rect>",
        shown,
    )
    return [tuple(f) for f in found]


def test_stacked_bars_stand_on_each_other_scaled_to_the_tallest_total() -> None:
    shown = page(stacked=True)
    # totals 3, 3, 4: 4 fills 208; slots of 192 from x 48, bars 134.4 wide from 28.8 in
    assert bars(shown) == [
        ("76.8", "120.0", "134.4", "104.0", RED, "red, Cost 1: 2"),
        ("76.8", "68.0", "134.4", "52.0", BLUE, "blue, Cost 1: 1"),
        ("268.8", "68.0", "134.4", "156.0", RED, "red, Cost 2: 3"),
        ("268.8", "68.0", "134.4", "0.0", BLUE, "blue, Cost 2: 0"),
        ("460.8", "224.0", "134.4", "0.0", RED, "red, Cost 3: 0"),
        ("460.8", "16.0", "134.4", "208.0", BLUE, "blue, Cost 3: 4"),
    ]
    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', shown)
    assert texts == [
        ("144.0", "240", "1"),
        ("144.0", "64.0", "3"),  # the total above the stack
        ("336.0", "240", "2"),
        ("336.0", "64.0", "3"),
        ("528.0", "240", "3"),
        ("528.0", "12.0", "4"),
        ("336.0", "256", "Cost"),  # the axis
        ("62", "11", "red"),  # the legend: a swatch at 48, its word 14 further
        ("107", "11", "blue"),  # 24 + 7 per letter further on
    ]
    assert '<rect x="48" y="2" width="10" height="10" fill="' + RED + '"/>' in shown
    assert '<rect x="93" y="2" width="10" height="10" fill="' + BLUE + '"/>' in shown
    assert '<line x1="48" y1="224" x2="624" y2="224" stroke="#333"/>' in shown
    assert 'viewBox="0 0 640 260"' in shown and 'aria-labelledby="chart-0-t chart-0-d"' in shown
    assert (
        '<desc id="chart-0-d">Cost 1: red 2, blue 1; Cost 2: red 3, blue 0; Cost 3: red –, '
        "blue 4</desc>"
    ) in shown
    assert '<title id="chart-0-t">Cost curve</title>' in shown
    assert '<figcaption><a href="#term-curve-turn">Cost curve</a></figcaption>' in shown


def test_side_by_side_bars_share_a_slot_and_scale_to_the_tallest_bar() -> None:
    shown = page(stacked=False)
    # the tallest bar is 4; two bars of 67.2 in each slot; no totals
    assert bars(shown) == [
        ("76.8", "120.0", "67.2", "104.0", RED, "red, Cost 1: 2"),
        ("144.0", "172.0", "67.2", "52.0", BLUE, "blue, Cost 1: 1"),
        ("268.8", "68.0", "67.2", "156.0", RED, "red, Cost 2: 3"),
        ("336.0", "224.0", "67.2", "0.0", BLUE, "blue, Cost 2: 0"),
        ("460.8", "224.0", "67.2", "0.0", RED, "red, Cost 3: 0"),
        ("528.0", "16.0", "67.2", "208.0", BLUE, "blue, Cost 3: 4"),
    ]
    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', shown)
    assert [t for t in texts if t[1] not in ("240", "256", "11")] == []


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
