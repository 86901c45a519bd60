"""The case corpus: every deck under tests/cases/<CODE>/ gets exactly the diagnostics beside it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from varz_deck.cards import CardDatabase
from varz_deck.check import check_deck
from varz_deck.database import open_database

CASES = Path(__file__).parent / "cases"
ALTDB = Path(__file__).parent / "data" / "altdb"
DECK_SUFFIXES = {".yaml", ".yml", ".txt"}


def _decks() -> list[Path]:
    return sorted(p for p in CASES.glob("*/*") if p.suffix in DECK_SUFFIXES)


@pytest.fixture(scope="module")
def altdb() -> CardDatabase:
    return open_database(ALTDB)


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
def test_case(deck: Path, altdb: CardDatabase) -> None:
    assert _found(deck, altdb) == _expected(deck)


def test_every_code_has_a_failing_and_a_passing_case() -> None:
    from varz_deck.codes import FILE_CODES
    from varz_deck.games.varz.rules import RULES

    deck_file_codes = [info.code for info in FILE_CODES if info.code != "F009"]  # F009: deck codes
    for code in deck_file_codes + list(RULES):
        folder = CASES / code
        names = [p.name for p in folder.iterdir() if p.suffix in DECK_SUFFIXES]
        assert any(n.startswith("bad_") for n in names), f"{code} has no failing case"
        assert any(n.startswith("ok_") for n in names), f"{code} has no passing case"
        for name in names:
            if name.startswith("bad_"):
                expected = _expected(folder / name)
                assert any(line.split()[0] == code for line in expected), (
                    f"{folder / name} lacks {code}"
                )
