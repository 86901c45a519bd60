"""The card-database cache: keyed by content, never showing another folder's paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from varz_deck.games import open_database


def test_a_cached_database_shows_the_paths_of_the_folder_it_was_opened_from(
    tmp_path: Path, bundled_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(bundled_db_path, first)
    shutil.copytree(bundled_db_path, second)
    monkeypatch.chdir(tmp_path)
    built = open_database(first)
    cached = open_database(second)  # same content: served from the cache
    assert cached is not built
    some = next(iter(cached.cards.values()))
    assert some.file.startswith("second/"), some.file
    assert Path(some.file).is_file()
    assert next(iter(built.cards.values())).file.startswith("first/")


def test_a_changed_file_is_not_served_from_the_cache(tmp_path: Path, bundled_db_path: Path) -> None:
    root = tmp_path / "db"
    shutil.copytree(bundled_db_path, root)
    before = open_database(root)
    card_file = next(iter((root / "sets").glob("vz01.yaml")))
    card_file.write_text(
        card_file.read_text(encoding="utf-8").replace("Ember Imp", "Ember Impish"), encoding="utf-8"
    )
    after = open_database(root)
    assert before.lookup("Ember Imp") and not after.lookup("Ember Imp")
    assert after.lookup("Ember Impish")
