"""VARZ's Portal Deck search against a brute force: the counts `complete` chooses are the first
(in card order, as many of the earlier portals as can be) of every way to add `need` portals and
the Shield Life asked, within copy limits and the effect portals allowed."""

from __future__ import annotations

import itertools
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.games.varz.complete import _first_fit

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
