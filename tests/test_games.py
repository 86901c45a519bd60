"""Games as data: game selection, the Azuki database, examples, rules listing, the goldfish
figures, and a third game registered from a test with no change to the core."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.cards.discovery import yaml_files
from varz_deck.core.dates import on_date
from varz_deck.games import (
    database_game,
    get_game,
    lint_database,
    open_database,
    register_game,
    unregister_game,
)
from varz_deck.games.azuki.sim import Model, SimCard, ikz_on, monte_carlo, seen_by
from varz_deck.games.azuki.sim.exact import exact

ROOT = Path(__file__).resolve().parent.parent
AZUKI_DB = ROOT / "card_data" / "azuki"
AZUKI_EXAMPLES = sorted((ROOT / "examples" / "azuki").glob("*.yaml"))


def _run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_the_bundled_databases_say_their_game() -> None:
    assert database_game(ROOT / "card_data" / "varz").key == "varz"
    assert database_game(AZUKI_DB).key == "azuki"
    assert open_database(AZUKI_DB).game == "azuki"
    assert open_database(ROOT / "card_data" / "varz").game == "varz"


def test_a_nested_database_is_skipped_by_its_parent(tmp_path: Path) -> None:
    root = tmp_path / "db"
    shutil.copytree(ROOT / "card_data" / "varz", root)
    shutil.copytree(AZUKI_DB, root / "azuki")
    files = yaml_files(root)
    assert files
    assert not any(root / "azuki" in p.parents for p in files)


def test_the_azuki_database_lints_clean() -> None:
    result = lint_database(AZUKI_DB)
    assert result.diagnostics == []
    code, _ = _run("cards", "lint", AZUKI_DB)
    assert code == 0


def test_the_cache_records_the_game(tmp_path: Path) -> None:
    copy = tmp_path / "azuki"
    shutil.copytree(AZUKI_DB, copy)
    first = open_database(copy)
    again = open_database(copy)  # from the cache
    assert type(again) is type(first)
    assert again.game == "azuki"
    assert again.lookup("IKZ-002")[0].id == "AZP-001"  # an alias of the IKZ Token


@pytest.mark.parametrize("deck", AZUKI_EXAMPLES, ids=lambda p: p.name)
def test_the_azuki_examples_are_legal(deck: Path) -> None:
    code, out = _run("check", "--cards", AZUKI_DB, deck)
    assert code == 0, out
    code, out = _run("check", "--game", "azuki", deck, "--output", "json")
    assert code == 0, out
    report = json.loads(out)
    entry = report["decks"][0] if isinstance(report, dict) and "decks" in report else report[0]
    assert entry["counts"] == {"main": 50, "ikz": 11}


def test_four_azuki_examples() -> None:
    assert len(AZUKI_EXAMPLES) == 4


def test_an_unknown_game_is_a_usage_error() -> None:
    code, _ = _run("check", "--game", "chess", AZUKI_EXAMPLES[0])
    assert code == 2


def test_rules_lists_every_game() -> None:
    code, out = _run("rules")
    assert code == 0
    for n in range(101, 108):
        assert f"A{n}" in out
    assert "V101" in out
    code, out = _run("rules", "A105")
    assert code == 0
    assert "element-mismatch" in out


# --------------------------------------------------------------------------- goldfish


def _model() -> Model:
    cards = (
        SimCard("X-1", "One", 4, 1),
        SimCard("X-2", "Two", 3, 3),
        SimCard("X-3", "Big", 2, 7),
        SimCard("X-4", "Filler", 41, 2),
    )
    return Model("deck.yaml", None, None, cards)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_exact_figures_match_math_comb(on: str) -> None:
    model = _model()
    figures = exact(model, 8, on)
    for card, fig in zip(model.cards, figures, strict=True):
        want = 1 - comb(50 - card.copies, 7) / comb(50, 7)
        assert abs(fig["p_in_opening_hand"] - want) < 1e-9
        for t in range(1, 9):
            seen = 7 + t - (1 if on == "play" else 0)
            drawn = 1 - comb(50 - card.copies, seen) / comb(50, seen)
            assert abs(fig["p_drawn_by_turn"][t - 1] - drawn) < 1e-9
            ikz = min(t, 10) + (1 if on == "draw" else 0)
            castable = drawn if card.cost <= ikz else 0.0
            assert abs(fig["p_castable_by_turn"][t - 1] - castable) < 1e-9


def test_ikz_and_draws_per_turn() -> None:
    assert [ikz_on(t, "play") for t in (1, 2, 10, 12)] == [1, 2, 10, 10]
    assert [ikz_on(t, "draw") for t in (1, 2, 10, 12)] == [2, 3, 11, 11]  # the IKZ token
    assert seen_by(1, "play") == 7  # the first player skips the first draw
    assert seen_by(1, "draw") == 8


def test_the_mulligan_monte_carlo_agrees_with_the_closed_form() -> None:
    # Every hand is kept when every card is castable by turn 3: the sample is the exact figure.
    model = Model("d", None, None, (SimCard("A", "A", 4, 1), SimCard("B", "B", 46, 2)))
    p_mull, figures = monte_carlo(model, 4, "play", 40_000, 7)
    assert p_mull == 0.0
    want = exact(model, 4, "play")[0]
    fig = figures[0]
    assert (
        abs(fig["p_in_opening_hand"] - want["p_in_opening_hand"]) < 5 * fig["p_in_opening_hand_se"]
    )
    # Nothing castable by turn 3: every hand goes back; the new 7 come from the other 43.
    model = Model("d", None, None, (SimCard("A", "A", 4, 5), SimCard("B", "B", 46, 6)))
    p_mull, figures = monte_carlo(model, 4, "play", 40_000, 7)
    assert p_mull == 1.0
    fig = figures[0]
    # P(one of the 4 in 7 of the other 43), averaged over the 4's split with the first hand
    want_open = sum(
        comb(4, j) * comb(46, 7 - j) / comb(50, 7) * (1 - comb(43 - (4 - j), 7) / comb(43, 7))
        for j in range(5)
    )
    assert abs(fig["p_in_opening_hand"] - want_open) < 5 * fig["p_in_opening_hand_se"]


def test_sim_json_for_an_azuki_deck() -> None:
    code, out = _run(
        "sim", "--game", "azuki", AZUKI_EXAMPLES[1], "--mulligan", "none", "-o", "json"
    )
    assert code == 0, out
    doc = json.loads(out)
    assert doc["game"] == "azuki"
    assert sum(c["copies"] for c in doc["cards"]) == 50
    assert all(c["p_in_opening_hand_se"] == 0.0 for c in doc["cards"])
    code, out = _run("sim", "--game", "azuki", AZUKI_EXAMPLES[1], "-n", "2000")
    assert code == 0, out
    assert "IKZ" in out


# --------------------------------------------------------------------------- a third game

TOY = '''
"""A toy game: a deck file is lines of card ids; one rule, Y901: at most 3 lines."""

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import diag
from varz_deck.games.azuki import Azuki


class ToyDatabase(CardDatabase):
    game = "toy"


class Rule:
    code, name, section, summary, doc = "Y901", "too-many-lines", "-", "at most 3 lines", ""


class Toy(Azuki):
    key = "toy"
    prefix = "Q"  # its own codes' letter (Azuki's A is taken)
    name = "Toy"

    def make_database(self, cards, formats):
        return ToyDatabase(cards, formats or {"casual": Format("casual", "Casual")})

    def check_deck(self, source, database, format_key, date=None):
        lines = source.text.split()
        found = () if len(lines) <= 3 else (diag("Y901", "too many lines", file=source.name),)
        return DeckReport(
            source.name, None, "casual", None, {"lines": len(lines)}, found, game="toy", words=self.words
        )

    def rules(self):
        return {"Y901": Rule()}


GAME = Toy()
'''


def test_a_third_game_needs_no_core_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from varz_deck.games import all_codes, check_deck

    (tmp_path / "toy_game_for_test.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        register_game("toy", "toy_game_for_test")
        game = get_game("toy")
        database = game.make_database([], None)
        deck = tmp_path / "deck.txt"
        deck.write_text("A-1\nA-2\nA-3\nA-4\n", encoding="utf-8")
        report = check_deck(deck, database, date=on_date())
        assert report.game == "toy"
        assert [d.code for d in report.diagnostics] == ["Y901"]
        assert "Y901" in all_codes()
    finally:
        unregister_game("toy")
        sys.modules.pop("toy_game_for_test", None)


def test_an_unknown_game_in_formats_yaml_is_reported(tmp_path: Path) -> None:
    (tmp_path / "formats.yaml").write_text("game: chess\nformats: {}\n", encoding="utf-8")
    result = lint_database(tmp_path)
    assert [d.code for d in result.diagnostics] == ["C001"]


def test_card_files_are_checked_with_their_games_schema(tmp_path: Path) -> None:
    shutil.copy(AZUKI_DB / "formats.yaml", tmp_path / "formats.yaml")
    (tmp_path / "x.yaml").write_text(
        "cards:\n  - {id: X-1, name: Hero, type: hero, color: red}\n", encoding="utf-8"
    )
    codes = {d.code for d in lint_database(tmp_path).diagnostics}
    assert "C001" in codes  # a VARZ card in an Azuki database


def test_the_schema_command_prints_the_azuki_schemas() -> None:
    for name in ("azuki-card", "azuki-deck"):
        code, out = _run("schema", name)
        assert code == 0
        assert json.loads(out)["$id"].startswith("urn:varz-deck:schema:azuki")


RULES_V105 = {
    "ja": [
        "V105 shield-life-total-wrong (エラー)",
        "ルールブック：2.1, 3-2 ❸",
        "",
        "ポータルのシールドライフの合計はちょうど 20。",
        "",
        "適正：4 × Basic Gate (3) + 4 × Basic Gate (2) = 20",
        "不適正：4 × Basic Gate (3) + 3 × Basic Gate (2) + 1 × Basic Gate (1) = 19",
    ],
    "en": [  # the docstring as written
        "V105 shield-life-total-wrong (error)",
        "rulebook: 2.1, 3-2 ❸",
        "",
        "The portals' Shield Life adds up to exactly 20.",
        "",
        "Legal:   4 × Basic Gate (3) + 4 × Basic Gate (2) = 20",
        "Illegal: 4 × Basic Gate (3) + 3 × Basic Gate (2) + 1 × Basic Gate (1) = 19",
    ],
}


@pytest.mark.parametrize("lang", list(RULES_V105))
def test_rules_explains_a_code_word_for_word(lang: str) -> None:
    """The code's line with its severity, its rulebook place, its summary and each example with
    its label, in the language asked (the card names and ids stay as written)."""
    assert _run("rules", "V105", "--lang", lang) == (0, "\n".join(RULES_V105[lang]) + "\n")
