"""The game object in this process (no entry point, no varz-deck database loading): its rules on
text-list decks, its deck detection, and that it imports nothing of the bundled games."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import yaml
from conftest import DECKS, PROJECT
from varz_deck.core.files.source import DeckSource

sys.path.insert(0, str(PROJECT))
from varz_deck.core.dates import on_date

from tidewright import GAME


@pytest.fixture(scope="module")
def database() -> Any:
    """The bundled cards, read with PyYAML and made with the game's own make_card."""
    data = PROJECT / "tidewright" / "card_data"
    cards = []
    for path in sorted((data / "sets").glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        code = document["set"]["code"]
        cards += [GAME.make_card(raw, code, str(path), 0) for raw in document["cards"]]
    formats = yaml.safe_load((data / "formats.yaml").read_text(encoding="utf-8"))["formats"]
    from varz_deck.core.cards.model import Format

    made = {k: Format(k, v["name"], sets=tuple(v["sets"]) if "sets" in v else None,
                      banned=tuple(v.get("banned", ()))) for k, v in formats.items()}  # fmt: skip
    return GAME.make_database(cards, made)


def _codes(report: Any) -> list[tuple[str, str, int | None]]:
    return [(d.code, d.severity.value, d.line) for d in report.diagnostics]


def test_the_legal_text_list_is_legal(database: Any) -> None:
    report = GAME.check_deck(
        DeckSource.from_path(DECKS / "legal-oren-south-west.txt"), database, None, date=on_date()
    )
    assert report.legal
    assert report.lead_card.id == "TW01-002"
    assert report.counts == {"crew": 20, "currents": 8}
    assert _codes(report) == []


def test_the_currents_rule_on_the_illegal_text_list(database: Any) -> None:
    report = GAME.check_deck(
        DeckSource.from_path(DECKS / "illegal-currents-size.txt"), database, None, date=on_date()
    )
    assert _codes(report) == [("T103", "error", 12)]
    assert report.diagnostics[0].message == "the currents hold 9 cards; they must hold exactly 8"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a crew of sailors from the south, under a captain of the north and east: T105 for each
        ("Captain: Mara Vell\nCrew:\n3 Reef Diver\nCurrents:\n8 North Current\n",
         [("T102", "error", 2), ("T201", "warning", 2), ("T105", "error", 3)]),
        # the two printings of Rigger Finn, by id, count together: T104 at the first line
        ("Captain: Ilse Brant\nCrew:\n2 TW01-004\n2 TW02-008\n3 Gull Spotter\n3 Ice Harpooner\n"
         "3 Frostline Bosun\n3 Snow Petrel\n2 Hard to Port\n2 Keelhaul\nCurrents:\n8 North Current\n",
         [("T104", "error", 3)]),
        # Harbor League: a TW02 captain (line 2) and a banned card (line 4); diagnostics in
        # line order
        ("Format: harbor\nCaptain: Sable Quay\nCrew:\n2 Broadside\nCurrents:\n8 South Current\n",
         [("T106", "error", 2), ("T102", "error", 3), ("T201", "warning", 3), ("T106", "error", 4)]),
        # a current in the crew is F008; no captain is T101
        ("Crew:\n1 North Current\nCurrents:\n8 North Current\n",
         [("T101", "error", None), ("T102", "error", 1), ("T201", "warning", 1), ("F008", "error", 2)]),
    ],
)  # fmt: skip
def test_rules_on_text_lists(database: Any, text: str, expected: list[Any]) -> None:
    report = GAME.check_deck(DeckSource("deck.txt", text), database, None, date=on_date())
    assert _codes(report) == expected


def test_deck_detection_by_keys_headers_and_code() -> None:
    assert GAME.owns_deck("captain: Mara Vell\ncrew:\n  Rigger Finn: 3\n")
    assert GAME.owns_deck("Currents:\n8 North Current\n")
    assert GAME.owns_deck("TW1AQAIVFcwMS0wMDEJioKBgYKBgJWBAouD714")
    assert not GAME.owns_deck("hero: Matsuri\nspells:\n  Ember Imp: 3\n")
    assert not GAME.owns_deck("leader: Raizan\nmain:\n  - 4 Penny\n")
    assert not GAME.owns_deck("AZ1AAAA")


def test_every_rule_has_a_docstring_with_examples() -> None:
    from varz_deck.core.report.codes import doc_examples

    rules = GAME.rules()
    assert sorted(rules) == ["T101", "T102", "T103", "T104", "T105", "T106", "T201"]
    for code, rule in rules.items():
        labels = [label for label, _ in doc_examples(rule.doc)]
        assert labels in (["Legal", "Illegal"], ["Fine", "Warning"]), code
        assert rule.section == "Building a ship"


def test_the_game_imports_no_bundled_game() -> None:
    probe = (
        "import sys; import tidewright, tidewright.rules; "
        "tidewright.GAME.registrar, tidewright.GAME.lookup, tidewright.GAME.tuner; "
        "print(sorted(m for m in sys.modules if m.startswith('varz_deck.games.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=PROJECT, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"


def test_a_dated_ban_applies_from_its_day_through_the_protocol(database: Any) -> None:
    """SPEC §12 reaches this game with no code of its own: the core gives its rules the format
    in force on the day the deck is checked for."""
    import dataclasses
    import datetime as dt

    from varz_deck.core.cards.model import FormatChange

    harbor = database.formats["harbor"]
    ban = FormatChange(dt.date(2027, 1, 15), banned=("TW01-005",))  # Gull Spotter
    database.formats["dated"] = dataclasses.replace(harbor, key="dated", changes=(ban,))
    try:
        text = "Format: dated\nCaptain: Ilse Brant\nCrew:\n3 Gull Spotter\nCurrents:\n8 North Current\n"
        before = GAME.check_deck(DeckSource("deck.txt", text), database, None, dt.date(2027, 1, 14))
        on_day = GAME.check_deck(DeckSource("deck.txt", text), database, None, dt.date(2027, 1, 15))
    finally:
        del database.formats["dated"]
    assert before.date == dt.date(2027, 1, 14) and on_day.date == dt.date(2027, 1, 15)
    banned = [(d.code, d.line) for d in on_day.diagnostics if d.code == "T106"]
    assert banned == [("T106", 4)]
    assert not [d for d in before.diagnostics if d.code == "T106"]
