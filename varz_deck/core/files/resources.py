"""The JSON Schemas the package knows: the core's formats schema and the ones each game ships.

A game names its schemas (`Game.schemas`: catalogue name -> file in its own package) and registers
them when it is loaded; `varz-deck schema NAME` lists the core's and every installed game's."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol

FORMATS = "formats"  # the schema of every database's formats.yaml, the core's own
_FILES: dict[str, Path] = {FORMATS: Path(__file__).resolve().parent / "formats.schema.json"}
_MADE: dict[str, dict[str, Any]] = {}  # schemas made in memory: a game's formats schema


def register_schemas(files: Mapping[str, Path]) -> None:
    """Make a game's schemas known by name (its package calls this when it is loaded)."""
    changed = {name: Path(path) for name, path in files.items() if _FILES.get(name) != path}
    if changed:
        _FILES.update(changed)
        schema.cache_clear()


class SchemaOwner(Protocol):
    """A game, as far as its schemas go: catalogue name -> file in its package."""

    @property
    def schemas(self) -> Mapping[str, Path]: ...


def catalogue(games: Iterable[SchemaOwner]) -> dict[str, Path]:
    """Every schema by name, in the order `varz-deck schema --help` lists them: the first
    (default) game's, the core's formats schema, then each other game's."""
    found: dict[str, Path] = {}
    for game in games:
        register_schemas(game.schemas)
        found.update(game.schemas)
        found.setdefault(FORMATS, _FILES[FORMATS])
    found.setdefault(FORMATS, _FILES[FORMATS])
    return found


def resource_dir(name: str) -> Path:
    """A data folder shipped with the package (wheel) or beside it (source checkout)."""
    package = Path(__file__).resolve().parents[2]  # varz_deck/
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def schema_text(name: str) -> str:
    """The schema document as shipped (for `varz-deck schema NAME`); KeyError for a name no
    loaded game registered."""
    return _FILES[name].read_text(encoding="utf-8")


@cache
def schema(name: str) -> dict[str, Any]:
    if name in _MADE:
        return _MADE[name]
    loaded: dict[str, Any] = json.loads(schema_text(name))
    return loaded


def formats_schema(key: str, fields: Mapping[str, Mapping[str, Any]]) -> str:
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
