"""The fast schema check gives jsonschema's answer; C001 messages pick the one error that matters."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from varz_deck.core.files.fastschema import FastSchema, detail_validator
from varz_deck.core.files.resources import schema
from varz_deck.core.files.schemaexplain import _Explainer
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load
from varz_deck.games import get_game

get_game("varz")  # registers VARZ's schemas ("card", "deck"): alone, no earlier test has

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def _bundled_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for path in sorted((ROOT / "card_data" / "varz" / "sets").glob("*.yaml")):
        data = load(path.read_text(encoding="utf-8"), aliases=True, node_cap=CARD_NODE_CAP).data
        cards.extend(data["cards"])
    return cards


CARDS = _bundled_cards()
FIELDS = sorted({key for card in CARDS for key in card} | {"colour", "shield", "cost "})
scalars = st.one_of(
    st.sampled_from(
        [0, 1, -1, 3, 2.0, 2.5, True, False, None, math.nan, math.inf, "", "red", "colorless"]
    ),
    st.sampled_from(["hero", "skill", "portal", "spil", "command", "slash", "spell", "generic"]),
    st.sampled_from(["VZ01-001", "vz01-001", "fighter", "haste", "2025-06-01", "2025-02-30"]),
    st.integers(-5, 20),
    st.text(max_size=4),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(["name", "power", "text", "ja", "JA", "x"]), inner, max_size=3
        ),
    ),
    max_leaves=8,
)
mutation = st.tuples(
    st.sampled_from(["set", "delete", "list-item"]), st.sampled_from(FIELDS), json_values
)


def _mutate(card: dict[str, Any], steps: list[tuple[str, str, Any]]) -> dict[str, Any]:
    card = copy.deepcopy(card)
    for kind, key, value in steps:
        if kind == "delete":
            card.pop(key, None)
        elif kind == "list-item" and isinstance(card.get(key), list):
            card[key] = [*card[key], value]
        else:
            card[key] = value
    return card


def _agree(name_or_schema: str | dict[str, Any], instance: Any) -> None:
    document = schema(name_or_schema) if isinstance(name_or_schema, str) else name_or_schema
    fast = FastSchema(document)
    assert fast.is_valid(instance) == detail_validator(document).is_valid(instance), instance


@SETTINGS
@given(st.sampled_from(CARDS), st.lists(mutation, min_size=1, max_size=3))
def test_fast_card_check_agrees_with_jsonschema(card: dict[str, Any], steps: list[Any]) -> None:
    assert FastSchema(schema("card")).compiled
    _agree("card", {"cards": [_mutate(card, steps)]})


@SETTINGS
@given(json_values, json_values, st.lists(json_values, max_size=3))
def test_fast_formats_check_agrees_with_jsonschema(sets: Any, banned: Any, other: Any) -> None:
    spec = {
        "name": "X",
        "sets": sets,
        "banned": banned,
        "restricted": {"A-1": other[0] if other else 1},
    }
    _agree("formats", {"formats": {"standard": spec}})
    _agree("formats", {"formats": {"Bad Key": {}}, "extra": other})


def test_every_bundled_file_is_valid_for_both() -> None:
    from varz_deck.core.files.resources import formats_schema
    from varz_deck.games import get_game

    for game, card_schema in (("varz", "card"), ("azuki", "azuki-card")):
        fields = get_game(game).format_fields
        for path in sorted((ROOT / "card_data" / game).rglob("*.yaml")):
            data = load(path.read_text(encoding="utf-8"), aliases=True, node_cap=CARD_NODE_CAP).data
            name = formats_schema(game, fields) if path.name == "formats.yaml" else card_schema
            assert FastSchema(schema(name)).is_valid(data)
            assert detail_validator(schema(name)).is_valid(data)


BRANCHES: list[dict[str, Any]] = [
    {"type": "array", "items": {"$ref": "#/$defs/small"}, "maxItems": 3, "uniqueItems": True},
    {
        "type": "object",
        "patternProperties": {"^x": {"const": [1, {"a": True}]}},
        "additionalProperties": {"not": {"type": "null"}},
        "minProperties": 1,
        "maxProperties": 2,
        "propertyNames": {"maxLength": 2},
    },
    {"oneOf": [{"type": "string", "minLength": 2}, {"type": "string", "maxLength": 3}]},
    {"type": ["number", "boolean"], "maximum": 5, "minimum": 0, "enum": [0, 1.5, True, 5]},
    {"type": "string", "format": "date"},
    {"if": {"type": "integer"}, "then": {"minimum": 2}, "else": {"type": "array"}},
]
DEFS = {"small": {"type": "integer", "exclusiveMaximum": 10, "exclusiveMinimum": -1}}
SCHEMAS = [
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": DEFS, **branch}
    for branch in [*BRANCHES, {"anyOf": BRANCHES[:4]}, {"allOf": BRANCHES[4:]}]
]


@SETTINGS
@given(json_values)
def test_fast_check_agrees_on_other_keywords(instance: Any) -> None:
    for document in SCHEMAS:
        assert FastSchema(document).compiled
        _agree(document, instance)
        _agree(document, {"x1": instance})
        _agree(document, [instance, instance])
        _agree(document, [instance, 3])


@pytest.mark.parametrize(
    "document",
    [
        {"contains": {"const": 1}},  # a keyword the fast check does not compile
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"},
        {"$ref": "https://example.com/remote.json"},
    ],
)
def test_unsupported_schemas_fall_back_to_jsonschema(document: dict[str, Any]) -> None:
    fast = FastSchema(document)
    assert not fast.compiled
    if "$ref" not in document:
        assert fast.is_valid([1]) == detail_validator(document).is_valid([1])


def test_a_schema_may_refer_to_itself() -> None:
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}
    fast = FastSchema(tree)
    assert fast.compiled
    assert fast.is_valid({"kids": [{"kids": []}, {}]})
    assert not fast.is_valid({"kids": [{"kids": [7]}]})


def test_one_of_failures_show_the_closest_branch_only() -> None:
    document = {
        "type": "object",
        "properties": {
            "cost": {
                "oneOf": [
                    {"type": "integer", "minimum": 0, "x-message": "cost is a whole number"},
                    {"type": "string", "pattern": "^X$", "x-message": "or X for a variable cost"},
                ]
            }
        },
    }
    doc = load("cost: Y\n")
    errors = list(detail_validator(document).iter_errors(doc.data))
    found = _Explainer("formats", document, doc, "f.yaml").explain(errors)
    assert len(found) == 1
    assert (found[0].line, found[0].column) == (1, 7)
    assert found[0].message.startswith("or X for a variable cost (got 'Y')")
    assert "1 other errors not shown" in found[0].message


def test_c001_messages_name_the_card_and_the_fix(tmp_path: Path) -> None:
    from varz_deck.games import lint_database

    (tmp_path / "cards.yaml").write_text(
        "cards:\n"
        "  - id: T-1\n"
        "    name: Test\n"
        "    type: spil\n"
        "    color: red\n"
        '    cost: "2"\n'
        "    power: 1\n"
        "    life: 3\n"
        "  - id: T-2\n"
        "    name: Test 2\n"
        "    type: heor\n",
        encoding="utf-8",
    )
    messages = [(d.line, d.column, d.message) for d in lint_database(tmp_path).diagnostics]
    assert messages == [
        (
            6,
            11,
            "card T-1: cost is a whole number from 0 to 99 (got '2'); "
            "write the number without quotes",
        ),
        (8, 5, "card T-1: a spil card has no 'life'; remove it"),
        (
            11,
            11,
            "card T-2: type is one of hero, skill, portal, spil, command, slash (got 'heor'); "
            "did you mean 'hero'?",
        ),
    ]
