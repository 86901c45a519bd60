"""VARZ decks for tests, read, resolved and checked as the game does: the core's reader and
resolver, given VARZ's declaration (varz_deck/games/varz/declaration.py)."""

from __future__ import annotations

import datetime

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.decks.entries import Entry
from varz_deck.core.decks.view import DeclaredDeck, Pick
from varz_deck.core.decks.view import resolve as resolve_of
from varz_deck.core.files.source import DeckSource
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.registration.code import DecodedDeck
from varz_deck.core.registration.code import decode as decode_of
from varz_deck.core.registration.code import is_code_argument as is_code_of
from varz_deck.games.varz import GAME
from varz_deck.games.varz.cards import Card
from varz_deck.games.varz.declaration import DECLARATION
from varz_deck.games.varz.layout import LAYOUT
from varz_deck.games.varz.view import VarzView

__all__ = [
    "AKANE",
    "DECLARATION",
    "GAME",
    "LAYOUT",
    "REGISTRAR",
    "SECTIONS",
    "DeclaredDeck",
    "Entry",
    "akane_db",
    "check_parsed",
    "decode",
    "home",
    "is_code_argument",
    "new_deck",
    "read_code",
    "read_deck",
    "read_text",
    "resolve",
]

SECTIONS = DECLARATION.section_keys
REGISTRAR = GAME.registrar
read_deck = GAME.read_deck
read_code = GAME.read_code


def new_deck(path: str, hero: str | None = None, format: str | None = None) -> DeclaredDeck:
    """An empty VARZ deck as written, with its hero's reference (None: no hero key)."""
    deck = DeclaredDeck(path=path, sections=SECTIONS, format=format)
    if hero is not None:
        deck.picks["hero"] = Pick(hero, None, None)
    return deck


def check_parsed(
    deck: DeclaredDeck,
    problems: list[Diagnostic],
    database: CardDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> DeckReport:
    """A deck already read, checked on a day (None: the tests' today)."""
    return GAME.check_parsed(deck, problems, database, format_key, on_date(date))


def read_text(text: str, path: str = "deck.yaml") -> tuple[DeclaredDeck, list[Diagnostic]]:
    """A deck file's text read as the file `path` (YAML, or a list for a .txt)."""
    return GAME.read_deck(DeckSource(path, text))


def resolve(
    deck: DeclaredDeck,
    database: CardDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> tuple[VarzView, list[Diagnostic]]:
    view, problems = resolve_of(DECLARATION, deck, database, format_key, on_date(date), VarzView)
    assert isinstance(view, VarzView)
    return view, problems


def decode(code: str) -> DecodedDeck:
    return decode_of(code, LAYOUT)


def is_code_argument(argument: str) -> bool:
    return is_code_of(argument, LAYOUT)


def home(card_type: str) -> str | None:
    """The slot or section a card of this type goes in."""
    return DECLARATION.home(card_type)


def akane_db(
    hero_set: str = "S1", evolution_level: int = 6, banned: tuple[str, ...] = ()
) -> CardDatabase:
    """A small database: Akane (red fighter, Memory 5), ten red spells, Crimson VAZ and two
    colourless basic portals (Shield Life 2 and 3), in Standard (set S1, 2 effect portals)."""
    cards = [
        Card(id=f"{hero_set}-001", name="Akane", type="hero", set=hero_set, color="red", life=10,
             power=2, skill_classes=("fighter",), evolution_level=evolution_level, memory=5),
        *(Card(id=f"S1-01{i}", name=f"Filler {i}", type="spil", set="S1", color="red", cost=1,
               power=1) for i in range(10)),
        Card(id="S1-050", name="Crimson VAZ", type="skill", set="S1", skill_class="generic",
             vaz=True, color="red"),
        Card(id="S1-100", name="Plain Gate", type="portal", set="S1", color="colorless",
             shield_life=2),
        Card(id="S1-101", name="Stone Gate", type="portal", set="S1", color="colorless",
             shield_life=3),
    ]  # fmt: skip
    fmt = Format(
        "standard", "Standard", sets=("S1",), banned=banned, extra={"max_effect_portals": 2}
    )
    return CardDatabase(cards, {"standard": fmt})


AKANE = (
    "name: Test\n"
    "hero: Akane\n"  # line 2, column 7
    "spells:\n" + "".join(f"  Filler {i}: 3\n" for i in range(10)) + "skills:\n  Crimson VAZ: 9\n"
    "portals:\n  Plain Gate: 4\n  Stone Gate: 4\n"
)  # a legal deck of akane_db's cards, 30 spells, 9 skills, 8 portals of Shield Life 20
