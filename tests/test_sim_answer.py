"""VARZ sim's opening sentences from hand-written JSON documents: each sentence's words and
figures are written here by hand (the 95% interval is 1.96 standard errors)."""

from __future__ import annotations

from typing import Any

from varz_deck.games.varz.sim.answer import answer, pct


def turn(n: int, vaz: int, spent: float, hand: float) -> dict[str, Any]:
    return {"turn": n, "vaz": vaz, "mean_vaz_spent": spent, "mean_hand_size": hand}


def doc(turns: list[dict[str, Any]], v_sync: int | None = 3) -> dict[str, Any]:
    return {
        "p_opener": 0.875,
        "mulligan": "auto",
        "vaz_used": 0.5,
        "vaz_used_se": 0.01,
        "turns": turns,
        "hero": {"evolution_level": 6},
        "v_sync_turn": v_sync,
    }


def said(document: dict[str, Any]) -> list[str]:
    return [m.render("en") for m in answer(document)]


def test_an_empty_hand_starves_the_turn() -> None:
    # turn 2 spends exactly 60%: not starved; turn 3 spends under it with under one card in hand
    turns = [turn(1, 0, 0.0, 4.0), turn(2, 5, 3.0, 2.0), turn(3, 6, 2.5, 0.5), turn(4, 8, 1.0, 3.0)]
    assert said(doc(turns)) == [
        "Opening hands: 87.5% hold a spell you can pay on turn 1 (exact, mulligan auto).",
        "VAZ used: over 4 turns you spend 50.0% ±2.0 of the VAZ you have (sampled).",
        "From turn 3 you spend only 2.5 of 6 VAZ: your hand is nearly empty (0.5 cards), so more "
        "cards or costlier spells would use the rest.",
        "Your hero reaches V-Sync (evolution level 6) on turn 3.",
    ]


def test_a_hand_that_cannot_pay_is_stuck() -> None:
    turns = [turn(1, 2, 2.0, 4.0), turn(2, 4, 1.0, 1.0)]  # exactly 1 card: not "nearly empty"
    assert said(doc(turns, v_sync=None))[2:] == [
        "From turn 2 you spend only 1.0 of 4 VAZ with 1.0 cards in hand: they cost more than you "
        "can pay, or need VAZ of another colour.",
        "Your hero does not reach V-Sync (evolution level 6) within 2 turns.",
    ]


def test_every_turn_spent_well() -> None:
    assert said(doc([turn(1, 2, 2.0, 4.0)]))[2] == (
        "You spend at least 60% of your VAZ on every turn."
    )


def test_percentages_keep_a_near_certainty_apart_from_certainty() -> None:
    assert pct(0.9995) == "99.95%" and pct(0.99949) == "99.9%" and pct(1.0) == "100.0%"
    assert pct(0.125) == "12.5%"
    assert pct(0.5, 0.01) == "50.0% ±2.0"
    assert pct(0.5, 0.0002) == "50.0% ±0.04"  # under 0.1 point: two decimals
    assert pct(0.5, 0.0) == "50.0%"  # no spread: exact
    assert pct(0.5, 0.05) == "50.0% ±9.8"  # 1.96 × 5 points
    assert pct(0.5, 0.0025) == "50.0% ±0.5"  # 0.49: one decimal from 0.1 point up
