"""The card index's first step (issue 27, core/cardindex.py): a database written to an index and
read back answers every look-up as the in-memory database does; a damaged or foreign index is
never trusted."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from varz_deck.core import cardindex
from varz_deck.core.cards import CardDatabase, normalize
from varz_deck.core.database import lint_database
from varz_deck.core.discovery import display
from varz_deck.games import get_game

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "varz_deck" / "games" / "varz" / "card_data"
ALTDB = ROOT / "tests" / "data" / "altdb"
KEY = "0" * 40


def _database(root: Path) -> CardDatabase:
    result = lint_database(root, get_game("varz"))
    assert not result.errors and result.database is not None
    return result.database


def _indexed(tmp_path: Path, root: Path, database: CardDatabase) -> CardDatabase:
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", root, database)
    index = cardindex.CardIndex(path, KEY, "v", database.game)
    return cardindex.open_database(index, get_game("varz"), root, Path(display(root)))


def _json(cards: Any) -> list[dict[str, Any]]:
    return [c.to_json() for c in cards]


def _references(database: CardDatabase, rng: random.Random) -> list[str]:
    """Every id and name as written, and variants of them: case, spaces, width, typos."""
    refs: list[str] = []
    for card in database.cards.values():
        for text in (card.id, card.name, *card.names.values()):
            refs += [text, text.upper(), f"  {text.lower()} ", text.replace(" ", "  ")]
            refs.append(text[:-1] + rng.choice("aeiouxz"))
    refs += ["", " ", "nothing like it", "VZ99-999", "ｖｚ０１－００１"]
    return refs


@pytest.mark.parametrize("root", [BUNDLED, ALTDB], ids=["bundled", "altdb"])
def test_every_look_up_is_the_in_memory_answer(tmp_path: Path, root: Path) -> None:
    memory = _database(root)
    indexed = _indexed(tmp_path, root, memory)
    assert type(indexed) is type(memory)
    assert indexed.formats == memory.formats
    for ref in _references(memory, random.Random(27)):
        assert _json(indexed.lookup(ref)) == _json(memory.lookup(ref)), ref
        found, wanted = indexed.by_id(ref), memory.by_id(ref)
        assert (found and found.to_json()) == (wanted and wanted.to_json()), ref
        assert (ref in indexed.cards) == (ref in memory.cards)
        assert indexed.index.get(normalize(ref)) == memory.index.get(normalize(ref))
    for name in list(memory.printings)[:50]:
        assert _json(indexed.printings[name]) == _json(memory.printings[name])
        assert indexed.canonical(name).to_json() == memory.canonical(name).to_json()
    assert indexed.printings.get("no such card") is None
    for ref in ("Hibiki Kagra", "hibiki", "神楽", "Tide Sprit", "Glich Fox"):
        assert indexed.suggestions(ref) == memory.suggestions(ref), ref


def test_walking_it_whole_keeps_the_order(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    assert list(indexed.cards) == list(memory.cards)
    assert _json(indexed.cards.values()) == _json(memory.cards.values())
    assert list(indexed.printings) == list(memory.printings)
    assert [_json(p) for p in indexed.printings.values()] == [
        _json(p) for p in memory.printings.values()
    ]
    assert len(indexed.cards) == len(memory.cards)
    assert dict(indexed.index) == memory.index


def test_a_look_up_reads_only_what_it_names(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    assert indexed.lookup("Hibiki Kagura")
    assert dict.__len__(indexed.cards) == 0  # the in-memory part: nothing walked whole
    assert dict.__len__(indexed.printings) == 1


def test_card_files_are_shown_from_the_root_they_are_read_from(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(BUNDLED, copy)
    memory = _database(copy)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", copy, memory)
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    shown = cardindex.open_database(index, get_game("varz"), copy, Path("elsewhere"))
    card = shown.lookup("Hibiki Kagura")[0]
    assert card.file == str(Path("elsewhere") / "sets" / "vz01.yaml")


def test_an_index_of_another_key_version_or_game_is_not_read(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    for key, version, game in (("1" * 40, "v", "varz"), (KEY, "w", "varz"), (KEY, "v", "azuki")):
        with pytest.raises(cardindex.IndexDamaged):
            cardindex.CardIndex(path, key, version, game)
    with pytest.raises(FileNotFoundError):
        cardindex.CardIndex(tmp_path / "none.sqlite", KEY, "v", "varz")


def test_an_edited_format_is_detected_when_opened(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE formats SET json = replace(json, 'Standard', 'Standarb')")
    with pytest.raises(cardindex.IndexDamaged):
        cardindex.open_database(
            cardindex.CardIndex(path, KEY, "v", "varz"), get_game("varz"), BUNDLED, BUNDLED
        )


def test_an_edited_card_is_detected_when_read(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE cards SET json = replace(json, '\"life\": 12', '\"life\": 13')")
    indexed = cardindex.open_database(
        cardindex.CardIndex(path, KEY, "v", "varz"), get_game("varz"), BUNDLED, BUNDLED
    )
    assert indexed.by_id("VZ01-002") is not None  # untouched rows still read
    with pytest.raises(cardindex.IndexDamaged):
        indexed.by_id("VZ01-001")


def test_an_edited_card_with_its_sum_still_must_fit_the_card(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    (text,) = (
        sqlite3.connect(path).execute("SELECT json FROM cards WHERE id = 'VZ01-001'").fetchone()
    )
    wrong = text.replace('"life": 12', '"life": "twelve"')
    with sqlite3.connect(path) as edit:
        edit.execute(
            "UPDATE cards SET json = ?, sum = ? WHERE id = 'VZ01-001'",
            (wrong, cardindex.checksum(wrong)),
        )
    indexed = cardindex.open_database(
        cardindex.CardIndex(path, KEY, "v", "varz"), get_game("varz"), BUNDLED, BUNDLED
    )
    with pytest.raises(cardindex.IndexDamaged):
        indexed.by_id("VZ01-001")


@pytest.mark.parametrize("cut", [0, 100, 4096])
def test_a_cut_short_file_is_not_trusted(tmp_path: Path, cut: int) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    path.write_bytes(path.read_bytes()[:cut])
    with pytest.raises(cardindex.IndexDamaged):
        index = cardindex.CardIndex(path, KEY, "v", "varz")
        database = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
        list(database.cards.values())


def test_the_write_is_atomic(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    assert [p.name for p in tmp_path.iterdir()] == ["db.sqlite"]  # no temporary file left


def test_a_database_with_look_ups_of_its_own_is_not_indexed_yet(tmp_path: Path) -> None:
    azuki = get_game("azuki")
    database = lint_database(azuki.card_data, azuki).database
    assert database is not None
    assert not cardindex.supported(type(database))
    with pytest.raises(ValueError):
        cardindex.write(tmp_path / "db.sqlite", KEY, "v", azuki.card_data, database)
    assert not (tmp_path / "db.sqlite").exists()


def test_the_cache_reads_the_index_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from varz_deck.core import cachestore
    from varz_deck.core.database import open_database

    monkeypatch.setenv("VARZ_DECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("VARZ_DECK_NO_CACHE", raising=False)
    copy = tmp_path / "db"
    shutil.copytree(BUNDLED, copy)
    game = get_game("varz")
    monkeypatch.delenv("VARZ_DECK_INDEX", raising=False)
    cold = open_database(copy, game)
    assert not list((tmp_path / "cache").glob("db-*.sqlite"))
    monkeypatch.setenv("VARZ_DECK_INDEX", "1")
    from_json = open_database(copy, game)  # a hit on the JSON: no index is written
    assert not isinstance(from_json.cards, cardindex._Lazy)
    cachestore.clear()
    open_database(copy, game)  # cold: writes both
    assert len(list((tmp_path / "cache").glob("db-*.sqlite"))) == 1
    warm = open_database(copy, game)
    assert isinstance(warm.cards, cardindex._Lazy)
    for ref in _references(cold, random.Random(1)):
        assert _json(warm.lookup(ref)) == _json(cold.lookup(ref)), ref
    assert cachestore.info().size > 0
    cachestore.clear()
    assert not list((tmp_path / "cache").glob("*db-*"))
