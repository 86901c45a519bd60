"""`varz-deck report`'s page in Chromium (Debian's, through Playwright): it renders, axe-core finds
no serious or critical violation, and the figures read from the page are the JSON's. The report of
every example deck of every game (the bundled VARZ and Azuki, examples/yaml-game with its card
data, examples/third-game's tidewright put on the import path) reads on a phone (390×844) and a
desktop (1280×900): no sideways scroll, no text under 11 px, no chart label over another or cut
off, no legend over a label. Under CI a missing browser or package fails (browser_tools.missing)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_tools import SIZES, axe_problems, browser, reading_problems
from plugintools import THIRD_GAME, distribution, varz_deck
from typer.testing import CliRunner

from varz_deck.cli.main import build_app

__all__ = ["browser"]  # the fixture

ROOT = Path(__file__).resolve().parents[2]
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
SPLASH = ROOT / "examples" / "yellow-amane-red-splash.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
YAML_GAME = ROOT / "examples" / "yaml-game"
app = build_app()

# every example deck of every game: (deck, what `report` needs beside it)
TIDEWRIGHT = {"tidewright": "tidewright:GAME"}
EXAMPLES = [
    *((deck, ()) for deck in sorted((ROOT / "examples").glob("*.yaml"))),
    *((deck, ()) for deck in sorted((ROOT / "examples").glob("*.txt"))),
    *((deck, ()) for deck in sorted((ROOT / "examples" / "azuki").glob("*.yaml"))),
    *(
        (deck, ("--cards", YAML_GAME / "card_data"))
        for deck in sorted((YAML_GAME / "decks").iterdir())
    ),
    *(
        (deck, ("--plugin",))
        for deck in sorted((THIRD_GAME / "decks").glob("*.*"))
        if deck.suffix != ".md"
    ),
]


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
        assert not reading_problems(page)
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


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, tuple[object, ...]], Path]:
    """Each example's report, written once for both sizes."""
    folder = tmp_path_factory.mktemp("reports")
    made: dict[Path, Path] = {}

    def report(deck: Path, extra: tuple[object, ...]) -> Path:
        if deck not in made:
            out = folder / f"{deck.parent.name}-{deck.name}.html"
            if extra == ("--plugin",):  # tidewright from its source, as an installed plugin
                plugin = folder / "tidewright"
                if not plugin.exists():
                    distribution(plugin, "tidewright", TIDEWRIGHT)
                done = varz_deck(
                    "report", deck, "--output", out, "--games", "1000",
                    cache=folder / "cache", before=[plugin, THIRD_GAME],
                )  # fmt: skip
                assert done.returncode == 0, done.stderr
            else:
                _run("report", deck, "--output", out, "--games", "1000", *extra)
            made[deck] = out
        return made[deck]

    return report


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(
    "deck,extra", EXAMPLES, ids=[str(d.relative_to(ROOT / "examples")) for d, _ in EXAMPLES]
)
def test_every_examples_report_reads_on_a_phone_and_a_desktop(
    browser: Any,
    reports: Callable[[Path, tuple[object, ...]], Path],
    deck: Path,
    extra: tuple[object, ...],
    size: str,
) -> None:
    page_file = reports(deck, extra)
    context = browser.new_context(viewport=SIZES[size], offline=True)
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        assert page.locator("main").count() == 1
        assert axe_problems(page) == []
        assert reading_problems(page) == []
    finally:
        context.close()
