"""The one resolver both games share (core/decks/entries.py), run on both games with one table of cases.

Each row is a situation in a section: the references written, and what the resolver must say. The
same rows are written as a VARZ spells section and as an Azuki main deck, with cards of each
bundled-style database (tests/data/altdb for VARZ, card_data/azuki for Azuki).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.decks.entries import Entry, resolve_sections
from varz_deck.core.messages.diagnostics import Mark
from varz_deck.games import get_game, open_database

ROOT = Path(__file__).resolve().parent.parent
DATABASES = {
    "varz": ROOT / "tests" / "data" / "altdb",
    "azuki": ROOT / "card_data" / "azuki",
}
SECTION = {"varz": "spells", "azuki": "main"}


@cache
def database(game: str) -> CardDatabase:
    return open_database(DATABASES[game])


def a_card(game: str) -> tuple[str, str]:
    """The id and name of a card of the game's main section whose name is one card's only."""
    db = database(game)
    home = SECTION[game]
    for card in sorted(db.cards.values(), key=lambda c: c.id):
        unique = len(db.lookup(card.name)) == 1 and db.lookup(card.id) == [card]
        if unique and get_game(game).section_of(card) == home:
            return card.id, card.name
    raise AssertionError("no card")


# (name of the case, entries as (kind, count): kind is "id", "name", "NAME" (other case),
#  "unknown"; expected (codes in order of lines, size of the section, copies of the card))
CASES = [
    ("once by name", [("name", 3)], [], 3, 3),
    ("once by id", [("id", 2)], [], 2, 2),
    ("twice: name then id", [("name", 3), ("id", 2)], ["F003"], 5, 5),
    ("twice: id then other case", [("id", 1), ("NAME", 1)], ["F003"], 2, 2),
    ("three times", [("name", 1), ("id", 1), ("NAME", 1)], ["F003", "F003"], 3, 3),
    ("unknown still counts", [("name", 2), ("unknown", 4)], ["F005"], 6, 2),
]


@pytest.mark.parametrize("game", ["varz", "azuki"])
@pytest.mark.parametrize(
    ("case", "written", "codes", "size", "copies"), CASES, ids=[c[0] for c in CASES]
)
def test_the_same_table_on_both_games(
    game: str, case: str, written: list[tuple[str, int]], codes: list[str], size: int, copies: int
) -> None:
    card_id, name = a_card(game)
    refs = {"id": card_id, "name": name, "NAME": f"  {name.upper()} ", "unknown": "Zzyzx Qwerty"}
    section = SECTION[game]
    entries = [
        Entry(section, refs[kind], count, Mark(line, 3))
        for line, (kind, count) in enumerate(written, start=1)
    ]
    slots, problems = resolve_sections(
        {section: entries}, database(game), "deck.yaml", lambda card, entry: None
    )
    assert [p.code for p in problems] == codes
    assert sum(slot.entry.count for slot in slots[section]) == size
    assert (
        sum(
            slot.entry.count
            for slot in slots[section]
            if slot.card is not None and slot.card.id == card_id
        )
        == copies
    )
    repeats = [p for p in problems if p.code == "F003"]
    for problem in repeats:
        assert problem.card == card_id
        assert problem.line is not None and problem.line > 1  # placed at the repeat, not the first


@pytest.mark.parametrize("game", ["varz", "azuki"])
def test_a_misplaced_card_is_the_game_s_f008_and_still_counts(game: str) -> None:
    from varz_deck.core.messages.diagnostics import diag

    card_id, _ = a_card(game)
    section = SECTION[game]
    entries = [Entry(section, card_id, 2, Mark(1, 1))]
    slots, problems = resolve_sections(
        {section: entries}, database(game), "deck.yaml", lambda card, entry: diag("F008", "no")
    )
    assert [p.code for p in problems] == ["F008"]
    assert slots[section][0].card is None and slots[section][0].entry.count == 2
