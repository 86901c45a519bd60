"""What a declaration may say beyond the core's defaults (docs/reference/plugin.md): a slot's own
wording of a misplaced card (F008), the values a game's own wording of a size or a copy limit can
show, and a game's hand-written schema files in place of the ones made from its declaration.

A small made-up game ("Kite": a pilot, a deck of 4 kites and gusts) written here; every expected
message is written by hand.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from varz_deck.core.dates import on_date
from varz_deck.core.decks.declaration import (
    CardType,
    CheckCode,
    Copies,
    Declaration,
    Section,
    Size,
    Slot,
)
from varz_deck.core.files import resources, schemahints
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game.cards import DeclaredCard
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.i18n import msg


def _declaration(slot_words: dict[str, Any] | None = None, **codes: CheckCode) -> Declaration:
    return Declaration(
        key="kite-test",
        name="Kite",
        prefix="K",
        code_family="KQ",
        types={
            "pilot": CardType("pilot"),
            "kite": CardType("deck"),
            "gust": CardType("deck"),
        },
        slots=(Slot("pilot", {"en": "Pilot"}, misplaced=slot_words or {}),),
        sections=(
            Section(
                "deck",
                {"en": "kite deck"},
                Size(exact=4),
                size_code=codes.get("size"),
                copies=(Copies(2, code=codes.get("copies")),),
            ),
        ),
    )


CARDS = (
    DeclaredCard(id="KT-001", name="Aster", type="pilot", set="KT"),
    DeclaredCard(id="KT-002", name="Red Kite", type="kite", set="KT"),
    DeclaredCard(id="KT-003", name="Box Kite", type="kite", set="KT"),
    DeclaredCard(id="KT-004", name="Updraft", type="gust", set="KT"),
)


def _check(declaration: Declaration, text: str, tmp_path: Path, **options: Any) -> list[str]:
    game = DeclaredGame(declaration, tmp_path, **options)
    database = game.make_database(list(CARDS), None)
    report = game.check_deck(
        DeckSource.from_text("deck.yaml", text), database, None, date=on_date()
    )
    return [f"{d.code} {d.message}" for d in report.diagnostics]


LEGAL = "pilot: Aster\ndeck:\n  Red Kite: 2\n  Box Kite: 2\n"


def test_a_card_of_another_type_in_a_slot_is_said_in_the_slots_own_words(tmp_path: Path) -> None:
    named = msg("F008", "{card} is a {type} card, not a Pilot; name a Pilot card as pilot")
    deck = LEGAL.replace("pilot: Aster", "pilot: Red Kite")
    assert _check(_declaration({"named": named}), deck, tmp_path) == [
        "F008 'Red Kite' is a kite card, not a Pilot; name a Pilot card as pilot"
    ]
    # without its own words, the core's
    assert _check(_declaration(), deck, tmp_path) == [
        "F008 'Red Kite' is a kite card, not a Pilot; name a Pilot card as pilot"
    ]
    other = msg("F008", "{card} ({type}) cannot fly the {slot}: {key} takes a Pilot card")
    assert _check(_declaration({"named": other}), deck, tmp_path) == [
        "F008 'Red Kite' (kite) cannot fly the Pilot: pilot takes a Pilot card"
    ]


def test_a_slots_card_listed_in_a_section_is_said_in_the_slots_own_words(tmp_path: Path) -> None:
    listed = msg("F008", "{card} is a {type} card and cannot go in {section}; put it under {home}")
    deck = LEGAL.replace("  Box Kite: 2\n", "  Box Kite: 1\n  Aster: 1\n")
    assert _check(_declaration({"listed": listed}), deck, tmp_path) == [
        "F008 'Aster' is a pilot card and cannot go in kite deck; put it under Pilot"
    ]
    assert _check(_declaration(), deck, tmp_path) == [
        "F008 'Aster' is a pilot card and cannot go in kite deck; put it as Pilot"
    ]


def test_a_games_size_wording_may_show_the_size_asked_as_size(tmp_path: Path) -> None:
    said = msg("K102", "the kite deck has {n} cards; it must have exactly {size}")
    size = CheckCode("K102", "kite-deck-size", messages={"add": said, "remove": said})
    deck = LEGAL.replace("  Box Kite: 2\n", "  Box Kite: 1\n")
    assert _check(_declaration(size=size), deck, tmp_path) == [
        "K102 the kite deck has 3 cards; it must have exactly 4"
    ]


def test_a_games_copy_limit_wording_may_show_n_id_and_max(tmp_path: Path) -> None:
    said = msg("K103", "{n} copies of {card} ({id}); at most {max} of a card")
    copies = CheckCode("K103", "kite-copies", messages={"over": said})
    deck = LEGAL.replace("  Red Kite: 2\n  Box Kite: 2\n", "  Red Kite: 3\n  Box Kite: 1\n")
    assert _check(_declaration(copies=copies), deck, tmp_path) == [
        "K103 3 copies of 'Red Kite' (KT-002); at most 2 of a card"
    ]


def test_a_game_may_ship_its_own_schema_files(tmp_path: Path) -> None:
    """Given `schemas`, the game's files are its schemas (`varz-deck schema` prints them as
    written) and the core makes none and words none of their messages: the game does."""
    written = {}
    for name in ("kite-test-card", "kite-test-deck"):
        path = tmp_path / f"{name}.schema.json"
        path.write_text('{"$id": "urn:kite:' + name + '", "type": "object"}\n', encoding="utf-8")
        written[name] = path
    before = dict(schemahints.HINTS.get("kite-test-deck", {}))
    game = DeclaredGame(_declaration(), tmp_path, schemas=written)
    assert dict(game.schemas) == written
    for name, path in written.items():
        assert resources.schema_text(name) == path.read_text(encoding="utf-8")
        assert json.loads(resources.schema_text(name))["$id"] == f"urn:kite:{name}"
    assert schemahints.HINTS.get("kite-test-deck", {}) == before
    # the deck reader validates against the game's deck schema: an object with any keys
    assert _check(_declaration(), LEGAL, tmp_path, schemas=written) == []


@pytest.fixture(autouse=True)
def _forget_made_schemas() -> Any:
    """Each game made here registers its schemas by name; leave none behind."""
    yield
    for name in ("kite-test-card", "kite-test-deck"):
        resources._MADE.pop(name, None)
        resources._FILES.pop(name, None)
        schemahints.HINTS.pop(name, None)
    resources.schema.cache_clear()
    schemahints.hinted.cache_clear()


def test_a_declared_games_codes_are_listed_together_in_code_order(tmp_path: Path) -> None:
    """`varz-deck rules`, SARIF and the docs list each game's codes together, by code: its
    declared checks and its own Python rules alike."""
    from varz_deck.core.messages.rulebook import Rulebook
    from varz_deck.core.report.codes import codes_with

    own: Rulebook[Any] = Rulebook()
    own.rule("K100", "kite-torn", "kites")(_torn)
    size = CheckCode("K102", "kite-deck-size")
    copies = CheckCode("K103", "kite-copies")
    slot = CheckCode("K101", "pilot-missing")
    declaration = _declaration(size=size, copies=copies)
    declaration = replace(declaration, slots=(replace(declaration.slots[0], code=slot),))
    game = DeclaredGame(declaration, tmp_path, rules=own)
    listed = [code for code in codes_with(game.rules().values()) if code.startswith("K")]
    assert listed == ["K100", "K101", "K102", "K103"]


def _torn(view: Any) -> Any:
    """A kite is torn.

    Legal:   a whole kite
    Illegal: a torn kite
    """
    yield from ()
