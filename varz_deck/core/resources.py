"""The data files the package ships (schemas, the bundled card database), found in a wheel or
beside a source checkout."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_NAMES = ("card", "deck", "formats", "azuki-card", "azuki-deck")
_FILES = {
    "card": "card-file.schema.json",
    "deck": "deck.schema.json",
    "formats": "formats.schema.json",
    "azuki-card": "azuki-card-file.schema.json",
    "azuki-deck": "azuki-deck.schema.json",
}


def resource_dir(name: str) -> Path:
    """A data folder shipped with the package (wheel) or beside it (source checkout)."""
    package = Path(__file__).resolve().parent.parent
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def schema_text(name: str) -> str:
    """The schema document as shipped (for `varz-deck schema NAME`)."""
    return (resource_dir("schemas") / _FILES[name]).read_text(encoding="utf-8")


@cache
def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text(name))
    return loaded
