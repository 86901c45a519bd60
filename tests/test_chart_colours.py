"""One palette for every chart: the report page's SVG and every --plot file draw a colour of the
game in that colour (red is red, yellow is yellow, water blue), and the same series in the same
colour wherever it is drawn. The hues are checked by hand-written rules on the RGB values (red:
red well above green and blue, ...), the sameness against the plot files the commands write."""

from __future__ import annotations

import contextlib
import html
import io
import re
from pathlib import Path

import pytest

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def rgb(fill: str) -> tuple[int, int, int]:
    assert re.fullmatch(r"#[0-9a-f]{6}", fill), fill
    return int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16)


# What each colour word of the two games looks like, by hand: (r, g, b) -> bool
LOOKS = {
    "red": lambda r, g, b: r > 2 * g and r > 2 * b,
    "fire": lambda r, g, b: r > 2 * g and r > 2 * b,
    "blue": lambda r, g, b: b > r + 40 and b > g,
    "water": lambda r, g, b: b > r + 40 and b > g,
    "green": lambda r, g, b: g > r + 40 and g > b + 40,
    "yellow": lambda r, g, b: r > 2 * b and g > 2 * b and r > 150 and g > 120,
    "lightning": lambda r, g, b: r > 2 * b and g > 2 * b and r > 150 and g > 120,
    "purple": lambda r, g, b: r > g + 40 and b > g + 40,
    "earth": lambda r, g, b: r > g > b and r < 180,  # brown: dark, red over green over blue
    "colorless": lambda r, g, b: max(r, g, b) - min(r, g, b) < 16,  # a grey
    "neutral": lambda r, g, b: max(r, g, b) - min(r, g, b) < 16,
}


def run(*args: str) -> str:
    out = io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.suppress(SystemExit),
    ):
        main(list(args))
    return out.getvalue()


def report_bars(page: str, chart: str) -> dict[str, set[str]]:
    """A chart of the report page: each series' label -> the fills of its bars."""
    figure = page[page.index(f'<figure id="figure-{chart}"') :]
    figure = figure[: figure.index("</figure>")]
    found: dict[str, set[str]] = {}
    for fill, title in re.findall(r'fill="(#\w+)"><title>([^<]*)</title>', figure):
        found.setdefault(html.unescape(title).split(",")[0], set()).add(fill)
    return found


def plot_legend(svg: str) -> dict[str, str]:
    """A --plot SVG's legends: each label -> its swatch's fill."""
    pairs = re.findall(
        r'<rect x="[\d.]+" y="[\d.]+" width="10\.0" height="10\.0" fill="(#\w+)"/>\n'
        r'<text [^>]*text-anchor="start">([^<]*)</text>',
        svg,
    )
    return {html.unescape(label): fill for fill, label in pairs}


@pytest.mark.parametrize(
    "deck",
    [
        EXAMPLES / "red-kagura-festival.yaml",
        EXAMPLES / "yellow-amane-red-splash.yaml",
        EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml",
        EXAMPLES / "azuki" / "stt02-shao-water.yaml",
        EXAMPLES / "azuki" / "stt03-bobu-earth.yaml",
        EXAMPLES / "azuki" / "stt04-zero-fire.yaml",
    ],
    ids=lambda p: p.stem,
)
def test_the_cost_curve_draws_each_colour_in_its_colour_everywhere(
    tmp_path: Path, deck: Path
) -> None:
    page = run("report", "--games", "100", str(deck))
    bars = report_bars(page, "curve")
    assert bars
    for label, fills in bars.items():
        assert len(fills) == 1, (label, fills)
        assert LOOKS[label](*rgb(next(iter(fills)))), (label, fills)
    for command in ("stats", "sim"):
        plot = tmp_path / f"{command}.svg"
        run(
            command,
            *(("--games", "100") if command == "sim" else ()),
            "--plot",
            str(plot),
            str(deck),
        )
        legend = plot_legend(plot.read_text(encoding="utf-8"))
        for label, fills in bars.items():
            assert legend[label] == next(iter(fills)), (command, label)  # one palette


def test_vaz_available_and_spent_look_the_same_on_the_page_and_in_the_plot(tmp_path: Path) -> None:
    deck = EXAMPLES / "red-kagura-festival.yaml"
    bars = report_bars(run("report", "--games", "100", str(deck)), "vaz")
    plot = tmp_path / "sim.svg"
    run("sim", "--games", "100", "--plot", str(plot), str(deck))
    legend = plot_legend(plot.read_text(encoding="utf-8"))
    spent = next(fill for label, fill in legend.items() if label.startswith("spent: "))
    assert bars == {"VAZ available": {legend["available"]}, "VAZ spent": {spent}}


def test_a_series_without_a_colour_of_its_own_takes_the_next_in_order() -> None:
    from varz_deck.core.analysis.plot import colour

    assert (colour("red"), colour("yellow"), colour("grey")) == ("#d62728", "#e0b000", "#7f7f7f")
    assert [colour(None, n) for n in range(3)] == ["#1f77b4", "#ff7f0e", "#2ca02c"]
    assert colour("no such colour", 9) == colour(None, 1) == colour("", 1)  # eight, then again


def test_a_series_without_a_colour_word_takes_the_series_colours_in_order() -> None:
    """By hand: the series run blue #1f77b4, orange #ff7f0e, green #2ca02c, ... from the first."""
    from varz_deck.core.analysis.plot import colour

    assert colour() == "#1f77b4"
    assert colour(None, 1) == "#ff7f0e"
    assert colour("no such colour", 2) == "#2ca02c"
    assert colour("red", 1) == "#d62728"
