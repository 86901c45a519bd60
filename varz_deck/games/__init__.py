"""Games as data: the `Game` protocol the core calls, and the registry of games.

A card database says which game it is for (`game:` in its `formats.yaml`, default `varz`); the
core asks that game for its card schema, how to build a card from a card file's mapping, the
database class its references resolve against, how to check a deck file and which rules it has.
The core never imports a game module by name: `get_game` loads it on first use, so checking a VARZ
deck never imports the Azuki module (start-up time matters, see benchmarks/bench_check.py).

Adding a game is one module (a `Game` object named `GAME`) plus its data: `register_game` names
the module, nothing in the core changes (tests/test_games.py registers a toy game).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase, Format
    from varz_deck.core.check import DeckReport
    from varz_deck.core.diagnostics import Diagnostic
    from varz_deck.core.rulebook import Rule
    from varz_deck.core.strictyaml import Document

DEFAULT_GAME = "varz"


class Game(Protocol):
    """What the core needs from one game."""

    key: str
    name: str
    card_schema: str  # a name in varz_deck.core.schemas (the card-file schema)
    deck_schema: str  # a name in varz_deck.core.schemas (the deck-file schema)
    sections: tuple[str, ...]  # list sections of a deck file
    slots: tuple[str, ...]  # single-card keys of a deck file

    def builtin_formats(self) -> dict[str, Format]:
        """The formats a database of this game has when its formats.yaml names none."""
        ...

    def make_card(self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int) -> Any:
        """A card from one mapping of a card file the game's schema accepted."""
        ...

    def card_from_json(self, data: Mapping[str, Any]) -> Any:
        """A card from the cache (the inverse of the card's `to_json`)."""
        ...

    def make_database(self, cards: list[Any], formats: Mapping[str, Format] | None) -> CardDatabase:
        """The look-up index a deck's references resolve against."""
        ...

    def identity(self, card: Any) -> str:
        """What copy limits and printings count by (VARZ: the name; Azuki: the id)."""
        ...

    def game_fields(self, card: Any) -> dict[str, Any]:
        """The fields that make two printings of one card the same card (C003)."""
        ...

    def vocabulary(
        self, entries: list[Any], doc: Document, bad_paths: set[Any]
    ) -> Iterator[Diagnostic]:
        """C004: words of a card file outside the game's vocabulary."""
        ...

    def check_deck(
        self, path: Path, database: CardDatabase, format_key: str | None, shown: str | None
    ) -> DeckReport:
        """Read, resolve and check one deck file."""
        ...

    def goldfish(
        self,
        path: Path,
        database: CardDatabase,
        *,
        games: int,
        seed: int,
        turns: int,
        on: str,
        mulligan: str,
    ) -> tuple[dict[str, Any], bool]:
        """`varz-deck sim` for a game without its own report: the JSON document, and whether
        the deck could be simulated (VARZ keeps its richer simulator in varz_deck/games/varz/sim)."""
        ...

    def rules(self) -> Mapping[str, Rule[Any]]:
        """Code -> rule (with code, name, section, summary, doc), for `varz-deck rules`."""
        ...


# key -> module that defines GAME; modules are imported on first use only.
GAME_MODULES: dict[str, str] = {
    "varz": "varz_deck.games.varz",
    "azuki": "varz_deck.games.azuki",
}
GAMES: dict[str, Game] = {}


def register_game(key: str, module: str) -> None:
    """Make a game known by the module that defines its `GAME` (for a third game, or a test)."""
    GAME_MODULES[key] = module
    GAMES.pop(key, None)


def get_game(key: str | None) -> Game:
    """The game for a key (None: VARZ); KeyError for an unknown one."""
    key = key or DEFAULT_GAME
    game = GAMES.get(key)
    if game is None:
        module = importlib.import_module(GAME_MODULES[key])
        game = module.GAME
        GAMES[key] = game
    return game


def game_keys() -> tuple[str, ...]:
    return tuple(GAME_MODULES)
