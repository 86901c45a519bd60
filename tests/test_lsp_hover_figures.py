"""The language server's hover figures, in process (tests/test_lsp.py drives the real server over
stdio): a spell's exact figures in the open deck, named by the glossary, computed once per text.

Expected values come from `varz-deck tune -o json` on the same deck (the JSON reporter, not the
parts the hover reads), and the English and Japanese words are written by hand.
"""

from __future__ import annotations

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


def server_for(key: str, lang: str = "en") -> Any:
    database = open_database(bundled_root(key))
    library = SimpleNamespace(of_game=lambda _key: SimpleNamespace(database=database))
    return SimpleNamespace(figures={}, library=library, date=None, lang=lang), database


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
    shown = figures_markdown(server, doc_of(KAGURA), get_game("varz"), card)
    assert "このデッキの今の内容で（先攻、マリガン auto）：" in shown
    assert "カーブターンに使用可能" in shown
    server, database = server_for("azuki")
    card = next(c for c in database.cards.values() if c.name == "Crate Rat Kurobo")
    shown = figures_markdown(server, doc_of(RAIZAN), get_game("azuki"), card)
    assert "(on the play, mulligan none):" in shown and "- " in shown


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
