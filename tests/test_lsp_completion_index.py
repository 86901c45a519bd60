"""Completion over the card index (issue 27, core/cards/keyindex.py and lsp/index.py's IndexedKeys):
on a generated database of a few thousand cards, the index-backed search answers every typed
text exactly as the in-memory one does (keys, ranks and order), with FTS5 trigrams and with the
fallback without them, and reads only the cards of the keys it looks at."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import yaml

from varz_deck.core.cards import cardindex, keyindex
from varz_deck.core.cards.discovery import display
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.lint.database import lint_database
from varz_deck.games import get_game
from varz_deck.lsp.index import LIMIT, CardIndex, IndexedKeys

ROOT = Path(__file__).resolve().parent.parent
VZ01 = ROOT / "card_data" / "varz" / "sets" / "vz01.yaml"
KEY = "0" * 40
GAME = get_game("varz")

_WORDS = ["ka", "ri", "dra", "gon", "mi", "zu", "ho", "ra", "shi", "ne", "to", "rel", "xen"]
_BREAKS = [" ", " ", " ", "-", " (", "/", ", ", ". ", "・"]
_KANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホ"
_HAN = "火水木金土龙虎风雷光影剑盾星月日山海云花"


def _name(rng: random.Random) -> str:
    words = [
        "".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3))).title()
        for _ in range(rng.randint(1, 4))
    ]
    name = words[0]
    for word in words[1:]:
        name += rng.choice(_BREAKS) + word + (")" if name.endswith("(") else "")
    return name


def _generate(folder: Path, count: int, seed: int) -> None:
    """count cards from vz01's templates: made-up names in three languages, some names shared
    by reprints (same card, another id), some translations equal to the English name."""
    rng = random.Random(seed)
    source = yaml.safe_load(VZ01.read_text("utf-8"))
    templates = [c for c in source["cards"] if c["type"] != "hero"]
    cards: list[dict[str, Any]] = []
    used: set[str] = set()
    for i in range(count):
        if cards and rng.random() < 0.05:  # a reprint: the same card under another id
            card = dict(rng.choice(cards))
            card["id"] = f"GEN-{i:05d}"
            cards.append(card)
            continue
        card = dict(templates[i % len(templates)])
        name = _name(rng)
        while name.casefold() in used:
            name += rng.choice(" -") + _name(rng)
        used.add(name.casefold())
        card["id"] = f"GEN-{i:05d}"
        card["name"] = name
        ja = "".join(rng.choice(_KANA) for _ in range(rng.randint(2, 6))) + f"{i}"
        zh = name if rng.random() < 0.05 else "".join(rng.sample(_HAN, rng.randint(2, 4))) + f"{i}"
        card["names"] = {"ja": ja, "zh": zh}
        cards.append(card)
    heroes = [c for c in source["cards"] if c["type"] == "hero"]
    (folder / "sets").mkdir(parents=True)
    for code, listed in (("GEN", cards), ("VZ01", heroes)):
        data = {"set": {"code": code, "name": code}, "cards": listed}
        text = yaml.safe_dump(data, allow_unicode=True)
        (folder / "sets" / f"{code.lower()}.yaml").write_text(text, "utf-8")


def _typed(database: CardDatabase, rng: random.Random, count: int) -> list[str]:
    """What a player types: prefixes, pieces from inside, letters in order and shuffled, in
    every language and case, ids, and texts that match nothing or everything."""
    shown = [t for card in database.cards.values() for t in (card.name, *card.names.values())]
    shown += [card.id for card in database.cards.values()]
    typed = ["", " ", "a", "K", "-", "・", "(", "gen-0", "ｋａ", "KA RI", "*", "?", "[a", "%", "_"]
    typed += ['"', "'", 'a"b', "\ud800", "zzzzq", "x" * 40, "ra ra", "ra-", "・ア", "1"]
    while len(typed) < count:
        text = rng.choice(shown)
        kind = rng.randrange(6)
        if kind == 0:
            typed.append(text[: rng.randint(1, 6)])
        elif kind == 1:
            start = rng.randrange(len(text))
            typed.append(text[start : start + rng.randint(1, 6)])
        elif kind == 2:
            typed.append("".join(rng.sample(text[:8], min(4, len(text[:8])))))
        elif kind == 3:
            picked = sorted(rng.sample(range(len(text)), min(len(text), rng.randint(2, 5))))
            typed.append("".join(text[i] for i in picked))
        elif kind == 4:
            typed.append(text[: rng.randint(1, 8)].upper())
        else:
            typed.append(text)
    return typed


def _answer(found: list[tuple[int, Any]]) -> list[tuple[int, str, str, str]]:
    return [(rank, key.shown, key.lang, key.card.id) for rank, key in found]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CardDatabase]:
    folder = tmp_path_factory.mktemp("cards")
    _generate(folder, 3000, seed=27)
    result = lint_database(folder, GAME)
    assert not result.errors and result.database is not None
    return folder, result.database


def _indexed(path: Path, root: Path, memory: CardDatabase) -> CardDatabase:
    cardindex.write(path, KEY, "v", root, memory)
    index = cardindex.CardIndex(path, KEY, "v", memory.game)
    return cardindex.open_database(index, GAME, root, Path(display(root)))


def _compare(memory: CardDatabase, indexed: CardDatabase, fts: bool | None) -> None:
    table = keyindex.table_of(indexed)
    assert table is not None
    if fts is not None:
        table = keyindex.KeyTable(table.connection, fts=fts)
        assert table.fts is fts
    old, new = CardIndex(memory), IndexedKeys(indexed, table)
    rng = random.Random(2027)
    places = [None, "spells", "skills", "portals", "hero"]
    for n, typed in enumerate(_typed(memory, rng, 400)):
        place = places[n % len(places)]

        def wanted(card: Any, place: str | None = place) -> bool:
            return GAME.section_of(card) == place

        test = None if place is None else wanted
        assert _answer(new.search(typed, test)) == _answer(old.search(typed, test)), (typed, place)
        limited = new.search(typed, test, LIMIT)
        assert _answer(limited) == _answer(old.search(typed, test))[:LIMIT]


def test_the_index_answers_as_memory_does(tmp_path: Path, generated: Any) -> None:
    root, memory = generated
    if not keyindex.trigrams_available():
        pytest.skip("this Python's SQLite has no FTS5 trigram tokenizer")
    indexed = _indexed(tmp_path / "db.sqlite", root, memory)
    table = keyindex.table_of(indexed)
    assert table is not None and table.fts
    _compare(memory, indexed, None)


@pytest.mark.parametrize("name", ["bundled", "altdb"])
def test_the_bundled_and_test_databases_answer_as_memory_does(tmp_path: Path, name: str) -> None:
    root = VZ01.parent.parent if name == "bundled" else ROOT / "tests" / "data" / "altdb"
    result = lint_database(root, GAME)
    assert not result.errors and result.database is not None
    indexed = _indexed(tmp_path / "db.sqlite", root, result.database)
    _compare(result.database, indexed, None)
    _compare(result.database, indexed, False)


def test_without_fts5_the_same(tmp_path: Path, generated: Any) -> None:
    """An index read without trigrams (forced), and one written by a Python without them."""
    root, memory = generated
    indexed = _indexed(tmp_path / "db.sqlite", root, memory)
    _compare(memory, indexed, False)


def test_written_without_fts5(tmp_path: Path, generated: Any, monkeypatch: Any) -> None:
    root, memory = generated
    monkeypatch.setattr(keyindex, "trigrams_available", lambda: False)
    indexed = _indexed(tmp_path / "db.sqlite", root, memory)
    monkeypatch.undo()
    table = keyindex.table_of(indexed)
    assert table is not None and not table.fts
    names = {n for (n,) in table.connection.execute("SELECT name FROM sqlite_master")}
    assert "keys_fts" not in names
    old, new = CardIndex(memory), IndexedKeys(indexed, table)
    for typed in ("dra", "gon", "Kari", "rgon", "gen-00", "アイ"):
        assert _answer(new.search(typed)) == _answer(old.search(typed)), typed


def test_hand_picked_answers(tmp_path: Path) -> None:
    """A small database, the expected keys written by hand: prefix (0), word start (1), inside
    (2), letters in order (3); shorter first within a rank, then alphabetical."""
    folder = tmp_path / "cards"
    (folder / "sets").mkdir(parents=True)
    source = yaml.safe_load(VZ01.read_text("utf-8"))
    template = next(c for c in source["cards"] if c["type"] == "spil")
    names = ["Red Dragon", "Dragonfly", "Snapdragon", "Dark Raging Node", "Tide Sprite"]
    cards = [
        {**template, "id": f"T-{i}", "name": name, "names": {"ja": f"竜{i}"}}
        for i, name in enumerate(names)
    ]
    data = {"set": {"code": "T", "name": "T"}, "cards": cards}
    (folder / "sets" / "t.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    result = lint_database(folder, GAME)
    assert not result.errors and result.database is not None
    indexed = _indexed(tmp_path / "db.sqlite", folder, result.database)
    table = keyindex.table_of(indexed)
    assert table is not None
    for fts in (True, False):
        search = IndexedKeys(indexed, keyindex.KeyTable(table.connection, fts=fts)).search
        assert [(r, k.shown) for r, k in search("drag")] == [
            (0, "Dragonfly"),
            (1, "Red Dragon"),
            (2, "Snapdragon"),
            (3, "Dark Raging Node"),
        ]
        assert [(r, k.shown, k.lang) for r, k in search("t-3")] == [(0, "T-3", "id")]
        assert [(r, k.shown) for r, k in search("竜")][:2] == [(0, "竜0"), (0, "竜1")]
        assert search("qqq") == []
        assert search("\ud800") == []


def test_only_the_cards_looked_at_are_read(tmp_path: Path, generated: Any) -> None:
    root, memory = generated
    indexed = _indexed(tmp_path / "db.sqlite", root, memory)
    table = keyindex.table_of(indexed)
    assert table is not None
    found = IndexedKeys(indexed, table).search("dra", None, LIMIT)
    assert len(found) == LIMIT
    read = dict.__len__(indexed.cards)  # the lazy table's cards read so far
    assert read <= LIMIT < len(memory.cards) // 10


def test_an_index_without_the_table_is_searched_in_memory(tmp_path: Path, generated: Any) -> None:
    root, memory = generated
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", root, memory)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE keys_fts") if keyindex.trigrams_available() else None
        connection.execute("DROP TABLE keys")
    index = cardindex.CardIndex(path, KEY, "v", memory.game)
    indexed = cardindex.open_database(index, GAME, root, Path(display(root)))
    assert keyindex.table_of(indexed) is None
    assert keyindex.table_of(memory) is None


def test_a_damaged_table_is_not_trusted(tmp_path: Path, generated: Any) -> None:
    """A postings row whose sum does not match: the search answers from memory, the same."""
    root, memory = generated
    path = tmp_path / "db.sqlite"
    cardindex.write(path, KEY, "v", root, memory)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE postings SET nos = substr(nos, 5)"
            " WHERE no = (SELECT postings FROM chars WHERE ch = 'g')"
        )
    index = cardindex.CardIndex(path, KEY, "v", memory.game)
    indexed = cardindex.open_database(index, GAME, root, Path(display(root)))
    table = keyindex.table_of(indexed)
    assert table is not None
    search = IndexedKeys(indexed, keyindex.KeyTable(table.connection, fts=False))
    with pytest.raises(keyindex.Damaged):
        list(search.table.in_order(["g", "n"]))
    for typed in ("gn", "g", "dragon", "ra"):
        assert _answer(search.search(typed)) == _answer(CardIndex(memory).search(typed)), typed
    assert search.memory is not None
