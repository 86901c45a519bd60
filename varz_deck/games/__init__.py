"""The games: a registry from key to the module that defines the game's `GAME`.

The `Game` protocol is in varz_deck/core/game.py. A game is loaded on first use only, so checking
a VARZ deck never imports the Azuki package (start-up time matters, see benchmarks/bench_check.py).
Adding a game is one package plus one line in `GAME_MODULES` (tests/test_games.py registers a toy
game with `register_game`).

This module also binds the core's game-taking functions to the registry: opening and linting a
database of whatever game its formats.yaml names, checking decks, listing every code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from varz_deck.core.cards import DEFAULT_GAME

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase
    from varz_deck.core.check import DeckReport
    from varz_deck.core.codes import CodeInfo
    from varz_deck.core.database import LintResult
    from varz_deck.core.game import Game

__all__ = ["DEFAULT_GAME", "GAMES", "GAME_MODULES", "game_keys", "get_game"]

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


def database_game(root: Path) -> Game:
    """The game of the database at root (its formats.yaml `game:`; an unknown one is VARZ, and
    the formats schema reports it when linting)."""
    from varz_deck.core.database import database_game_key

    key = database_game_key(root)
    return get_game(key if key in GAME_MODULES else DEFAULT_GAME)


def open_database(root: Path, progress: Callable[[int, int], None] | None = None) -> CardDatabase:
    """The valid database at root, for its game; DatabaseError if invalid. `progress(done,
    total)` hears of each file when the database is not in the cache."""
    from varz_deck.core import database

    return database.open_database(root, database_game(root), progress)


def lint_database(root: Path, progress: Callable[[int, int], None] | None = None) -> LintResult:
    """Everything `cards lint` reports for the database at root, for its game."""
    from varz_deck.core import database

    return database.lint_database(root, database_game(root), progress)


def check_deck(
    path: Path, database: CardDatabase, format_key: str | None = None, shown: str | None = None
) -> DeckReport:
    """Check one deck file against a database (a format given here overrides the file's)."""
    return get_game(database.game).check_deck(path, database, format_key, shown)


def deck_game(path: Path, preferred: str) -> str | None:
    """The key of the game a deck is written for, from its keys or headers (or a deck code's
    prefix): `preferred` when it owns the deck, else the one other game that does; None when no
    game owns it (the preferred game's checks then say what is wrong)."""
    text = _peek(path)
    if text is None or get_game(preferred).owns_deck(text):
        return preferred
    owners = [k for k in GAME_MODULES if k != preferred and get_game(k).owns_deck(text)]
    return owners[0] if len(owners) == 1 else None


def _peek(path: Path) -> str | None:
    """The start of a deck file's text, or the argument itself when it names no regular file
    (a deck code); None when it cannot be read (the check reports why)."""
    import stat

    from varz_deck.core.source import overlay_text

    buffered = overlay_text(path)
    if buffered is not None:  # an editor's buffer (check_text)
        return buffered[:_PEEK_BYTES]
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with path.open("rb") as handle:
            return handle.read(_PEEK_BYTES).decode("utf-8", "replace")
    except FileNotFoundError:
        return str(path)
    except (OSError, ValueError):
        return None


_PEEK_BYTES = 65536


def check_decks(
    paths: Iterable[Path],
    database: CardDatabase,
    format_key: str | None = None,
    open_other: Callable[[str], CardDatabase] | None = None,
) -> list[DeckReport]:
    """Check each deck independently, in the order given. A deck written for another game is
    checked against `open_other(game)` (its bundled database) when given; otherwise it gets one
    F010 naming its game and the option to use (SPEC §8)."""
    reports = []
    for path in paths:
        owner = deck_game(path, database.game)
        if owner is None or owner == database.game:
            reports.append(check_deck(path, database, format_key))
        elif open_other is not None:
            reports.append(check_deck(path, open_other(owner), format_key))
        else:
            reports.append(_other_game(path, database, get_game(owner), format_key))
    return reports


def check_text(
    path: Path,
    text: str,
    database: CardDatabase,
    format_key: str | None = None,
    open_other: Callable[[str], CardDatabase] | None = None,
) -> DeckReport:
    """`check_decks` of one deck whose file holds `text` (an editor's buffer, varz_deck/lsp/):
    the same readers, limits and rules; the path's suffix says YAML or a text list."""
    from varz_deck.core.source import overlay

    with overlay({path: text}):
        return check_decks([path], database, format_key, open_other)[0]


def lint_text(root: Path, texts: Mapping[Path, str]) -> LintResult:
    """`lint_database` with some files of the database read as the texts given (open buffers)."""
    from varz_deck.core.source import overlay

    with overlay(texts):
        return lint_database(root)


def _other_game(
    path: Path, database: CardDatabase, owner: Game, format_key: str | None
) -> DeckReport:
    from varz_deck.core.check import DeckReport
    from varz_deck.core.diagnostics import diag
    from varz_deck.core.i18n import msg

    mine = get_game(database.game)
    wrong = msg(
        "F010",
        "this is a {game} deck, but the card database is for {mine}; "
        "check it with --game {key} (or --cards with a {game} database)",
    )
    problem = diag("F010", wrong(game=owner.name, mine=mine.name, key=owner.key), file=str(path))
    return DeckReport(
        str(path),
        None,
        format_key or "standard",
        None,
        {},
        (problem,),
        game=database.game,
        lead=mine.lead,
        places=(*mine.slots, *mine.sections),
    )


def all_codes(keys: Iterable[str] | None = None) -> dict[str, CodeInfo]:
    """Every code with its name, rulebook section and summary, in code order: the file and card
    codes, and the rules of the games named (default: every game)."""
    from varz_deck.core.codes import codes_with

    chosen = game_keys() if keys is None else tuple(keys)
    return codes_with(rule for key in chosen for rule in get_game(key).rules().values())


def extract_code_summaries(
    fileobj: Any, keywords: Mapping[str, Any], comment_tags: Sequence[str], options: Any
) -> Iterable[tuple[Any, ...]]:
    """Babel extraction method for core/codes.py: its marked messages, plus every code's one-line
    summary (context "summary") and each example of its rule's docstring (context "example"),
    from every game: what `varz-deck rules CODE` shows in another language."""
    from babel.messages.extract import extract_python

    yield from extract_python(fileobj, keywords, comment_tags, options)
    for info in all_codes().values():
        yield 0, "msg", ("summary", info.summary), []
        for _label, text in info.examples:
            yield 0, "msg", ("example", text), []
