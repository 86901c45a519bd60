"""Incremental `cards lint` (issue 27, SPEC §13): a lint that takes unchanged files' results from
the lint store says byte for byte what a cold lint (VARZ_DECK_NO_CACHE) says, in every output
and language, after any sequence of changes; a damaged, locked or shared store changes nothing.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from varz_deck.core.files.strictyaml import load
from varz_deck.core.lint import run as core_lint
from varz_deck.core.lint._file import exact
from varz_deck.core.messages.diagnostics import Diagnostic, from_tagged, to_tagged
from varz_deck.core.messages.i18n import localized
from varz_deck.core.report import json_report, sarif, text
from varz_deck.games import all_codes, lint_database

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "lint_cases"
LANGS = ("en", "ja", "zh")
WORDS = ("ember", "tide", "grove", "shade", "dawn", "rift", "neon", "gale", "iron", "mist")


# --------------------------------------------------------------------------- helpers


def same(a: object, b: object) -> bool:
    """Equal, every part of the same type (1, 1.0 and True differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        pairs = zip(a.items(), b.items(), strict=True)
        return len(a) == len(b) and all(same(k, j) and same(v, w) for (k, v), (j, w) in pairs)
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)  # NaN


def outputs(files: dict[str, list[Diagnostic]], root: Path) -> dict[str, str]:
    """What `cards lint` prints, in text, JSON and SARIF, English and Japanese."""
    diagnostics = [d for diags in files.values() for d in diags]
    shown: dict[str, str] = {"sarif": sarif.render(diagnostics, all_codes())}
    for lang in ("en", "ja"):
        shown[f"text-{lang}"] = text.render_lint(
            files, str(root), color=False, width=100, lang=lang
        )
        shown[f"json-{lang}"] = json_report.render_lint(files, lang)
    shown["zh"] = "\n".join(localized(d, "zh") for d in diagnostics)
    return shown


def cold(root: Path, monkeypatch: pytest.MonkeyPatch, **kw: object) -> core_lint.LintResult:
    with monkeypatch.context() as patch:
        patch.setenv("VARZ_DECK_NO_CACHE", "1")
        return lint_database(root, **kw)  # type: ignore[arg-type]


def assert_same_as_cold(root: Path, monkeypatch: pytest.MonkeyPatch, **kw: object) -> None:
    warm = lint_database(root, **kw)  # type: ignore[arg-type]
    base = cold(root, monkeypatch, **kw)
    assert list(warm.files) == list(base.files)
    assert outputs(warm.files, root) == outputs(base.files, root)
    for ours, theirs in zip(warm.diagnostics, base.diagnostics, strict=True):
        assert ours == theirs and ours.text == theirs.text
    if not base.errors:
        assert warm.database is not None and base.database is not None
        assert _cards(warm.database) == _cards(base.database)
        assert warm.database.formats == base.database.formats


def _cards(database: object) -> list[object]:
    return [(c.id, c.to_json()) for c in database.cards.values()]  # type: ignore[attr-defined]


def store_file(cache: Path) -> Path:
    return cache / "lint-varz.sqlite"


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


@pytest.fixture()
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths lint_file checks (a store hit is not checked)."""
    seen: list[str] = []
    original = core_lint.lint_file

    def spy(content: bytes, shown: str, *args: object) -> object:
        seen.append(shown)
        return original(content, shown, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(core_lint, "lint_file", spy)
    return seen


# --------------------------------------------------------------------------- a generated database


def _card(card_id: str, name: str, *, cost: int = 2, ja: str | None = None) -> str:
    return (
        f"  - id: {card_id}\n    name: {name}\n"
        f"    names: {{ja: {ja or name + 'ja'}, zh: {name}zh}}\n"
        f"    type: command\n    color: red\n    cost: {cost}\n"
    )


def _set_file(code: str, cards: list[str]) -> str:
    return f"set:\n  code: {code}\n  name: Set {code}\ncards:\n" + "".join(cards)


def generate(root: Path, rng: random.Random, sets: int = 8, per_set: int = 40) -> None:
    """A database with deliberate problems: ids used twice across files, printings that differ
    in a field and in a translation, names shared between cards, an id of another set, a schema
    violation, broken YAML, and formats naming an unknown card and set."""
    (root / "sets").mkdir(parents=True)
    for n in range(sets):
        code = f"S{n}"
        cards = []
        for i in range(per_set):
            serial = n * per_set + i
            cards.append(_card(f"{code}-{i:03d}", f"{rng.choice(WORDS).title()} {serial:04d}"))
        if n > 0:
            cards.append(_card(f"S0-{n:03d}", "Twice Used"))  # C002
            cards.append(_card(f"{code}-900", "Reprinted Card", cost=n % 3))  # C003
            cards.append(_card(f"{code}-901", "Translated", ja=f"訳{n}"))  # C103
            cards.append(_card(f"{code}-902", f"Other {n}", ja="Shared Name"))  # C101
        cards.append(_card(f"ZZ-{n:03d}", f"Wrong Set {n}"))  # C102
        if n == 3:
            cards.append(_card(f"{code}-950", "Bad Cost").replace("cost: 2", "cost: two"))
        (root / "sets" / f"s{n}.yaml").write_text(_set_file(code, cards), encoding="utf-8")
    (root / "sets" / "shared.yaml").write_text(
        _set_file("SH", [_card("SH-001", "Shared Name")]), encoding="utf-8"
    )
    (root / "sets" / "broken.yaml").write_text("cards:\n  - id: [\n", encoding="utf-8")
    (root / "notes.yaml").write_text("title: not a card file\n", encoding="utf-8")
    (root / "formats.yaml").write_text(
        "formats:\n  standard:\n    name: Standard\n    sets: [S0, S1, NOPE]\n"
        "    banned: [S0-001, S9-999, S5-003]\n",
        encoding="utf-8",
    )


def _card_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml") if p.name != "formats.yaml")


def operations(root: Path, rng: random.Random) -> Iterator[str]:
    """A seeded random sequence of changes to the database, each named."""
    broken: dict[Path, bytes] = {}
    kinds = ("change", "add", "remove", "move", "break", "fix", "touch", "formats")
    sequence = rng.sample(kinds, len(kinds)) + [rng.choice(kinds) for _ in range(8)]
    for serial, kind in enumerate(sequence, 1):
        files = _card_files(root)
        path = rng.choice(files)
        if kind == "change":
            data = path.read_text(encoding="utf-8")
            data = data.replace("cost: 2", f"cost: {rng.randint(1, 4)}", 1)
            data = data.replace("name: ", f"name: Changed{serial} ", 1)
            path.write_text(data, encoding="utf-8")
        elif kind == "add":
            code = f"N{serial}"
            cards = [_card(f"{code}-{i:03d}", f"New {serial} {i}") for i in range(5)]
            cards.append(_card("S1-001", "Twice Again"))  # an id another file has
            cards.append(_card(f"{code}-100", "Reprinted Card", cost=9))
            folder = root / "sets" / rng.choice(("", "extra"))
            folder.mkdir(exist_ok=True)
            (folder / f"n{serial}.yaml").write_text(_set_file(code, cards), encoding="utf-8")
        elif kind == "remove" and len(files) > 3:
            path.unlink()
            broken.pop(path, None)
        elif kind == "move":
            target = root / "sets" / rng.choice(("", "moved", "zz")) / f"m{serial}-{path.name}"
            target.parent.mkdir(exist_ok=True)
            path.rename(target)
            if path in broken:
                broken[target] = broken.pop(path)
        elif kind == "break":
            broken.setdefault(path, path.read_bytes())
            path.write_bytes(path.read_bytes() + b"  - id: [unclosed\n")
        elif kind == "fix" and broken:
            fixed = rng.choice(sorted(broken))
            fixed.write_bytes(broken.pop(fixed))
        elif kind == "formats":
            formats = root / "formats.yaml"
            formats.write_text(
                formats.read_text(encoding="utf-8").replace(
                    "S5-003", f"S{serial % 8}-00{serial % 5}"
                ),
                encoding="utf-8",
            )
        else:
            os.utime(path)
        yield kind


# --------------------------------------------------------------------------- the tests


def test_random_changes_lint_as_a_cold_lint(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    rng = random.Random(27)
    root = tmp_path / "db"
    generate(root, rng)
    monkeypatch.chdir(tmp_path)
    assert_same_as_cold(root, monkeypatch)
    codes = {d.code for d in lint_database(root).diagnostics}
    assert {"C001", "C002", "C003", "C005", "C101", "C102", "C103", "C104", "F002"} <= codes
    done = []
    for kind in operations(root, rng):
        done.append(kind)
        assert_same_as_cold(root, monkeypatch)
    assert set(done) == {"change", "add", "remove", "move", "break", "fix", "touch", "formats"}


def test_only_changed_files_are_checked_again(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(1), sets=4, per_set=10)
    monkeypatch.chdir(tmp_path)
    first = lint_database(root)
    assert len(checked) == 6  # four sets, the shared names, the broken file
    checked.clear()
    assert outputs(lint_database(root).files, root) == outputs(first.files, root)
    assert checked == []
    (root / "sets" / "s2.yaml").write_text(
        (root / "sets" / "s2.yaml").read_text(encoding="utf-8").replace("cost: 2", "cost: 3", 1),
        encoding="utf-8",
    )
    (root / "sets" / "s1.yaml").rename(root / "sets" / "renamed.yaml")
    lint_database(root)
    assert checked == [str(Path("db") / "sets" / "s2.yaml")]  # the renamed file is a hit
    assert_same_as_cold(root, monkeypatch)


@pytest.mark.parametrize("case", sorted(p for p in CASES.glob("*/*") if p.is_dir()), ids=str)
def test_every_lint_case_round_trips(
    case: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every diagnostic of every lint case, through the tagged form and through the store."""
    for d in cold(case, monkeypatch).diagnostics:
        back = from_tagged(json.loads(json.dumps(to_tagged(d))))
        fields = ("code", "severity", "message", "file", "line", "column", "section", "card")
        assert same([getattr(back, f) for f in fields], [getattr(d, f) for f in fields])
        assert same(back.text, d.text)
        for lang in LANGS:
            assert localized(back, lang) == localized(d, lang)
    lint_database(case)  # fills the store
    assert_same_as_cold(case, monkeypatch)


@pytest.mark.parametrize("part", ["head", "entry"])
def test_a_damaged_row_is_checked_again(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str], part: str
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(2), sets=3, per_set=5)
    monkeypatch.chdir(tmp_path)
    lint_database(root)
    with sqlite3.connect(store_file(cache)) as db:
        if part == "head":
            db.execute("UPDATE file_results SET head = head || ' '")
        else:
            db.execute("UPDATE entries SET line = line || ' '")
    checked.clear()
    lint_database(root)
    # a damaged head: every file is checked again; entries: the files of those a check needs
    files = (
        ["broken", "s0", "s1", "s2", "shared"] if part == "head" else ["s0", "s1", "s2", "shared"]
    )
    assert sorted(Path(p).stem for p in checked) == files
    assert_same_as_cold(root, monkeypatch)
    checked.clear()
    lint_database(root)
    assert checked == []  # and stored again


def test_a_store_of_another_layout_is_made_again(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(3), sets=2, per_set=5)
    monkeypatch.chdir(tmp_path)
    cache.mkdir()
    with sqlite3.connect(store_file(cache)) as db:
        db.execute("CREATE TABLE file_results (digest BLOB PRIMARY KEY, result TEXT, sum INTEGER)")
    assert_same_as_cold(root, monkeypatch)
    checked.clear()
    lint_database(root)
    assert checked == []


def test_a_damaged_store_file_is_replaced(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(3), sets=2, per_set=5)
    monkeypatch.chdir(tmp_path)
    lint_database(root)
    store_file(cache).write_bytes(b"not a database at all" * 100)
    for name in ("-wal", "-shm"):
        Path(f"{store_file(cache)}{name}").unlink(missing_ok=True)
    assert_same_as_cold(root, monkeypatch)
    with sqlite3.connect(store_file(cache)) as db:
        assert db.execute("SELECT count(*) FROM file_results").fetchone()[0] == 4


def test_a_locked_store_is_skipped(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(4), sets=2, per_set=5)
    monkeypatch.chdir(tmp_path)
    lint_database(root)
    (root / "sets" / "s1.yaml").write_text(
        (root / "sets" / "s1.yaml").read_text(encoding="utf-8") + _card("S1-777", "Late"),
        encoding="utf-8",
    )
    holder = sqlite3.connect(store_file(cache), isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("DELETE FROM file_results WHERE 0")
        assert_same_as_cold(root, monkeypatch)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store_file(cache).stat().st_size > 0  # not taken for damaged


def test_two_lints_at_once(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(5), sets=6, per_set=30)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VARZ_DECK_CACHE": str(cache)}
    command = [sys.executable, "-m", "varz_deck", "cards", "lint", "--output", "json", str(root)]
    runs = [
        subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE) for _ in range(2)
    ]
    found = [run.communicate(timeout=120)[0] for run in runs]
    again = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, check=False)
    monkeypatch.chdir(tmp_path)
    expected = json_report.render_lint(cold(root, monkeypatch).files, "en").encode()
    assert found == [expected, expected]
    assert again.stdout == expected


def test_editor_buffers_are_content_too(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The LSP's relint lints unsaved buffers: they are stored by content like files."""
    root = tmp_path / "db"
    generate(root, random.Random(6), sets=3, per_set=5)
    monkeypatch.chdir(tmp_path)
    path = root / "sets" / "s1.yaml"
    edited = path.read_text(encoding="utf-8").replace("cost: 2", "cost: 5", 1)
    for buffers in ({}, {path: edited}, {path: "cards: 7\n"}, {}, {path: edited}):
        assert_same_as_cold(root, monkeypatch, buffers=buffers)
    assert _rows(cache) == 5  # each file's saved content; a buffer's is not kept


def _rows(cache: Path) -> int:
    with sqlite3.connect(store_file(cache)) as db:
        return int(db.execute("SELECT count(*) FROM file_results").fetchone()[0])


def test_the_store_keeps_the_newest_rows(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from varz_deck.core.lint import lintstore

    monkeypatch.setattr(lintstore, "MAX_ROWS", 3)
    root = tmp_path / "db"
    generate(root, random.Random(9), sets=4, per_set=3)
    monkeypatch.chdir(tmp_path)
    assert_same_as_cold(root, monkeypatch)
    assert _rows(cache) == 3
    assert_same_as_cold(root, monkeypatch)


def test_no_cache_writes_no_store(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "db"
    generate(root, random.Random(7), sets=1, per_set=3)
    cold(root, monkeypatch)
    assert not cache.exists() or not store_file(cache).exists()
    assert sorted(p.name for p in root.rglob("*")) == sorted(
        ["sets", "s0.yaml", "shared.yaml", "broken.yaml", "notes.yaml", "formats.yaml"]
    )


def test_cache_info_and_clear_see_the_store(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from varz_deck.core.cards import cachestore

    root = tmp_path / "db"
    generate(root, random.Random(8), sets=1, per_set=3)
    lint_database(root)
    size = store_file(cache).stat().st_size
    assert size > 0 and cachestore.info().size >= size
    (cache / "lint-varz.sqlite-wal").write_bytes(b"x")
    (cache / "lint-..sqlite").write_bytes(b"not ours")
    cachestore.clear()
    assert "lint-..sqlite" in (left := sorted(p.name for p in cache.iterdir()))
    assert not [name for name in left if name.startswith("lint-varz")]
    assert_same_as_cold(root, monkeypatch)  # and a new store is made
    assert store_file(cache).is_file()


def _crowded(root: Path, rng: random.Random) -> None:
    """Card files whose ids, names, translations and fields collide often."""
    (root / "sets").mkdir(parents=True)
    names = ["Aoi", "Ember", "Tide", "aoi", "Ｅｍｂｅｒ", "Gale"]
    for n in range(6):
        cards = []
        for _ in range(rng.randint(0, 12)):
            card_id = f"{rng.choice(('S1', 'S2', 'X'))}-{rng.randint(1, 9):03d}"
            name = rng.choice(names)
            ja = rng.choice([*names, "葵", "火"])
            cards.append(_card(card_id, name, cost=rng.randint(1, 3), ja=ja))
            if rng.random() < 0.1:
                cards.append("  - 7\n")
        text = _set_file(rng.choice(("S1", "S2")), cards) if cards else "cards: []\n"
        (root / "sets" / f"f{n}.yaml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("seed", range(12))
def test_chosen_groups_find_what_every_entry_finds(tmp_path: Path, seed: int) -> None:
    """The whole-database checks run on chosen groups say what they say over every entry."""
    from varz_deck.core.lint import _whole, cards
    from varz_deck.core.lint._base import Cards
    from varz_deck.games import get_game

    game = get_game("varz")
    rules = list(game.card_rules().values())
    _crowded(tmp_path, random.Random(seed))
    results = []
    for path in sorted((tmp_path / "sets").glob("*.yaml")):
        done = core_lint.lint_file(path.read_bytes(), str(path), game, rules)
        assert done is not None
        results.append(done)
    flat = _whole.placed(results)
    everything = [e for f in results for e in f.entries()]
    expected = cards.ACROSS.run(Cards(everything, game))
    assert [(d, d.text) for d in _whole.across(flat, game)] == [(d, d.text) for d in expected]
    formats = tmp_path / "formats.yaml"
    formats.write_text(
        "formats:\n  f:\n    sets: [S1]\n    banned: [S1-001, S2-002, X-003, nope]\n"
        "    restricted: {S2-004: 1, S1-005: 2}\n",
        encoding="utf-8",
    )
    doc = load(formats.read_text(encoding="utf-8"))
    view = _whole.formats_view(doc, "formats.yaml", flat)
    ids: dict[str, str | None] = {}
    for e in everything:
        if e.id is not None:
            ids.setdefault(e.id, e.card.name if e.card is not None else None)
    assert view.ids == ids and list(view.ids) == list(ids)
    assert view.known_sets == {
        e.set_code or e.id.split("-", 1)[0] for e in everything if e.set_code or e.id
    }
    sets_of_name: dict[str, set[str]] = {}
    for e in everything:
        if e.card is not None:
            sets_of_name.setdefault(e.card.name, set()).add(e.card.set)
    for name in {ids.get(i) for i in ("S1-001", "S2-002", "X-003", "nope", "S2-004", "S1-005")}:
        if name is not None:  # only the names formats.yaml bans or restricts are looked up
            assert view.sets_of_name.get(name) == sets_of_name.get(name)


def test_a_clean_lint_gives_the_database_from_the_store(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    """What the LSP takes from a clean relint: the database, built from stored entries."""
    root = tmp_path / "db"
    (root / "sets").mkdir(parents=True)
    for n in range(3):
        cards = [_card(f"S{n}-{i:03d}", f"Card {n} {i}") for i in range(20)]
        (root / "sets" / f"s{n}.yaml").write_text(_set_file(f"S{n}", cards), encoding="utf-8")
    (root / "formats.yaml").write_text(
        "formats:\n  standard:\n    name: Standard\n    sets: [S0, S1]\n    banned: [S1-004]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    lint_database(root)
    checked.clear()
    warm = lint_database(root)
    assert warm.database is not None and checked == []
    assert len(warm.database.cards) == 60 and "standard" in warm.database.formats
    assert_same_as_cold(root, monkeypatch)


class _Text(str):
    pass


@pytest.mark.parametrize(
    ("value", "stored"),
    [
        ({"a": [1, 2.5, True, None, "x"]}, True),
        ({1: "x"}, False),  # JSON would give the key back as "1"
        ({"a": (1, 2)}, False),  # and a tuple as a list
        ({"a": _Text("x")}, False),  # and a str subclass as a str
        ([float("nan"), -0.0, 10**30], True),
        ({"a": {"b": [{"c": {True: 1}}]}}, False),
    ],
)
def test_only_what_json_gives_back_exactly_is_stored(value: object, stored: bool) -> None:
    assert exact(value) is stored
    if stored:
        assert same(json.loads(json.dumps(value)), value)


def test_files_the_store_cannot_keep_are_linted_each_time(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader gives only JSON's types; a result with another (here put in by hand, as a
    game's card rule or a future loader might) is not stored, and the file is checked each time."""
    seen: list[str] = []
    original = core_lint.lint_file

    def odd(content: bytes, shown: str, *args: object) -> object:
        seen.append(Path(shown).name)
        done = original(content, shown, *args)  # type: ignore[arg-type]
        if done is not None and shown.endswith("odd.yaml"):
            done.entries()[0].raw["extra"] = {1: "one"}
        return done

    monkeypatch.setattr(core_lint, "lint_file", odd)
    root = tmp_path / "db"
    (root / "sets").mkdir(parents=True)
    (root / "sets" / "odd.yaml").write_text(_set_file("S1", [_card("S1-001", "Odd")]), "utf-8")
    (root / "sets" / "fine.yaml").write_text(_set_file("S2", [_card("S2-001", "Fine")]), "utf-8")
    monkeypatch.chdir(tmp_path)
    lint_database(root)
    first = list(seen)
    seen.clear()
    lint_database(root)
    assert first == ["fine.yaml", "odd.yaml"] and seen == ["odd.yaml"]
    assert _rows(cache) == 1
    assert_same_as_cold(root, monkeypatch)


def test_the_store_s_key_is_everything_a_result_depends_on(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """varz-deck's version and the store's layout, the game, its package and version, its card
    schema and the card checks' codes: a change of any is another key (the lint is run again)."""
    from types import SimpleNamespace

    from varz_deck.core.lint import lintstore
    from varz_deck.games import get_game

    varz = get_game("varz")
    get_game("azuki")  # its schemas known

    def salt(
        game: object = varz, codes: tuple[str, ...] = ("C001", "C004"), origin: str = "p 1"
    ) -> bytes:
        store = lintstore.open_store(game, list(codes), origin)  # type: ignore[arg-type]
        assert store is not None
        store.close()
        return store.salt

    first = salt()
    assert salt() == first and len(first) == 20
    assert salt(origin="p 1.1") != first
    assert salt(codes=("C001", "C004", "C009")) != first
    other = SimpleNamespace(key=varz.key, card_schema="azuki-card")
    assert salt(other) != first  # another card schema
    renamed = SimpleNamespace(key="varz2", card_schema=varz.card_schema)
    assert salt(renamed) != first
    monkeypatch.setattr(lintstore, "__version__", "9.9.9")
    assert salt() != first
    monkeypatch.undo()
    monkeypatch.setenv("VARZ_DECK_CACHE", str(cache))
    monkeypatch.setattr(lintstore, "LAYOUT", lintstore.LAYOUT + 1)
    assert salt() != first
    assert lintstore.open_store(varz, [], "") is not None
    assert lintstore.open_store(SimpleNamespace(key="Not Ours", card_schema="card"), [], "") is None


def test_a_store_that_cannot_be_opened_is_no_store(cache: Path) -> None:
    """open_store gives None when the cache folder is unusable: here the store's file is a
    folder, which SQLite cannot open."""
    from varz_deck.core.lint import lintstore
    from varz_deck.games import get_game

    varz = get_game("varz")
    store = lintstore.open_store(varz, ["C001"], "")
    assert store is not None
    store.close()
    (cache / "lint-varz.sqlite").unlink()
    (cache / "lint-varz.sqlite").mkdir()
    assert lintstore.open_store(varz, ["C001"], "") is None
