"""The VARZ simulator's closed forms at their edges (SPEC §6), where mutation testing found them
unchecked: the deck-out turn, the hypergeometric helpers outside the usual range, the curve turn and
the colour odds on the draw, and the `auto` mulligan on the draw. Expected values come from SPEC §6
and math.comb, worked out here."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest

from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games.varz.sim import exact as ex
from varz_deck.games.varz.sim.model import Model, SpellCard

src = DeckSource.from_path


def model(
    spells: list[tuple[int, int, int]], skills: tuple[int, ...], colors: tuple[str, ...] = ()
) -> Model:
    """Spells as (class, cost, copies): class 0 is paid by any VAZ, class j by colour j."""
    cards = tuple(
        SpellCard(
            f"T-{i}",
            f"Card {i}",
            copies=n,
            cost=cost,
            color="red" if cls == 0 else colors[cls - 1],
            cls=cls,
        )
        for i, (cls, cost, n) in enumerate(spells)
    )
    return Model("t.yaml", None, "T-H", "Hero", "red", 6, cards, colors, skills)


def first_empty_draw(n_spells: int, on: str) -> int:
    """SPEC §6: the opening 5, then a draw a turn (none on turn 1 on the play): the first turn
    whose draw finds the deck empty."""
    held = min(5, n_spells)
    for turn in itertools.count(1):
        if on == "play" and turn == 1:
            continue
        if held == n_spells:
            return turn
        held += 1
    raise AssertionError  # pragma: no cover


@pytest.mark.parametrize("on", ["play", "draw"])
@pytest.mark.parametrize("n_spells", [0, 3, 5, 6, 10, 30])
def test_deck_out_turn_is_the_first_draw_from_an_empty_deck(on: str, n_spells: int) -> None:
    want = first_empty_draw(n_spells, on)
    assert ex.deck_out_turn(n_spells, on, want) == want  # found on the last turn simulated
    assert ex.deck_out_turn(n_spells, on, want + 5) == want
    assert ex.deck_out_turn(n_spells, on, want - 1) is None  # not yet within the turns


def test_deck_out_turns_by_hand() -> None:
    assert ex.deck_out_turn(30, "play", 30) == 27  # the 26th draw, on turn 27, finds none
    assert ex.deck_out_turn(30, "draw", 30) == 26
    assert ex.deck_out_turn(5, "draw", 8) == 1
    assert ex.deck_out_turn(3, "play", 8) == 2


def test_p_at_least_outside_the_usual_range() -> None:
    assert ex.p_at_least(4, 2, 6, 0) == 1  # needing nothing is certain
    assert ex.p_at_least(4, 2, 6, 1) == 0  # no draw of 6 from 4 cards
    assert ex.p_at_least(4, 2, -1, 1) == 0
    assert ex.p_at_least(4, 2, 0, 1) == 0
    assert ex.p_at_least(9, 3, 4, 2) == Fraction(
        comb(3, 2) * comb(6, 2) + comb(3, 3) * comb(6, 1), comb(9, 4)
    )


def test_p_among_by_hand() -> None:
    assert ex.p_among(30, 3, 0) == 0
    assert ex.p_among(30, 0, 5) == 0
    assert ex.p_among(30, 3, 5) == 1 - Fraction(comb(27, 5), comb(30, 5))
    assert ex.p_among(5, 3, 5) == 1


SPLASH = model(
    [(0, 2, 10), (1, 1, 3), (1, 2, 3), (2, 1, 2), (2, 3, 2), (0, 0, 10)],
    skills=(4, 3, 2),
    colors=("blue", "green"),
)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_every_colour_has_its_odds_for_each_count_it_can_make(on: str) -> None:
    turns = 8
    figures = ex.exact(SPLASH, turns, on)
    assert len(figures.vaz) == turns and len(figures.p_color) == turns
    for t in range(1, turns + 1):
        held = min(2 * t + (on == "draw"), 9)
        assert figures.vaz[t - 1] == held
        for j, color in enumerate(SPLASH.colors, start=1):
            good = SPLASH.skills[j]
            odds = figures.p_color[t - 1][color]
            assert len(odds) == good, (color, odds)
            for need in range(1, good + 1):
                want = sum(
                    comb(good, i) * comb(9 - good, held - i)
                    for i in range(need, min(good, held) + 1)
                ) / comb(9, held)
                assert abs(odds[need - 1] - want) < 1e-12


@pytest.mark.parametrize("on", ["play", "draw"])
def test_curve_turn_and_holder_odds_of_each_card(on: str) -> None:
    figures = ex.exact(SPLASH, 8, on)
    extra = on == "draw"
    for card, got in zip(SPLASH.cards, figures.cards, strict=True):
        curve = next(t for t in range(1, 9) if min(2 * t + extra, 9) >= card.cost)
        assert got.curve_turn == curve
        assert len(got.p_pays) == 8
        for t in range(1, 9):
            held = min(2 * t + extra, 9)
            if card.cls == 0:
                want = 1.0 if held >= card.cost else 0.0
            else:
                good = SPLASH.skills[card.cls]
                want = sum(
                    comb(good, i) * comb(9 - good, held - i)
                    for i in range(card.cost, min(good, held) + 1)
                ) / comb(9, held)
            assert abs(got.p_pays[t - 1] - want) < 1e-12


def test_deck_out_turn_of_a_small_deck_on_the_draw() -> None:
    tiny = model([(0, 1, 3)], skills=(9,))
    assert ex.exact(tiny, 8, "draw").deck_out_turn == 1
    assert ex.exact(tiny, 8, "play").deck_out_turn == 2


def _held_auto(m: Model, k: int, seen: int, on: str) -> Fraction:
    """P(card k among the first `seen` cards held) under the `auto` mulligan, by enumeration of
    hands; an opener is a card the turn-1 Holder pays with probability ½ or more."""
    skills = [cls for cls, n in enumerate(m.skills) for _ in range(n)]
    held = min(2 + (on == "draw"), len(skills))
    holders = list(itertools.combinations(skills, held))

    def pays(card: SpellCard) -> Fraction:
        good = sum((len(h) if card.cls == 0 else h.count(card.cls)) >= card.cost for h in holders)
        return Fraction(good, len(holders))

    openers = {j for j, card in enumerate(m.cards) if pays(card) >= Fraction(1, 2)}
    deck = [j for j, card in enumerate(m.cards) for _ in range(card.copies)]
    n, copies = len(deck), m.cards[k].copies
    fresh = 1 - Fraction(comb(n - copies, seen), comb(n, seen))
    total = Fraction(0)
    hands = list(itertools.combinations(range(n), 5))
    for hand in hands:
        cards = {deck[i] for i in hand}
        if not cards & openers:
            total += fresh
        elif k in cards:
            total += 1
        else:
            total += 1 - Fraction(comb(n - 5 - copies, seen - 5), comb(n - 5, seen - 5))
    return total / len(hands)


def test_drawn_by_turn_under_the_auto_mulligan_on_the_draw() -> None:
    """On the draw the turn-1 Holder has 3 skills: a 2-cost blue card with 2 blue VAZ among 4
    skills is an opener there (P = ½) but not on the play (P = 1/6)."""
    m = model([(1, 2, 2), (0, 4, 3), (0, 5, 3)], skills=(2, 2), colors=("blue",))
    turns = 4
    for on in ("play", "draw"):
        figures = ex.exact(m, turns, on, "auto")
        for k, got in enumerate(figures.cards):
            for t in range(1, turns + 1):
                seen = min(5 + t - 1 + (on == "draw"), 8)
                want = _held_auto(m, k, seen, on)
                assert abs(got.p_drawn_by_turn[t - 1] - float(want)) < 1e-12, (on, k, t)
    assert ex.is_opener(m, m.cards[0], "draw") and not ex.is_opener(m, m.cards[0], "play")


# --------------------------------------------------------------------------- Azuki


def test_azuki_exact_figures_by_hand() -> None:
    """Rules page: 7-card hand, a draw a turn (none on turn 1 for the first player), 1 IKZ a turn
    up to 10, +1 (the token) on the draw; without a mulligan every figure is exact."""

    from varz_deck.core.analysis.capabilities import SimRequest
    from varz_deck.games.azuki import sim as az
    from varz_deck.games.azuki.sim.exact import exact
    from varz_deck.games.azuki.sim.run import run

    cards = (az.SimCard("A-1", "One", 4, 3), az.SimCard("A-2", "Two", 46, 11))
    deck = az.Model("a.yaml", None, None, cards)
    turns = 12
    for on in ("play", "draw"):
        figures = exact(deck, turns, on)
        for card, got in zip(cards, figures, strict=True):
            assert len(got["p_drawn_by_turn"]) == turns == len(got["p_castable_by_turn"])
            opening = 1 - comb(50 - card.copies, 7) / comb(50, 7)
            assert abs(got["p_in_opening_hand"] - opening) < 1e-12
            for t in range(1, turns + 1):
                seen = 7 + t - (on == "play")
                drawn = 1 - comb(50 - card.copies, seen) / comb(50, seen)
                ikz = min(t, 10) + (on == "draw")
                assert abs(got["p_drawn_by_turn"][t - 1] - drawn) < 1e-12
                castable = drawn if card.cost <= ikz else 0.0
                assert abs(got["p_castable_by_turn"][t - 1] - castable) < 1e-12
        request = SimRequest(DeckSource("a.yaml"), 100, 1, turns, on, "none", date=on_date())
        result = run(deck, request)
        for fig in (*result.cards, *result.costs):
            assert fig["p_in_opening_hand_se"] == 0.0
            assert fig["p_drawn_by_turn_se"] == [0.0] * turns
            assert fig["p_castable_by_turn_se"] == [0.0] * turns
