"""The Azuki case corpus: every deck under tests/cases_azuki/<CODE>/ against card_data/azuki."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from varz_deck.cards import CardDatabase
from varz_deck.check import check_deck
from varz_deck.database import open_database

HERE = Path(__file__).parent
CASES = HERE / "cases_azuki"
AZUKI_DB = HERE.parent / "card_data" / "azuki"


def _decks() -> list[Path]:
    return sorted(p for p in CASES.glob("*/*") if p.suffix in (".yaml", ".yml"))


@pytest.fixture(scope="module")
def azuki() -> CardDatabase:
    return open_database(AZUKI_DB)


def _expected(deck: Path) -> Counter[str]:
    lines = deck.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    return Counter(" ".join(line.split()) for line in lines if line.strip())


def _found(deck: Path, database: CardDatabase) -> Counter[str]:
    report = check_deck(deck, database)
    return Counter(
        f"{d.code} {d.line}:{d.column}" if d.line is not None else f"{d.code} -"
        for d in report.diagnostics
    )


@pytest.mark.parametrize("deck", _decks(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case(deck: Path, azuki: CardDatabase) -> None:
    assert _found(deck, azuki) == _expected(deck)


def test_every_azuki_rule_has_a_failing_and_a_passing_case() -> None:
    from varz_deck.games import get_game

    for code in get_game("azuki").rules():
        names = [p.name for p in (CASES / code).iterdir() if p.suffix == ".yaml"]
        assert any(n.startswith("bad_") for n in names), f"{code} has no failing case"
        assert any(n.startswith("ok_") for n in names), f"{code} has no passing case"
        for name in names:
            if name.startswith("bad_"):
                assert code in {line.split()[0] for line in _expected(CASES / code / name)}
