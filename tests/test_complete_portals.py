"""VARZ's Portal Deck search against a brute force: the counts `complete` chooses are the first
(in card order, as many of the earlier portals as can be) of every way to add `need` portals and
the Shield Life asked, within copy limits and the effect portals allowed."""

from __future__ import annotations

import itertools
import random
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.game.complete import NoCompletion
from varz_deck.games.varz.complete import _first_fit, portals

KINDS = st.tuples(st.integers(min_value=0, max_value=9), st.booleans())


def brute(kinds, rooms, need, target, effects):
    """Every count vector, the lexicographically greatest that fits (an oracle: no pruning)."""
    best = None
    for counts in itertools.product(*(range(room + 1) for room in rooms)):
        if sum(counts) != need:
            continue
        if sum(life * n for (life, _), n in zip(kinds, counts, strict=True)) != target:
            continue
        used = sum(n for (_, effect), n in zip(kinds, counts, strict=True) if effect)
        if effects >= 0 and used > effects:
            continue
        if best is None or counts > best:
            best = counts
    return best


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(KINDS, st.integers(min_value=0, max_value=4)), max_size=6),
    st.integers(min_value=0, max_value=8),
    st.integers(min_value=0, max_value=20),
    st.integers(min_value=-1, max_value=3),
)
def test_the_first_fit_is_the_brute_forces_first(portals, need, target, effects) -> None:
    kinds = [kind for kind, _ in portals]
    rooms = [room for _, room in portals]
    found = _first_fit(kinds, rooms, need, target, effects)
    expected = brute(kinds, rooms, need, target, effects)
    if expected is None:
        assert found is None
    else:
        assert found is not None
        padded = tuple(found) + (0,) * (len(kinds) - len(found))
        assert padded == expected


def test_thousands_of_portals_neither_recurse_nor_wait() -> None:
    """A database of 5,000 portals of one colour (the recursive search ran out of stack)."""
    kinds = [(1 + i % 7, i % 3 == 0) for i in range(5000)]
    rooms = [4] * 5000
    found = _first_fit(kinds, rooms, 8, 20, 2)
    assert found is not None
    assert sum(found) == 8
    assert sum(kinds[i][0] * n for i, n in enumerate(found)) == 20
    assert sys.getrecursionlimit() < 5000  # the case is past the stack a recursion would need


def test_kinds_with_too_much_shield_life_are_never_chosen() -> None:
    assert _first_fit([(21, False), (5, False)], [4, 4], 4, 20, -1) == [0, 4]
    assert _first_fit([(21, False)], [4], 1, 20, -1) is None


def _drawn_cases() -> list[tuple[list[tuple[int, bool]], list[int], int, int, int]]:
    """Small searches drawn from a fixed seed: half of them ask a Shield Life some counts reach
    (so there is an answer to compare), the rest any total."""
    rng = random.Random(88)
    cases = []
    for number in range(160):
        size = rng.randint(1, 5)
        kinds = [(rng.randint(0, 7), rng.random() < 0.5) for _ in range(size)]
        rooms = [rng.randint(0, 4) for _ in range(size)]
        effects = rng.randint(-1, 3)
        if number % 2:
            counts = [rng.randint(0, room) for room in rooms]
            need = sum(counts)
            target = sum(life * n for (life, _), n in zip(kinds, counts, strict=True))
        else:
            need, target = rng.randint(0, 8), rng.randint(0, 20)
        cases.append((kinds, rooms, need, target, effects))
    return cases


def test_the_first_fit_is_the_brute_forces_first_on_drawn_cases() -> None:
    """The property above on fixed examples (the mutation runs leave hypothesis out)."""
    answered = 0
    for kinds, rooms, need, target, effects in _drawn_cases():
        found = _first_fit(kinds, rooms, need, target, effects)
        expected = brute(kinds, rooms, need, target, effects)
        case = (kinds, rooms, need, target, effects)
        if expected is None:
            assert found is None, case
            continue
        answered += 1
        assert found is not None, case
        assert len(found) <= len(kinds), case
        assert tuple(found) + (0,) * (len(kinds) - len(found)) == expected, case
    assert answered >= 60  # most of the reachable half, so both outcomes are compared


def test_a_kind_of_exactly_the_shield_life_asked_can_be_chosen() -> None:
    assert _first_fit([(5, False)], [4], 1, 5, -1) == [1]
    assert _first_fit([(5, False)], [1], 1, 5, -1) == [1]  # its only copy, its first kind
    assert _first_fit([(2, False), (2, False)], [1, 4], 4, 8, -1) == [1, 3]  # room of the first


def test_no_effect_portal_is_chosen_when_none_is_allowed() -> None:
    assert _first_fit([(5, True)], [4], 4, 20, 0) is None
    assert _first_fit([(5, True), (5, False)], [4, 4], 4, 20, 0) == [0, 4]
    assert _first_fit([(5, True), (5, False)], [4, 4], 4, 20, 1) == [1, 3]
    assert _first_fit([(5, True), (5, False)], [4, 4], 4, 20, -1) == [4]


def test_kinds_and_rooms_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        _first_fit([(1, False), (2, False)], [4], 1, 1, -1)


# `portals` itself, on a draft made by hand: the hero's colour, the portals written (their Shield
# Life and effects), the format's effect portals, the copy limits, and what it says.


def _portal(name: str, life: int | None, effect: bool = False, colour: str = "colorless"):
    return SimpleNamespace(name=name, color=colour, shield_life=life, has_effect=effect)


class _Draft:
    def __init__(self, kept=(), hero_colour: str | None = "red", limit: object = 2, rooms=None):
        self.lead = None if hero_colour is None else SimpleNamespace(color=hero_colour)
        self.lines = {"portals": [SimpleNamespace(card=c, count=n) for c, n in kept]}
        extra = {} if limit is None else {"max_effect_portals": limit}
        self.format = SimpleNamespace(name="Only", extra=extra)
        self.rooms = rooms or {}

    def room(self, section, card):
        return self.rooms.get(card.name, 4)

    def size(self, section: str) -> int:
        return sum(line.count for line in self.lines[section])


EIGHT = SimpleNamespace(size=SimpleNamespace(exact=8))

# An effect portal of Shield Life 3, then two without: with `b` effect portals allowed, the
# first fit of 7 portals for 18 Shield Life is b of the first, 3 of Life 2, the rest of Life 3
# (b=1: 3 + 6 + 9; b=0: 6 + 12; b=2: 6 + 6 + 6; b=3: 9 + 6 + 3; any: 4×3 + 3×2).
E3, P2, P3 = _portal("E3", 3, True), _portal("P2", 2), _portal("P3", 3)
KEPT_EFFECT = _portal("Kept", 2, True)


def _chosen(done) -> list[tuple[str, int]]:
    return [(card.name, count) for card, count, _why in done]


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (2, [("E3", 1), ("P2", 3), ("P3", 3)]),  # one written, one more allowed
        (1, [("P2", 3), ("P3", 4)]),  # the one written is the last allowed
        (0, [("P2", 3), ("P3", 4)]),  # over the limit already: none (not a negative budget)
        (3, [("E3", 2), ("P2", 3), ("P3", 2)]),
        (None, [("E3", 4), ("P2", 3)]),  # no limit
        ("two", [("E3", 4), ("P2", 3)]),  # not a number: no limit
    ],
)
def test_portals_counts_the_effect_portals_written_against_the_formats_limit(
    limit: object, expected: list[tuple[str, int]]
) -> None:
    draft = _Draft(kept=[(KEPT_EFFECT, 1)], limit=limit)
    assert _chosen(portals(draft, EIGHT, [E3, P2, P3], 7)) == expected


def test_portals_of_the_heros_colour_or_colorless_or_none() -> None:
    blue, red, plain = _portal("Blue", 4, colour="blue"), _portal("Red", 3, colour="red"), P2
    draft = _Draft(hero_colour="red")
    assert _chosen(portals(draft, EIGHT, [blue, red, plain], 8)) == [("Red", 4), ("P2", 4)]
    uncoloured = _portal("Uncoloured", 3, colour=None)
    heroless = _Draft(hero_colour=None)
    found = portals(heroless, EIGHT, [red, plain, uncoloured], 8)
    assert _chosen(found) == [("P2", 4), ("Uncoloured", 4)]  # without a hero: no colour but none


def test_portals_without_shield_life_count_zero_and_say_so() -> None:
    zero, five = _portal("Zero", None), _portal("Five", 5)
    found = portals(_Draft(), EIGHT, [zero, five], 8)
    assert _chosen(found) == [("Zero", 4), ("Five", 4)]  # 0 + 20 (a Life of 1 would need 5 Zero)
    said = [why.render() for _card, _count, why in found]
    assert said == [
        "Shield Life 0: with it the 8 portals add up to exactly 20",
        "Shield Life 5: with it the 8 portals add up to exactly 20",
    ]
    kept = _Draft(kept=[(_portal("Blank", None), 1)])  # 0 written: 7 more for 20
    assert _chosen(portals(kept, EIGHT, [_portal("G4", 4), P2], 7)) == [("G4", 3), ("P2", 4)]


def test_portals_say_the_sections_size_or_else_the_portals_added() -> None:
    found = portals(_Draft(kept=[(P2, 1)]), EIGHT, [P3, P2], 7)  # 2 written + 4×3 + 3×2
    assert _chosen(found) == [("P3", 4), ("P2", 3)]
    assert found[0][2].render() == "Shield Life 3: with it the 8 portals add up to exactly 20"
    open_size = SimpleNamespace(size=SimpleNamespace(exact=None))
    found = portals(_Draft(kept=[(P2, 1)]), open_size, [P3, P2], 7)
    assert found[0][2].render() == "Shield Life 3: with it the 7 portals add up to exactly 20"


def test_a_card_without_a_copy_limit_may_fill_the_portals_asked() -> None:
    draft = _Draft(rooms={"Five": None})
    assert _chosen(portals(draft, EIGHT, [_portal("Five", 5)], 4)) == [("Five", 4)]


def test_no_portals_fitting_is_v105_with_the_numbers() -> None:
    with pytest.raises(NoCompletion) as found:
        portals(_Draft(kept=[(P2, 1)]), EIGHT, [P2], 7)  # 2 + 7×2 = 16
    assert found.value.code == "V105"
    assert found.value.message.render() == (
        "no 7 more portals of the hero's colour or colorless bring the Shield Life from 2 to "
        "exactly 20 within the copy limits and Only's effect portals: change the portals written"
    )


def test_eight_portals_written_short_of_20_is_v105_with_the_numbers() -> None:
    with pytest.raises(NoCompletion) as found:
        portals(_Draft(kept=[(P2, 5), (P3, 3)]), EIGHT, [P2, P3], 0)  # 10 + 9 = 19
    assert found.value.code == "V105"
    assert found.value.message.render() == (
        "the 8 portals written have 19 Shield Life, not exactly 20, and none can be added: "
        "swap one of them for a portal of other Shield Life"
    )


def test_no_portal_kinds_fit_only_nothing() -> None:
    assert _first_fit([], [], 0, 0, -1) == []
    assert _first_fit([], [], 0, 0, 2) == []
    assert _first_fit([], [], 1, 5, -1) is None
    assert _first_fit([], [], 0, 3, -1) is None
