"""The fast schema check gives jsonschema's verdict on card files (it decides when jsonschema runs).

The card schemas choose a card's fields by its `type` (an allOf of if/then, one per type): the
fast check reads that choice from the value (fastschema's discriminated allOf), and must answer
as jsonschema does for every card, every `type` (known, unknown, missing, not a string) and for
values that are not mappings at all.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from varz_deck.core.files.fastschema import FastSchema, _discriminator, fast_schema
from varz_deck.core.files.resources import schema
from varz_deck.core.files.schemas import validator
from varz_deck.games import game_keys, get_game

CARD_SCHEMAS = sorted(get_game(key).card_schema for key in game_keys())

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 120),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.sampled_from(["red", "colorless", "fighter", "generic", "B001-001", "X", ""]),
)


def _card_strategy(name: str) -> st.SearchStrategy[Any]:
    card = schema(name)["$defs"]["card"]
    keys = sorted(card["properties"])
    types = [b["if"]["properties"]["type"]["const"] for b in card["allOf"]]
    values = st.one_of(
        SCALARS,
        st.lists(SCALARS, max_size=3),
        st.dictionaries(st.text(max_size=3), SCALARS, max_size=2),
    )
    fields = st.dictionaries(st.sampled_from([*keys, "other"]), values, max_size=8)
    kind = st.one_of(st.sampled_from(types), SCALARS)
    return st.one_of(
        st.tuples(fields, kind).map(lambda pair: {**pair[0], "type": pair[1]}),
        fields,
        SCALARS,
        st.lists(SCALARS, max_size=2),
    )


@pytest.mark.parametrize("name", CARD_SCHEMAS)
@settings(max_examples=400, deadline=None, database=None)
@given(data=st.data())
def test_fast_card_check_agrees_with_jsonschema(name: str, data: st.DataObject) -> None:
    cards = data.draw(st.lists(_card_strategy(name), max_size=3))
    instance = {"cards": cards}
    assert fast_schema(name).is_valid(instance) == validator(name).is_valid(instance)


def test_every_card_of_the_games_bundled_data_passes_both(tmp_path: Any) -> None:

    from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load

    for key in game_keys():
        name = get_game(key).card_schema
        for path in sorted(get_game(key).card_data.rglob("*.yaml")):
            data = load(path.read_text(encoding="utf-8"), aliases=True, node_cap=CARD_NODE_CAP).data
            if isinstance(data, dict) and "cards" in data:
                assert fast_schema(name).is_valid(data) and validator(name).is_valid(data)


DISCRIMINATED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "allOf": [
        {
            "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"required": ["x"], "properties": {"y": False}},
        },
        {
            "if": {"properties": {"kind": {"const": "b"}}, "required": ["kind"]},
            "then": {"required": ["y"]},
        },
        {
            "if": {"properties": {"kind": {"const": "c"}}, "required": ["kind"]},
            "then": False,
        },
    ],
}


@pytest.mark.parametrize(
    "instance",
    [
        {"kind": "a", "x": 1},
        {"kind": "a"},
        {"kind": "a", "x": 1, "y": 2},
        {"kind": "b", "y": 1},
        {"kind": "b"},
        {"kind": "c"},
        {"kind": "d"},
        {"kind": 1},
        {"kind": None},
        {},
        {"x": 1},
        [],
        "a",
        1,
        None,
    ],
    ids=json.dumps,
)
def test_a_discriminated_all_of_answers_as_jsonschema(instance: Any) -> None:
    expected = Draft202012Validator(DISCRIMINATED).is_valid(instance)
    assert FastSchema(DISCRIMINATED).is_valid(instance) == expected


@pytest.mark.parametrize(
    "member",
    [
        {"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]}},
        {"if": {"properties": {"kind": {"const": 1}}, "required": ["kind"]}, "then": False},
        {"if": {"properties": {"kind": {"const": "b"}}, "required": ["kind"]}, "then": False},
        {"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]}, "else": False},
        {"if": {"properties": {"other": {"const": "z"}}, "required": ["other"]}, "then": False},
    ],
    ids=json.dumps,
)
@pytest.mark.parametrize("instance", [{"kind": "a"}, {"kind": "b", "y": 1}, {"kind": 1}, {}, 3])
def test_an_all_of_not_quite_discriminated_answers_as_jsonschema(
    member: Any, instance: Any
) -> None:
    document = {**DISCRIMINATED, "allOf": [*DISCRIMINATED["allOf"], member]}
    expected = Draft202012Validator(document).is_valid(instance)
    assert FastSchema(document).is_valid(instance) == expected


@pytest.mark.parametrize("name", CARD_SCHEMAS)
def test_the_card_schemas_choose_fields_by_type_in_one_look_up(name: str) -> None:
    found = _discriminator(schema(name)["$defs"]["card"]["allOf"])
    assert found is not None and found[0] == "type"


def test_an_all_of_without_members_or_of_other_shapes_is_not_discriminated() -> None:
    assert _discriminator([]) is None
    assert _discriminator({"if": {}}) is None
    assert _discriminator([{"if": {"properties": [], "required": []}, "then": True}]) is None
    two = {"properties": {"a": {"const": "x"}, "b": {"const": "y"}}, "required": ["a"]}
    assert _discriminator([{"if": two, "then": True}]) is None
    other = {"properties": {"a": {"const": "x", "type": "string"}}, "required": ["a"]}
    assert _discriminator([{"if": other, "then": True}]) is None
