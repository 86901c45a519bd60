"""A game's own format fields belong to the game (issue 25): the shared formats schema holds what
every game's format has; a database is checked against it with its own game's fields added."""

from __future__ import annotations

import json
from pathlib import Path

from varz_deck.core.files.resources import formats_schema, schema, schema_text
from varz_deck.core.lint.database import lint_database
from varz_deck.games import get_game

SHARED = {"name", "sets", "banned", "restricted", "changes"}


def _format_properties(document: dict) -> set[str]:
    return set(document["properties"]["formats"]["additionalProperties"]["properties"])


def _lint(root: Path, formats: str, game: str) -> list[tuple[str, int | None, str]]:
    (root / "formats.yaml").write_text(formats, encoding="utf-8")
    result = lint_database(root, get_game(game), games=("varz", "azuki"))  # C006: no cards
    return [(d.code, d.line, d.message) for d in result.diagnostics if d.code != "C006"]


def test_the_shared_formats_schema_has_only_what_every_game_shares() -> None:
    shipped = json.loads(schema_text("formats"))
    assert _format_properties(shipped) == SHARED
    assert shipped["title"] == "Card database formats"


def test_a_games_formats_schema_adds_its_fields_and_keeps_the_shared_file_as_is() -> None:
    name = formats_schema("toy", {"tides": {"type": "integer", "minimum": 1}})
    assert _format_properties(schema(name)) == SHARED | {"tides"}
    assert schema(name)["properties"]["formats"]["additionalProperties"]["properties"]["tides"] == {
        "type": "integer",
        "minimum": 1,
    }
    assert _format_properties(schema("formats")) == SHARED
    bare = schema(formats_schema("bare", {}))  # no fields of its own: the shared ones, closed
    assert _format_properties(bare) == SHARED
    assert bare["properties"]["formats"]["additionalProperties"]["additionalProperties"] is False
    # the shared file lets a format hold a game's fields (an editor validating formats.yaml)
    assert schema("formats")["properties"]["formats"]["additionalProperties"][
        "additionalProperties"
    ]


def test_a_field_of_another_game_is_unknown_in_this_games_formats(tmp_path: Path) -> None:
    found = _lint(
        tmp_path,
        "game: azuki\nformats:\n  standard:\n    name: Standard\n    portals: pooled\n",
        "azuki",
    )
    assert [(code, line) for code, line, _ in found] == [("C001", 5)]
    assert "portals" in found[0][2]


def test_the_games_own_field_is_checked_with_the_games_message(tmp_path: Path) -> None:
    found = _lint(
        tmp_path,
        "formats:\n  standard:\n    name: Standard\n    portals: shared\n"
        "    max_effect_portals: -1\n",
        "varz",
    )
    assert sorted(found) == [
        ("C001", 4, "format 'standard': portals is constructed or pooled (got 'shared')"),
        ("C001", 5, "format 'standard': max_effect_portals is a whole number, at least 0 (got -1)"),
    ]


def test_the_games_own_fields_are_accepted(tmp_path: Path) -> None:
    formats = "formats:\n  standard:\n    name: Standard\n    portals: pooled\n"
    assert _lint(tmp_path, formats + "    max_effect_portals: 2\n", "varz") == []
