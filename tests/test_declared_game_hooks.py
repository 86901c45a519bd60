"""What a Python game may give a declared game beyond its declaration (core/game/declared.py):
its own view class, which its rules read; card checks of its own, listed with its rules; a
wording of a declared check that shows fewer values than the check offers.

A small made-up game ("Reed": a keeper, a pond of 3 reeds and stones) written here; every
expected value is written by hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

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
from varz_deck.core.decks.view import DeckView
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game.cards import DeclaredCard
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import CardName, msg, nmsg
from varz_deck.core.messages.rulebook import Rule, Rulebook
from varz_deck.core.report.codes import codes_with

ONE_COPY = CheckCode(
    "R103",
    "one-reed-each",
    doc="""At most 1 copy of a reed.

    Legal:   pond: {Cattail: 1, Rush: 2}
    Illegal: pond: {Cattail: 2, Rush: 1}
    """,
    messages={"over": msg("R103", "{card}: one copy only")},
)
POND_SIZE = CheckCode(
    "R102",
    "pond-size",
    doc="""The pond holds exactly 3 cards.

    Legal:   3 cards in the pond
    Illegal: 2 cards in the pond
    """,
    messages={
        "add": nmsg("R102", "the pond lacks a card", "the pond lacks cards"),
        "remove": nmsg("R102", "the pond has a card too many", "the pond has cards too many"),
    },
)

DECLARATION = Declaration(
    key="reed-test",
    name="Reed",
    prefix="R",
    code_family="RQ",
    types={"keeper": CardType("keeper"), "reed": CardType("pond"), "stone": CardType("pond")},
    slots=(Slot("keeper", {"en": "Keeper"}),),
    sections=(
        Section(
            "pond",
            {"en": "pond"},
            Size(exact=3),
            size_code=POND_SIZE,
            copies=(Copies(None, where={"type": ("stone",)}), Copies(1, code=ONE_COPY)),
        ),
    ),
)

CARDS = (
    DeclaredCard(id="RD-001", name="Heron", type="keeper", set="RD"),
    DeclaredCard(id="RD-002", name="Cattail", type="reed", set="RD"),
    DeclaredCard(id="RD-003", name="Rush", type="reed", set="RD"),
    DeclaredCard(id="RD-004", name="Pebble", type="stone", set="RD"),
)
LEGAL = "keeper: Heron\npond:\n  Cattail: 1\n  Rush: 1\n  Pebble: 1\n"


class ReedView(DeckView[Any]):
    """The view a Reed rule reads: the core's, and the keeper by its own name."""

    @property
    def keeper(self) -> Any:
        return self.lead

    def stones(self) -> int:
        return sum(e.count for card, e in self.resolved("pond") if card.type == "stone")


OWN: Rulebook[ReedView] = Rulebook()


def too_many_stones(view: ReedView) -> Iterator[Diagnostic]:
    """At most 2 stones, and only with a keeper.

    Legal:   keeper: Heron, pond: {Pebble: 2, Rush: 1}
    Illegal: keeper: Heron, pond: {Pebble: 3}
    """
    if view.stones() > 2:
        said = msg("R104", "{keeper} keeps {n} stones; at most 2")
        yield diag("R104", said(keeper=CardName.of(view.keeper), n=view.stones()), None)


OWN.rule("R104", "too-many-stones", "the pond")(too_many_stones)

CARD_CHECK: Rule[Any] = Rule(
    codes_with(())["C001"], lambda card_file: iter(()), lambda card_file: True
)


class Reed(DeclaredGame):
    """A Python game on the declaration: its own card checks, given by a method."""

    def card_rules(self) -> Mapping[str, Rule[Any]]:
        return {"R901": CARD_CHECK}


def _reed(tmp_path: Path, **options: Any) -> DeclaredGame:
    return Reed(DECLARATION, tmp_path, rules=OWN, **options)


def _check(game: DeclaredGame, text: str) -> Any:
    database = game.make_database(list(CARDS), None)
    return game.check_deck(DeckSource.from_text("pond.yaml", text), database, None, date=on_date())


def test_the_view_is_the_games_own_class_and_its_rules_read_it(tmp_path: Path) -> None:
    game = _reed(tmp_path, view_class=ReedView)
    report = _check(game, LEGAL)
    assert type(report.view) is ReedView and report.view.keeper.name == "Heron"
    assert report.diagnostics == ()
    stones = "keeper: Heron\npond:\n  Pebble: 3\n"
    (said,) = _check(game, stones).diagnostics
    assert (said.code, said.message) == ("R104", "'Heron' keeps 3 stones; at most 2")


def test_without_a_view_class_the_view_is_the_cores(tmp_path: Path) -> None:
    report = _check(DeclaredGame(DECLARATION, tmp_path), LEGAL)
    assert type(report.view) is DeckView


def test_a_games_own_card_checks_are_listed_with_its_rules(tmp_path: Path) -> None:
    assert list(_reed(tmp_path).rules()) == ["R102", "R103", "R104", "R901"]


def test_a_games_wording_carries_only_the_values_it_shows(tmp_path: Path) -> None:
    game = DeclaredGame(DECLARATION, tmp_path)
    deck = "keeper: Heron\npond:\n  Cattail: 2\n"
    found = {d.code: d for d in _check(game, deck).diagnostics}
    over = found["R103"]
    assert over.message == "'Cattail': one copy only"
    assert over.text is not None and dict(over.text.args) == {"card": CardName("Cattail")}
    short = found["R102"]  # 2 of 3: the plural form picked by n, which it keeps
    assert short.message == "the pond lacks cards"
    assert short.text is not None and dict(short.text.args) == {"n": 2}


def test_the_view_works_out_a_sections_copies_once(tmp_path: Path) -> None:
    """Every copy limit and format check asks by_card: one dict per section, the same each time."""
    view = _check(DeclaredGame(DECLARATION, tmp_path), LEGAL).view
    first = view.by_card("pond")
    assert view.by_card("pond") is first
    assert {key: count for key, (_card, count, _entry) in first.items()} == {
        "Cattail": 1,
        "Rush": 1,
        "Pebble": 1,
    }
