"""What a read of the card index (cardindex.py) trusts of a card or format row: each is rebuilt
from its JSON and every field is checked against its declared type (a string, a whole number, a
list of strings...). Anything that does not fit is a miss: the index is not trusted and the
database is linted and indexed again. The values themselves are not linted again: they were
linted before they were written.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")
# A value of a row SQLite gives back: what a column of a damaged file may hold, whatever its type.
SqlValue = int | float | str | bytes | None


class IndexDamaged(Exception):
    """The card index cannot be trusted: a sum that does not match, or SQLite's own error."""


def rebuild(make: Callable[[], T]) -> T | None:
    """`make()` (a card or format from its cached JSON), or None when the JSON does not fit
    the record: a missing or unknown field, or a value of the wrong type."""
    try:
        made = make()
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        return None
    return made if fits_fields(made) else None


def fits_fields(record: object) -> bool:
    """Whether every field of a dataclass record holds a value of its declared type."""
    if not is_dataclass(record) or isinstance(record, type):
        return True  # not a dataclass: nothing declared to check against
    # a loop, not all() over a generator: a hit checks thousands of cards, and this is faster
    for name, check in _field_checks(type(record)):  # noqa: SIM110
        if not check(getattr(record, name)):
            return False
    return True


@cache
def _field_checks(cls: type) -> tuple[tuple[str, Callable[[object], bool]], ...]:
    """Each field's name and its type check, worked out once per record class."""
    hints = _hints(cls)
    return tuple((f.name, _checker(hints.get(f.name, Any))) for f in fields(cls))


@cache
def _hints(cls: type) -> dict[str, object]:
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):  # an annotation that cannot be resolved: not checked
        return {}


def _accept(value: object) -> bool:
    return True


@cache
def _checker(hint: object) -> Callable[[object], bool]:
    """A function that tells whether a value fits a type hint (built once per hint: a cache
    hit checks thousands of cards)."""
    if hint is Any:
        return _accept
    if hint is type(None) or hint is None:
        return lambda value: value is None
    if hint is bool:
        return lambda value: isinstance(value, bool)
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        options = tuple(_checker(arg) for arg in args)

        def fits_one(value: object) -> bool:  # a loop: cheaper than any() over a generator
            for option in options:  # noqa: SIM110
                if option(value):
                    return True
            return False

        return fits_one
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _checker(args[0])
            return lambda value: isinstance(value, tuple) and all(map(item, value))
        items = tuple(_checker(arg) for arg in args)
        return lambda value: (
            isinstance(value, tuple)
            and len(value) == len(items)
            and all(check(v) for check, v in zip(items, value, strict=True))
        )
    if origin is list:
        item = _checker(args[0]) if args else _accept
        return lambda value: isinstance(value, list) and all(map(item, value))
    if origin in (dict, Mapping):
        key, val = (_checker(args[0]), _checker(args[1])) if len(args) == 2 else (_accept, _accept)
        return lambda value: (
            isinstance(value, Mapping) and all(key(k) and val(v) for k, v in value.items())
        )
    if isinstance(hint, type):
        return lambda value: isinstance(value, hint)
    return _accept  # a hint this check does not know: accepted
