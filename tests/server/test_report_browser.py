"""`varz-deck report`'s page in Chromium (Debian's, through Playwright): it renders, axe-core finds
no serious or critical violation, it fits a phone's width, and the figures read from the page are
the JSON's. Under CI a missing browser or package fails (browser_tools.missing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_tools import axe_problems, browser, layout_problems
from typer.testing import CliRunner

from varz_deck.cli.main import build_app

__all__ = ["browser"]  # the fixture

ROOT = Path(__file__).resolve().parents[2]
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
SPLASH = ROOT / "examples" / "yellow-amane-red-splash.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
app = build_app()


def _run(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


_CELLS = """part => Array.from(document.querySelectorAll(`table[data-part="${part}"] tbody tr`))
  .map(row => Array.from(row.children).map(cell => [cell.innerText, cell.dataset.value ?? null]))"""


@pytest.mark.parametrize(
    "deck,lang", [(KAGURA, "en"), (SPLASH, "ja"), (RAIZAN, "zh"), (RAIZAN, "en")]
)
@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_renders_and_passes_axe(
    browser: Any, tmp_path: Path, deck: Path, lang: str, width: int
) -> None:
    page_file = tmp_path / "report.html"
    _run("report", deck, "--output", page_file, "--lang", lang, "--games", "2000")
    context = browser.new_context(viewport={"width": width, "height": 900}, offline=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on(
            "request", lambda r: errors.append(r.url) if not r.url.startswith("file:") else None
        )
        page.goto(page_file.as_uri())
        assert page.locator("h1").inner_text().strip()
        assert page.locator("svg[role=img]").count() >= 2
        assert not axe_problems(page)
        assert not [p for p in layout_problems(page) if "scrolls sideways" in p]
        assert not errors  # no console error, no request beyond the file itself
    finally:
        context.close()


def test_the_figures_on_the_page_are_the_jsons(browser: Any, tmp_path: Path) -> None:
    page_file = tmp_path / "report.html"
    _run("report", SPLASH, "--output", page_file, "--lang", "en")
    tune = json.loads(_run("tune", SPLASH, "-o", "json"))
    sim = json.loads(_run("sim", SPLASH, "-o", "json", "--games", "20000", "--seed", "1"))
    page = browser.new_page()
    try:
        page.goto(page_file.as_uri())
        rows = page.evaluate(_CELLS, "on-curve")
        assert [r[0][0] for r in rows] == [s["name"] for s in tune["spells"]]
        assert [float(r[5][1]) for r in rows] == [s["p_on_curve"] for s in tune["spells"]]
        assert [r[5][0] for r in rows] == [f"{100 * s['p_on_curve']:.1f}%" for s in tune["spells"]]
        swaps = page.evaluate(_CELLS, "swaps")
        assert [(r[0][0], r[1][0]) for r in swaps] == [
            (w["out"]["name"], w["in"]["name"]) for w in tune["swaps"][: len(swaps)]
        ]
        assert float(swaps[0][2][1]) == tune["swaps"][0]["min_p_on_curve"]
        gold = page.evaluate(_CELLS, "goldfish-cards")
        assert [float(r[3][1]) for r in gold] == [c["p_cast_on_curve"] for c in sim["cards"]]
        vaz = page.evaluate(_CELLS, "vaz")
        assert [float(r[2][1]) for r in vaz] == [t["mean_vaz_spent"] for t in sim["turns"]]
    finally:
        page.close()
