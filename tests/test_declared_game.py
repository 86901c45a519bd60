"""The declaration engine on a small game declared here (no plugin installed): reading decks in
every form, the declared checks under the core's codes and under a game's own, copy limits chosen
by a card field, a format that exempts a section, a game with no lead card, and the schemas made
from the declaration. Expected values are written by hand from the cards and decks below."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from varz_deck.core.files.source import DeckSource
from varz_deck.plugin import (
    CardField,
    CardType,
    CheckCode,
    Copies,
    Declaration,
    DeclaredGame,
    Format,
    FormatCodes,
    Section,
    Size,
    Slot,
    msg,
)

DAY = dt.date(2027, 1, 10)

DECLARATION = Declaration(
    key="testgame",
    name="Test Game",
    prefix="Q",
    code_family="QG",
    fields={
        "cost": CardField("integer", minimum=0, maximum=9),
        "basic": CardField("flag"),
        "hue": CardField("word", ("red", "blue")),
        "text": CardField("text", common=True),
    },
    types={
        "chief": CardType("chief", needs=("hue",)),
        "unit": CardType("main", needs=("cost", "hue")),
        "land": CardType("main", needs=("hue",), may=("basic",)),
        "trick": CardType("side", needs=("cost",)),
    },
    slots=(Slot("chief", {"en": "Chief", "ja": "族長"}),),
    sections=(
        Section(
            "main",
            {"en": "Main", "ja": "メイン"},
            Size(exact=10),
            copies=(Copies(None, where={"basic": (True,)}), Copies(2)),
        ),
        Section(
            "side",
            {"en": "Side"},
            Size(minimum=1, maximum=3),
            copies=(
                Copies(
                    1,
                    code=CheckCode(
                        "Q104",
                        "side-copies",
                        messages={"over": msg("Q104", "{card}: {count} in the side; one of each")},
                    ),
                ),
            ),
            unless={"side": ("none",)},
        ),
    ),
    formats={"standard": "Standard"},
    format_codes=FormatCodes(banned=CheckCode("Q115", "banned")),
)

CARDS = [
    {"id": "QG1-001", "name": "Old Chief", "type": "chief", "hue": "red"},
    {"id": "QG1-002", "name": "Red Land", "type": "land", "hue": "red", "basic": True},
    {"id": "QG1-003", "name": "Keep", "type": "land", "hue": "red"},
    {"id": "QG1-004", "name": "Runner", "type": "unit", "cost": 1, "hue": "red"},
    {"id": "QG1-005", "name": "Feint", "type": "trick", "cost": 0},
    {"id": "QG2-004", "name": "Runner", "type": "unit", "cost": 1, "hue": "red"},  # a reprint
]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> DeclaredGame:
    return DeclaredGame(DECLARATION, tmp_path_factory.mktemp("cards"), colours=("hue",))


@pytest.fixture(scope="module")
def database(game: DeclaredGame) -> Any:
    cards = [game.make_card(raw, None, "cards.yaml", i) for i, raw in enumerate(CARDS, 1)]
    formats = {
        "standard": Format("standard", "Standard"),
        "strict": Format("strict", "Strict", banned=("QG2-004",)),
        "free": Format("free", "Free", extra={"side": "none"}),
    }
    return game.make_database(cards, formats)


def check(game: DeclaredGame, database: Any, text: str, name: str = "deck.yaml") -> list[Any]:
    report = game.check_deck(DeckSource(name, text), database, None, DAY)
    return [(d.code, d.line, d.message) for d in report.diagnostics]


LEGAL = "chief: Old Chief\nmain:\n  Red Land: 6\n  Runner: 2\n  Keep: 2\nside:\n  Feint: 1\n"


def test_a_legal_deck_in_every_form(game: DeclaredGame, database: Any) -> None:
    assert check(game, database, LEGAL) == []
    text = "Chief: Old Chief\nMain:\n6 Red Land\n2 Runner\n2 Keep\nSide:\n1 Feint\n"
    assert check(game, database, text, "deck.txt") == []
    code = game.registrar.encode(
        game.registrar.register(DeckSource("deck.yaml", LEGAL), database, date=DAY).canonical
    )
    assert code.startswith("QG1")
    report = game.check_deck(DeckSource(code, None, argument=code), database, None, DAY)
    assert report.legal and report.counts == {"main": 10, "side": 1}


def test_sizes_exact_and_bounded(game: DeclaredGame, database: Any) -> None:
    text = "chief: Old Chief\nmain:\n  Red Land: 12\nside:\n  Feint: 1\n  QG1-005: 1\n"
    found = check(game, database, text)
    assert ("D102", 2, "Main has 12 cards; it needs exactly 10 (remove 2)") in found
    short = "chief: Old Chief\nmain:\n  Red Land: 10\nside: {}\n"
    assert ("D102", 4, "Side has 0 cards; it needs at least 1 (add 1)") in check(
        game, database, short
    )


def test_copy_limits_by_card_field_and_printings_together(
    game: DeclaredGame, database: Any
) -> None:
    text = (
        "chief: Old Chief\nmain:\n  Red Land: 5\n  QG1-004: 2\n  QG2-004: 1\n  Keep: 2\n"
        "side:\n  Feint: 2\n"
    )
    found = check(game, database, text)
    assert found == [
        ("D103", 4, "3 copies of 'Runner' in Main; at most 2 (all printings together): remove 1"),
        ("Q104", 8, "'Feint': 2 in the side; one of each"),
    ]


def test_a_format_field_exempts_a_section(game: DeclaredGame, database: Any) -> None:
    text = "chief: Old Chief\nformat: free\nmain:\n  Red Land: 10\nside:\n  Feint: 3\n"
    assert check(game, database, text) == []


def test_a_ban_names_every_printing_under_the_games_code(game: DeclaredGame, database: Any) -> None:
    text = LEGAL.replace("main:", "format: strict\nmain:")
    assert check(game, database, text) == [("Q115", 5, "'Runner' is banned in Strict; replace it")]


def test_the_required_slot_and_a_card_out_of_place(game: DeclaredGame, database: Any) -> None:
    found = check(game, database, "main:\n  Red Land: 9\n  Feint: 1\nside:\n  Feint: 1\n")
    assert ("D101", None, "no Chief; a deck has exactly one Chief card: add `chief: NAME`") in found
    assert (
        "F008",
        3,
        "'Feint' is a trick card and cannot go in Main; put it under Side",
    ) in found


def test_the_rules_listed_are_the_games_own(game: DeclaredGame) -> None:
    assert sorted(game.rules()) == ["Q104", "Q115"]
    assert game.rules()["Q115"].section == "deck building"


def test_the_schemas_made_from_the_declaration(game: DeclaredGame) -> None:
    card_schema = game.schemas[game.card_schema]
    deck_schema = game.schemas[game.deck_schema]
    assert isinstance(card_schema, dict) and isinstance(deck_schema, dict)
    jsonschema.Draft202012Validator.check_schema(card_schema)
    jsonschema.Draft202012Validator.check_schema(deck_schema)
    valid = jsonschema.Draft202012Validator(card_schema)
    assert valid.is_valid({"cards": CARDS})
    assert not valid.is_valid({"cards": [{"id": "QG1-009", "name": "X", "type": "unit"}]})
    assert not valid.is_valid(
        {"cards": [{"id": "QG1-009", "name": "X", "type": "chief", "hue": "red", "cost": 1}]}
    )
    assert sorted(deck_schema["properties"]) == [
        "chief", "event", "format", "main", "name", "player", "side"
    ]  # fmt: skip


def test_a_card_keeps_its_fields_through_the_cache(game: DeclaredGame) -> None:
    card = game.make_card(CARDS[3], "QG1", "a.yaml", 3)
    again = game.card_from_json(json.loads(json.dumps(card.to_json())))
    assert again == card and again.cost == 1 and again.basic is None
    with pytest.raises(AttributeError):
        _ = card.nothing


NO_LEAD = Declaration(
    key="nolead",
    name="No Lead",
    prefix="N",
    code_family="NL",
    types={"card": CardType("deck")},
    sections=(Section("deck", {"en": "Deck"}, Size(exact=2)),),
)


def test_a_game_with_no_lead_card(tmp_path: Path) -> None:
    game = DeclaredGame(NO_LEAD, tmp_path)
    cards = [game.make_card({"id": "NL1-001", "name": "One", "type": "card"}, None, "f", 1)]
    database = game.make_database(cards, None)
    report = game.check_deck(DeckSource("d.yaml", "deck:\n  One: 2\n"), database, None, DAY)
    assert report.legal and report.lead_card is None
    assert report.to_json()["hero"] is None
