"""The language server's hover figures, in process (tests/test_lsp.py drives the real server over
stdio): a spell's exact figures in the open deck, named by the glossary, computed once per text.

Expected values come from `varz-deck tune -o json` on the same deck (the JSON reporter, not the
parts the hover reads), and the English and Japanese words are written by hand.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from typer.testing import CliRunner

from varz_deck.cli.main import build_app
from varz_deck.games import get_game, open_database
from varz_deck.games.library import bundled_root
from varz_deck.lsp.hover import figures_markdown

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
BLUE_LIST = ROOT / "examples" / "blue-list.txt"
DAY = datetime.date(2026, 12, 3)


def server_for(key: str, lang: str = "en", date: datetime.date | None = None) -> Any:
    database = open_database(bundled_root(key))
    libraries = {key: SimpleNamespace(database=database)}  # of_game(KEY): only the deck's game
    library = SimpleNamespace(of_game=lambda game_key: libraries[game_key])
    day = date or DAY  # the server's `day()`: the editor's date, else (here) a fixed today
    server = SimpleNamespace(figures={}, library=library, date=date, lang=lang, day=lambda: day)
    return server, database


class SpyTuner:
    """The game's tuner, recording the keyword arguments of each tune."""

    def __init__(self, real: Any) -> None:
        self.real, self.options, self.tunes = real, real.options, []

    def tune(self, *args: Any, **kwargs: Any) -> Any:
        self.tunes.append(kwargs)
        return self.real.tune(*args, **kwargs)


def spied(key: str) -> Any:
    real = get_game(key)
    return SimpleNamespace(key=key, tuner=SpyTuner(real.tuner), glossary=real.glossary)


def doc_of(path: Path, text: str | None = None) -> Any:
    return SimpleNamespace(uri=path.as_uri(), path=path, text=text or path.read_text("utf-8"))


def spell(path: Path, name: str) -> dict[str, Any]:
    done = CliRunner().invoke(build_app(), ["tune", str(path), "-o", "json"])
    return next(s for s in json.loads(done.stdout)["spells"] if s["name"] == name)


def test_a_spell_shows_its_figures_under_the_glossary_names() -> None:
    server, database = server_for("varz")
    card = next(c for c in database.cards.values() if c.name == "Ember Imp")
    shown = figures_markdown(server, doc_of(KAGURA), get_game("varz"), card)
    expected = spell(KAGURA, "Ember Imp")
    assert shown.startswith("\n\nIn this deck as it is now (on the play, mulligan auto):\n\n")
    assert "**Castable on curve, per spell (exact)**" in shown
    assert f"- castable on curve: {100 * expected['p_on_curve']:.1f}%\n" in shown
    assert f"- curve turn: {expected['on_curve_turn']}\n" in shown
    assert f"- expected delay: {expected['expected_delay']:.2f}\n" in shown
    assert shown.endswith(
        "\n\nWhat a figure means: varz-deck explain TERM (varz-deck explain lists them all)."
    )


def test_in_japanese_and_for_azuki() -> None:
    server, database = server_for("varz", "ja")
    card = next(c for c in database.cards.values() if c.name == "Ember Imp")
    shown = figures_markdown(server, doc_of(KAGURA), get_game("varz"), card).split("\n")
    expected = spell(KAGURA, "Ember Imp")
    assert shown[2] == "このデッキの今の内容で（先攻、マリガン auto）："
    assert shown[4] == "**スペルごとのカーブターンに使用可能（厳密）**"
    assert f"- カーブターンに使用可能: {100 * expected['p_on_curve']:.1f}%" in shown
    assert shown[-1] == "数値の意味：varz-deck explain 用語（varz-deck explain ですべて一覧）。"
    server, database = server_for("azuki", date=DAY)
    card = next(c for c in database.cards.values() if c.name == "Crate Rat Kurobo")
    game = spied("azuki")
    shown = figures_markdown(server, doc_of(RAIZAN), game, card).split("\n")
    assert shown[2] == "In this deck as it is now (on the play, mulligan none):"
    assert [line[: line.index(":")] for line in shown if line.startswith("- ")] == [
        "- curve turn",
        "- castable on curve",
        "- expected delay",
    ]
    assert game.tuner.tunes == [{"target": 0.9, "on": "play", "mulligan": "none", "date": DAY}]


def test_the_tune_asked_for_and_a_plain_text_list() -> None:
    server, database = server_for("varz", date=DAY)
    lance = next(c for c in database.cards.values() if c.name == "Meteor Lance")
    game = spied("varz")
    shown = figures_markdown(server, doc_of(KAGURA), game, lance)  # a later row of the table
    expected = spell(KAGURA, "Meteor Lance")
    assert f"- castable on curve: {100 * expected['p_on_curve']:.1f}%\n" in shown
    assert game.tuner.tunes == [{"target": 0.9, "on": "play", "mulligan": "auto", "date": DAY}]
    sprite = next(c for c in database.cards.values() if c.name == "Tide Sprite")
    listed = figures_markdown(server, doc_of(BLUE_LIST), get_game("varz"), sprite)
    expected = spell(BLUE_LIST, "Tide Sprite")  # read as a list by its .txt name
    assert f"- castable on curve: {100 * expected['p_on_curve']:.1f}%\n" in listed


def test_a_card_with_no_row_and_an_unusable_deck_show_none() -> None:
    server, database = server_for("varz")
    gate = next(c for c in database.cards.values() if c.name == "Crimson Gate")
    assert figures_markdown(server, doc_of(KAGURA), get_game("varz"), gate) == ""
    imp = next(c for c in database.cards.values() if c.name == "Ember Imp")
    assert (
        figures_markdown(server, doc_of(KAGURA, "hero: [unclosed\n"), get_game("varz"), imp) == ""
    )
    no_tuner = SimpleNamespace(key="varz", tuner=None, glossary=())
    assert figures_markdown(server, doc_of(KAGURA), no_tuner, imp) == ""


def test_the_figures_are_computed_once_per_text() -> None:
    server, database = server_for("varz")
    imp = next(c for c in database.cards.values() if c.name == "Ember Imp")
    doc = doc_of(KAGURA)
    first = figures_markdown(server, doc, get_game("varz"), imp)
    text, parts = server.figures[doc.uri]
    assert text == doc.text and parts
    assert figures_markdown(server, doc, get_game("varz"), imp) == first
    assert server.figures[doc.uri][1] is parts  # not computed again
    doc.text = doc.text.replace("Ember Imp: 3", "Ember Imp: 1")
    changed = figures_markdown(server, doc, get_game("varz"), imp)
    assert changed != first and server.figures[doc.uri][0] == doc.text
