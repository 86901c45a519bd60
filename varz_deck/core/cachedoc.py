"""The card-database cache file: what is written, and what a read trusts.

A cache file is one header line, then the JSON document:

    varz-deck-cache 3 <key> <blake2b-160 of the JSON document's UTF-8 bytes, hex>
    {"version": ..., "game": ..., "cards": [...], "formats": {...}}

The key is the content key of the card files (database.py); a file is used only when its header
names that key and the document's checksum matches, so a cut-short, edited or foreign file is
ignored. The document must then have the shape varz-deck writes: each card and format is rebuilt
and every field is checked against its declared type (a string, a whole number, a list of
strings...). Anything that does not fit is a miss, and the database is linted and cached again.
The values themselves are not linted again: they were linted before they were written.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any

from varz_deck.core._hash import blake2b

MAGIC = "varz-deck-cache"
LAYOUT = "3"


def checksum(body: str) -> str:
    return blake2b(body.encode("utf-8"), digest_size=20).hexdigest()


def encode(key: str, document: Mapping[str, Any]) -> str:
    """The cache file's text for a document: ASCII, so that a card file's name that is not
    UTF-8 (a lone surrogate in Python) is written as an escape and read back as the same name."""
    body = json.dumps(document, ensure_ascii=True)
    return f"{MAGIC} {LAYOUT} {key} {checksum(body)}\n{body}"


def decode(text: str, key: str, version: str, game: str) -> dict[str, Any] | None:
    """The document of a cache file written for `key` by this version for this game, or None
    when the file is not one (wrong header, checksum, JSON or top-level shape)."""
    header, newline, body = text.partition("\n")
    if not newline or header.split(" ") != [MAGIC, LAYOUT, key, checksum(body)]:
        return None
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not (
        isinstance(document, dict)
        and document.get("version") == version
        and document.get("game") == game
        and isinstance(document.get("cards"), list)
        and all(isinstance(c, dict) and isinstance(c.get("file"), str) for c in document["cards"])
        and isinstance(document.get("formats"), dict)
        and all(isinstance(f, dict) for f in document["formats"].values())
    ):
        return None
    return document


def rebuild(make: Callable[[], Any]) -> Any:
    """`make()` (a card or format from its cached JSON), or None when the JSON does not fit
    the record: a missing or unknown field, or a value of the wrong type."""
    try:
        made = make()
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        return None
    return made if fits_fields(made) else None


def fits_fields(record: Any) -> bool:
    """Whether every field of a dataclass record holds a value of its declared type."""
    if not is_dataclass(record) or isinstance(record, type):
        return True  # not a dataclass: nothing declared to check against
    # a loop, not all() over a generator: a hit checks thousands of cards, and this is faster
    for name, check in _field_checks(type(record)):  # noqa: SIM110
        if not check(getattr(record, name)):
            return False
    return True


@cache
def _field_checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool]], ...]:
    """Each field's name and its type check, worked out once per record class."""
    hints = _hints(cls)
    return tuple((f.name, _checker(hints.get(f.name, Any))) for f in fields(cls))


@cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):  # an annotation that cannot be resolved: not checked
        return {}


def _accept(value: Any) -> bool:
    return True


@cache
def _checker(hint: Any) -> Callable[[Any], bool]:
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

        def fits_one(value: Any) -> bool:  # a loop: cheaper than any() over a generator
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
