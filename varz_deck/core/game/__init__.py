"""The `Game` protocol: what the command line, the language server and the registration server
need from one game, put together from the rooms' own protocols (its card model for the card
rooms, its card checks for lint, its goldfish and tuner for analysis, its registrar, its card
look-up). Each room takes only the part it needs, so nothing below this module imports it.

A game is an object implementing `Game`, installed under the entry-point group
`varz_deck.games`; the registry (varz_deck/games/__init__.py) finds it. An option a game cannot
honour is a usage error naming the game; each capability says which options it honours.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from varz_deck.core.cards.model import CardModel, CardT

if TYPE_CHECKING:  # the protocol's types: a game module imports it without them (`check` is light)
    from varz_deck.core.analysis.capabilities import Goldfish, Tuner
    from varz_deck.core.analysis.glossary import Entry
    from varz_deck.core.cards.cardinfo import CardLookup
    from varz_deck.core.cards.model import CardDatabase, Format
    from varz_deck.core.decks.check import DeckReport, DeckWords
    from varz_deck.core.decks.entries import ListWords
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.complete import Completion
    from varz_deck.core.lint._base import CardFile
    from varz_deck.core.messages.rulebook import Rule
    from varz_deck.core.registration.registrar import Registrar


class Game(CardModel[CardT], Protocol[CardT]):
    """One game: its cards (of its card class `CardT`), deck files, rules and the capabilities
    every command asks for."""

    key: str
    name: str
    deck_schema: str  # a name in `schemas` (the deck-file schema)
    # Catalogue name -> schema file in the game's package (`varz-deck schema NAME`); the game
    # registers them when loaded (varz_deck.core.files.resources.register_schemas).
    schemas: Mapping[str, Path]
    sections: tuple[str, ...]  # list sections of a deck file
    slots: tuple[str, ...]  # single-card keys of a deck file
    lead: str  # the slot of the deck's leading card
    words: DeckWords

    @property
    def card_data(self) -> Path:
        """The game's bundled card database (a folder with formats.yaml)."""
        ...

    @property
    def list_words(self) -> ListWords:
        """The header words of the game's plain-text lists (docs/guides/player.md)."""
        ...

    def section_of(self, card: CardT) -> str | None:
        """The slot or section of a deck file a card goes in (None: none)."""
        ...

    def colours_of(self, card: CardT) -> tuple[str, ...]:
        """The card's colours (or what the game has in their place), for one-line summaries."""
        ...

    def builtin_formats(self) -> dict[str, Format]:
        """The formats a database of this game has when its formats.yaml names none."""
        ...

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        """Code -> the game's own checks of each card file (`cards lint`), registered as its
        deck rules are, on a `Rulebook[CardFile]` (core/lint/)."""
        ...

    def owns_deck(self, text: str) -> bool:
        """Whether a deck file's text is written for this game (its keys or list headers)."""
        ...

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport:
        """Read, resolve and check one deck (a file's text, a buffer, or a deck code) on a date
        (the entry point's, docs/guides/card-data.md)."""
        ...

    def rules(self) -> Mapping[str, Rule[Any]]:
        """Code -> rule, for every code the game owns (its deck rules and its card checks), for
        `varz-deck rules`."""
        ...

    @property
    def goldfish(self) -> Goldfish | None:
        """`varz-deck sim` (None: the game has no simulator; `sim` refuses it, exit 2)."""
        ...

    @property
    def lookup(self) -> CardLookup[CardT]:
        """`varz-deck cards show`, `cards search`."""
        ...

    @property
    def registrar(self) -> Registrar:
        """`varz-deck register`, `verify`, `diff`, `code`."""
        ...

    @property
    def tuner(self) -> Tuner | None:
        """`varz-deck stats`, `varz-deck tune` (None: neither; they refuse it, exit 2)."""
        ...

    @property
    def completion(self) -> Completion | None:
        """`varz-deck complete`: the game's own constraints on a completed deck (a declared
        game's default: `Completion()`, the declaration's alone; None: `complete` refuses the
        game, exit 2)."""
        ...

    @property
    def glossary(self) -> Sequence[Entry]:
        """The game's own terms for the figures its commands show, and shared terms restated in
        its words (the same key); `core.glossary.entries(game)` merges them. () for none."""
        ...
