"""A fast JSON Schema check compiled from our schemas: it only answers "valid?".

Files it accepts need no further work; files it rejects go through jsonschema for placed errors
(see schemaexplain). Keywords it does not handle make it fall back to jsonschema.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, TypeGuard, cast

from varz_deck.core.files.resources import on_schema_change, schema
from varz_deck.core.files.schemahints import hinted
from varz_deck.core.files.strictyaml import is_whole

if TYPE_CHECKING:
    from jsonschema import FormatChecker
    from jsonschema.protocols import Validator

    Node = Mapping[str, object]  # a schema object of ours: keyword -> its value

Check = Callable[[object], bool]  # a value of the document checked -> valid


class UnsupportedSchema(Exception):
    """A schema keyword the fast checker does not implement: jsonschema decides instead."""


def _always(value: object) -> bool:
    return True


def _never(value: object) -> bool:
    return False


def is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_integer(value: object) -> bool:
    # Draft 2020-12 counts 3.0 as an integer, as jsonschema does; a loaded 2.9999999999999999
    # (3.0 as a float) is not whole as written (strictyaml.is_whole).
    return is_whole(value)


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_ANNOTATIONS = frozenset(
    {"$schema", "$comment", "$defs", "definitions", "title", "description", "default"}
    | {"examples", "deprecated", "readOnly", "writeOnly", "then", "else"}
)
_DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"
_RE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


def _is_date(value: object) -> bool:
    """jsonschema's `date` format check, without importing jsonschema."""
    if not isinstance(value, str):
        return True
    try:
        return bool(_RE_DATE.fullmatch(value) and datetime.date.fromisoformat(value))
    except ValueError:
        return False


def _equal(one: object, two: object) -> bool:
    """JSON equality: true is not 1, 1 is 1.0, containers compare item by item."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(map(_equal, one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    if isinstance(one, (list, dict)) or isinstance(two, (list, dict)):
        return False
    return bool(one == two)


def _unique(items: list[object]) -> bool:
    if all(isinstance(i, str) for i in items):
        return len(set(items)) == len(items)
    return not any(_equal(a, b) for n, a in enumerate(items) for b in items[n + 1 :])


def first_duplicate(items: list[object]) -> object:
    for n, a in enumerate(items):
        if any(_equal(a, b) for b in items[n + 1 :]):
            return a
    return None


class FastSchema:
    """A JSON Schema compiled to nested closures that answer "valid?" quickly.

    It covers the draft 2020-12 keywords our schemas use (and a few more); a schema with anything
    else falls back to jsonschema's own `is_valid`, so the answer is always jsonschema's answer.
    """

    def __init__(self, document: Mapping[str, object]) -> None:
        self.document = document
        self._refs: dict[str, Check] = {}
        self.compiled = True
        try:
            if document.get("$schema", _DRAFT_2020) != _DRAFT_2020:
                raise UnsupportedSchema("$schema")
            self.is_valid: Check = self._compile(document, root=True)
        except UnsupportedSchema:
            self.compiled = False
            # jsonschema types its argument as JSON; it answers any value (False when not JSON)
            self.is_valid = cast(Check, detail_validator(document).is_valid)

    def _compile(self, node: object, root: bool = False) -> Check:
        if node is True:
            return _always
        if node is False:
            return _never
        if not isinstance(node, dict) or ("$id" in node and not root):
            raise UnsupportedSchema("schema")
        checks: list[Check] = []
        for key, value in node.items():
            if key in _ANNOTATIONS or key.startswith("x-") or key == "$id":
                continue
            build = self._KEYWORDS.get(key)
            if build is None:
                raise UnsupportedSchema(key)
            check = build(self, value, node)
            if check is _always:
                continue
            if key == "type":  # cheapest first: most failures are the wrong kind of value
                checks.insert(0, check)
            else:
                checks.append(check)
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        return _all_of(tuple(checks))

    def _type(self, value: str | list[str], node: Node) -> Check:
        names = [value] if isinstance(value, str) else list(value)
        try:
            tests = tuple(_TYPES[n] for n in names)
        except KeyError as exc:
            raise UnsupportedSchema("type") from exc
        if len(tests) == 1:
            return tests[0]
        return lambda v: any(t(v) for t in tests)

    def _enum(self, value: list[object], node: Node) -> Check:
        options = list(value)
        if all(isinstance(o, str) for o in options):
            allowed = frozenset(options)
            return lambda v: isinstance(v, str) and v in allowed
        return lambda v: any(_equal(v, o) for o in options)

    def _const(self, value: object, node: Node) -> Check:
        if isinstance(value, str):
            return lambda v: isinstance(v, str) and v == value
        return lambda v: _equal(v, value)

    def _required(self, value: list[str], node: Node) -> Check:
        keys = tuple(value)
        return lambda v: not isinstance(v, dict) or all(k in v for k in keys)

    def _properties(self, value: dict[str, object], node: Node) -> Check:
        props = {k: self._compile(s) for k, s in value.items()}
        pairs = tuple(props.items())

        def check(v: object) -> bool:
            if not isinstance(v, dict):
                return True
            if len(pairs) < len(v):  # walk whichever side is shorter
                for key, test in pairs:  # noqa: SIM110 - faster than all() on a generator
                    if key in v and not test(v[key]):
                        return False
                return True
            for key, item in v.items():
                found = props.get(key)
                if found is not None and not found(item):
                    return False
            return True

        return check

    def _additional(self, value: object, node: dict[str, Any]) -> Check:
        known = frozenset(node.get("properties", {}))
        patterns = tuple(re.compile(p) for p in node.get("patternProperties", {}))
        extra = self._compile(value)
        if extra is _always:
            return _always

        def check(v: object) -> bool:
            if isinstance(v, dict):
                for key, item in v.items():
                    if key in known or any(p.search(key) for p in patterns):
                        continue
                    if not extra(item):
                        return False
            return True

        return check

    def _pattern_properties(self, value: dict[str, object], node: Node) -> Check:
        pairs = tuple((re.compile(p), self._compile(s)) for p, s in value.items())

        def check(v: object) -> bool:
            if isinstance(v, dict):
                for key, item in v.items():
                    for pattern, test in pairs:
                        if pattern.search(key) and not test(item):
                            return False
            return True

        return check

    def _property_names(self, value: object, node: Node) -> Check:
        test = self._compile(value)
        return lambda v: not isinstance(v, dict) or all(test(k) for k in v)

    def _items(self, value: object, node: Node) -> Check:
        if "prefixItems" in node:
            raise UnsupportedSchema("prefixItems")
        test = self._compile(value)
        return lambda v: not isinstance(v, list) or all(test(i) for i in v)

    def _min_items(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, list) or len(v) >= value

    def _max_items(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, list) or len(v) <= value

    def _unique_items(self, value: bool, node: Node) -> Check:
        if not value:
            return _always
        return lambda v: not isinstance(v, list) or _unique(v)

    def _min_length(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, str) or len(v) >= value

    def _max_length(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, str) or len(v) <= value

    def _min_properties(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) >= value

    def _max_properties(self, value: int, node: Node) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) <= value

    def _pattern(self, value: str, node: Node) -> Check:
        pattern = re.compile(value)
        return lambda v: not isinstance(v, str) or pattern.search(v) is not None

    def _format(self, value: str, node: Node) -> Check:
        if value == "date":
            return _is_date
        checker = _format_checker()
        if value not in checker.checkers:
            return _always
        return lambda v: checker.conforms(v, value)

    def _minimum(self, value: float, node: Node) -> Check:
        return lambda v: not is_number(v) or not v < value

    def _maximum(self, value: float, node: Node) -> Check:
        return lambda v: not is_number(v) or not v > value

    def _exclusive_minimum(self, value: float, node: Node) -> Check:
        return lambda v: not is_number(v) or not v <= value

    def _exclusive_maximum(self, value: float, node: Node) -> Check:
        return lambda v: not is_number(v) or not v >= value

    def _all_of(self, value: list[object], node: Node) -> Check:
        every = _all_of(tuple(self._compile(s) for s in value))
        found = _discriminator(value)
        if found is None:
            return every
        key, thens = found
        branches = {tag: self._compile(then) for tag, then in thens.items()}

        def check(v: object) -> bool:
            if not isinstance(v, dict):
                return every(v)  # each `if` holds of a value that is not an object
            branch = branches.get(v[key]) if isinstance(v.get(key), str) else None
            return branch is None or branch(v)

        return check

    def _any_of(self, value: list[object], node: Node) -> Check:
        tests = tuple(self._compile(s) for s in value)
        return lambda v: any(t(v) for t in tests)

    def _one_of(self, value: list[object], node: Node) -> Check:
        tests = tuple(self._compile(s) for s in value)
        return lambda v: sum(1 for t in tests if t(v)) == 1

    def _not(self, value: object, node: Node) -> Check:
        test = self._compile(value)
        return lambda v: not test(v)

    def _if(self, value: object, node: Node) -> Check:
        condition = self._compile(value)
        then = self._compile(node.get("then", True))
        otherwise = self._compile(node.get("else", True))
        if then is _always and otherwise is _always:
            return _always
        return lambda v: then(v) if condition(v) else otherwise(v)

    def _ref(self, value: str, node: Node) -> Check:
        if value in self._refs:
            return self._refs[value]
        slot: list[Check] = []
        self._refs[value] = lambda v: slot[0](v)  # for a schema that refers to itself
        slot.append(self._compile(pointer(self.document, value)))
        self._refs[value] = slot[0]
        return slot[0]

    # Each keyword's value has its own type (the metaschema's), which the dispatch cannot name.
    _KEYWORDS: ClassVar[dict[str, Callable[[FastSchema, Any, dict[str, Any]], Check]]] = {
        "type": _type,
        "enum": _enum,
        "const": _const,
        "required": _required,
        "properties": _properties,
        "additionalProperties": _additional,
        "patternProperties": _pattern_properties,
        "propertyNames": _property_names,
        "items": _items,
        "minItems": _min_items,
        "maxItems": _max_items,
        "uniqueItems": _unique_items,
        "minLength": _min_length,
        "maxLength": _max_length,
        "minProperties": _min_properties,
        "maxProperties": _max_properties,
        "pattern": _pattern,
        "format": _format,
        "minimum": _minimum,
        "maximum": _maximum,
        "exclusiveMinimum": _exclusive_minimum,
        "exclusiveMaximum": _exclusive_maximum,
        "allOf": _all_of,
        "anyOf": _any_of,
        "oneOf": _one_of,
        "not": _not,
        "if": _if,
        "$ref": _ref,
    }


def _discriminator(members: object) -> tuple[str, dict[str, object]] | None:
    """An allOf of `{if: {properties: {K: {const: "C"}}, required: [K]}, then: S}`, one K and
    every C different: (K, {C: S}). At most one `if` holds of an object, the one its K names."""
    key = None
    thens: dict[str, object] = {}
    for member in members if isinstance(members, list) else ():
        if not isinstance(member, dict) or set(member) != {"if", "then"}:
            return None
        condition = member["if"]
        if not isinstance(condition, dict) or set(condition) != {"properties", "required"}:
            return None
        properties = condition["properties"]
        if not isinstance(properties, dict) or len(properties) != 1:
            return None
        ((name, test),) = properties.items()
        if condition["required"] != [name] or (key is not None and name != key):
            return None
        tag = test.get("const") if isinstance(test, dict) and set(test) == {"const"} else None
        if not isinstance(name, str) or not isinstance(tag, str) or tag in thens:
            return None
        key = name
        thens[tag] = member["then"]
    return (key, thens) if key is not None else None


def _all_of(tests: tuple[Check, ...]) -> Check:
    if len(tests) == 2:  # most often a type and one bound: one call fewer than the loop
        first, second = tests
        return lambda v: first(v) and second(v)
    if len(tests) == 3:
        first, second, third = tests
        return lambda v: first(v) and second(v) and third(v)

    def check(v: object) -> bool:
        for test in tests:  # noqa: SIM110 - a plain loop is faster than all() on a generator
            if not test(v):
                return False
        return True

    return check


def pointer(document: Mapping[str, object], ref: str) -> object:
    """The subschema a local `$ref` ("#/$defs/card") points at."""
    if not ref.startswith("#"):
        raise UnsupportedSchema("$ref")
    node: Any = document
    for part in filter(None, ref[1:].split("/")):
        key = part.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(key)] if isinstance(node, list) else node[key]
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise UnsupportedSchema("$ref") from exc
    return node


@cache
def _format_checker() -> FormatChecker:
    from jsonschema import FormatChecker

    return FormatChecker()


def detail_validator(document: Mapping[str, object]) -> Validator:
    """A jsonschema validator for the schema's declared draft, asserting formats."""
    from jsonschema import Draft202012Validator, validators

    cls = validators.validator_for(document, default=Draft202012Validator)
    return cls(document, format_checker=_format_checker())


@cache
def fast_schema(name: str) -> FastSchema:
    return FastSchema(schema(name))


@cache
def detailed_validator(name: str) -> Validator:
    """jsonschema's validator for a shipped schema, its messages put back (schemas.hinted)."""
    return detail_validator(hinted(name))


on_schema_change(fast_schema.cache_clear)
on_schema_change(detailed_validator.cache_clear)
