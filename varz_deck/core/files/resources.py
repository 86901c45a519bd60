"""The JSON Schemas the package knows: the core's formats schema and the ones each game ships.

A game names its schemas (`Game.schemas`: catalogue name -> file in its own package) and registers
them when it is loaded; `varz-deck schema NAME` lists the core's and every installed game's."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol

FORMATS = "formats"  # the schema of every database's formats.yaml, the core's own
GAME = "game"  # the schema of a game.yaml, a game declared without Python
_HERE = Path(__file__).resolve().parent
_FILES: dict[str, Path] = {FORMATS: _HERE / "formats.schema.json", GAME: _HERE / "game.schema.json"}
_MADE: dict[str, dict[str, Any]] = {}  # schemas made in memory: a game's formats schema
# What was built from a schema (validators, in the rooms that build them) and must go when a
# made schema is made again: each of those rooms registers its caches' `cache_clear` here.
_DERIVED: list[Callable[[], None]] = []


def on_schema_change(clear: Callable[[], None]) -> Callable[[], None]:
    """Call `clear` whenever a schema made in memory changes (a game.yaml edited)."""
    _DERIVED.append(clear)
    return clear


def register_schemas(files: Mapping[str, Path]) -> None:
    """Make a game's schemas known by name (its package calls this when it is loaded)."""
    changed = {name: Path(path) for name, path in files.items() if _FILES.get(name) != path}
    if changed:
        _FILES.update(changed)
        schema.cache_clear()


class SchemaOwner(Protocol):
    """A game, as far as its schemas go: catalogue name -> file in its package."""

    @property
    def schemas(self) -> Mapping[str, Path | Mapping[str, object]]: ...


def catalogue(games: Iterable[SchemaOwner]) -> dict[str, Path]:
    """Every schema by name, in the order `varz-deck schema --help` lists them: the first
    (default) game's, the core's formats schema, then each other game's, then the core's
    game.yaml schema."""
    found: dict[str, Path] = {}
    for game in games:
        files = {k: v for k, v in game.schemas.items() if isinstance(v, Path)}
        register_schemas(files)
        found.update({k: v if isinstance(v, Path) else Path(k) for k, v in game.schemas.items()})
        found.setdefault(FORMATS, _FILES[FORMATS])
    found.setdefault(FORMATS, _FILES[FORMATS])
    found.setdefault(GAME, _FILES[GAME])
    return found


def resource_dir(name: str) -> Path:
    """A data folder shipped with the package (wheel) or beside it (source checkout)."""
    package = Path(__file__).resolve().parents[2]  # varz_deck/
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def register_made_schema(name: str, document: dict[str, Any]) -> None:
    """Make a schema made in memory (a declared game's, from its declaration) known by name."""
    if _MADE.get(name) != document:
        changed = name in _MADE
        _MADE[name] = document
        _FILES.pop(name, None)
        schema.cache_clear()
        if changed:  # made again, otherwise (a game.yaml edited): no validator of the old one
            for clear in _DERIVED:
                clear()


def schema_text(name: str) -> str:
    """The schema document as shipped, or as made (for `varz-deck schema NAME`); KeyError for a
    name no loaded game registered."""
    if name in _MADE and name not in _FILES:
        return json.dumps(_MADE[name], indent=2, ensure_ascii=False) + "\n"
    return _FILES[name].read_text(encoding="utf-8")


@cache
def schema(name: str) -> dict[str, Any]:
    if name in _MADE:
        return _MADE[name]
    loaded: dict[str, Any] = json.loads(schema_text(name))
    return loaded


def formats_schema(key: str, fields: Mapping[str, Mapping[str, object]]) -> str:
    """The name of the schema a formats.yaml of game `key` is checked against: the shared one
    (which lets a format hold a game's own fields), closed to the fields every game shares and the
    game's own (`Game.format_fields`: name -> JSON Schema)."""
    name = f"{FORMATS}:{key}"
    if name not in _MADE:
        document = copy.deepcopy(schema(FORMATS))
        entry = document["properties"]["formats"]["additionalProperties"]
        entry["properties"].update(copy.deepcopy(dict(fields)))
        entry["additionalProperties"] = False
        _MADE[name] = document
    return name
