"""The cache's integrity: a misnamed formats file must be part of the cache key (else a database
cached before it appeared hides its C007: issue 24), and a damaged, edited or foreign card index
is never served (issue 27): a row whose sum does not match, a file cut short or overwritten,
meta that does not fit, another key's index under this key's name. Each is removed and rebuilt,
and the output is the cold run's."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.games import open_database

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"  # legal in the bundled database


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


def bundled_copy(folder: Path, formats: bool = True) -> Path:
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", folder / "sets")
    if formats:
        shutil.copy(ROOT / "card_data" / "varz" / "formats.yaml", folder)
    return folder


def check(cards: Path) -> Any:
    return CliRunner().invoke(app, ["check", str(DECK), "--cards", str(cards)])


# --------------------------------------------------------------------------- misnamed formats


@pytest.mark.parametrize(
    ("name", "formats"),
    [
        ("Formats.yaml.txt", True),  # not a .yaml file: only the C007 check sees it
        ("format.yml.bak", True),
        ("formats.yaml.txt", False),  # beside no formats.yaml, a copy of one is misnamed too
        ("Formats.yaml", True),
    ],
)
def test_a_misnamed_formats_file_added_after_the_cache_was_built_is_c007(
    name: str, formats: bool, tmp_path: Path, private_cache: Path
) -> None:
    cards = bundled_copy(tmp_path / "db", formats)
    first = check(cards)
    assert first.exit_code == 0, first.output
    assert len(list(private_cache.glob("db-*.sqlite"))) == 1  # built and cached
    (cards / name).write_text("formats:\n  standard:\n    name: Standard\n", encoding="utf-8")
    second = check(cards)
    assert second.exit_code == 2, second.output
    assert "C007" in second.output and name in second.output
    (cards / name).unlink()
    assert check(cards).exit_code == 0  # and gone again: the first entry serves


# --------------------------------------------------------------------------- a damaged index


def ember_imp_cost(cards: Path) -> int:
    """Ember Imp's cost, read from its card file with PyYAML (not varz-deck)."""
    data = yaml.safe_load((cards / "sets" / "vz01.yaml").read_text(encoding="utf-8"))
    (card,) = [c for c in data["cards"] if c["name"] == "Ember Imp"]
    cost = card["cost"]
    assert isinstance(cost, int)
    return cost


def the_index(cache: Path) -> Path:
    (path,) = cache.glob("db-*.sqlite")
    return path


def edit(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as connection:
        for statement in statements:
            connection.execute(statement)
    connection.close()


EMBER = 'json LIKE \'%"name": "Ember Imp"%\''


def damage_row(path: Path, cards: Path) -> None:  # made blue: the red deck would be illegal
    edit(path, f"UPDATE cards SET json = replace(json, '\"red\"', '\"blue\"') WHERE {EMBER}")


def damage_ref(path: Path, cards: Path) -> None:  # every reference to Ember Imp means another
    edit(path, "UPDATE refs SET target = 'Hibiki Kagura' WHERE ref = 'ember imp'")


def damage_printing(path: Path, cards: Path) -> None:
    edit(path, "UPDATE printings SET card = card + 1 WHERE card_key = 'Ember Imp'")


def cut_short(path: Path, cards: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def overwritten(path: Path, cards: Path) -> None:
    data = bytearray(path.read_bytes())
    for at in range(4096, len(data), 997):
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))


def edit_meta(path: Path, cards: Path) -> None:
    edit(path, "UPDATE meta SET v = 'varz-deck 0.0' WHERE k = 'version'")


def another_keys_index(path: Path, cards: Path) -> None:
    """The index of another content (one card's cost changed), renamed to this key's name."""
    other = bundled_copy(cards.parent / "other")
    text = (other / "sets" / "vz01.yaml").read_text(encoding="utf-8")
    (other / "sets" / "vz01.yaml").write_text(text.replace("Ember Imp", "Ember Imq"), "utf-8")
    before = set(path.parent.glob("db-*.sqlite"))
    open_database(other)
    (built,) = set(path.parent.glob("db-*.sqlite")) - before
    os.replace(built, path)


def another_keys_index_relabelled(path: Path, cards: Path) -> None:
    """The same, its meta made to name this key: its rows still differ (Ember Imq)."""
    key = path.name.removeprefix("db-").removesuffix(".sqlite")
    another_keys_index(path, cards)
    edit(path, f"UPDATE meta SET v = '{key}' WHERE k = 'key'")


DAMAGE = [
    damage_row,
    damage_ref,
    damage_printing,
    cut_short,
    overwritten,
    edit_meta,
    another_keys_index,
    another_keys_index_relabelled,
]


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_a_damaged_index_is_rebuilt_and_the_output_is_the_cold_runs(
    damage: Any, tmp_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = bundled_copy(tmp_path / "db")
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    cold = check(cards)
    monkeypatch.delenv("VARZ_DECK_NO_CACHE")
    assert cold.exit_code == 0, cold.output
    assert check(cards).output == cold.output  # built
    path = the_index(private_cache)
    damage(path, cards)
    again = check(cards)
    assert (again.exit_code, again.output) == (cold.exit_code, cold.output)
    rebuilt = the_index(private_cache)
    assert rebuilt == path
    assert check(cards).output == cold.output  # the rebuilt index serves
    assert sqlite3.connect(rebuilt).execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_damaged_index_is_rebuilt_through_the_command_line(
    tmp_path: Path, private_cache: Path
) -> None:
    """The same through `check` in a child process: Ember Imp made blue in the index would make
    this red deck illegal if served."""
    cards = bundled_copy(tmp_path / "db")
    env = {**os.environ, "VARZ_DECK_CACHE": str(private_cache)}
    run = [sys.executable, "-m", "varz_deck", "check", str(DECK), "--cards", str(cards)]
    first = subprocess.run(run, capture_output=True, text=True, timeout=120, env=env)
    assert first.returncode == 0, first
    damage_row(the_index(private_cache), cards)
    again = subprocess.run(run, capture_output=True, text=True, timeout=120, env=env)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)


def test_a_cards_cost_from_the_index_is_the_files(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    cost = ember_imp_cost(cards)
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost
    edit(
        the_index(private_cache),
        f"UPDATE cards SET json = replace(json, '\"cost\": {cost}', '\"cost\": {cost + 5}')"
        f" WHERE {EMBER}",
    )
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost  # and from the rebuilt one


# --------------------------------------------------------------------------- deleted rows

# Rows deleted from the index (not edited): each names what the deck below reads.
DELETED = {
    "a card named by id": "DELETE FROM cards WHERE id = 'VZ01-008'",
    "a card named by name": f"DELETE FROM cards WHERE {EMBER}",
    "a card's printings": "DELETE FROM printings WHERE card_key = 'Ember Imp'",
    "a reprint": "DELETE FROM printings WHERE card_key = 'Scorch Shot' AND pos = 1",
    "a name": "DELETE FROM refs WHERE ref = 'ember imp'",
    "an id": "DELETE FROM id_refs WHERE ref = 'vz01-008'",
    "a format": "DELETE FROM formats WHERE key = 'standard'",
    "the last name of did-you-mean": "DELETE FROM names WHERE no = (SELECT max(no) FROM names)",
}


def typo_deck(folder: Path, cache: Path) -> Path:
    """The red deck with one more spell: a typo of the last name "did you mean" holds."""
    with sqlite3.connect(the_index(cache)) as connection:
        (last,) = connection.execute("SELECT shown FROM names ORDER BY no DESC LIMIT 1").fetchone()
    connection.close()
    deck = folder / "typo.yaml"
    text = DECK.read_text(encoding="utf-8")
    typo = last[:-1] + ("x" if last[-1] != "x" else "y")
    deck.write_text(text.replace("  Ember Imp: 3\n", f"  Ember Imp: 3\n  {typo}: 1\n"), "utf-8")
    return deck


def rows(path: Path) -> dict[str, int]:
    tables = ("cards", "printings", "refs", "id_refs", "formats", "names")
    with sqlite3.connect(path) as connection:
        found = {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    connection.close()
    return found


@pytest.mark.parametrize("statement", list(DELETED.values()), ids=list(DELETED))
def test_rows_deleted_from_the_index_are_found_and_it_is_rebuilt(
    statement: str, tmp_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer after the damage is the answer of a run with an empty cache folder, and the
    next run finds a whole index again (not the damaged one, reused run after run)."""
    cards = bundled_copy(tmp_path / "db")
    assert check(cards).exit_code == 0
    deck = typo_deck(tmp_path, private_cache)
    monkeypatch.setenv("VARZ_DECK_CACHE", str(tmp_path / "empty"))
    fresh = CliRunner().invoke(app, ["check", str(deck), "--cards", str(cards)])
    monkeypatch.setenv("VARZ_DECK_CACHE", str(private_cache))
    assert fresh.exit_code == 1 and "did you mean" in fresh.output, fresh.output
    path = the_index(private_cache)
    whole = rows(path)
    edit(path, statement)
    assert rows(path) != whole
    for _ in range(2):
        again = CliRunner().invoke(app, ["check", str(deck), "--cards", str(cards)])
        assert (again.exit_code, again.output) == (fresh.exit_code, fresh.output)
        assert rows(the_index(private_cache)) == whole  # rebuilt
