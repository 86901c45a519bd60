"""The player's analysis reads answer first, with the same defaults, and only what applies.

Expected figures are independent of the tool: math.comb for the opening hands, the JSON's own
per-turn figures summed by hand for VAZ used, hand-written English for the sentences.
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from varz_deck.cli.main import build_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
SPLASH = EXAMPLES / "yellow-amane-red-splash.yaml"
RAIZAN = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"
ZERO = EXAMPLES / "azuki" / "stt04-zero-fire.yaml"
app = build_app()
runner = CliRunner()


def run(*args: object) -> Any:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def doc(*args: object) -> dict[str, Any]:
    return json.loads(run(*args, "-o", "json").stdout)


def test_tune_defaults_to_the_auto_mulligan_as_sim_does() -> None:
    tuned, simmed = doc("tune", KAGURA), doc("sim", KAGURA, "--games", "200")
    assert tuned["mulligan"] == simmed["mulligan"] == "auto"
    assert "mulligan auto" in run("tune", KAGURA, "--lang", "en").stdout.splitlines()[1]
    assert doc("tune", KAGURA, "--mulligan", "none")["mulligan"] == "none"


def test_azuki_tune_says_why_its_mulligan_differs() -> None:
    text = run("tune", RAIZAN, "--lang", "en").stdout
    assert doc("tune", RAIZAN)["mulligan"] == "none"
    header = " ".join(text.splitlines()[1:3])
    assert "mulligan none: Azuki's tune is exact only with every hand kept" in header


def test_vaz_used_is_the_vaz_spent_over_the_vaz_available() -> None:
    d = doc("sim", KAGURA, "--games", "2000")
    spent = sum(t["mean_vaz_spent"] for t in d["turns"])
    available = sum(t["vaz"] for t in d["turns"])
    assert available == 2 + 4 + 6 + 8 + 9 + 9 + 9 + 9
    assert d["vaz_used"] == pytest.approx(spent / available, abs=1e-6)
    assert d["vaz_used_se"] > 0 and "curve_score" in d  # JSON keeps the old key for programs


def test_the_opening_hand_figure_is_the_hypergeometric_one() -> None:
    # Kagura: the openers are the red spells of cost 1 or 2 (the Holder of turn 1 holds 2 VAZ):
    # Ember Imp 3, Cinder Hound 3, Scorch Shot 3, Blaze Rush 2, Street Brawler 3, Overheat 2.
    none = comb(30 - 16, 5) / comb(30, 5)
    auto = doc("sim", KAGURA, "--games", "200")
    kept = doc("sim", KAGURA, "--games", "200", "--mulligan", "none")
    assert auto["p_opener"] == pytest.approx(1 - none * none, abs=1e-9)
    assert kept["p_opener"] == pytest.approx(1 - none, abs=1e-9)
    text = run("sim", KAGURA, "--games", "200", "--lang", "en").stdout
    assert (
        f"Opening hands: {100 * (1 - none * none):.2f}% hold a spell you can pay on turn 1" in text
    )


def test_sim_opens_with_the_answer_then_the_tables() -> None:
    lines = run("sim", KAGURA, "--games", "2000", "--lang", "en").stdout.splitlines()
    first_table = lines.index("Cards")
    # The header above the answer wraps with the deck's path, so the answer is found, not counted.
    start = next(i for i, line in enumerate(lines) if line.startswith("Opening hands:"))
    assert start < first_table and lines[start - 1] == ""
    answer = " ".join(lines[start:first_table]).strip()
    assert "VAZ used: over 8 turns you spend" in answer
    assert "From turn 5 you spend only" in answer and "your hand is nearly empty" in answer
    assert "Your hero reaches V-Sync (evolution level 6) on turn 3." in answer
    assert "curve score" not in "\n".join(lines)


def test_sim_says_why_the_two_on_curve_figures_differ() -> None:
    text = run("sim", KAGURA, "--games", "500", "--lang", "en").stdout.replace("\n", " ")
    assert "P(cast): cast on curve in a goldfish game (sampled)" in text
    assert "It is lower than castable on curve in varz-deck tune" in text
    tune = run("tune", KAGURA, "--lang", "en").stdout.replace("\n", " ")
    assert "P(on curve): castable on curve (exact)" in tune
    assert "varz-deck sim's P(cast) is lower" in tune


def test_a_mono_colour_deck_leaves_out_the_colour_breakdowns_and_says_why() -> None:
    sim = run("sim", KAGURA, "--games", "300", "--lang", "en").stdout
    assert "Every spell is red: the curve has no colour breakdown." in sim
    assert "By colour" not in sim and "Colour" not in sim.split("P(castable")[0]
    tune = run("tune", KAGURA, "--lang", "en").stdout
    assert "VAZ skills of one colour a spell of cost C needs" not in tune
    assert "so there is no table of VAZ skills needed by colour." in tune.replace("\n", " ")
    assert "for an off-colour spell" not in tune.replace("\n", " ")  # no VAZ column to explain


def test_a_splash_deck_keeps_them() -> None:
    sim = run("sim", SPLASH, "--games", "300", "--lang", "en").stdout
    assert "By colour" in sim and "the curve has no colour breakdown" not in sim
    tune = run("tune", SPLASH, "--lang", "en").stdout
    assert "VAZ skills of one colour a spell of cost C needs" in tune
    assert "VAZ: VAZ skills needed for an off-colour spell" in tune.replace("\n", " ")


def test_no_swap_helps_reads_as_good_news() -> None:
    text = run("tune", KAGURA, "--lang", "en").stdout.replace("\n", " ")
    assert "Good news: no one-card swap of the skill deck raises the lowest odds" in text


def test_tune_answer_names_the_weakest_spell_and_the_best_swap_from_the_json() -> None:
    d = doc("tune", SPLASH)
    low = min(
        (s for s in d["spells"] if s["on_curve_turn"] is not None), key=lambda s: s["p_on_curve"]
    )
    best = d["swaps"][0]
    text = run("tune", SPLASH, "--lang", "en").stdout.replace("\n", " ")
    assert (
        f"Your spell least likely on curve is {low['name']} (cost {low['cost']}): castable on "
        f"curve {100 * low['p_on_curve']:.1f}% of the time" in text
    )
    assert f"Swap one {best['out']['name']} for one {best['in']['name']}:" in text
    assert f"the lowest rises to {100 * best['min_p_on_curve']:.1f}%" in text


def test_stats_opens_with_the_curve_and_what_pays_the_splash() -> None:
    text = run("stats", SPLASH, "--lang", "en").stdout.replace("\n", " ")
    # 30 spells; the splash's six red spells: 3 Scorch Shot, 3 Crimson Gunslinger; 3 red VAZ.
    assert "30 spells, average cost 2.4" in text
    assert "6 red spells are paid only by red VAZ skills, and the deck has 3" in text


def test_azuki_sim_footer_matches_the_figures_shown() -> None:
    auto = run("sim", RAIZAN, "--games", "300", "--lang", "en").stdout
    assert "Sampled figures (mulligan auto): ± is the 95% interval" in auto.replace("\n", " ")
    assert "no mulligan" not in auto
    exact = run("sim", RAIZAN, "--mulligan", "none", "--lang", "en").stdout
    assert "Every figure is exact (closed forms, every hand kept): no ±." in exact
    assert "±" not in exact.split("Every figure is exact")[0].split("\n", 3)[3]
    vs = run("sim", RAIZAN, "--vs", ZERO, "--games", "300", "--lang", "en").stdout
    assert "no mulligan" not in vs and "Sampled figures (mulligan auto)" in vs.replace("\n", " ")


def test_azuki_sim_answer_uses_the_jsons_figures() -> None:
    d = doc("sim", RAIZAN, "--mulligan", "none")
    one = next(c for c in d["costs"] if c["cost"] == 1)["p_castable_by_turn"][0]
    # 18 of the 50 main-deck cards cost 1; on the play turn 1 sees the opening 7.
    assert one == pytest.approx(1 - comb(50 - 18, 7) / comb(50, 7), abs=1e-9)
    text = run("sim", RAIZAN, "--mulligan", "none", "--lang", "en").stdout.replace("\n", " ")
    assert f"a 1-cost card by turn 1 {100 * one:.0f}%" in text
    assert "By turn 8 you have seen 14 of your 50 main-deck cards." in text
