"""Every shipped schema compiles in ajv's strict mode (issue 24: `x-message` made ajv reject all).

The friendly messages moved to a side table (varz_deck.core.files.schemas.HINTS, by JSON pointer), put
back into the copy our own validators use. `ajv compile --spec=draft2020 --strict=true` (with
ajv-formats for `format: date`) runs when npm is there, and always under CI (tests/npmtools.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import npmtools
import pytest

from varz_deck.core.files.resources import catalogue, schema
from varz_deck.core.files.schemahints import HINTS, hinted

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((ROOT / "varz_deck").rglob("*.schema.json"))


def keywords(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in keywords(v)}
    if isinstance(node, list):
        return {k for v in node for k in keywords(v)}
    return set()


def at(document: Any, pointer: str) -> Any:
    for step in pointer.split("/")[1:]:
        key = step.replace("~1", "/").replace("~0", "~")
        document = document[int(key)] if isinstance(document, list) else document[key]
    return document


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_schema_has_a_keyword_of_its_own(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert not {k for k in keywords(document) if k.startswith("x-")}


def test_every_message_points_at_a_subschema() -> None:
    """A schema edit that moves a node must move its message too. Each game registers its own
    schemas' messages when it is loaded (the core keeps only the shared formats file's), those of
    its own format fields too (its formats schema, core/resources.formats_schema)."""
    from varz_deck.core.files.resources import formats_schema
    from varz_deck.games import game_keys, get_game

    games = [get_game(key) for key in game_keys()]
    # (a game another test loaded may add its own; game.yaml's own reader says where it is wrong)
    assert set(catalogue(games)) - {"game"} <= set(HINTS)
    for game in games:  # a game's formats schema: the shared messages, and its own fields' if any
        assert hinted(formats_schema(game.key, game.format_fields))
    for name, hints in HINTS.items():
        for pointer, hint in hints.items():
            node = at(schema(name), pointer)
            assert isinstance(node, dict), (name, pointer)
            assert at(hinted(name), pointer)["x-message"] == hint.msgid
        assert "x-message" not in json.dumps(schema(name))  # the shipped copy stays clean


@pytest.fixture(scope="module")
def ajv() -> list[str]:
    return npmtools.ajv()


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_ajv_compiles_the_schema_in_strict_mode(ajv: list[str], path: Path) -> None:
    done = subprocess.run(
        [*ajv, "compile", "--spec=draft2020", "--strict=true", "-c", "ajv-formats", "-s", path],
        capture_output=True,
        text=True,
        cwd=npmtools.TOOLS,  # where `-c ajv-formats` is found
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is valid" in done.stdout + done.stderr


def test_ajv_strict_mode_rejects_an_unknown_keyword(ajv: list[str], tmp_path: Path) -> None:
    """The check above can fail: a schema with `x-message` is what ajv rejected in issue 24."""
    bad = tmp_path / "bad.schema.json"
    bad.write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "string",
                "x-message": "a name",
            }
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [*ajv, "compile", "--spec=draft2020", "--strict=true", "-s", bad],
        capture_output=True,
        text=True,
        cwd=npmtools.TOOLS,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "x-message" in done.stdout + done.stderr


def _ajv_validate(ajv: list[str], schema_path: Path, data: list[Path]) -> str:
    """ajv-cli's verdicts on YAML files it reads with js-yaml 3 (YAML 1.1: an unquoted
    2025-06-01 is a date there, not a string)."""
    args = [arg for path in data for arg in ("-d", str(path))]
    done = subprocess.run(
        [*ajv, "validate", "--spec=draft2020", "-c", "ajv-formats", "-s", schema_path, *args],
        capture_output=True,
        text=True,
        cwd=npmtools.TOOLS,
        timeout=120,
        check=False,
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize("game", ["varz", "azuki"])
def test_ajv_with_js_yaml_reads_every_bundled_card_file_as_valid(
    ajv: list[str], game: str, tmp_path: Path
) -> None:
    folder = ROOT / "card_data" / game
    cards = sorted(p for p in folder.rglob("*.yaml") if p.name != "formats.yaml")
    said = _ajv_validate(ajv, ROOT / "schemas" / game / "card-file.schema.json", cards)
    assert said.count(" valid") == len(cards) and "invalid" not in said, said
    formats = tmp_path / "formats.schema.json"
    formats.write_text(json.dumps(schema("formats")), encoding="utf-8")
    said = _ajv_validate(ajv, formats, [folder / "formats.yaml"])
    assert said.strip().endswith("formats.yaml valid"), said


def test_ajv_with_js_yaml_refuses_an_unquoted_release_date(ajv: list[str], tmp_path: Path) -> None:
    """The check above can fail: YAML 1.1 makes `released: 2025-06-01` a date, not a string."""
    text = (ROOT / "card_data" / "varz" / "sets" / "vz01.yaml").read_text(encoding="utf-8")
    unquoted = tmp_path / "vz01.yaml"
    unquoted.write_text(re.sub(r'released: "([0-9-]+)"', r"released: \1", text), encoding="utf-8")
    assert unquoted.read_text(encoding="utf-8") != text
    said = _ajv_validate(ajv, ROOT / "schemas" / "varz" / "card-file.schema.json", [unquoted])
    assert "invalid" in said, said
