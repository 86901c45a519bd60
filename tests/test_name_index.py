""" "Did you mean" from the card index (issue 27, core/cards/nameindex.py): the same answers as the
in-memory NameIndex, on either side of FULL_SCAN; a damaged row is never trusted."""

from __future__ import annotations

import difflib
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.cards import cardindex, nameindex, suggest
from varz_deck.core.cards.model import normalize
from varz_deck.core.cards.nameindex import IndexedNames
from varz_deck.core.cards.suggest import NameIndex

KEY = "0" * 40
WORDS = ("ember", "frost", "storm", "iron", "spark", "grove", "mist", "blaze", "drift", "tide")
WORDS += ("glitch", "fox", "moon", "ash")
KANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"
HANZI = "火水木金土风雷山海天地龙虎鸟花月星光影剑"


def _written(tmp_path: Path, names: dict[str, str], name: str = "names.sqlite") -> Path:
    """An index file with only meta and the name tables."""
    path = tmp_path / name
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN")
    connection.execute("CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID")
    meta = {"layout": cardindex.LAYOUT, "key": KEY, "version": "v", "game": "g"}
    meta |= {"fingerprint": "f", "fingerprint_sum": str(cardindex.row_sum(KEY, "f"))}
    connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    nameindex.write(connection, KEY, names)
    connection.execute("COMMIT")
    connection.close()
    return path


def _reader(path: Path) -> IndexedNames:
    return IndexedNames(cardindex.CardIndex(path, KEY, "v", "g"))


def _generated(rng: random.Random, count: int) -> dict[str, str]:
    """count names as bench_scale's cards have them: English words and a number, kana, hanzi."""
    names: dict[str, str] = {}
    while len(names) < count:
        kind = rng.randrange(10)
        if kind < 6:
            words = rng.sample(WORDS, rng.randrange(1, 4))
            shown = " ".join(w.title() for w in words) + f" {rng.randrange(100_000):05d}"
        elif kind < 9:
            shown = "".join(rng.choices(KANA, k=rng.randrange(3, 9)))
        else:
            shown = "".join(rng.choices(HANZI, k=rng.randrange(2, 6))) + str(rng.randrange(999))
        names.setdefault(normalize(shown), shown)
    return names


def _typo(rng: random.Random, name: str) -> str:
    """One edit (swap, drop, double, change), now and then two, or a name cut or padded."""
    for _ in range(1 + (rng.random() < 0.2)):
        if len(name) < 3:
            break
        i = rng.randrange(1, len(name) - 1)
        kind = rng.randrange(6)
        if kind == 0:
            name = name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]
        elif kind == 1:
            name = name[:i] + name[i + 1 :]
        elif kind == 2:
            name = name[:i] + name[i] + name[i:]
        elif kind == 3:
            name = name[:i] + rng.choice("aeiourstnl" + KANA) + name[i + 1 :]
        elif kind == 4:
            name = name[: rng.randrange(1, len(name))]
        else:
            name = name + " " + rng.choice(WORDS)
    return normalize(name)


@pytest.mark.parametrize(("count", "typos"), [(5_000, 10_000), (1_500, 300)], ids=str)
def test_the_answers_are_name_index_answers(tmp_path: Path, count: int, typos: int) -> None:
    rng = random.Random(count)
    names = _generated(rng, count)
    memory, indexed = NameIndex(names), _reader(_written(tmp_path, names))
    listed = list(names)
    wanted = [_typo(rng, rng.choice(listed)) for _ in range(typos)]
    wanted += ["", " ", "x", "ｘ", "🂡🂢🂣", "nothing like any card at all", *listed[:20]]
    for ref in wanted:
        assert indexed.close(ref) == memory.close(ref), ref
    for ref in wanted[:200]:
        assert indexed.close(ref, 5) == memory.close(ref, 5), ref
        assert indexed.close(ref, 1) == memory.close(ref, 1), ref


def _filler(count: int) -> dict[str, str]:
    """Names no test reference is close to (a ratio far below 0.6 with each of them)."""
    return {f"qz{n:06d}w": f"QZ{n:06d}W" for n in range(count)}


HAND = {
    "hibiki kagura": "Hibiki Kagura",
    "tide spirit": "Tide Spirit",
    "glitch fox": "Glitch Fox",
    "神楽ひびき": "神楽ひびき",
    "storm iron 52267": "Storm Iron 52267",
    "storm iron 92267": "Storm Iron 92267",
}


@pytest.mark.parametrize("filler", [0, 3_000], ids=["full scan", "trigrams"])
def test_hand_picked_answers(tmp_path: Path, filler: int) -> None:
    names = {**HAND, **_filler(filler)}
    indexed = _reader(_written(tmp_path, names))
    assert indexed.close("hibiki kagra") == ["Hibiki Kagura"]
    assert indexed.close("tide sprit") == ["Tide Spirit"]
    assert indexed.close("glich fox") == ["Glitch Fox"]
    assert indexed.close("神楽ひびぎ") == ["神楽ひびき"]
    # ratio 2*15/31 with the first, 2*14/31 with the second: best first
    assert indexed.close("storm iron52267") == ["Storm Iron 52267", "Storm Iron 92267"]
    assert indexed.close("storm iron52267", 1) == ["Storm Iron 52267"]
    assert indexed.close("nothing like it") == []
    assert indexed.close("") == []
    assert indexed.close("hibiki kagra") == ["Hibiki Kagura"]  # the remembered answer, unchanged


@pytest.mark.parametrize("filler", [0, 3_000], ids=["full scan", "trigrams"])
@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE names SET shown = 'Hibiki Kagurb' WHERE norm = 'hibiki kagura'",
        "UPDATE names SET norm = 'hibiki kagurb' WHERE norm = 'hibiki kagura'",
        "UPDATE names SET no = 999999 WHERE norm = 'hibiki kagura'",
        "UPDATE trigrams SET postings = substr(postings, 1, length(postings) - 4) || x'05000000'",
        "UPDATE trigrams SET n = n + 1",
        "UPDATE trigrams SET sum = sum + 1",
        "UPDATE trigrams SET postings = 'text'",
    ],
)
def test_a_damaged_row_is_never_trusted(tmp_path: Path, filler: int, damage: str) -> None:
    names = {**HAND, **_filler(filler)}
    path = _written(tmp_path, names)
    connection = sqlite3.connect(path)
    with connection:
        connection.execute(damage)
    connection.close()
    indexed = _reader(path)
    if filler == 0 and "trigrams" in damage:  # a full scan reads no trigram
        assert indexed.close("hibiki kagra") == ["Hibiki Kagura"]
        return
    with pytest.raises(cardindex.IndexDamaged, match=r"sum does not match|missing|numbered"):
        indexed.close("hibiki kagra")


def test_a_missing_name_is_damage(tmp_path: Path) -> None:
    path = _written(tmp_path, {**HAND, **_filler(3_000)})
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("DELETE FROM names WHERE norm = 'hibiki kagura'")
    connection.close()
    with pytest.raises(cardindex.IndexDamaged):
        _reader(path).close("hibiki kagra")


def test_the_stored_rows(tmp_path: Path) -> None:
    """The layout as documented: names in order; postings ascending little-endian uint32, one
    per occurrence of the trigram ("aaa" twice in "aaaa")."""
    path = _written(tmp_path, {"aaaa": "AAAA", "baaa": "Baaa"})
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT no, norm, shown FROM names").fetchall() == [
        (0, "aaaa", "AAAA"),
        (1, "baaa", "Baaa"),
    ]
    code = ((ord("a") * 2654435761) ^ (ord("a") * 40503) ^ ord("a")) & 0xFFFFFFFF
    row = connection.execute("SELECT n, postings FROM trigrams WHERE code = ?", (code,)).fetchone()
    assert row == (3, bytes([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]))
    assert connection.execute("SELECT count(*) FROM trigrams").fetchone() == (5,)
    connection.close()


def test_an_empty_database(tmp_path: Path) -> None:
    assert _reader(_written(tmp_path, {})).close("anything") == []


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=()), max_size=80))
def test_the_plain_hash_is_the_numpy_hash(text: str) -> None:
    codes, _ = suggest._trigram_codes([text])
    assert suggest.trigrams(text) == codes.tolist()


def test_forgetting_changes_no_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a reader remembers (rows, names, answers) is bounded; forgotten, it is read again."""
    monkeypatch.setattr(nameindex, "_HELD", 4_000)
    monkeypatch.setattr(nameindex, "_REMEMBERED", 40)
    rng = random.Random(7)
    names = _generated(rng, 3_000)
    memory, indexed = NameIndex(names), _reader(_written(tmp_path, names))
    listed = list(names)
    for ref in [_typo(rng, rng.choice(listed)) for _ in range(600)]:
        assert indexed.close(ref) == memory.close(ref), ref
        assert indexed.close(ref) == memory.close(ref), ref
    assert len(indexed._answers) <= 41
    assert len(indexed._names) <= 40 + 2 * suggest.CANDIDATES
    assert indexed._held <= 4_000 + 4 * suggest.POSTINGS


@pytest.mark.parametrize("game", ["varz", "azuki"])
def test_a_bundled_database_through_the_card_index(tmp_path: Path, game: str) -> None:
    """End to end: the index a cold build writes suggests what the database in memory does, for
    typos of each of its names in every language."""
    from varz_deck.core.cards.discovery import display
    from varz_deck.core.lint.database import lint_database
    from varz_deck.games import get_game

    loaded = get_game(game)
    root = loaded.card_data
    memory = lint_database(root, loaded).database
    assert memory is not None
    if not cardindex.supported(type(memory)):
        pytest.skip("this game's database is not indexed yet")
    cardindex.write(tmp_path / "db.sqlite", KEY, "v", root, memory)
    index = cardindex.CardIndex(tmp_path / "db.sqlite", KEY, "v", memory.game)
    indexed = cardindex.open_database(index, loaded, root, Path(display(root)))
    assert isinstance(indexed._names, IndexedNames)
    rng = random.Random(3)
    refs = [_typo(rng, shown) for shown in memory.shown_names().values()] + ["", "zzz"]
    for ref in refs:
        assert indexed.suggestions(ref) == memory.suggestions(ref), ref


def test_names_out_of_order_are_damage(tmp_path: Path) -> None:
    path = _written(tmp_path, HAND)
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("DELETE FROM names WHERE no = 1")
    connection.close()
    with pytest.raises(cardindex.IndexDamaged, match="not numbered in order"):
        _reader(path).close("hibiki kagra")


@pytest.mark.parametrize("extra", [0, 1])
def test_full_scan_up_to_its_limit(tmp_path: Path, extra: int) -> None:
    """FULL_SCAN names are all compared (no trigram read); one more, and the trigrams are read."""
    names = {**HAND, **_filler(suggest.FULL_SCAN - len(HAND) + extra)}
    path = _written(tmp_path, names)
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("DROP TABLE trigrams")
    connection.close()
    if extra:
        with pytest.raises(cardindex.IndexDamaged):
            _reader(path).close("tide sprit")
    else:
        assert _reader(path).close("tide sprit") == ["Tide Spirit"]


def test_an_answer_is_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    indexed = _reader(_written(tmp_path, {**HAND, **_filler(3_000)}))
    compared = []
    real = difflib.get_close_matches

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        compared.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(nameindex.difflib, "get_close_matches", counted)
    assert indexed.close("glich fox") == ["Glitch Fox"]
    indexed.index.close()  # neither the file is read again for the same question, nor difflib
    assert indexed.close("glich fox") == ["Glitch Fox"]
    assert compared == ["glich fox"]


def test_the_postings_budget_at_its_edge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With POSTINGS exactly the sum of a reference's rarest spans, those spans are read and the
    next is not, in both searches (the budget's edge is where a miscount would show)."""
    rng = random.Random(11)
    names = _generated(rng, 5_000)
    path = _written(tmp_path, names)
    listed = list(names)
    for ref in [_typo(rng, rng.choice(listed)) for _ in range(60)]:
        codes, _ = NameIndex(names)._index()
        sizes = sorted(int((codes == code).sum()) for code in set(suggest.trigrams(ref)))
        sizes = [size for size in sizes if size]
        for cut in {2, 3, len(sizes) - 1}:
            if 1 <= cut <= len(sizes):
                budget = sum(sizes[:cut])
                monkeypatch.setattr(suggest, "POSTINGS", budget)
                monkeypatch.setattr(nameindex, "POSTINGS", budget)
                assert _reader(path).close(ref) == NameIndex(names).close(ref), (ref, budget)


def test_damage_answered_from_the_rebuilt_database(tmp_path: Path) -> None:
    """Given the database rebuilt without the index, damage met is answered from that."""
    names = {**HAND, **_filler(3_000)}
    path = _written(tmp_path, names)
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE trigrams SET sum = sum + 1")
    connection.close()
    met: list[Exception] = []

    class Rebuilt:
        def shown_names(self) -> dict[str, str]:
            return names

    def rebuilt(err: Exception) -> Any:
        met.append(err)
        return Rebuilt()

    indexed = IndexedNames(cardindex.CardIndex(path, KEY, "v", "g"), rebuilt)
    assert indexed.close("hibiki kagra") == ["Hibiki Kagura"]
    assert indexed.close("glich fox") == ["Glitch Fox"]
    assert len(met) == 1 and isinstance(met[0], cardindex.IndexDamaged)


def test_within_reach_keeps_the_lengths_a_close_ratio_needs_and_at_most_candidates() -> None:
    # "abcdefg" (7): a ratio of 0.6 needs between 3 and 17 characters
    names = ["ab", "abc", "x" * 17, "x" * 18, "abcdefg"]
    assert suggest.within_reach(iter(names), "abcdefg") == ["abc", "x" * 17, "abcdefg"]
    many = [f"name{i:02}" for i in range(suggest.CANDIDATES + 4)]
    assert suggest.within_reach(many, "name00") == many[: suggest.CANDIDATES]
