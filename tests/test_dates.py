"""The date a deck is checked on (SPEC §12): given, else today (core/dates.py), and carried by the
report, its JSON and the resolved view of every game."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from varz_deck.core.dates import on_date, parse_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import check_deck, check_decks, get_game, open_database


def test_a_given_date_wins() -> None:
    assert on_date(dt.date(2027, 1, 15)) == dt.date(2027, 1, 15)


def test_no_date_is_today_in_local_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VARZ_DECK_TODAY", raising=False)
    before = dt.date.today()
    assert on_date(None) in {before, dt.date.today()}


def test_the_test_hook_stands_in_for_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VARZ_DECK_TODAY", "2027-02-28")
    assert on_date(None) == dt.date(2027, 2, 28)
    monkeypatch.setenv("VARZ_DECK_TODAY", "2027-02-30")  # no such day: ignored
    monkeypatch.delenv("VARZ_DECK_TODAY")
    assert on_date(None) == dt.date.today()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2027-01-15", dt.date(2027, 1, 15)),
        ("2028-02-29", dt.date(2028, 2, 29)),
        ("2027-02-29", None),
        ("2027-1-15", None),
        ("20270115", None),
        ("2027-01-15 ", None),
        ("２０２７-01-15", None),
        ("", None),
    ],
)
def test_dates_are_written_yyyy_mm_dd(text: str, day: dt.date | None) -> None:
    assert parse_date(text) == day


@pytest.mark.parametrize("game", ["varz", "azuki"])
def test_every_bundled_game_checks_on_the_date_given(game: str) -> None:
    database = open_database(get_game(game).card_data)
    deck = DeckSource.from_text("deck.yaml", "name: x\n")
    day = dt.date(2027, 3, 4)
    report = get_game(game).check_deck(deck, database, None, day)
    assert report.date == day
    assert report.view is None or report.view.date == day
    data = report.to_json()
    assert list(data)[:4] == ["path", "name", "format", "date"]
    assert data["date"] == "2027-03-04"


def test_a_resolved_view_carries_the_date(examples_dir) -> None:
    database = open_database(get_game("varz").card_data)
    deck = next(iter(sorted(examples_dir.glob("*.yaml"))))
    report = check_deck(deck, database, None, date=dt.date(2027, 3, 4))
    assert report.view is not None and report.view.date == dt.date(2027, 3, 4)


def test_no_date_checks_on_today(examples_dir) -> None:
    database = open_database(get_game("varz").card_data)
    deck = next(iter(sorted(examples_dir.glob("*.yaml"))))
    (report,) = check_decks([deck], database, date=on_date())
    assert report.date == dt.date(2026, 12, 1)  # the tests' today (tests/conftest.py)
    assert json.loads(json.dumps(report.to_json()))["date"] == "2026-12-01"
