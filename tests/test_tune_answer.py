"""VARZ tune's opening sentences from hand-written JSON documents: each sentence's words and
figures are written here by hand."""

from __future__ import annotations

from typing import Any

from varz_deck.games.varz.tune.answer import answer


def spell(cid: str, name: str, cost: int, p: float, turn: int | None = 2) -> dict[str, Any]:
    return {"id": cid, "name": name, "cost": cost, "p_on_curve": p, "on_curve_turn": turn}


def swap(out: str, into: str, low: float, mean: float) -> dict[str, Any]:
    return {
        "out": {"id": out, "name": out},
        "in": {"id": into, "name": into},
        "min_p_on_curve": low,
        "mean_p_on_curve": mean,
    }


def doc(swaps: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "spells": [
            spell("A-1", "Cheap", 2, 0.25, 1),
            spell("A-2", "Dear", 5, 0.25, 3),  # ties the lowest: the costlier is named
            spell("A-3", "Fine", 3, 0.6),
            spell("A-4", "Never", 9, 0.0, None),  # no curve turn: not a candidate
        ],
        "mean_p_on_curve": 0.4,
        "min_p_on_curve": 0.25,
        "swaps": swaps,
    }


def said(document: dict[str, Any]) -> list[str]:
    return [m.render("en") for m in answer(document)]


def test_the_weakest_spell_the_mean_and_the_best_swap() -> None:
    better = swap("Red VAZ", "Blue VAZ", 0.3125, 0.5)
    worse = swap("Red VAZ", "Green VAZ", 0.2, 0.5)
    assert said(doc([better, worse])) == [
        "Your spell least likely on curve is Dear (cost 5): castable on curve 25.0% of the time, "
        "on turn 3.",
        "On average a spell is castable on curve 40.0% of the time (exact).",
        "Swap one Red VAZ for one Blue VAZ: the lowest rises to 31.2% and the mean changes by "
        "+10.0 points.",
    ]


def test_no_better_swap_is_good_news_and_none_at_all_says_so() -> None:
    worse = swap("Red VAZ", "Green VAZ", 0.2, 0.5)
    better = swap("Red VAZ", "Blue VAZ", 0.3125, 0.425)
    assert said(doc([worse, better]))[-1] == (
        "Good news: no one-card swap of the skill deck raises the lowest odds; it is already the "
        "best one swap away."
    )  # only the first (best ranked) swap is read
    assert said(doc([]))[-1] == "There is no legal one-card swap of the skill deck to try."


def test_a_deck_with_no_spell_on_curve_says_only_the_swaps() -> None:
    document = doc([])
    document["spells"] = [spell("A-4", "Never", 9, 0.0, None)]
    assert said(document) == ["There is no legal one-card swap of the skill deck to try."]
