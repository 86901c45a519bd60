"""The fast schema check gives jsonschema's verdict on deck documents (it decides when jsonschema runs)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.files.fastschema import fast_schema
from varz_deck.core.files.schemas import validator

KEYS = st.sampled_from(
    ["name", "format", "player", "event", "hero", "spells", "skills", "portals", "x"]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 120),
    st.floats(allow_nan=False, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["2 Crimson VAZ", "3x Ember Imp", " 1  Gate", "x2 Foo", "Foo", "", "0 a"]),
)
COUNTS = st.one_of(
    st.integers(-2, 101), st.floats(0, 101, allow_nan=False), st.booleans(), st.text(max_size=3)
)
SECTION = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=4),
    st.dictionaries(st.text(max_size=5), COUNTS, max_size=4),
)
DECKS = st.one_of(st.dictionaries(KEYS, st.one_of(SCALARS, SECTION), max_size=6), SECTION)


@settings(max_examples=600, deadline=None)
@given(DECKS)
def test_fast_deck_check_agrees_with_jsonschema(instance: Any) -> None:
    assert fast_schema("deck").is_valid(instance) == validator("deck").is_valid(instance)
