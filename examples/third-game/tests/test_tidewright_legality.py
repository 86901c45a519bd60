"""Format legality is varz-deck's, for Tidewright as for every game: the four cases where the
verdict once hung on the order files or changes are read in give one verdict whatever the order
(a reprint in a set outside the format, two changes on one day, one set's release day in two
files, two printings restricted differently). Each expected verdict is written by hand from the
card data below and the format rules (docs/guides/card-data.md, "Dated formats")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import DECKS, Run

ICE_LINE = DECKS / "legal-ilse-harbor.yaml"
HEAD = "game: tidewright\nformats:\n  standard:\n    name: Open Sea\n"
HARBOR = "  harbor:\n    name: Harbor League\n    sets: [TW01]\n"
TIDES = "  tides:\n    name: Tides\n    sets: [TW01, TW04]\n"
SAILOR = "  - {{id: {id}, name: {name}, type: sailor, sea: north, cost: 2, might: 2}}\n"


def _database(tmp_path: Path, cards: Path, formats: str, **sets: str) -> Path:
    """The installed card data with this formats.yaml and these set files (name -> text)."""
    db = tmp_path / "card_data"
    shutil.copytree(cards, db)
    (db / "formats.yaml").write_text(formats, encoding="utf-8")
    for name, text in sets.items():
        (db / "sets" / name).write_text(text, encoding="utf-8")
    return db


def _deck(tmp_path: Path, format_key: str, swap: str | None = None) -> Path:
    """The Ice Line ship (examples/third-game/decks), in a format, its 3 Snow Petrel swapped
    for 3 of another north sailor when given."""
    text = ICE_LINE.read_text(encoding="utf-8").replace("format: harbor", f"format: {format_key}")
    if swap is not None:
        text = text.replace("  - 3 Snow Petrel\n", f"  - 3 {swap}\n")
    deck = tmp_path / "ship.yaml"
    deck.write_text(text, encoding="utf-8")
    return deck


def _check(run: Run, deck: Path, db: Path, day: str) -> tuple[int, list[tuple[str, str]]]:
    done = run("check", str(deck), "--cards", str(db), "--date", day, "-o", "json")
    assert done.returncode in (0, 1), done.stderr
    (entry,) = json.loads(done.stdout)["decks"]
    return done.returncode, sorted((d["code"], d["message"]) for d in entry["diagnostics"])


def _lint_clean(run: Run, db: Path) -> None:
    done = run("cards", "lint", str(db))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("reprint", ["a_tw03.yaml", "z_tw03.yaml"])
def test_a_reprint_in_a_set_outside_the_format_never_makes_a_card_released(
    tmp_path: Path, cards: Path, run: Run, reprint: str
) -> None:
    """Whale Singer is in TW04 (of Tides, released 2027-03-01) and in TW03 (not of Tides,
    released 2025-01-01), TW03's file read before or after TW04's: it is not legal in Tides
    before 2027-03-01."""
    db = _database(
        tmp_path,
        cards,
        HEAD + HARBOR + TIDES,
        **{
            "tw04.yaml": "set: {code: TW04, released: 2027-03-01}\ncards:\n"
            + SAILOR.format(id="TW04-001", name="Whale Singer"),
            reprint: "set: {code: TW03, released: 2025-01-01}\ncards:\n"
            + SAILOR.format(id="TW03-001", name="Whale Singer"),
        },
    )
    _lint_clean(run, db)
    deck = _deck(tmp_path, "tides", "Whale Singer")
    assert _check(run, deck, db, "2027-02-28") == (
        1,
        [("D118", "'Whale Singer' is in TW04, released 2027-03-01: not yet legal in Tides")],
    )
    assert _check(run, deck, db, "2027-03-01") == (0, [])


BAN = "      - date: 2027-01-15\n        banned: [TW01-005]\n"  # Gull Spotter
RESTRICT = "      - date: 2027-01-15\n        restricted: {TW01-004: 2}\n"  # Rigger Finn


@pytest.mark.parametrize("changes", [BAN + RESTRICT, RESTRICT + BAN], ids=["ban", "restriction"])
def test_two_changes_of_one_day_give_one_verdict_whatever_their_order(
    tmp_path: Path, cards: Path, run: Run, changes: str
) -> None:
    """On 2027-01-15 Harbor League bans Gull Spotter and restricts Rigger Finn to 2, the one or
    the other written first; the ship plays 3 of each."""
    db = _database(tmp_path, cards, HEAD + HARBOR + "    changes:\n" + changes)
    _lint_clean(run, db)
    deck = _deck(tmp_path, "harbor")
    assert _check(run, deck, db, "2027-01-01") == (0, [
        ("D203", "'Gull Spotter' is banned from 2027-01-15, in 14 days"),
        ("D203", "'Rigger Finn' is restricted to 2 from 2027-01-15, in 14 days; the deck plays 3"),
    ])  # fmt: skip
    assert _check(run, deck, db, "2027-01-15") == (1, [
        ("D116", "3 copies of 'Rigger Finn'; Harbor League restricts it to 2 since 2027-01-15: remove 1"),
        ("T106", "'Gull Spotter' is banned in Harbor League"),
    ])  # fmt: skip


@pytest.mark.parametrize(("dated", "undated"), [("a.yaml", "b.yaml"), ("b.yaml", "a.yaml")])
def test_a_set_s_release_day_given_in_one_of_its_two_files_is_the_set_s(
    tmp_path: Path, cards: Path, run: Run, dated: str, undated: str
) -> None:
    """TW04 is in two files, one with the day 2027-03-01, one without: the day is the set's
    whichever file is read first; Ice Warden (in the file without the day) waits for it."""
    db = _database(
        tmp_path,
        cards,
        HEAD + HARBOR + TIDES,
        **{
            dated: "set: {code: TW04, released: 2027-03-01}\ncards:\n"
            + SAILOR.format(id="TW04-001", name="Whale Singer"),
            undated: "set: {code: TW04}\ncards:\n"
            + SAILOR.format(id="TW04-002", name="Ice Warden"),
        },
    )
    _lint_clean(run, db)
    deck = _deck(tmp_path, "tides", "Ice Warden")
    assert _check(run, deck, db, "2027-02-28") == (
        1,
        [("D118", "'Ice Warden' is in TW04, released 2027-03-01: not yet legal in Tides")],
    )
    assert _check(run, deck, db, "2027-03-01") == (0, [])


@pytest.mark.parametrize("restricted", ["{TW01-004: 1, TW02-008: 3}", "{TW02-008: 3, TW01-004: 1}"])
def test_two_printings_restricted_to_different_limits_is_a_lint_error(
    tmp_path: Path, cards: Path, run: Run, restricted: str
) -> None:
    """TW01-004 and TW02-008 are both Rigger Finn: restricted to 1 and to 3, in either order, is
    C012 on the `restricted:` line (line 5), and no deck is checked against it."""
    db = _database(tmp_path, cards, HEAD + f"    restricted: {restricted}\n")
    done = run("cards", "lint", str(db), "-o", "json")
    assert done.returncode == 1, done.stdout
    found = [
        (d["code"], d["line"])
        for f in json.loads(done.stdout)["files"]
        for d in f["diagnostics"]
        if d["severity"] == "error"
    ]
    assert found == [("C012", 5)]
    done = run("check", str(_deck(tmp_path, "standard")), "--cards", str(db))
    assert done.returncode == 2 and "C012" in done.stderr
