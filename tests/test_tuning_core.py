"""core/analysis/tuning.py's small pieces, by hand: text fitting, figures, the on-curve sum and the size
bound's message (issue 24: the mutants the other tests let through)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from varz_deck.core.analysis.plot import PlotError, image
from varz_deck.core.analysis.tuning import (
    SIZE_FACTOR,
    CurveCharts,
    DeckTooLarge,
    curve_rows,
    fit,
    on_curve,
    pad,
    pct,
    points,
    r,
    refuse_oversized,
)
from varz_deck.core.decks.entries import Entry


@pytest.mark.parametrize(
    ("text", "width", "fitted"),
    [
        ("abcdef", 6, "abcdef"),  # exactly the width: kept whole
        ("abcdefg", 6, "abcde…"),  # one over: 5 characters and the ellipsis
        ("abcdefghij", 4, "abc…"),
        ("日本語テキスト", 7, "日本語…"),  # 2 cells each: 6 cells and the ellipsis
        ("日本語テキスト", 8, "日本語…"),  # a 4th would make 9 cells
        ("", 3, ""),
    ],
)
def test_fit(text: str, width: int, fitted: str) -> None:
    assert fit(text, width) == fitted


def test_pad() -> None:
    assert pad("ab", 5) == "ab   " and pad("ab", 5, True) == "   ab"
    assert pad("日本", 5) == "日本 " and pad("abcdefg", 4, True) == "abc…"


def test_pct() -> None:
    assert pct(None) == "–"
    assert pct(Fraction(1, 8)) == "12.5%" and pct(0.125, 0) == "12%"
    assert pct(Fraction(1, 3), 2) == "33.33%" and pct(0) == "0.0%"


@pytest.mark.parametrize(
    ("change", "shown"),
    [(0.0005, "+0.1"), (0.0004, "±0"), (-0.0004, "±0"), (0.006, "+0.6"), (-0.123, "-12.3"),
     (Fraction(1, 40), "+2.5"), (0, "±0")],
)  # fmt: skip
def test_points(change: float | Fraction, shown: str) -> None:
    assert points(change) == shown


def test_r_rounds_and_never_gives_minus_zero() -> None:
    assert r(None) is None
    assert r(Fraction(1, 3)) == 0.333333333
    assert r(Fraction(2, 3)) == 0.666666667
    for tiny in (-0.0, Fraction(-1, 10**12), -1e-11):
        value = r(tiny)
        assert value == 0 and math.copysign(1.0, value) == 1.0, tiny


def test_on_curve_by_hand() -> None:
    def drawn(t: int) -> Fraction:  # held by turn t: 1/2, 3/4, then always
        return [Fraction(1, 2), Fraction(3, 4), Fraction(1)][min(t, 3) - 1]

    def pays(t: int) -> Fraction:
        return Fraction(1) if t >= 2 else Fraction(1, 2)

    # t0 = 1: P = 1/2 × 1/2; delay = (1 - 1/4) + (1 - 3/4) = 1, then castable for sure on turn 3
    assert on_curve(drawn, pays, 1, 3) == (Fraction(1, 4), Fraction(1))
    assert on_curve(drawn, pays, 3, 3) == (Fraction(1), Fraction(0))
    never = on_curve(drawn, lambda t: Fraction(0), 1, 3)
    assert never == (Fraction(0), None)


def _entries(**counts: list[int]) -> dict[str, list[Entry]]:
    return {s: [Entry(s, "X", n, None) for n in ns] for s, ns in counts.items()}


def test_refuse_oversized_counts_every_line_and_says_so() -> None:
    from varz_deck.games import get_game

    get_game("varz")  # its catalogue translates its sections' names
    assert SIZE_FACTOR == 4
    sizes = {"spells": 30, "skills": 9}
    refuse_oversized("d.txt", _entries(spells=[99, 21], skills=[36]), sizes)  # 120 and 36: kept
    refuse_oversized("d.txt", {}, sizes)  # a section left out counts 0
    with pytest.raises(DeckTooLarge) as caught:
        refuse_oversized("d.txt", _entries(spells=[99, 22]), sizes)
    message = caught.value.message
    assert message is not None and not caught.value.diagnostics
    assert message.render("en") == (
        "d.txt: its spells section has 121 cards, far over the 30 it needs; sim and tune take at "
        "most 120 (4 × 30). Remove cards: run varz-deck check (F003 marks a card listed on more "
        "than one line)"
    )
    with pytest.raises(DeckTooLarge) as caught:
        refuse_oversized("d.txt", _entries(skills=[1] * 1037), sizes)
    assert caught.value.message is not None
    assert "1,037" in caught.value.message.render("en")
    ja = caught.value.message.render("ja")
    assert "スキル" in ja and "1,037" in ja and "d.txt" in ja and "4 × 9" in ja


def test_curve_rows_sums_copies_per_cost_in_the_groups_order() -> None:
    cards = [(2, "red", 3), (1, "blue", 2), (2, "blue", 1), (2, "red", 1), (3, "green", 4)]
    assert curve_rows(iter(cards), ("blue", "red")) == [
        (1, [("blue", 2)]),
        (2, [("blue", 1), ("red", 4)]),
        (3, []),  # a cost of no group listed keeps its row, empty
    ]
    assert curve_rows([(1, "red", 0)], ("red",)) == [(1, [])]
    assert curve_rows([], ("red",)) == []


def test_image_encodes_the_svg_or_gives_the_png_or_refuses() -> None:
    assert image("svg", lambda: "<svg>é</svg>", lambda: b"png") == "<svg>é</svg>".encode()
    assert image("png", lambda: "<svg/>", lambda: b"\x89PNG") == b"\x89PNG"
    with pytest.raises(PlotError, match=r"cannot write a \.gif plot"):
        image("gif", lambda: "<svg/>", lambda: b"")


def test_curve_charts_image_is_its_svg_in_utf_8() -> None:
    def title(lang: str) -> str:
        return f"Curve ({lang})"

    def swaps(lang: str) -> list[tuple[str, float]]:
        return [("A -> B", 1.5)]

    drawn = CurveCharts(title, [(1, [("red", 2)])], "color", {"red": "#d62728"}, swaps)
    assert drawn.image("svg", "ja") == drawn.svg("ja").encode("utf-8")
    assert "Curve (ja)" in drawn.svg("ja") and "A -&gt; B" in drawn.svg("ja")
    with pytest.raises(PlotError):
        drawn.image("gif")
