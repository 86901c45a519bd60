"""The case corpora: every deck under a corpus folder gets exactly the diagnostics beside it.

tests/cases/<CODE>/ (VARZ) is checked against the independent database tests/data/altdb;
tests/cases_azuki/<CODE>/ against the bundled Azuki database. Beside each deck `X.yaml`,
`X.expected` lists every diagnostic as `CODE LINE:COL` (or `CODE -`); order does not matter.
A deck is checked on 2026-12-01, or on the day its `X.date` gives (YYYY-MM-DD; SPEC §12), against
its corpus's database or the one under tests/data its `X.cards` names.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from varz_deck.core.cards.model import CardDatabase
from varz_deck.games import check_decks, open_database

HERE = Path(__file__).parent
CORPORA = {
    "varz": (HERE / "cases", HERE / "data" / "altdb"),
    "azuki": (HERE / "cases_azuki", HERE.parent / "card_data" / "azuki"),
}
DECK_SUFFIXES = {".yaml", ".yml", ".txt"}
CASE_DAY = dt.date(2026, 12, 1)


def _decks() -> list[tuple[str, Path]]:
    return [
        (game, deck)
        for game, (folder, _db) in CORPORA.items()
        for deck in sorted(folder.glob("*/*"))
        if deck.suffix in DECK_SUFFIXES
    ]


@cache
def _database(game: str) -> CardDatabase:
    return open_database(CORPORA[game][1])


@cache
def _named_database(name: str) -> CardDatabase:
    return open_database(HERE / "data" / name)


def _expected(deck: Path) -> Counter[str]:
    lines = deck.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    return Counter(" ".join(line.split()) for line in lines if line.strip())


def _found(deck: Path, database: CardDatabase) -> Counter[str]:
    dated = deck.with_suffix(".date")
    day = dt.date.fromisoformat(dated.read_text().strip()) if dated.exists() else CASE_DAY
    report = check_decks([deck], database, date=day)[0]
    return Counter(
        f"{d.code} {d.line}:{d.column}" if d.line is not None else f"{d.code} -"
        for d in report.diagnostics
    )


@pytest.mark.parametrize(
    ("game", "deck"),
    _decks(),
    ids=lambda v: v if isinstance(v, str) else f"{v.parent.name}/{v.name}",
)
def test_case(game: str, deck: Path) -> None:
    named = deck.with_suffix(".cards")
    database = _named_database(named.read_text().strip()) if named.exists() else _database(game)
    assert _found(deck, database) == _expected(deck)


def _assert_cases_for(folder: Path, codes: Iterable[str]) -> None:
    for code in codes:
        names = [p.name for p in (folder / code).iterdir() if p.suffix in DECK_SUFFIXES]
        assert any(n.startswith("bad_") for n in names), f"{code} has no failing case"
        assert any(n.startswith("ok_") for n in names), f"{code} has no passing case"
        for name in names:
            if name.startswith("bad_"):
                expected = _expected(folder / code / name)
                assert any(line.split()[0] == code for line in expected), f"{name} lacks {code}"


def test_every_varz_code_has_a_failing_and_a_passing_case() -> None:
    from varz_deck.core.messages.filecodes import FILE_CODES
    from varz_deck.games import get_game

    deck_file_codes = [info.code for info in FILE_CODES if info.code != "F009"]  # F009: deck codes
    deck_rules = [code for code, rule in get_game("varz").rules().items() if code[0] in "VW"]
    assert len(deck_rules) == 21  # V101-V118, W201-W203 (SPEC §4)
    _assert_cases_for(CORPORA["varz"][0], [*deck_file_codes, *deck_rules])


def test_every_azuki_rule_has_a_failing_and_a_passing_case() -> None:
    from varz_deck.games import get_game

    _assert_cases_for(CORPORA["azuki"][0], get_game("azuki").rules())
