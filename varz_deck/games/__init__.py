"""The games: a registry of the installed games, read from the entry-point group `varz_deck.games`.

A game is an object implementing the `Game` protocol (varz_deck/core/game.py), installed as an entry
point `KEY = "module:GAME"` in the group `varz_deck.games` (SPEC §8); varz-deck registers its own
games the same way in its pyproject.toml, and names the default game (the one a database without
`game:` is for) in the group `varz_deck.default_game`. A game is imported on first use only, so
checking a deck of one game never imports another.

Reading entry points costs about 60 ms of start-up (importlib.metadata and every installed
distribution's metadata), so the registry is kept in the cache folder, keyed by the import path
and the modification times of its folders: installing or removing a package changes them.

This module also binds the core's game-taking functions to the registry: opening and linting a
database of whatever game its formats.yaml names, checking decks, listing every code.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game import Game
    from varz_deck.core.lint.database import LintResult
    from varz_deck.core.report.codes import CodeInfo

__all__ = ["GROUP", "default_game", "detect_game", "game_keys", "get_game", "register_game"]

GROUP = "varz_deck.games"
DEFAULT_GROUP = "varz_deck.default_game"
_CACHE_NAME = "games.json"


@dataclass
class _Registry:
    targets: dict[str, str]  # key -> "module:attribute"
    default: str | None
    loaded: dict[str, Game]


_REGISTRY: _Registry | None = None


def _fingerprint() -> list[str]:
    """What the registered entry points depend on: the interpreter, and each distribution's
    metadata folder on the import path with its modification time (an install, an upgrade or a
    removal changes them). A folder without distributions (the current one, usually) adds
    nothing, so the cache holds wherever the command runs."""
    parts = [sys.executable, sys.version]
    for entry in sys.path:
        try:
            names = sorted(n for n in os.listdir(entry or ".") if n.endswith(_METADATA))
        except OSError:
            continue
        for name in names:
            try:
                stamp = os.stat(os.path.join(entry or ".", name)).st_mtime_ns
            except OSError:
                stamp = -1
            parts.append(f"{entry}/{name}@{stamp}")
    return parts


_METADATA = (".dist-info", ".egg-info")


def _scan() -> tuple[dict[str, str], str | None]:
    from importlib.metadata import entry_points

    targets: dict[str, str] = {}
    for point in entry_points(group=GROUP):
        targets.setdefault(point.name, point.value)
    default = None
    for point in entry_points(group=DEFAULT_GROUP):
        default = next((k for k, v in targets.items() if v == point.value), None)
        if default is not None:
            break
    return targets, default


def _cached() -> tuple[dict[str, str], str | None]:
    """The registered games, from the cache when the installed packages are unchanged."""
    from varz_deck.core.cards.cachestore import cache_dir

    folder = cache_dir()
    fingerprint = _fingerprint()
    path = folder / _CACHE_NAME if folder is not None else None
    if path is not None:
        with contextlib.suppress(OSError, ValueError):  # unreadable or damaged: read them again
            data = json.loads(path.read_text(encoding="utf-8"))
            data = data if isinstance(data, dict) else {}
            targets, default = data.get("games"), data.get("default")
            if (
                data.get("fingerprint") == fingerprint
                and isinstance(targets, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in targets.items())
                and (default is None or default in targets)
            ):
                return dict(targets), default
    targets, default = _scan()
    if path is not None and targets:
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{_CACHE_NAME}.{os.getpid()}.tmp")
            record = {"fingerprint": fingerprint, "games": targets, "default": default}
            temporary.write_text(json.dumps(record), encoding="utf-8")
            os.replace(temporary, path)
    return targets, default


def _registry() -> _Registry:
    global _REGISTRY
    if _REGISTRY is None:
        targets, default = _cached()
        _REGISTRY = _Registry(targets, default, {})
    return _REGISTRY


def register_game(key: str, target: str) -> None:
    """Make a game known for this process by "module:attribute" (or a module defining `GAME`):
    for a test, or a program that embeds varz-deck. Installed games use the entry point."""
    registry = _registry()
    registry.targets[key] = target if ":" in target else f"{target}:GAME"
    registry.loaded.pop(key, None)


def unregister_game(key: str) -> None:
    """Forget a game `register_game` made known."""
    registry = _registry()
    registry.targets.pop(key, None)
    registry.loaded.pop(key, None)


def default_game() -> str:
    """The key of the game a database without `game:` is for (the default game's entry point)."""
    registry = _registry()
    if registry.default is not None:
        return registry.default
    if not registry.targets:
        raise LookupError(f"no game is installed (entry-point group {GROUP})")
    return next(iter(registry.targets))


def game_keys() -> tuple[str, ...]:
    """The installed games' keys: the default game first, then the others by key."""
    registry = _registry()
    first = default_game() if registry.targets else None
    return tuple(sorted(registry.targets, key=lambda k: (k != first, k)))


def get_game(key: str | None) -> Game:
    """The game for a key (None: the default game); KeyError for one that is not installed."""
    registry = _registry()
    key = key or default_game()
    game = registry.loaded.get(key)
    if game is None:
        target = registry.targets[key]
        module, _, attribute = target.partition(":")
        try:
            game = importlib.import_module(module)
            for name in attribute.split("."):
                game = getattr(game, name)
        except Exception as exc:  # a broken plugin: say which, never a traceback
            raise GameUnavailable(key, target, exc) from exc
        registry.loaded[key] = game
    return game


class GameUnavailable(Exception):
    """An installed game whose entry point cannot be loaded (a broken or half-installed package)."""

    def __init__(self, key: str, target: str, error: BaseException) -> None:
        from varz_deck.core.messages.i18n import msg
        from varz_deck.core.messages.sanitize import safe

        super().__init__(key, target)
        self.message = msg(
            "cli",
            "the game {key} cannot be loaded from its entry point {target} ({error}); "
            "reinstall the package that provides it, or uninstall it",
        )(key=safe(key), target=safe(target), error=safe(f"{type(error).__name__}: {error}"))


def database_game(root: Path, buffers: Mapping[Path, str] | None = None) -> Game:
    """The game of the database at root (its formats.yaml `game:`, or that file's buffer; an
    unknown one is the default game, and the formats schema reports it when linting)."""
    from varz_deck.core.lint.database import database_game_key

    key = database_game_key(root, buffers)
    return get_game(key if key in _registry().targets else None)


def open_database(root: Path, progress: Callable[[int, int], None] | None = None) -> CardDatabase:
    """The valid database at root, for its game; DatabaseError if invalid. `progress(done,
    total)` hears of each file when the database is not in the cache."""
    from varz_deck.core.lint import database

    return database.open_database(root, database_game(root), progress, games=game_keys())


def lint_database(
    root: Path,
    progress: Callable[[int, int], None] | None = None,
    *,
    buffers: Mapping[Path, str] | None = None,
) -> LintResult:
    """Everything `cards lint` reports for the database at root, for its game; `buffers` (an
    editor's unsaved card files, path -> text) are read instead of those files, through the
    same limits: the lint of the database as if they were saved."""
    from varz_deck.core.lint import database

    game = database_game(root, buffers)
    return database.lint_database(root, game, progress, games=game_keys(), buffers=buffers)


def check_deck(
    deck: DeckSource | Path,
    database: CardDatabase,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> DeckReport:
    """Check one deck (a source, or a file read here) against a database (a format given here
    overrides the deck's) on a date (None: today)."""
    return get_game(database.game).check_deck(_source(deck), database, format_key, date)


def _source(deck: DeckSource | Path) -> DeckSource:
    from varz_deck.core.files.source import DeckSource

    return deck if isinstance(deck, DeckSource) else DeckSource.from_path(deck)


def detect_game(source: DeckSource, preferred: str) -> str | None:
    """The key of the game a deck is written for, from its keys or list headers (or a deck code's
    prefix): `preferred` when it owns the deck, else the one other game that does; None when no
    game owns it (the preferred game's checks then say what is wrong). Every command that reads a
    deck finds its game with this (SPEC §8)."""
    if source.text is None and source.argument is None:
        return preferred  # unreadable: the preferred game's reader says why
    head = source.head()
    if get_game(preferred).owns_deck(head):
        return preferred
    owners = [k for k in game_keys() if k != preferred and get_game(k).owns_deck(head)]
    return owners[0] if len(owners) == 1 else None


def check_decks(
    decks: Iterable[DeckSource | Path],
    database: CardDatabase,
    format_key: str | None = None,
    open_other: Callable[[str], CardDatabase] | None = None,
    date: datetime.date | None = None,
) -> list[DeckReport]:
    """Check each deck (a source, or a file read when reached) independently, in the order
    given. A deck written for another game is
    checked against `open_other(game)` (its bundled database) when given; otherwise it gets one
    F010 naming its game and the option to use (SPEC §8)."""
    reports = []
    for deck in decks:
        source = _source(deck)
        owner = detect_game(source, database.game)
        if owner is None or owner == database.game:
            reports.append(check_deck(source, database, format_key, date))
        elif open_other is not None:
            reports.append(check_deck(source, open_other(owner), format_key, date))
        else:
            reports.append(_other_game(source, database, get_game(owner), format_key, date))
    return reports


def _other_game(
    source: DeckSource,
    database: CardDatabase,
    owner: Game,
    format_key: str | None,
    date: datetime.date | None,
) -> DeckReport:
    from varz_deck.core.dates import on_date
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.messages.diagnostics import diag
    from varz_deck.core.messages.i18n import msg

    mine = get_game(database.game)
    wrong = msg(
        "F010",
        "this is a {game} deck, but the card database is for {mine}; "
        "check it with --game {key} (or --cards with a {game} database)",
    )
    problem = diag("F010", wrong(game=owner.name, mine=mine.name, key=owner.key), file=source.name)
    return DeckReport(
        source.name,
        None,
        format_key or "standard",
        None,
        {},
        (problem,),
        game=database.game,
        words=mine.words,
        places=(*mine.slots, *mine.sections),
        date=on_date(date),
    )


def all_codes(keys: Iterable[str] | None = None) -> dict[str, CodeInfo]:
    """Every code with its name, rulebook section and summary, in code order: the file and card
    codes, and the rules of the games named (default: every game)."""
    from varz_deck.core.report.codes import codes_with

    chosen = game_keys() if keys is None else tuple(keys)
    return codes_with(rule for key in chosen for rule in get_game(key).rules().values())


def extract_code_summaries(
    fileobj: Any, keywords: Mapping[str, Any], comment_tags: Sequence[str], options: Any
) -> Iterable[tuple[Any, ...]]:
    """Babel extraction method for core/report/codes.py: its marked messages, plus every code's one-line
    summary (context "summary") and each example of its rule's docstring (context "example"),
    from every game: what `varz-deck rules CODE` shows in another language."""
    from babel.messages.extract import extract_python

    from varz_deck.core.report.codes import codes_with

    yield from extract_python(fileobj, keywords, comment_tags, options)
    game = options.get("game")  # one game's rules, or "" the core's codes only (its catalogue)
    if game is None:
        infos = list(all_codes().values())
    elif game:
        infos = [
            codes_with(get_game(game).rules().values())[code] for code in get_game(game).rules()
        ]
    else:
        infos = list(codes_with(()).values())
    for info in infos:
        yield 0, "msg", ("summary", info.summary), []
        for _label, text in info.examples:
            yield 0, "msg", ("example", text), []
