"""The core names no default game (issue 25, leak 10): a formats.yaml without `game:` says nothing
of its game, and the registry's default game (entry-point group varz_deck.default_game) takes it."""

from __future__ import annotations

from pathlib import Path

from varz_deck.core.cards.discovery import database_game_key, game_key_of
from varz_deck.core.cards.model import CardDatabase
from varz_deck.games import database_game, default_game, get_game, open_database


def test_a_formats_file_without_game_names_none() -> None:
    assert game_key_of(b"formats: {}\n") is None
    assert game_key_of(None) is None
    assert game_key_of(b"# a comment\ngame: azuki\nformats: {}\n") == "azuki"


def test_a_database_without_game_is_the_registrys_default(tmp_path: Path) -> None:
    (tmp_path / "formats.yaml").write_text("formats: {}\n", encoding="utf-8")
    assert database_game_key(tmp_path) is None
    assert database_game(tmp_path).key == default_game() == "varz"


def test_the_cores_database_belongs_to_no_game_each_games_names_its_own() -> None:
    assert CardDatabase([]).game == ""
    for key in ("varz", "azuki"):
        assert get_game(key).make_database([], None).game == key


def test_the_bundled_databases_know_their_game() -> None:
    from varz_deck.games.library import bundled_root

    assert [open_database(bundled_root(k)).game for k in ("varz", "azuki")] == ["varz", "azuki"]
