"""Dated formats (SPEC §12): a format's changes in force from their day on, the sets' release days,
what is announced ahead, and how they travel through the database, its cache and the command line.
Expected values are written by hand from SPEC §12."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.cards.formats import announced, unreleased
from varz_deck.core.cards.model import Format, FormatChange
from varz_deck.games import get_game, lint_database, open_database

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
ALTDB = ROOT / "tests" / "data" / "altdb"
D = dt.date

BAN = FormatChange(D(2027, 1, 15), banned=("B-1",), unbanned=("A-1",))
RESTRICT = FormatChange(D(2027, 2, 1), restricted={"R-1": 2, "R-2": 1}, unrestricted=("R-0",))
ROTATE = FormatChange(D(2027, 3, 1), sets=("S2", "S3"))
BASE = Format(
    "std",
    "Standard",
    sets=("S1", "S2"),
    banned=("A-1",),
    restricted={"R-0": 1, "R-1": 3},
    changes=(ROTATE, BAN, RESTRICT),  # written out of order: applied in date order
)


def test_before_the_first_change_the_format_is_as_written() -> None:
    on = BASE.on(D(2027, 1, 14))
    assert (on.sets, on.banned, dict(on.restricted)) == (
        ("S1", "S2"),
        ("A-1",),
        {"R-0": 1, "R-1": 3},
    )
    assert on.banned_on == {} and on.restricted_on == {}


def test_a_change_is_in_force_on_its_own_day() -> None:
    on = BASE.on(D(2027, 1, 15))
    assert on.banned == ("B-1",)
    assert on.banned_on == {"B-1": D(2027, 1, 15)}
    assert dict(on.restricted) == {"R-0": 1, "R-1": 3}


def test_changes_apply_in_date_order_whatever_order_they_are_written_in() -> None:
    on = BASE.on(D(2027, 3, 1))
    assert on.sets == ("S2", "S3")
    assert on.banned == ("B-1",)
    assert dict(on.restricted) == {"R-1": 2, "R-2": 1}
    assert on.restricted_on == {"R-1": D(2027, 2, 1), "R-2": D(2027, 2, 1)}
    assert on.changes == BASE.changes  # still known: what is announced is read from them


def test_an_unban_forgets_the_day_of_the_ban_and_a_ban_written_twice_keeps_the_first() -> None:
    again = FormatChange(D(2027, 1, 20), banned=("B-1",))
    lift = FormatChange(D(2027, 1, 25), unbanned=("B-1",))
    fmt = Format("f", "F", changes=(BAN, again, lift))
    assert fmt.on(D(2027, 1, 22)).banned_on == {"B-1": D(2027, 1, 15)}
    assert fmt.on(D(2027, 1, 25)).banned == () and fmt.on(D(2027, 1, 25)).banned_on == {}


@pytest.mark.parametrize("swap", [False, True])
def test_changes_of_one_day_apply_together_whatever_the_order_written(swap: bool) -> None:
    """Two limits of one card on one date (cards lint: C012): the lower one, in either order."""
    first = FormatChange(D(2027, 1, 15), restricted={"R-1": 2})
    second = FormatChange(D(2027, 1, 15), restricted={"R-1": 1})
    changes = (second, first) if swap else (first, second)
    on = Format("f", "F", changes=changes).on(D(2027, 1, 15))
    assert dict(on.restricted) == {"R-1": 1} and on.restricted_on == {"R-1": D(2027, 1, 15)}


def test_a_format_and_its_changes_survive_json() -> None:
    fmt = Format(
        "std", "Standard", released={"S3": D(2027, 2, 1)}, changes=BASE.changes, sets=("S1",)
    ).on(D(2027, 2, 1))
    again = Format.from_json(json.loads(json.dumps(fmt.to_json())))
    assert again == fmt
    assert again.changes[1].date == D(2027, 1, 15)


def test_a_cached_format_of_an_older_version_reads_without_changes() -> None:
    old = {"key": "s", "name": "S", "sets": None, "banned": ["X"], "restricted": {}, "extra": {}}
    assert Format.from_json(old) == Format("s", "S", banned=("X",))


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (D(2026, 11, 15), []),  # 61 days before the ban
        (D(2026, 11, 16), [(D(2027, 1, 15), 60)]),  # day 60 is included
        (D(2027, 1, 1), [(D(2027, 1, 15), 14), (D(2027, 2, 1), 31), (D(2027, 3, 1), 59)]),
        (D(2027, 1, 15), [(D(2027, 2, 1), 17), (D(2027, 3, 1), 45)]),  # day 0 is in force
    ],
)
def test_announced_changes_are_those_1_to_60_days_ahead(day: D, expected: list) -> None:
    assert [(a.date, a.days) for a in announced(BASE, day)] == expected


def test_an_announced_change_knows_the_format_before_and_on_its_day() -> None:
    (ban, *_rest) = announced(BASE, D(2027, 1, 1))
    assert ban.before.banned == ("A-1",) and ban.after.banned == ("B-1",)


def test_a_card_is_released_when_any_printing_is() -> None:
    fmt = Format("f", "F", released={"S2": D(2027, 2, 1), "S3": D(2027, 3, 1)})
    assert unreleased(fmt, ["S2", "S3"], D(2027, 1, 31)) == ("S2", D(2027, 2, 1))
    assert unreleased(fmt, ["S2", "S3"], D(2027, 2, 1)) is None
    assert unreleased(fmt, ["S3", "S1"], D(2027, 1, 1)) is None  # S1 has no day: always released
    assert unreleased(fmt, [], D(2027, 1, 1)) is None


def _dated_database(tmp_path: Path) -> Path:
    db = tmp_path / "db"
    shutil.copytree(ALTDB, db)
    return db


def test_the_database_reads_changes_and_release_days_and_the_cache_keeps_them(
    tmp_path: Path,
) -> None:
    db = _dated_database(tmp_path)
    cold = open_database(db)
    warm = open_database(db)  # from the cache this time
    dated = cold.formats["dated"]
    assert [c.date for c in dated.changes] == [D(2027, 1, 15), D(2027, 2, 1), D(2027, 3, 1)]
    assert dated.changes[0].banned == ("AB1-14",) and dated.changes[0].unbanned == ("AB1-20",)
    assert dated.changes[2].sets == ("AB1", "GT1")
    assert dated.released["ZZ3"] == D(2027, 2, 1) and dated.released["AB1"] == D(2025, 9, 12)
    assert cold.formats["standard"].released == dated.released  # every format knows them
    assert warm.formats == cold.formats


def test_a_database_whose_change_has_no_such_day_does_not_open(tmp_path: Path) -> None:
    db = _dated_database(tmp_path)
    text = (db / "formats.yaml").read_text(encoding="utf-8").replace("2027-02-01", "2027-02-30")
    (db / "formats.yaml").write_text(text, encoding="utf-8")
    result = lint_database(db)
    assert [d.code for d in result.errors] == ["C008"]


def _run(*args: object, day: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, [str(a) for a in args], env={"VARZ_DECK_TODAY": day, "COLUMNS": "200"}
    )
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_strict_fails_on_an_announced_change() -> None:
    deck = CASES / "W203" / "bad_ban_in_14_days.yaml"
    code, out = _run("check", deck, "--cards", ALTDB, day="2027-01-01")
    assert code == 0 and "W203" in out
    assert "'Inferno Drake' is banned from 2027-01-15, in 14 days" in out
    code, _ = _run("check", deck, "--cards", ALTDB, "--strict", day="2027-01-01")
    assert code == 1
    code, out = _run("check", deck, "--cards", ALTDB, "--strict", day="2026-11-15")
    assert code == 0 and "W203 warning" not in out


def test_one_day_ahead_says_day_in_the_singular_and_json_carries_the_date() -> None:
    deck = CASES / "W203" / "bad_ban_in_14_days.yaml"
    _code, out = _run("check", deck, "--cards", ALTDB, "--output", "json", day="2027-01-14")
    (entry,) = json.loads(out)["decks"]
    assert entry["date"] == "2027-01-14"
    assert [d["message"] for d in entry["diagnostics"]] == [
        "'Inferno Drake' is banned from 2027-01-15, in 1 day"
    ]


@pytest.mark.parametrize("code", ["V118", "W203", "A108", "A201", "C008", "C105", "C009", "C010"])
def test_rules_explains_each_new_code_with_its_examples(code: str) -> None:
    status, out = _run("rules", code, day="2027-01-01")
    assert status == 0
    assert code in out and ("Legal" in out or "Fine" in out)


def test_the_third_game_protocol_passes_the_date_on() -> None:
    import inspect

    for key in ("varz", "azuki"):
        parameters = inspect.signature(get_game(key).check_deck).parameters
        date = parameters["date"]  # required: the entry point decided the day
        assert list(parameters)[-1] == "date" and date.default is inspect.Parameter.empty


def test_changes_of_one_day_giving_two_set_lists_allow_the_sets_both_allow() -> None:
    """Two set lists on one date (cards lint: C013): the sets every list allows, in code order;
    one list alone is kept as written."""
    day = D(2027, 3, 1)
    both = (FormatChange(day, sets=("S3", "S1", "S2")), FormatChange(day, sets=("S2", "S3")))
    assert Format("f", "F", sets=("S1",), changes=both).on(day).sets == ("S2", "S3")
    one = (FormatChange(day, sets=("S3", "S1")),)
    assert Format("f", "F", sets=("S2",), changes=one).on(day).sets == ("S3", "S1")


def test_a_format_in_force_on_a_day_starts_again_from_the_one_written() -> None:
    later = BASE.on(D(2027, 3, 1))
    earlier = later.on(D(2027, 1, 14))
    assert (earlier.sets, earlier.banned, dict(earlier.restricted)) == (
        ("S1", "S2"),
        ("A-1",),
        {"R-0": 1, "R-1": 3},
    )
    assert [(a.date, a.days) for a in announced(later, D(2027, 1, 1))] == [
        (D(2027, 1, 15), 14),
        (D(2027, 2, 1), 31),
        (D(2027, 3, 1), 59),
    ]


def test_an_announced_unban_by_another_id_of_the_card_lifts_the_ban() -> None:
    """With a card key, the format on the change's date reads an unban of another printing's id
    as the card's (both ids name card "A")."""
    fmt = Format(
        "f", "F", banned=("A-1",), changes=(FormatChange(D(2027, 1, 15), unbanned=("A-2",)),)
    )
    key = {"A-1": "A", "A-2": "A"}.get
    (change,) = announced(fmt, D(2027, 1, 1), key=key)
    assert change.before.banned == ("A-1",)
    assert change.after.banned == ()
