"""The card index (issue 27, core/cards/cardindex.py): a database written to an index and read back
answers every look-up as the in-memory database does (both games); a damaged or foreign index is
never trusted; `prefetch` reads a deck's rows in batches."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from varz_deck.core.cards import cardindex
from varz_deck.core.cards.discovery import display
from varz_deck.core.cards.model import CardDatabase, normalize
from varz_deck.core.lint.database import lint_database
from varz_deck.games import get_game

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
ALTDB = ROOT / "tests" / "data" / "altdb"
KEY = "0" * 40


AZUKI = get_game("azuki").card_data


@pytest.fixture(autouse=True)
def _read_as_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read the small databases as a big one is read: a row at a time."""
    monkeypatch.setattr(cardindex, "EAGER", 0)


def _database(root: Path) -> CardDatabase:
    game = get_game("azuki" if root == AZUKI else "varz")
    result = lint_database(root, game)
    assert not result.errors and result.database is not None
    return result.database


def _indexed(
    tmp_path: Path, root: Path, database: CardDatabase, rebuild: Any = None
) -> CardDatabase:
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", root, database)
    index = cardindex.CardIndex(path, KEY, "v", database.game)
    game = get_game(database.game)
    return cardindex.open_database(index, game, root, Path(display(root)), rebuild)


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


@pytest.mark.parametrize("root", [BUNDLED, ALTDB, AZUKI], ids=["bundled", "altdb", "azuki"])
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
    for name in INDEX_TABLES.get(memory.game, ()):
        assert dict(getattr(indexed, name)) == getattr(memory, name)


INDEX_TABLES = {"azuki": ("aliases",)}


def test_a_games_own_tables_answer_each_key_as_in_memory(tmp_path: Path) -> None:
    memory = _database(AZUKI)
    indexed = _indexed(tmp_path, AZUKI, memory)
    aliases = [a for card in memory.cards.values() for a in getattr(card, "aliases", ())]
    assert aliases  # the bundled cards have some
    for alias in aliases:
        for ref in (alias, alias.lower(), f" {alias} "):
            found, wanted = indexed.by_id(ref), memory.by_id(ref)
            assert (found and found.to_json()) == (wanted and wanted.to_json()), ref
            assert _json(indexed.lookup(ref)) == _json(memory.lookup(ref)), ref


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


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE formats SET json = replace(json, 'Standard', 'Standarb')",
        "DELETE FROM formats WHERE key = 'standard'",  # counted: the formats' head
    ],
)
def test_an_edited_format_is_detected_when_opened(tmp_path: Path, damage: str) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute(damage)
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
    with pytest.raises(cardindex.IndexDamaged, match=r"^a row's sum does not match$"):
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
            (wrong, cardindex.row_sum(KEY, "VZ01-001", 1, wrong)),
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


def test_a_database_class_with_look_ups_of_its_own_is_indexed_only_when_it_names_its_tables(
    tmp_path: Path,
) -> None:
    class Own(CardDatabase):
        def by_id(self, ref: str) -> Any:
            return None

    class Named(Own):
        INDEX_TABLES = ()

    assert cardindex.supported(CardDatabase)
    assert not cardindex.supported(Own)
    assert cardindex.supported(Named)
    database = Own([])
    with pytest.raises(ValueError, match=r"^Own has look-ups of its own: not indexed$"):
        cardindex.write(tmp_path / "db.sqlite", KEY, "v", BUNDLED, database)
    assert not (tmp_path / "db.sqlite").exists()


def _statements(database: CardDatabase) -> list[str]:
    """The SQL the indexed database runs from now on (its connection's trace)."""
    seen: list[str] = []
    connection = database.cards._recovery.index.connection  # type: ignore[attr-defined]
    connection.set_trace_callback(seen.append)
    return seen


@pytest.mark.parametrize("root", [BUNDLED, AZUKI], ids=["varz", "azuki"])
def test_prefetch_reads_a_decks_rows_in_batches(tmp_path: Path, root: Path) -> None:
    memory = _database(root)
    indexed = _indexed(tmp_path, root, memory)
    refs = _references(memory, random.Random(5))
    refs += [f"unknown card {n}" for n in range(1200)]  # more than two batches of 500
    seen = _statements(indexed)
    indexed.prefetch(refs)
    # a query per batch of keys, one more for the keys it misses (their chain), a head per table
    batches = 6 * (len(set(refs)) * 2 // cardindex.BATCH + 2)
    assert 0 < len(seen) <= 2 * batches + 8
    assert all(s.count("?") <= cardindex.BATCH + 1 for s in seen)
    seen.clear()
    for ref in refs:
        assert _json(indexed.lookup(ref)) == _json(memory.lookup(ref)), ref
        found, wanted = indexed.by_id(ref), memory.by_id(ref)
        assert (found and found.to_json()) == (wanted and wanted.to_json()), ref
    assert seen == []  # every look-up answered from what prefetch read


def test_prefetch_of_a_database_in_memory_does_nothing() -> None:
    memory = _database(BUNDLED)
    memory.prefetch(["Hibiki Kagura", "x"])
    assert memory._index is None  # nothing built


def test_damage_met_after_the_open_rebuilds_and_removes_the_file(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE cards SET json = replace(json, '\"life\": 12', '\"life\": 13')")
    rebuilt: list[int] = []

    def rebuild() -> CardDatabase:
        rebuilt.append(1)
        return _database(BUNDLED)

    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED, rebuild)
    assert indexed.by_id("VZ01-002") is not None
    assert indexed.by_id("VZ01-001").to_json() == memory.by_id("VZ01-001").to_json()
    assert not path.exists() and rebuilt == [1]
    for ref in _references(memory, random.Random(2)):
        assert _json(indexed.lookup(ref)) == _json(memory.lookup(ref)), ref
    assert list(indexed.cards) == list(memory.cards)
    assert rebuilt == [1]  # once


@pytest.mark.parametrize(
    ("table", "column", "ref"),
    [
        ("refs", "target", "hibiki kagura"),
        ("id_refs", "card", "vz01-001"),
        ("printings", "card", "Hibiki Kagura"),
        ("cards", "id", "VZ01-001"),
        ("cards", "listed", "VZ01-001"),
    ],
)
def test_an_edited_row_of_any_table_is_detected(
    tmp_path: Path, table: str, column: str, ref: str
) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    key = {"refs": "ref", "id_refs": "ref", "printings": "card_key", "cards": "id"}[table]
    value = {"target": "'Ember Imp'", "card": "card + 1", "id": "'VZ01-777'", "listed": "0"}
    with sqlite3.connect(path) as edit:
        where = f"{key} = 'VZ01-777'" if column == "id" else f"{key} = ?"
        if column == "id":
            edit.execute("UPDATE cards SET id = 'VZ01-777' WHERE id = ?", (ref,))
            ref = "VZ01-777"
        else:
            edit.execute(f"UPDATE {table} SET {column} = {value[column]} WHERE {where}", (ref,))
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    with pytest.raises(cardindex.IndexDamaged):
        indexed.prefetch([ref])
        indexed.lookup(ref)
        indexed.canonical("Hibiki Kagura")
        raise AssertionError("not detected")  # pragma: no cover


def test_an_edited_alias_is_detected(tmp_path: Path) -> None:
    memory = _database(AZUKI)
    _indexed(tmp_path, AZUKI, memory)
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE extra SET v = v || 'x'")
    index = cardindex.CardIndex(path, KEY, "v", "azuki")
    indexed = cardindex.open_database(index, get_game("azuki"), AZUKI, AZUKI)
    with pytest.raises(cardindex.IndexDamaged):
        dict(indexed.aliases)  # type: ignore[attr-defined]


def test_extra_writers_and_readers_add_their_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def names(connection: sqlite3.Connection, database: CardDatabase) -> None:
        connection.execute("CREATE TABLE more(n INTEGER)")
        connection.execute("INSERT INTO more VALUES (?)", (len(database.cards),))

    read: list[Any] = []

    def more(index: cardindex.CardIndex, database: CardDatabase) -> None:
        read.append((index.rows("SELECT n FROM more"), type(database)))

    monkeypatch.setattr(cardindex, "EXTRA_WRITERS", [names])
    monkeypatch.setattr(cardindex, "EXTRA_READERS", [more])
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    assert sqlite3.connect(path).execute("SELECT n FROM more").fetchall() == [(len(memory.cards),)]
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    assert read == [([(len(memory.cards),)], type(memory))]


def test_the_cache_is_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from varz_deck.core.cards import cachestore
    from varz_deck.core.lint.database import open_database

    monkeypatch.setenv("VARZ_DECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("VARZ_DECK_NO_CACHE", raising=False)
    copy = tmp_path / "db"
    shutil.copytree(BUNDLED, copy)
    game = get_game("varz")
    cold = open_database(copy, game)
    assert not isinstance(cold.cards, cardindex._Lazy)
    assert len(list((tmp_path / "cache").glob("db-*.sqlite"))) == 1
    assert not list((tmp_path / "cache").glob("db-*.json"))
    warm = open_database(copy, game)
    assert isinstance(warm.cards, cardindex._Lazy)
    assert warm.content_key == cold.content_key is not None
    for ref in _references(cold, random.Random(1)):
        assert _json(warm.lookup(ref)) == _json(cold.lookup(ref)), ref
    assert cachestore.info().size > 0
    cachestore.clear()
    assert not list((tmp_path / "cache").glob("*db-*"))


@pytest.mark.parametrize("root", [BUNDLED, AZUKI], ids=["varz", "azuki"])
def test_the_fingerprint_is_stored_and_read_back(tmp_path: Path, root: Path) -> None:
    import hashlib
    import json

    from varz_deck import __version__

    memory = _database(root)
    cards = [
        {k: v for k, v in c.to_json().items() if k not in ("file", "line")}
        for printings in memory.printings.values()
        for c in printings
    ]
    formats = {key: f.to_json() for key, f in memory.formats.items()}
    document = {"version": __version__, "game": memory.game, "cards": cards, "formats": formats}
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, default=str)
    indexed = _indexed(tmp_path, root, memory)
    assert indexed.fingerprint() == hashlib.sha256(text.encode()).hexdigest()
    assert dict.__len__(indexed.printings) == 0  # read from the index's meta, not the cards


def test_an_edited_fingerprint_is_not_trusted(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE meta SET v = '0' || substr(v, 2) WHERE k = 'fingerprint'")
    with pytest.raises(cardindex.IndexDamaged):
        cardindex.CardIndex(path, KEY, "v", "varz")


def test_a_canonical_id_reads_only_its_cards_printings(tmp_path: Path) -> None:
    from varz_deck.core.registration.canonical import canonical_id

    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    card = indexed.lookup("Scorch Shot")[0]
    assert canonical_id(indexed, card, lambda c: c.name) == "VZ01-010"
    assert list(dict.keys(indexed.printings)) == ["Scorch Shot"]


def test_a_lazy_table_compares_and_shows_as_the_dict_it_stands_for(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    (tmp_path / "other").mkdir()
    other = _indexed(tmp_path / "other", BUNDLED, memory)
    assert indexed.cards == memory.cards and memory.cards == indexed.cards
    assert other.printings == indexed.printings
    assert (indexed.printings != memory.printings) is False
    assert indexed.index != {}
    assert repr(other.cards) == repr(memory.cards)


def test_an_index_opened_in_one_thread_answers_in_others(tmp_path: Path) -> None:
    """serve's workers share one database per game: no thread's look-up is taken for damage."""
    from concurrent.futures import ThreadPoolExecutor

    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    refs = _references(memory, random.Random(9))[:400]
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda ref: _json(indexed.lookup(ref)), refs))
    assert found == [_json(memory.lookup(ref)) for ref in refs]
    assert (tmp_path / "db.sqlite").exists()  # never removed as damaged


@pytest.mark.parametrize("root", [BUNDLED, AZUKI], ids=["bundled", "azuki"])
def test_a_small_database_checked_deck_after_deck_is_read_whole(
    tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cardindex, "EAGER", 2_000)
    memory = _database(root)
    indexed = _indexed(tmp_path, root, memory)
    refs = _references(memory, random.Random(3))
    for deck in range(1, 4):
        indexed.prefetch(refs[deck : deck + 5])
        assert type(indexed.cards) is not dict  # the first three decks: a row at a time
    indexed.prefetch(refs[:5])  # the fourth
    for table in ("cards", "printings", "_index", "_ids"):
        found = getattr(indexed, table)
        assert type(found) is dict
        assert found == (memory.id_index() if table == "_ids" else getattr(memory, table))
    for table in type(memory).INDEX_TABLES or ():
        assert getattr(indexed, table) == getattr(memory, table)
    assert _json(indexed.cards.values()) == _json(memory.cards.values())
    for ref in refs:
        assert _json(indexed.lookup(ref)) == _json(memory.lookup(ref))


def test_a_big_database_stays_a_row_at_a_time(tmp_path: Path) -> None:
    memory = _database(BUNDLED)  # EAGER is 0 here: as a database over the bound
    indexed = _indexed(tmp_path, BUNDLED, memory)
    for _ in range(6):
        indexed.prefetch(["Hibiki Kagura"])
    assert type(indexed.cards) is not dict
    assert dict.__len__(indexed.cards) < len(memory.cards)


# --------------------------------------------------------------------------- deleted rows

# Each table's primary key: how one row is named, and deleted.
PRIMARY = {
    "sets": "set_code",
    "cards": "ord",
    "printings": "card_key, pos",
    "refs": "ref, target",
    "id_refs": "ref",
    "extra": "tbl, k",
    "formats": "pos",
    "names": "no",
    "trigrams": "code",
    "heads": "tbl",
    "chains": "tbl, k",
}


def _first_middle_last(path: Path, table: str) -> list[tuple[Any, ...]]:
    """The keys of a table's first, middle and last rows (by primary key)."""
    key = PRIMARY[table]
    with sqlite3.connect(path) as connection:
        rows = connection.execute(f"SELECT {key} FROM {table} ORDER BY {key}").fetchall()
    connection.close()
    return sorted({rows[0], rows[len(rows) // 2], rows[-1]}) if rows else []


def _delete(path: Path, table: str, row: tuple[Any, ...]) -> None:
    where = " AND ".join(f"{column} = ?" for column in PRIMARY[table].split(", "))
    with sqlite3.connect(path) as connection:
        assert connection.execute(f"DELETE FROM {table} WHERE {where}", row).rowcount == 1
    connection.close()


def _typos(memory: CardDatabase) -> list[str]:
    """A typo of every name, as "did you mean" is asked."""
    return [
        shown[:-1] + ("x" if shown[-1] != "x" else "y") for shown in memory.shown_names().values()
    ]


# "did you mean" reads the trigrams only past FULL_SCAN names: read so here for the tables it uses
READS = [(table, False) for table in PRIMARY]
READS += [(table, True) for table in ("names", "trigrams", "heads", "chains")]


@pytest.mark.parametrize("root", [BUNDLED, ALTDB, AZUKI], ids=["bundled", "altdb", "azuki"])
@pytest.mark.parametrize(
    ("table", "trigrams"), READS, ids=[f"{t}{'-trigrams' * g}" for t, g in READS]
)
def test_a_deleted_row_is_found_or_changes_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, root: Path, trigrams: bool
) -> None:
    """Rows deleted (the first, the middle or the last of a table): every look-up, walk and
    "did you mean" of the database opened from the index is the in-memory one, the damage met
    (the rebuilt database answers) or not read at all."""
    from varz_deck.core.cards import nameindex, suggest

    if trigrams:  # the small databases read as a big one is: candidates from the trigrams
        monkeypatch.setattr(suggest, "FULL_SCAN", 0)
        monkeypatch.setattr(nameindex, "FULL_SCAN", 0)
    memory = _database(root)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", root, memory)
    pristine = path.read_bytes()
    rows = _first_middle_last(path, table)
    if table == "extra" and memory.game == "varz":
        assert rows == []
        return
    assert rows
    refs = _references(memory, random.Random(11))
    typos = _typos(memory) if table in ("names", "trigrams", "heads", "chains") else []
    typos = typos[:20] + typos[-20:]  # the first names and the last
    looked_up = [(_json(memory.lookup(r)), _json(filter(None, [memory.by_id(r)]))) for r in refs]
    printed = {name: _json(cards) for name, cards in memory.printings.items()}
    suggested = [memory.suggestions(typo) for typo in typos]
    game = get_game(memory.game)
    for row in rows:
        for walk in (False, True):
            path.write_bytes(pristine)
            _delete(path, table, row)
            try:
                index = cardindex.CardIndex(path, KEY, "v", memory.game)
                shown = Path(display(root))
                indexed = cardindex.open_database(index, game, root, shown, lambda: memory)
            except cardindex.IndexDamaged:
                continue  # found at the open
            if walk:
                assert list(indexed.cards) == list(memory.cards), row
                assert {k: _json(v) for k, v in indexed.printings.items()} == printed, row
                assert list(indexed.printings) == list(printed), row
                assert dict(indexed.index) == memory.index, row
                assert dict(indexed.id_index()) == memory.id_index(), row
                for name in INDEX_TABLES.get(memory.game, ()):
                    assert dict(getattr(indexed, name)) == getattr(memory, name), row
            indexed.prefetch(refs)
            for ref, wanted in zip(refs, looked_up, strict=True):
                found = (_json(indexed.lookup(ref)), _json(filter(None, [indexed.by_id(ref)])))
                assert found == wanted, (row, ref)
            for name, cards in printed.items():
                assert _json([indexed.canonical(name)]) == cards[:1], row
                assert _json(indexed.printings[name]) == cards, row
            assert [indexed.suggestions(typo) for typo in typos] == suggested, row
            assert indexed.formats == memory.formats, row
            for sets, types in _keys_in_asks(memory):
                assert indexed.keys_in(sets, types) == memory.keys_in(sets, types), row


def test_a_deleted_row_read_without_a_rebuild_is_damage(tmp_path: Path) -> None:
    """Each table a look-up reads, one row deleted: the look-up raises IndexDamaged (the
    caller then builds again), never answers "no such card"."""
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    pristine = path.read_bytes()
    cases = [
        ("DELETE FROM cards WHERE id = 'VZ01-008'", lambda d: d.by_id("VZ01-008")),
        ("DELETE FROM cards WHERE id = 'VZ01-008'", lambda d: d.lookup("Cinder Hound")),
        ("DELETE FROM refs WHERE ref = 'cinder hound'", lambda d: d.lookup("Cinder Hound")),
        ("DELETE FROM id_refs WHERE ref = 'vz01-008'", lambda d: d.by_id("ＶＺ０１－００８")),
        (
            "DELETE FROM printings WHERE card_key = 'Scorch Shot' AND pos = 1",
            lambda d: d.printings["Scorch Shot"],
        ),
        (
            "DELETE FROM printings WHERE card_key = 'Ember Imp'",
            lambda d: d.printings.get("Ember Imp"),
        ),
        (
            "DELETE FROM chains WHERE tbl = 'refs' AND k = 'cinder hound'",
            lambda d: d.lookup("cinder hounds"),
        ),
        ("DELETE FROM heads WHERE tbl = 'cards'", lambda d: d.by_id("Cinder Hound")),
        ("DELETE FROM names WHERE no = (SELECT max(no) FROM names)", lambda d: d.suggestions("x")),
        ("DELETE FROM refs WHERE ref = (SELECT max(ref) FROM refs)", lambda d: len(d.index)),
    ]
    for statement, read in cases:
        path.write_bytes(pristine)
        with sqlite3.connect(path) as edit:
            assert edit.execute(statement).rowcount == 1, statement
        edit.close()
        index = cardindex.CardIndex(path, KEY, "v", "varz")
        indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
        with pytest.raises(cardindex.IndexDamaged):
            read(indexed)
            raise AssertionError(f"not found: {statement}")  # pragma: no cover
        index.close()


def test_a_card_row_with_another_cards_payload_and_its_sum_is_damage(tmp_path: Path) -> None:
    """VZ01-001's row made to carry VZ01-002's card, with the sum such a row would have: only
    the check of the id the row is filed under against the card's own tells."""
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        (other,) = edit.execute("SELECT json FROM cards WHERE id = 'VZ01-002'").fetchone()
        total = cardindex.row_sum(KEY, "VZ01-001", 1, other)
        edit.execute("UPDATE cards SET json = ?, sum = ? WHERE id = 'VZ01-001'", (other, total))
    edit.close()
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    with pytest.raises(cardindex.IndexDamaged, match="does not fit the card"):
        indexed.by_id("VZ01-001")


def test_a_second_prefetch_of_the_same_keys_reads_nothing(tmp_path: Path) -> None:
    """Keys read once, found or shown absent, are not asked of the index again."""
    memory = _database(BUNDLED)
    indexed = _indexed(tmp_path, BUNDLED, memory)
    refs = ["Hibiki Kagura", "VZ01-010", "unknown card"]
    indexed.prefetch(refs)
    seen = _statements(indexed)
    indexed.prefetch(refs)
    assert seen == []


@pytest.mark.parametrize("payload", [b"{}", 7, None])
def test_a_row_whose_payload_is_not_text_is_said(payload: object) -> None:
    with pytest.raises(cardindex.IndexDamaged, match=r"^a row's payload is not text$"):
        cardindex.CardIndex.verified(payload, 0, KEY, "cards", "VZ01-001")


def _keys_in_asks(memory: CardDatabase) -> list[tuple[Any, Any]]:
    """`keys_in` asked with every format's sets, each set alone, no set, and sets nobody has."""
    codes = sorted({card.set for cards in memory.printings.values() for card in cards})
    kinds = sorted({getattr(card, "type", "") for card in memory.cards.values()})
    asks: list[tuple[Any, Any]] = [(None, None), ([], None), (["NOPE", "ZZ9"], None)]
    asks += [(fmt.sets, None) for fmt in memory.formats.values()]
    asks += [([code], None) for code in codes] + [([code], kinds[:1]) for code in codes]
    asks += [(None, [kind]) for kind in kinds] + [(codes, kinds[1:3]), (codes[::2], [])]
    return asks


@pytest.mark.parametrize("root", [BUNDLED, ALTDB, AZUKI], ids=["bundled", "altdb", "azuki"])
def test_keys_in_is_the_in_memory_answer_reading_only_those_cards(
    tmp_path: Path, root: Path
) -> None:
    memory = _database(root)
    for sets, types in _keys_in_asks(memory):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        indexed = _indexed(folder, root, memory)
        found = indexed.keys_in(sets, types)
        assert found == memory.keys_in(sets, types), (sets, types)
        read = dict.keys(indexed.printings)  # what the lazy table holds, without loading more
        assert set(read) == set(found), (sets, types)


def test_keys_in_by_hand() -> None:
    """The in-memory answer, against names written by hand from card_data/varz."""
    memory = _database(BUNDLED)
    heroes = memory.keys_in(["VZ01"], ["hero"])
    assert heroes[:2] == ["Hibiki Kagura", "Shizuku Minase"]
    assert all(memory.printings[key][0].type == "hero" for key in heroes)
    assert memory.keys_in(["NOPE"]) == []
    assert memory.keys_in(None, []) == []
    assert len(memory.keys_in(None)) == len(memory.printings)


def test_an_edited_sets_row_is_detected(tmp_path: Path) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE sets SET json = replace(json, '\"hero\"', '\"skill\"')")
    edit.close()
    damaged = path.read_bytes()
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    with pytest.raises(cardindex.IndexDamaged):
        indexed.keys_in(["VZ01"], ["hero"])
    path.write_bytes(damaged)
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    rebuilt = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED, lambda: memory)
    assert rebuilt.keys_in(["VZ01"], ["hero"]) == memory.keys_in(["VZ01"], ["hero"])
    assert not path.exists()


@pytest.mark.parametrize("payload", ["{}", "[[0, 1]]", "[7]"])
def test_a_sets_row_that_is_not_a_list_of_cards_is_damage(tmp_path: Path, payload: str) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    total = cardindex.row_sum(KEY, "VZ01", payload)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE sets SET json = ?, sum = ? WHERE set_code = 'VZ01'", (payload, total))
    edit.close()
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    with pytest.raises(cardindex.IndexDamaged):
        indexed.keys_in(["VZ01"])


def test_keys_in_of_cards_without_a_type() -> None:
    """A game's card record need not have a `type`: asked for types, it has none of them."""
    cards = [
        SimpleNamespace(id="A-1", name="Apple", set="A"),
        SimpleNamespace(id="B-1", name="Bee", set="B"),
        SimpleNamespace(id="B-2", name="Apple", set="B"),
    ]
    database: CardDatabase[Any] = CardDatabase(cards)
    assert database.keys_in(None) == ["Apple", "Bee"]
    assert database.keys_in(["B"]) == ["Apple", "Bee"]
    assert database.keys_in(["A"]) == ["Apple"]
    assert database.keys_in(["A", "B"], ["spell"]) == []


@pytest.mark.parametrize(
    ("card", "kind"),
    [
        (SimpleNamespace(type="hero"), "hero"),
        (SimpleNamespace(type=None), ""),
        (SimpleNamespace(type=3), ""),
        (SimpleNamespace(), ""),
    ],
)
def test_a_cards_type_in_the_sets_table_is_its_text_or_empty(card: object, kind: str) -> None:
    assert cardindex._type(card) == kind


@pytest.mark.parametrize(
    ("edit", "sets", "said"),
    [
        ("DELETE FROM sets WHERE set_code = 'VZ02'", None, "a row of the sets table is missing"),
        ("UPDATE sets SET json = '{}'", ["VZ01"], "a row of the sets table is not a list of cards"),
        (
            "UPDATE sets SET json = '[[0, 1]]'",
            ["VZ01"],
            "a row of the sets table is not a list of cards",
        ),
    ],
)
def test_a_damaged_sets_table_says_what_is_wrong(
    tmp_path: Path, edit: str, sets: Any, said: str
) -> None:
    memory = _database(BUNDLED)
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", BUNDLED, memory)
    with sqlite3.connect(path) as connection:
        connection.execute(edit)
        for code, text in connection.execute("SELECT set_code, json FROM sets").fetchall():
            total = cardindex.row_sum(KEY, code, text)
            connection.execute("UPDATE sets SET sum = ? WHERE set_code = ?", (total, code))
    connection.close()
    index = cardindex.CardIndex(path, KEY, "v", "varz")
    indexed = cardindex.open_database(index, get_game("varz"), BUNDLED, BUNDLED)
    with pytest.raises(cardindex.IndexDamaged, match=f"^{said}$"):
        indexed.keys_in(sets)
