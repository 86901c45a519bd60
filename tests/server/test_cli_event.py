"""`varz-deck event create --date --timezone` and `event list` as an aligned table (issue 26 point
3, SPEC §9 "The organiser's whole day").

Decided: `--timezone` defaults to the machine's zone ($TZ when it names a zone, else the zone
/etc/localtime links to, else UTC); a deadline written without an offset is read in the event's
zone; `--date` defaults to the deadline's date in the event's zone, else today there. An unknown
zone, a date that is not a day, a deadline already past: exit 2, nothing written. Times are shown
as `2030-01-15 09:30 (UTC+09:00, Asia/Tokyo)` everywhere.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import unicodedata
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from harness import run_cli


@pytest.fixture
def folder(tmp_path: Path, server_stack: None) -> Path:
    return tmp_path


def _create(folder: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return run_cli(["event", "create", *args], cwd=folder, env=env)


def _json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_deadline_without_offset_is_read_in_the_events_zone(folder: Path) -> None:
    event = _json(
        _create(
            folder, "Tokyo Open", "--timezone", "Asia/Tokyo", "--deadline", "2030-01-15T09:30",
            "--output", "json",
        )
    )  # fmt: skip
    assert event["deadline"] == "2030-01-15T09:30:00+09:00"
    assert event["timezone"] == "Asia/Tokyo"
    assert event["date"] == "2030-01-15"


def test_the_date_defaults_to_the_deadlines_date_in_the_events_zone(folder: Path) -> None:
    # 23:30 UTC on the 15th is 08:30 on the 16th in Tokyo
    event = _json(
        _create(
            folder, "Late UTC", "--timezone", "Asia/Tokyo", "--deadline",
            "2030-01-15T23:30:00+00:00", "--output", "json",
        )
    )  # fmt: skip
    assert event["date"] == "2030-01-16"
    assert event["deadline"] == "2030-01-16T08:30:00+09:00"
    given = _json(
        _create(
            folder, "Given", "--timezone", "Europe/Paris", "--date", "2030-02-01",
            "--deadline", "2030-01-31T20:00:00+01:00", "--output", "json",
        )
    )  # fmt: skip
    assert given["date"] == "2030-02-01" and given["timezone"] == "Europe/Paris"


def test_without_a_deadline_the_date_is_today_in_the_events_zone(folder: Path) -> None:
    before = datetime.datetime.now(ZoneInfo("Pacific/Kiritimati")).date()
    event = _json(_create(folder, "Today", "--timezone", "Pacific/Kiritimati", "--output", "json"))
    after = datetime.datetime.now(ZoneInfo("Pacific/Kiritimati")).date()
    assert event["date"] in (before.isoformat(), after.isoformat())


@pytest.mark.parametrize(
    ("tz", "expected"),
    [("Europe/Paris", "Europe/Paris"), (":Asia/Tokyo", "Asia/Tokyo")],
)
def test_the_timezone_defaults_to_the_machines_zone(folder: Path, tz: str, expected: str) -> None:
    event = _json(_create(folder, "Local", "--output", "json", env={"TZ": tz}))
    assert event["timezone"] == expected


def test_an_unusable_tz_falls_back_without_an_error(folder: Path) -> None:
    event = _json(_create(folder, "Odd TZ", "--output", "json", env={"TZ": "JST-9"}))
    ZoneInfo(event["timezone"])  # some real zone: /etc/localtime's, else UTC


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--timezone", "Mars/Olympus_Mons"], ["Mars/Olympus_Mons", "Asia/Tokyo"]),
        (["--timezone", "../../etc/passwd"], ["../../etc/passwd"]),
        (["--timezone", ""], ["--timezone"]),
        (["--date", "2030-02-30"], ["2030-02-30", "YYYY-MM-DD"]),
        (["--date", "15/01/2030"], ["15/01/2030", "YYYY-MM-DD"]),
        (["--date", "2030-W03-2"], ["2030-W03-2", "YYYY-MM-DD"]),
        (["--date", "２０３０-０１-１５"], ["YYYY-MM-DD"]),  # full-width digits
        (["--deadline", "2001-01-01T00:00:00+00:00"], ["2001-01-01", "passed"]),
        (["--deadline", "2001-01-01T09:00", "--timezone", "Asia/Tokyo"], ["passed"]),
    ],
)
def test_usage_errors_exit_2_and_write_nothing(
    folder: Path, args: list[str], words: list[str]
) -> None:
    done = _create(folder, "Bad", *args)
    assert done.returncode == 2, done
    for word in words:
        assert word in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (folder / "varz-deck.sqlite3").exists()


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_event_list_is_an_aligned_table_with_times_in_each_events_zone(folder: Path) -> None:
    tokyo = _json(
        _create(
            folder, "東京オープン", "--timezone", "Asia/Tokyo", "--deadline", "2030-01-15T09:30",
            "--output", "json",
        )
    )  # fmt: skip
    york = _json(
        _create(
            folder, "NY", "--timezone", "America/New_York", "--deadline",
            "2030-07-01T12:00", "--format", "standard", "--output", "json",
        )
    )  # fmt: skip
    done = run_cli(["event", "list"], cwd=folder)
    assert done.returncode == 0, done.stderr
    header, first, second = done.stdout.splitlines()
    assert header.split() == [
        "id", "name", "game", "format", "date", "deadline", "lists", "state"
    ]  # fmt: skip
    assert first.startswith(tokyo["event"]) and second.startswith(york["event"])
    assert "2030-01-15 09:30 (UTC+09:00, Asia/Tokyo)" in first
    assert "2030-07-01 12:00 (UTC-04:00, America/New_York)" in second
    assert " 2030-01-15 " in first and " 2030-07-01 " in second
    # every column starts at the same display column in every line (a CJK letter is 2 wide)
    for column, values in (
        ("game", ("varz", "varz")),
        ("date", ("2030-01-15", "2030-07-01")),
        ("deadline", ("2030-01-15 09:30", "2030-07-01 12:00")),
        ("state", ("open", "open")),
    ):
        at = _width(header[: header.index(column)])
        for line, value in zip((first, second), values, strict=True):
            assert _width(line[: line.index(value)]) == at, (column, line)
    rows = _json(run_cli(["event", "list", "--output", "json"], cwd=folder))["events"]
    assert [(r["date"], r["timezone"], r["deadline"]) for r in rows] == [
        ("2030-01-15", "Asia/Tokyo", "2030-01-15T09:30:00+09:00"),
        ("2030-07-01", "America/New_York", "2030-07-01T12:00:00-04:00"),
    ]
