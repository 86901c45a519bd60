"""The card library: which card database a deck is read with, for the command line, the language
server and the registration server alike (docs/reference/commands/, docs/reference/games.md).

The database named by the user (`--cards`, an editor setting, `$VARZ_DECK_CARDS`) serves every
deck; without one, each deck is read with the bundled database of its own game, and `--game`
names the game whose bundled database comes first. Each database is opened once, through the
cache, and kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import varz_deck.games as registry

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.files.source import DeckSource

CARDS_VARIABLE = "VARZ_DECK_CARDS"


def bundled_root(game: str | None = None) -> Path:
    """The bundled card database of a game (None: the default game)."""
    return registry.get_game(game).card_data


def named_root(cards: Path | None = None) -> Path | None:
    """The database the user named: `--cards`, else $VARZ_DECK_CARDS; None for neither."""
    if cards is not None:
        return cards
    env = os.environ.get(CARDS_VARIABLE)
    return Path(env) if env else None


def resolve_root(cards: Path | None = None, game: str | None = None) -> Path:
    """The database folder for a command: --cards, else the bundled database of --game when
    given, else $VARZ_DECK_CARDS, else the default game's bundled database (docs/reference/commands/)."""
    if cards is not None:
        return cards
    if game is not None:
        return bundled_root(game)
    return named_root() or bundled_root()


def root_for_game(game: str, primary: Path, primary_game: str | None, explicit: bool) -> Path:
    """The database folder a deck of `game` is read with: the one the user named serves every
    deck (`explicit`); else the primary database serves its own game's decks, and another game's
    decks are read with that game's bundled database (docs/reference/games.md)."""
    if explicit or primary_game is None or primary_game == game:
        return primary
    return bundled_root(game)


class CardLibrary:
    """The databases one command, editor session or server reads decks with, opened once each.

    `opener(root)` opens the database at a folder (the CLI's says what is wrong and exits; the
    servers keep the problems to show them)."""

    def __init__(
        self,
        opener: Callable[[Path], CardDatabase],
        cards: Path | None = None,
        game: str | None = None,
        *,
        near: bool = False,
    ) -> None:
        self.opener = opener
        self.cards = cards
        self.game = game
        self.near = near  # a deck file no installed game owns: the game.yaml game above it
        self.opened: dict[Path, CardDatabase] = {}

    @property
    def explicit(self) -> bool:
        """Whether the user chose the database (--cards, --game or $VARZ_DECK_CARDS): then it
        serves every deck, and a deck of another game gets one diagnostic saying so."""
        return self.cards is not None or self.game is not None or named_root() is not None

    def open(self, root: Path) -> CardDatabase:
        found = self.opened.get(root)
        if found is None:
            found = self.opened[root] = self.opener(root)
        return found

    def primary(self) -> CardDatabase:
        """The database the command names, or the default game's bundled one."""
        return self.open(resolve_root(self.cards, self.game))

    def bundled(self, game: str) -> CardDatabase:
        """A game's bundled database."""
        return self.open(bundled_root(game))

    def declared(self, source: DeckSource) -> CardDatabase | None:
        """With `near`, the database of the game declared in the game.yaml nearest above a deck
        file (docs/reference/game-yaml.md); None for none, or a deck that is no file."""
        if not self.near or source.argument is not None or source.text is None:
            return None
        from varz_deck.core.game.yamlgame import declared_folder

        path = Path(source.name)
        try:
            if not path.is_file():
                return None
        except (OSError, ValueError):
            return None
        root = declared_folder(path)
        return self.open(root) if root is not None else None

    def for_source(self, source: DeckSource) -> CardDatabase:
        """The database to read a deck with: the one named, else its own game's bundled one,
        else (`near`) that of the game declared above it."""
        primary = self.primary()
        if self.explicit:
            return primary
        key = registry.detect_game(source, primary.game)
        if key is None or registry.is_declared_game(key):
            return self.declared(source) or (primary if key is None else self.bundled(key))
        return self.open(
            root_for_game(key, resolve_root(self.cards, self.game), primary.game, False)
        )
