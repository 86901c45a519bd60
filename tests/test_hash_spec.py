"""docs/deck-hash-vectors.json, the deck-hash specification's test vectors (docs/deck-hash.md).

Every vector is run through varz-deck (the game's registrar, then `register --output json`), and
every hash is recomputed from the vector's canonical text with hashlib alone, so the file is a
contract another implementation can check itself against.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import get_game, open_database

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "docs" / "deck-hash-vectors.json").read_text(encoding="utf-8"))
DATABASES = {
    "varz": ROOT / "card_data" / "varz",
    "azuki": ROOT / "card_data" / "azuki",
}
HEADERS = {"varz": "varz-deck-hash v1", "azuki": "azuki-deck-hash v1"}


@cache
def database(game: str) -> CardDatabase:
    return open_database(DATABASES[game])


def spec_hash(canonical_text: str) -> str:
    """docs/deck-hash.md: v1- + the first 10 lower-case base32 characters of SHA-256."""
    digest = hashlib.sha256(canonical_text.encode("utf-8")).digest()
    return "v1-" + base64.b32encode(digest).decode("ascii")[:10].lower()


def _write(vector: dict[str, Any], tmp_path: Path) -> Path:
    path = tmp_path / vector["file"]
    path.write_bytes(vector["deck"].encode("utf-8"))
    return path


def test_the_file_has_vectors_for_both_games_and_every_awkward_case() -> None:
    assert VECTORS["version"] == 1
    games = {v["game"] for v in VECTORS["vectors"]}
    assert games == {"varz", "azuki"}
    names = " ".join(v["name"] for v in VECTORS["vectors"])
    for awkward in ("list-form", "txt", "other-printing", "other-languages", "unknown", "alias"):
        assert awkward in names, awkward
    assert len({v["name"] for v in VECTORS["vectors"]}) == len(VECTORS["vectors"])


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_hash_is_the_spec_recipe_of_the_canonical_text(vector: dict[str, Any]) -> None:
    canonical = vector["canonical"]
    assert canonical.endswith("\n") and "\r" not in canonical
    assert canonical.splitlines()[0] == HEADERS[vector["game"]]
    assert spec_hash(canonical) == vector["hash"]


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_varz_deck_gives_the_vector_canonical_text_and_hash(
    vector: dict[str, Any], tmp_path: Path
) -> None:
    game = get_game(vector["game"])
    path = _write(vector, tmp_path)
    reg = game.registrar.register(src(path), database(vector["game"]), date=on_date())
    assert reg.canonical is not None, [d.message for d in reg.report.diagnostics]
    assert reg.canonical.text() == vector["canonical"]
    assert reg.deck_hash == vector["hash"]


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_register_command_prints_the_vector_hash(vector: dict[str, Any], tmp_path: Path) -> None:
    from varz_deck.cli import app

    path = _write(vector, tmp_path)
    args = ["register", "--game", vector["game"], str(path), "--output", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1), result.output
    assert json.loads(result.stdout)["registrations"][0]["deck_hash"] == vector["hash"]
