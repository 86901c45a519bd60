"""`varz-deck report`: one self-contained page whose figures are the JSON's."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from varz_deck.cli.main import build_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
RAIZAN = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"
DECKS = sorted(
    [*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*.txt"), *(EXAMPLES / "azuki").glob("*.yaml")]
)
app = build_app()
runner = CliRunner()


def run(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


class Tables(HTMLParser):
    """Each table's rows (its `data-part`), each cell as (text, data-value, data-se)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str | None, str | None]]]] = {}
        self.current: str | None = None
        self.cell: list[Any] | None = None
        self.row: list[tuple[str, str | None, str | None]] | None = None
        self.in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.current = a.get("data-part")
            assert self.current is not None
            self.tables[self.current] = []
        elif tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ["", a.get("data-value"), a.get("data-se")]

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell[0] += data

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append((self.cell[0], self.cell[1], self.cell[2]))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.current is not None:
            self.tables[self.current].append(self.row)
            self.row = None
        elif tag == "tbody":
            self.in_body = False


def tables(page: str) -> dict[str, list[list[tuple[str, str | None, str | None]]]]:
    parser = Tables()
    parser.feed(page)
    return parser.tables


def value(cell: tuple[str, str | None, str | None]) -> Any:
    return None if cell[1] in (None, "None") else float(cell[1])  # type: ignore[arg-type]


@pytest.mark.parametrize("deck", DECKS, ids=lambda p: p.name)
def test_report_works_on_every_example_and_is_self_contained(deck: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = run("report", deck, "--output", out, "--games", "500", "--lang", "en")
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page
    assert "<script" not in page.lower() and "<link" not in page.lower()
    urls = set(re.findall(r"(?:src|href)=\"([^\"#][^\"]*)\"", page))
    assert not urls, urls  # no outside resource: only in-page anchors
    assert "http://www.w3.org/2000/svg" in page and "<svg" in page
    assert 'id="verdict"' in page and 'id="glossary"' in page


def test_an_illegal_deck_shows_its_located_errors() -> None:
    page = run("report", EXAMPLES / "illegal.yaml", "--games", "200", "--lang", "en").stdout
    assert "Not legal in" in page
    shown = page.replace("<wbr>", "")  # a path may wrap after each slash
    assert re.search(r"<li><code>[^<]*illegal\.yaml:\d+:\d+: V1\d\d ", shown)


def test_the_figures_are_the_jsons(tmp_path: Path) -> None:
    page = run("report", KAGURA, "--lang", "en").stdout
    found = tables(page)
    tune = json.loads(run("tune", KAGURA, "-o", "json").stdout)
    sim = json.loads(run("sim", KAGURA, "-o", "json", "--games", "20000", "--seed", "1").stdout)
    stats = json.loads(run("stats", KAGURA, "-o", "json").stdout)
    rows = found["on-curve"]
    assert [r[0][0] for r in rows] == [s["name"] for s in tune["spells"]]
    assert [value(r[5]) for r in rows] == [s["p_on_curve"] for s in tune["spells"]]
    assert [r[5][0] for r in rows] == [f"{100 * s['p_on_curve']:.1f}%" for s in tune["spells"]]
    gold = found["goldfish-cards"]
    assert [value(r[1]) for r in gold] == [c["p_in_opening_hand"] for c in sim["cards"]]
    assert [value(r[3]) for r in gold] == [c["p_cast_on_curve"] for c in sim["cards"]]
    assert [float(r[3][2] or 0) for r in gold] == [c["p_cast_on_curve_se"] for c in sim["cards"]]
    turns = found["vaz"]
    assert [value(r[2]) for r in turns] == [t["mean_vaz_spent"] for t in sim["turns"]]
    assert [value(r[1]) for r in turns] == [float(t["vaz"]) for t in sim["turns"]]
    curve = found["curve"]
    assert [value(r[1]) for r in curve] == [e["by_color"]["red"] for e in stats["curve"]]
    assert "Good news: no one-card swap" in page


def test_azuki_report_in_japanese() -> None:
    page = run("report", RAIZAN, "--lang", "ja", "--games", "500").stdout
    assert '<html lang="ja">' in page and "デッキレポート" in page
    assert "カーブターンに使用可能" in page and "IKZ" in page
    assert "Azuki TCG の IKZ デッキは固定です" in page


def test_a_hostile_deck_name_is_escaped(tmp_path: Path) -> None:
    text = KAGURA.read_text(encoding="utf-8")
    hostile = 'name: "<script>alert(1)</script>\\u202e\\x1b[31m"'
    text = re.sub(r"(?m)^name: .*$", lambda _: hostile, text)
    deck = tmp_path / "hostile.yaml"
    deck.write_text(text, encoding="utf-8")
    page = run("report", deck, "--games", "200").stdout
    assert "<script>" not in page and "\u202e" not in page and "\x1b" not in page
    assert "&lt;script&gt;" in page


def test_output_goes_to_a_file_atomically_and_never_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.html"
    target.write_text("keep", encoding="utf-8")
    link = tmp_path / "report.html"
    link.symlink_to(target)
    result = run("report", KAGURA, "--output", link, "--games", "200")
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == "keep"
    assert not link.is_symlink() and link.read_text(encoding="utf-8").startswith("<!DOCTYPE")


def test_unreadable_and_usage_errors() -> None:
    assert run("report", ROOT / "no-such-deck.yaml").exit_code == 1
    assert run("report", KAGURA, "--games", "5").exit_code == 2
    bad = run("report", KAGURA, "--output", ROOT / "no-such-folder" / "x.html", "--games", "200")
    assert bad.exit_code == 2 and "cannot write" in bad.output


def test_the_page_explains_only_the_kinds_of_figure_it_shows() -> None:
    # a game with counts only (the third game's stats): no ± anywhere, so no "sampled" entry
    import datetime

    from varz_deck.core.analysis.glossary import entries
    from varz_deck.core.analysis.htmlreport import render
    from varz_deck.core.analysis.parts import (
        COUNT,
        PERCENT,
        Analysis,
        Column,
        Figure,
        Table,
        Verdict,
    )
    from varz_deck.core.messages.i18n import msg

    def page(*cells: Figure) -> str:
        table = Table("t", msg("report", "Cost"), (Column("n"),), tuple((c,) for c in cells))
        day = datetime.date(2026, 12, 3)
        shown = Analysis(
            "x", "X", "deck", "deck.yaml", day, Verdict(True, "standard", ()), (), (table,)
        )
        return render(shown, entries(), "en")

    counts = page(Figure(3, COUNT))
    assert 'id="term-exact"' in counts and 'id="term-sampled"' not in counts
    assert "Every figure on this page is exact: counted, not sampled." in counts
    assert "figures with ± are sampled" not in counts
    both = page(Figure(3, COUNT), Figure(0.5, PERCENT, 0.01))
    assert 'id="term-exact"' in both and 'id="term-sampled"' in both
    assert "figures with ± are sampled" in both and "Every figure on this page" not in both
    none = page()
    assert 'id="term-exact"' not in none and "Every figure" not in none and "with ±" not in none
