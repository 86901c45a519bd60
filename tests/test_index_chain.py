"""The chains of the card index (core/cards/indexchain.py), on their own: a key not in a table is shown
absent by the chain row before it; a key the chain holds, a chain row changed or deleted, a head
changed or missing is IndexDamaged. The rows are read back by hand from SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import pytest

from varz_deck.core.cards import indexchain
from varz_deck.core.cards.cachedoc import IndexDamaged

KEY = "k" * 40
WORDS = ["bird", "cat", "dog"]


def _index(**tables: Sequence[Any]) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    for table, keys in tables.items():
        indexchain.write(connection, KEY, table, keys)
    return connection


def _chains(connection: sqlite3.Connection) -> indexchain.Chains:
    def rows(sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        return connection.execute(sql, tuple(args)).fetchall()

    return indexchain.Chains(rows, KEY)


def test_the_rows_written() -> None:
    connection = _index(words=["dog", "bird", "cat"], none=[], codes=[30, 10, 20])
    heads = connection.execute("SELECT tbl, n, first FROM heads ORDER BY tbl").fetchall()
    assert heads == [("codes", 3, 10), ("none", 0, None), ("words", 3, "bird")]
    chained = connection.execute("SELECT tbl, k, next FROM chains ORDER BY tbl, k").fetchall()
    assert chained == [
        ("codes", 10, 20),
        ("codes", 20, 30),
        ("codes", 30, None),
        ("words", "bird", "cat"),
        ("words", "cat", "dog"),
        ("words", "dog", None),
    ]
    indexchain.count(connection, KEY, "formats", 2)
    assert connection.execute("SELECT n, first FROM heads WHERE tbl = 'formats'").fetchall() == [
        (2, None)
    ]
    assert _chains(connection).size("formats") == 2
    assert _chains(connection).size("words") == 3
    assert _chains(connection).head("codes") == (3, 10)


def test_the_sums_tell_types_apart() -> None:
    """A part by its repr: None is not 'None', 1 is not '1', and no part runs into the next."""
    total = indexchain._sum
    assert total(KEY, "a", None) != total(KEY, "a", "None")
    assert total(KEY, "a", 1) != total(KEY, "a", "1")
    assert total(KEY, "ab", "c") != total(KEY, "a", "bc")
    assert total(KEY, "a") != total("j" * 40, "a")
    assert -(2**63) <= total(KEY, "a") < 2**63
    assert total(KEY, "a", "b") == total(KEY, "a", "b")


@pytest.mark.parametrize(
    "keys",
    [
        [
            "apple",
            "bee",
            "bird!",
            "cats",
            "dogs",
            "zebra",
            "",
            "CAT",
            "a",
        ],  # before, between, after
        [5, 31, 15, 25, 0],
    ],
    ids=["words", "codes"],
)
def test_keys_not_in_the_table_are_absent(keys: list[Any]) -> None:
    chains = _chains(_index(words=WORDS, codes=[10, 20, 30]))
    chains.absent("words" if isinstance(keys[0], str) else "codes", keys)
    chains.absent("words", [1, None, 2.5])  # another type: never in the table
    chains.absent("codes", ["10"])
    chains.absent("words", [])


def test_an_empty_table_has_every_key_absent() -> None:
    chains = _chains(_index(none=[]))
    chains.absent("none", ["a", "z", 1])
    assert chains.size("none") == 0


@pytest.mark.parametrize("key", ["bird", "cat", "dog"])
def test_a_key_the_chain_holds_is_damage(key: str) -> None:
    """The table said no (its row was deleted): the chain says the key is there."""
    chains = _chains(_index(words=WORDS))
    with pytest.raises(IndexDamaged):
        chains.absent("words", ["ant", key, "zebra"])


@pytest.mark.parametrize(
    ("edit", "asked"),
    [
        ("UPDATE chains SET next = 'dog' WHERE k = 'bird'", "bison"),  # a key skipped
        ("UPDATE chains SET next = 'cot' WHERE k = 'bird'", "bison"),  # another next, same shape
        ("UPDATE chains SET sum = sum + 1 WHERE k = 'cat'", "cow"),
        ("UPDATE chains SET k = 'car' WHERE k = 'cat'", "cow"),
        ("UPDATE chains SET next = 7 WHERE k = 'cat'", "cow"),
        ("UPDATE chains SET k = 7 WHERE k = 'bird'", "bison"),
        ("DELETE FROM chains WHERE k = 'cat'", "cow"),  # bird's next names it: cow is past it
        ("DELETE FROM chains WHERE k = 'bird'", "bison"),  # nothing before bison: cut
        ("DELETE FROM chains WHERE k = 'dog'", "emu"),
        ("UPDATE heads SET first = 'cat'", "bison"),
        ("UPDATE heads SET n = 0", "bison"),
        ("UPDATE heads SET n = 0, first = NULL", "bison"),
        ("UPDATE heads SET first = NULL", "bison"),
        ("UPDATE heads SET n = 3.5", "bison"),  # no whole number ('3' would be stored as 3)
        ("DELETE FROM heads", "bison"),
        ("INSERT INTO heads SELECT 'words', n, first, sum FROM heads WHERE 0", "bison"),
    ],
)
def test_a_chain_or_head_changed_is_damage(edit: str, asked: str) -> None:
    connection = _index(words=WORDS)
    connection.execute(edit)
    if "WHERE 0" in edit:  # nothing changed: the control
        _chains(connection).absent("words", [asked])
        return
    with pytest.raises(IndexDamaged):
        _chains(connection).absent("words", [asked])


def test_a_head_written_twice_is_damage() -> None:
    connection = _index(words=WORDS)
    connection.execute("CREATE TABLE h2 AS SELECT * FROM heads")
    connection.execute("DROP TABLE heads")
    connection.execute("CREATE TABLE heads(tbl, n, first, sum)")
    connection.execute("INSERT INTO heads SELECT * FROM h2")
    connection.execute("INSERT INTO heads SELECT * FROM h2")
    with pytest.raises(IndexDamaged, match="no head"):
        _chains(connection).head("words")


def test_many_keys_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(indexchain, "BATCH", 3)
    words = [f"w{n:03d}" for n in range(0, 40, 2)]
    connection = _index(words=words)
    seen: list[str] = []
    connection.set_trace_callback(seen.append)
    chains = _chains(connection)
    chains.absent("words", [f"w{n:03d}" for n in range(1, 40, 2)])  # 20 odd ones: absent
    assert sum("WITH w(k)" in s for s in seen) == 7  # 20 keys, 3 to a query
    with pytest.raises(IndexDamaged):
        chains.absent("words", ["w001", "w003", "w005", "w007", "w008"])  # the last is there
    with pytest.raises(IndexDamaged):
        chains.absent("words", ["w000"])  # the first
    with pytest.raises(IndexDamaged):
        chains.absent("words", ["w038"])  # the last


def test_a_gap_many_keys_fall_in_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    chains = _chains(_index(words=WORDS))
    checked: list[str] = []
    real = indexchain._checksum

    def counting(text: str) -> int:
        checked.append(text)
        return real(text)

    monkeypatch.setattr(indexchain, "_checksum", counting)
    chains.absent("words", ["bison", "bisque", "bit", "cow", "dolphin"])
    assert len(checked) == 4  # the head, then bird's gap, cat's, dog's: each once


def test_a_key_deleted_from_its_table_and_the_chain_is_the_next_of_the_row_before() -> None:
    """cat's table row and chain row both deleted: bird's chain row still says cat comes next,
    so cat is missing, and the message says so."""
    connection = _index(words=WORDS)
    connection.execute("DELETE FROM chains WHERE k = 'cat'")
    with pytest.raises(IndexDamaged, match=r"^a row of the words table is missing$"):
        _chains(connection).absent("words", ["cat"])


def test_a_chain_row_changed_is_said() -> None:
    connection = _index(words=WORDS)
    connection.execute("UPDATE chains SET sum = sum + 1 WHERE k = 'cat'")
    with pytest.raises(IndexDamaged, match=r"^a chain row's sum does not match$"):
        _chains(connection).absent("words", ["cow"])


def test_a_head_changed_is_said() -> None:
    connection = _index(words=WORDS)
    connection.execute("UPDATE heads SET n = 2")
    with pytest.raises(IndexDamaged, match=r"^a head's sum does not match$"):
        _chains(connection).size("words")
