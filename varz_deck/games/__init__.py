"""The games: a registry of the installed games, read from the entry-point group `varz_deck.games`.

A game is an object implementing the `Game` protocol (varz_deck/core/game.py), installed as an entry
point `KEY = "module:GAME"` in the group `varz_deck.games` (docs/reference/games.md); varz-deck registers its own
games the same way in its pyproject.toml, and names the default game (the one a database without
`game:` is for) in the group `varz_deck.default_game`. A game is imported on first use only, so
checking a deck of one game never imports another.

Plugins that break each other (docs/reference/games.md, "When plugins clash"): a key two packages
claim is refused, naming both; a game whose code or code prefix another game (or the core) already
has is refused, naming both: varz-deck's own games keep theirs, and of two plugins the first by key, then by
package, keeps it, whatever order the packages are found in. A game that cannot be loaded, or
raises in `owns_deck`, `rules`, `card_rules` or `check_deck`, fails only the commands that need it
(GameUnavailable: exit 2 naming it).

Reading entry points costs about 60 ms of start-up (importlib.metadata and every installed
distribution's metadata), so the registry is kept in the cache folder (`games.json`), keyed by the
interpreter and each distribution's entry points file (its time and size: installing, upgrading,
reinstalling or removing a package changes them), with a checksum: a record that cannot be right is
read again.

This module also binds the core's game-taking functions to the registry: opening and linting a
database of whatever game its game.yaml declares (docs/reference/game-yaml.md: known for the
process; refused when it takes an installed game's key, prefix or deck-code letters) or its
formats.yaml names, checking decks, listing every code.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from varz_deck.core.messages.i18n import Message, msg

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game import Game
    from varz_deck.core.game.yamlgame import Taken
    from varz_deck.core.lint.database import LintResult
    from varz_deck.core.messages.rulebook import Rule
    from varz_deck.core.report.codes import CodeInfo

__all__ = [
    "GROUP",
    "OWN_DISTRIBUTION",
    "GameUnavailable",
    "default_game",
    "detect_game",
    "game_keys",
    "game_origin",
    "get_game",
    "register_game",
]

GROUP = "varz_deck.games"
DEFAULT_GROUP = "varz_deck.default_game"
OWN_DISTRIBUTION = "varz-deck"  # this project: its games rank before every plugin
_CACHE_NAME = "games.json"
_LAYOUT = 2  # the record's layout: a record of another is read again
_RECORD_LIMIT = 1 << 20  # a larger record is no record of ours
_METADATA = (".dist-info", ".egg-info")
_POINTS = "entry_points.txt"


def _normal(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Claim:
    """One package's entry point for a game key."""

    key: str
    target: str  # "module:attribute"
    distribution: str  # the package's name; "" for a game registered in this process
    version: str
    file: bool = False  # a game declared in a card-data folder's game.yaml (distribution: its path)

    @property
    def own(self) -> bool:
        return _normal(self.distribution) == OWN_DISTRIBUTION

    def origin(self) -> str | Message:
        """The package, `name version`, for a message."""
        if not self.distribution:
            return msg("cli", "registered in this process")
        return f"{self.distribution} {self.version}".strip()

    def rank(self) -> tuple[bool, str, str, str]:
        """Who keeps a code two games declare: varz-deck's own games, then by key and package."""
        return (not self.own, self.key, _normal(self.distribution), self.target)


@dataclass
class _Registry:
    claims: dict[str, tuple[Claim, ...]]  # key -> its claims, the best-ranked first
    default: str | None
    loaded: dict[str, Game] = field(default_factory=dict)
    failed: dict[str, GameUnavailable] = field(default_factory=dict)
    codes: dict[str, dict[str, CodeInfo]] = field(default_factory=dict)  # once checked
    files: dict[str, tuple[str, str]] = field(default_factory=dict)  # game.yaml -> digest, key


_REGISTRY: _Registry | None = None


def _fingerprint() -> list[str]:
    """What the registered entry points depend on: the interpreter, and each distribution's
    metadata folder on the import path with its entry points file's time and size (an install,
    an upgrade, a reinstall or a removal changes them). A folder without distributions (the
    current one, usually) adds nothing, so the record holds wherever the command runs."""
    parts = [sys.executable, sys.version]
    for entry in sys.path:
        try:
            names = sorted(n for n in os.listdir(entry or ".") if n.endswith(_METADATA))
        except OSError:
            continue
        for name in names:
            try:
                found = os.stat(os.path.join(entry or ".", name, _POINTS))
                stamp = f"{found.st_mtime_ns}:{found.st_size}"
            except OSError:
                stamp = "-"
            parts.append(f"{entry}/{name}@{stamp}")
    return parts


def _scan() -> tuple[dict[str, tuple[Claim, ...]], str | None]:
    """Every installed game's claims, from the installed packages' metadata, and the default
    game (varz-deck's own choice first, else the first package's by name)."""
    from importlib.metadata import entry_points

    found: dict[str, list[Claim]] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, []).append(Claim(point.name, point.value, *_package(point)))
    claims = _ranked(found)
    choices = []
    for point in entry_points(group=DEFAULT_GROUP):
        dist = _normal(_package(point)[0])
        choices.append((dist != OWN_DISTRIBUTION, dist, point.value))
    for *_, target in sorted(choices):
        default = next((k for k, c in claims.items() if c[0].target == target), None)
        if default is not None:
            return claims, default
    return claims, None


def _package(point: Any) -> tuple[str, str]:
    """The name and version of an entry point's distribution ("" when its metadata says none)."""
    try:
        dist = point.dist
        return str(dist.name or ""), str(dist.version or "")
    except Exception:  # metadata is anyone's text: a package that says nothing names none
        return "", ""


def _ranked(found: Mapping[str, Iterable[Claim]]) -> dict[str, tuple[Claim, ...]]:
    """Each key's claims, best-ranked first; one game registered twice (the same target) is
    one claim."""
    out = {}
    for key, claims in found.items():
        unique: dict[str, Claim] = {}
        for claim in sorted(claims, key=Claim.rank):
            unique.setdefault(claim.target, claim)
        out[key] = tuple(unique.values())
    return out


def _checksum(fingerprint: list[str], games: object, default: object) -> str:
    from varz_deck.core.cards._hash import blake2b

    text = json.dumps([_LAYOUT, fingerprint, games, default], sort_keys=True)
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _as_record(claims: Mapping[str, tuple[Claim, ...]]) -> dict[str, list[list[str]]]:
    return {k: [[c.target, c.distribution, c.version] for c in each] for k, each in claims.items()}


def _read_record(path: Path, fingerprint: list[str]) -> tuple[dict, str | None] | None:
    """The claims and default game the record at path holds, or None when it cannot be right:
    unreadable, too large, not our layout, of other packages, with no game, a default that is
    none of its games, or a checksum that does not match (edited or damaged)."""
    try:
        with open(path, "rb") as file:
            raw = file.read(_RECORD_LIMIT + 1)
        if len(raw) > _RECORD_LIMIT:
            return None
        data = json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("layout") != _LAYOUT:
        return None
    games, default = data.get("games"), data.get("default")
    if data.get("fingerprint") != fingerprint or not isinstance(games, dict) or not games:
        return None
    claims: dict[str, tuple[Claim, ...]] = {}
    for key, each in games.items():
        if not isinstance(each, list) or not each:
            return None
        if not all(isinstance(c, list) and len(c) == 3 for c in each):
            return None
        if not all(isinstance(part, str) for c in each for part in c):
            return None
        claims[key] = tuple(Claim(key, *c) for c in each)
    if default is not None and (not isinstance(default, str) or default not in claims):
        return None
    if data.get("sum") != _checksum(fingerprint, games, default):
        return None
    return claims, default


def _cached() -> tuple[dict[str, tuple[Claim, ...]], str | None]:
    """The registered games, from the record when the installed packages are unchanged."""
    from varz_deck.core.cards.cachestore import cache_dir

    folder = cache_dir()
    fingerprint = _fingerprint()
    path = folder / _CACHE_NAME if folder is not None else None
    if path is not None:
        found = _read_record(path, fingerprint)
        if found is not None:
            return found
    claims, default = _scan()
    if path is not None and claims:
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{_CACHE_NAME}.{os.getpid()}.tmp")
            games = _as_record(claims)
            record = {
                "layout": _LAYOUT,
                "fingerprint": fingerprint,
                "games": games,
                "default": default,
                "sum": _checksum(fingerprint, games, default),
            }
            temporary.write_text(json.dumps(record), encoding="utf-8")
            os.replace(temporary, path)
    return claims, default


def _registry() -> _Registry:
    global _REGISTRY
    if _REGISTRY is None:
        claims, default = _cached()
        _REGISTRY = _Registry(claims, default)
    return _REGISTRY


def register_game(key: str, target: str) -> None:
    """Make a game known for this process by "module:attribute" (or a module defining `GAME`):
    for a test, or a program that embeds varz-deck. Installed games use the entry point."""
    registry = _registry()
    target = target if ":" in target else f"{target}:GAME"
    registry.claims[key] = (Claim(key, target, "", ""),)
    _forget(registry, key)


def unregister_game(key: str) -> None:
    """Forget a game `register_game` made known."""
    registry = _registry()
    registry.claims.pop(key, None)
    _forget(registry, key)


def _forget(registry: _Registry, key: str) -> None:
    """After a change of the games: what was loaded for the key, and every verdict."""
    registry.loaded.pop(key, None)
    registry.failed.clear()
    registry.codes.clear()


def default_game() -> str:
    """The key of the game a database without `game:` is for (the default game's entry point)."""
    registry = _registry()
    if registry.default is not None and registry.default in registry.claims:
        return registry.default
    if not registry.claims:
        raise LookupError(f"no game is installed (entry-point group {GROUP})")
    return game_keys()[0]


def game_keys() -> tuple[str, ...]:
    """The installed games' keys: the default game first, then the others by key."""
    registry = _registry()
    first = registry.default
    return tuple(sorted(registry.claims, key=lambda k: (k != first, k)))


def game_origin(key: str) -> str:
    """The package a game comes from, `name version` ("" for one registered in this process);
    KeyError for a key that is not installed."""
    claim = _registry().claims[key][0]
    return f"{claim.distribution} {claim.version}".strip()


def get_game(key: str | None) -> Game:
    """The game for a key (None: the default game); KeyError for one that is not installed,
    GameUnavailable for one that cannot be used (see the module's docstring)."""
    registry = _registry()
    key = key or default_game()
    game = registry.loaded.get(key)
    if game is not None:
        return game
    failure = registry.failed.get(key)
    if failure is None:
        claims = registry.claims[key]
        try:
            game = _load(registry, claims)
        except GameUnavailable as exc:
            failure = registry.failed[key] = exc
        else:
            registry.loaded[key] = game
            return game
    raise failure


def _load(registry: _Registry, claims: tuple[Claim, ...]) -> Game:
    """A claimed game, loaded and checked: one claim for its key, and, for a plugin, no code
    that the core or a game ranked before it has (those are loaded first, so a code a plugin
    declares on import never takes one of theirs)."""
    from varz_deck.core.messages.code import CodeClash

    claim = claims[0]
    if len(claims) > 1:
        raise GameUnavailable.claimed(claims)
    if not claim.own:
        _load_before(registry, claim)
    module, _, attribute = claim.target.partition(":")
    try:
        game: Any = importlib.import_module(module)
        for name in attribute.split("."):
            game = getattr(game, name)
    except (Exception, SystemExit) as exc:  # a broken plugin: say which, never a traceback
        code = exc.code if isinstance(exc, CodeClash) else None
        owner = _owner(registry, claim, code) if code is not None else None
        if code is not None and owner is not None:
            raise _refused(claim, code, owner) from exc
        raise GameUnavailable.unloadable(claim, exc) from exc
    if not claim.own:
        codes = _codes(registry, claim, game)
        for code in sorted(codes):
            owner = _owner(registry, claim, code, codes[code])
            if owner is not None:
                raise _refused(claim, code, owner)
        prefix = game_prefix(game)
        owner = _prefix_owner(registry, claim, prefix) if prefix else None
        if prefix and owner is not None:
            raise GameUnavailable.prefix_taken(claim, prefix, owner)
    return game


def game_prefix(game: Game) -> str | None:
    """The letter a game declares its own codes start with: its `prefix`, else its
    declaration's (core/decks/declaration.py); None for a game that declares none."""
    found = getattr(game, "prefix", None)
    if found is None:
        found = getattr(_declaration(game), "prefix", None)
    return found if isinstance(found, str) and found else None


def _prefix_owner(registry: _Registry, claim: Claim, prefix: str) -> Claim | None:
    """The first game ranked before this one that declares the prefix and is not refused (the
    games before a plugin are loaded first: _load_before); None when no one does."""
    for other in _before(registry, claim, registry.loaded):
        if not other.file and game_prefix(registry.loaded[other.key]) == prefix:
            return other
    return None


def _before(registry: _Registry, claim: Claim, keys: Iterable[str]) -> Iterator[Claim]:
    """The games of `keys` ranked before a claim and not refused, in rank order."""
    ranked = sorted((registry.claims[k][0] for k in keys if k in registry.claims), key=Claim.rank)
    for other in ranked:
        if other.rank() >= claim.rank():
            break
        if other.key not in registry.failed:
            yield other


def _load_before(registry: _Registry, claim: Claim) -> None:
    """Load every game ranked before a plugin and know its codes (a game that fails has none)."""
    for key in sorted(registry.claims, key=lambda k: registry.claims[k][0].rank()):
        first = registry.claims[key][0]
        if first.rank() >= claim.rank():
            break
        with contextlib.suppress(GameUnavailable):
            _codes(registry, first, get_game(key))


def _codes(registry: _Registry, claim: Claim, game: Game) -> dict[str, CodeInfo]:
    """A game's codes: its deck rules' and its card rules'; a game whose `rules` or
    `card_rules` raises cannot be used."""
    known = registry.codes.get(claim.key)
    if known is None:
        known = {**_declared(claim, game, "rules"), **_declared(claim, game, "card_rules")}
        registry.codes[claim.key] = known
    return known


def _declared(claim: Claim, game: Game, method: str) -> dict[str, CodeInfo]:
    """The codes a game's `rules()` or `card_rules()` gives, by the ids it lists them under
    and their own (none without the method); its failure when it raises or gives a code that
    is not text."""
    from varz_deck.core.report.codes import code_of

    try:
        found = getattr(game, method, None)
        out: dict[str, CodeInfo] = {}
        for listed, rule in found().items() if found is not None else ():
            info = code_of(rule)
            for code in (listed, info.id):
                if not isinstance(code, str):
                    raise TypeError(f"the code {code!r} is not text")
                out[code] = info
        return out
    except Exception as exc:
        raise GameUnavailable.raised(claim, method, exc) from exc


_CORE = Claim("", "", OWN_DISTRIBUTION, "")  # the owner of the core's codes


def _owner(
    registry: _Registry, claim: Claim, code: str, info: CodeInfo | None = None
) -> Claim | None:
    """Who has a code's id before this game: the core (with another code: a game may take one
    of the core's codes as it is; `info` None, one declared twice on import, is always
    another), or the first game ranked before it that declares the id and is not refused;
    None when no one does."""
    from varz_deck.core.report.codes import core_codes

    core = {c.id: c for c in core_codes()}
    if code in core and core[code] != info:
        return _CORE
    for other in _before(registry, claim, registry.codes):
        if code in registry.codes[other.key]:
            return other
    return None


def _refused(claim: Claim, code: str, owner: Claim) -> GameUnavailable:
    if owner is _CORE:
        return GameUnavailable.core_code(claim, code)
    return GameUnavailable.taken(claim, code, owner)


@contextlib.contextmanager
def _guard(key: str, method: str) -> Iterator[None]:
    """A plugin's exception in one of its methods is its failure (GameUnavailable), said as
    such; an exception of varz-deck's own games is a bug, left alone."""
    try:
        yield
    except GameUnavailable:
        raise
    except Exception as exc:
        claims = _registry().claims.get(key)
        if not claims or claims[0].own:
            raise
        raise GameUnavailable.raised(claims[0], method, exc) from exc


def game_rules(key: str) -> dict[str, Rule[Any]]:
    """A game's rules by code (GameUnavailable when the game cannot be used)."""
    game = get_game(key)
    with _guard(key, "rules"):
        return dict(game.rules())


def _said(error: BaseException) -> str:
    """An exception for a message: its type and its text, cut to a readable length."""
    try:
        text = str(error)
    except Exception:
        text = ""
    text = text if len(text) <= 200 else f"{text[:199]}…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


_UNLOADABLE = msg(
    "cli",
    "the game {key} ({origin}) cannot be loaded from its entry point {target} ({error}); "
    "reinstall the package that provides it, or uninstall it",
)
_CLAIMED = msg(
    "cli",
    "the game {key} is registered by more than one package: {claims}; "
    "uninstall all but one of them",
)
_TAKEN = msg(
    "cli",
    "the game {key} ({origin}) is not used: its code {code} already belongs to the game "
    "{other} ({owner}); ask its authors for codes of their own, or uninstall it",
)
_PREFIX_TAKEN = msg(
    "cli",
    "the game {key} ({origin}) is not used: its code prefix {prefix} is already the game "
    "{other}'s ({owner}); ask its authors for a prefix of their own, or uninstall it",
)
_CORE_CODE = msg(
    "cli",
    "the game {key} ({origin}) is not used: its code {code} is one of varz-deck's own "
    "codes; ask its authors for codes of their own, or uninstall it",
)
_RAISED = msg(
    "cli",
    "the game {key} ({origin}) failed in {method} ({error}); "
    "report it to its authors, or uninstall it",
)


class GameUnavailable(Exception):
    """An installed game that cannot be used: a broken or half-installed package, a key another
    package claims too, a code another game has, an exception in one of its methods. `message`
    says which and what to do; `codes` are the codes of a clash."""

    def __init__(self, key: str, message: Message, codes: Iterable[str] = ()) -> None:
        super().__init__(key)
        self.key = key
        self.message = message
        self.codes = frozenset(codes)

    @classmethod
    def unloadable(cls, claim: Claim, error: BaseException) -> GameUnavailable:
        target, said = claim.target, _said(error)
        return cls(claim.key, _UNLOADABLE(**_named(claim), target=target, error=said))

    @classmethod
    def claimed(cls, claims: Sequence[Claim]) -> GameUnavailable:
        listed = ", ".join(f"{c.distribution} {c.version} ({c.target})" for c in claims)
        return cls(claims[0].key, _CLAIMED(key=claims[0].key, claims=listed))

    @classmethod
    def taken(cls, claim: Claim, code: str, owner: Claim) -> GameUnavailable:
        said = _TAKEN(**_named(claim), code=code, other=owner.key, owner=owner.origin())
        return cls(claim.key, said, (code,))

    @classmethod
    def prefix_taken(cls, claim: Claim, prefix: str, owner: Claim) -> GameUnavailable:
        said = _PREFIX_TAKEN(**_named(claim), prefix=prefix, other=owner.key, owner=owner.origin())
        return cls(claim.key, said)

    @classmethod
    def core_code(cls, claim: Claim, code: str) -> GameUnavailable:
        return cls(claim.key, _CORE_CODE(**_named(claim), code=code), (code,))

    @classmethod
    def raised(cls, claim: Claim, method: str, error: BaseException) -> GameUnavailable:
        said = _RAISED(**_named(claim), method=method, error=_said(error))
        return cls(claim.key, said)


def _named(claim: Claim) -> dict[str, object]:
    """A game's key and package, as the failures' messages name them."""
    return {"key": claim.key, "origin": claim.origin()}


def database_game(root: Path, buffers: Mapping[Path, str] | None = None) -> Game:
    """The game of the database at root (its formats.yaml `game:`, or that file's buffer; an
    unknown one is the default game, and the formats schema reports it when linting)."""
    return get_game(_database_key(root, buffers))


def _database_key(root: Path, buffers: Mapping[Path, str] | None = None) -> str:
    """The key of the game of the database at root: the one its game.yaml declares, else the
    one its formats.yaml names when installed, else the default game."""
    from varz_deck.core.lint.database import database_game_key

    declared = _declared_key(root, buffers)
    if declared is not None:
        return declared
    key = database_game_key(root, buffers)
    return key if key is not None and key in _registry().claims else default_game()


def _declared_key(root: Path, buffers: Mapping[Path, str] | None = None) -> str | None:
    """The key of the game root's game.yaml declares (docs/reference/game-yaml.md), made known
    for this process, and again whenever the file (or its buffer) changes; None when root has
    none. GameFileError when the file declares no usable game: unreadable, against its schema,
    or taking an installed game's key, code prefix or deck-code letters."""
    from varz_deck.core.cards._hash import blake2b
    from varz_deck.core.cards.discovery import display, read_file
    from varz_deck.core.files.source import LoadError
    from varz_deck.core.game.yamlgame import GameFileError, game_file, load_game
    from varz_deck.core.messages.diagnostics import diag

    path = game_file(root)
    if path is None:
        return None
    shown = display(path)
    try:
        data = read_file(path, buffers)
    except LoadError as err:
        raise GameFileError(path, [diag(err.code, err.message, err.mark, file=shown)]) from None
    registry = _registry()
    where = str(path.resolve())
    digest = blake2b(data, digest_size=16).hexdigest()
    known = registry.files.get(where)
    if known is not None and known[0] == digest and known[1] in registry.loaded:
        return known[1]
    game = load_game(path, shown, data, _taken(registry))
    registry.claims[game.key] = (Claim(game.key, where, where, digest, file=True),)
    _forget(registry, game.key)
    registry.loaded[game.key] = cast("Game", game)  # its schemas are made, not files
    registry.files[where] = (digest, game.key)
    return game.key


def is_declared_game(key: str) -> bool:
    """Whether a game is one a game.yaml declared (not an installed package's)."""
    claims = _registry().claims.get(key)
    return claims is not None and claims[0].file


def forget_declared_games() -> None:
    """Forget every game a game.yaml declared in this process (for tests, and programs that
    embed varz-deck)."""
    registry = _REGISTRY
    if registry is None:  # no game read yet: nothing to forget (and no entry point read)
        return
    for _, key in registry.files.values():
        if is_declared_game(key):
            unregister_game(key)
    registry.files.clear()


def _taken(registry: _Registry) -> list[Taken]:
    """What each installed game has that a game.yaml may not take (a game that cannot be used
    keeps its key)."""
    from varz_deck.core.game.yamlgame import Taken

    found = []
    for key, claims in registry.claims.items():
        if claims[0].file:
            continue
        origin = str(claims[0].origin())
        try:
            game = get_game(key)
        except GameUnavailable:
            found.append(Taken(key, origin))
            continue
        family = getattr(_declaration(game), "code_family", None)
        found.append(Taken(key, origin, game_prefix(game), family))
    return found


def _declaration(game: Game) -> object:
    """A game's declaration, when it is made from one (core/decks/declaration.py)."""
    return getattr(game, "declaration", None)


def open_database(root: Path, progress: Callable[[int, int], None] | None = None) -> CardDatabase:
    """The valid database at root, for its game; DatabaseError if invalid. `progress(done,
    total)` hears of each file when the database is not in the cache."""
    from varz_deck.core.game.yamlgame import GameFileError
    from varz_deck.core.lint import database

    try:
        game = database_game(root)
    except GameFileError as err:  # its game.yaml: a problem of the database, said as one
        raise database.DatabaseError(root, err.diagnostics) from None
    return database.open_database(root, game, progress, games=game_keys())


def lint_database(
    root: Path,
    progress: Callable[[int, int], None] | None = None,
    *,
    buffers: Mapping[Path, str] | None = None,
) -> LintResult:
    """Everything `cards lint` reports for the database at root, for its game; `buffers` (an
    editor's unsaved card files, path -> text) are read instead of those files, through the
    same limits: the lint of the database as if they were saved. The lint store keeps results
    by the game's package and version too (a plugin's upgrade may change its card rules)."""
    from varz_deck.core.game.yamlgame import GameFileError
    from varz_deck.core.lint import LintResult, database

    try:
        key = _database_key(root, buffers)
    except GameFileError as err:  # no game to lint the cards for: its game.yaml's problems
        found = LintResult(root, {err.diagnostics[0].file or str(err.path): err.diagnostics})
        found.unusable = True
        return found
    game = get_game(key)
    with _guard(key, "card_rules"):
        return database.lint_database(
            root, game, progress, games=game_keys(), buffers=buffers, origin=game_origin(key)
        )


def check_deck(
    deck: DeckSource | Path,
    database: CardDatabase,
    format_key: str | None = None,
    *,
    date: datetime.date,
) -> DeckReport:
    """Check one deck (a source, or a file read here) against a database (a format given here
    overrides the deck's) on a date. A plugin's exception is its failure
    (GameUnavailable)."""
    game = get_game(database.game)
    source = _source(deck)
    with _guard(database.game, "check_deck"):
        return game.check_deck(source, database, format_key, date)


def _source(deck: DeckSource | Path) -> DeckSource:
    from varz_deck.core.files.source import DeckSource

    return deck if isinstance(deck, DeckSource) else DeckSource.from_path(deck)


def detect_game(source: DeckSource, preferred: str) -> str | None:
    """The key of the game a deck is written for, from its keys or list headers (or a deck code's
    prefix): `preferred` when it owns the deck, else the one other game that does; None when no
    game owns it (the preferred game's checks then say what is wrong). A game that cannot be
    used, or raises, owns nothing; when no other game owns the deck, its failure is raised (the
    deck may be its own). Every command that reads a deck finds its game with this (docs/reference/games.md)."""
    if source.text is None and source.argument is None:
        return preferred  # unreadable: the preferred game's reader says why
    head = source.head()
    failures: list[GameUnavailable] = []

    def owns(key: str) -> bool:
        try:
            game = get_game(key)
            with _guard(key, "owns_deck"):
                return bool(game.owns_deck(head))
        except GameUnavailable as exc:
            failures.append(exc)
            return False

    if owns(preferred):
        return preferred
    owners = [k for k in game_keys() if k != preferred and owns(k)]
    if not owners and failures:
        raise failures[0]
    return owners[0] if len(owners) == 1 else None


def check_decks(
    decks: Iterable[DeckSource | Path],
    database: CardDatabase,
    format_key: str | None = None,
    open_other: Callable[[str], CardDatabase] | None = None,
    *,
    date: datetime.date,
    open_declared: Callable[[DeckSource], CardDatabase | None] | None = None,
) -> list[DeckReport]:
    """Check each deck (a source, or a file read when reached) independently, in the order
    given. A deck written for another game is
    checked against `open_other(game)` (its bundled database) when given; otherwise it gets one
    F010 naming its game and the option to use (docs/reference/games.md). A deck no installed game owns is
    checked against `open_declared(source)` when given and it finds a database (the game.yaml
    game above the deck file)."""
    reports = []
    for deck in decks:
        source = _source(deck)
        owner = detect_game(source, database.game)
        declared = None
        if open_declared is not None and (owner is None or is_declared_game(owner)):
            declared = open_declared(source)
        if declared is not None:
            reports.append(check_deck(source, declared, format_key, date=date))
        elif owner is None or owner == database.game:
            reports.append(check_deck(source, database, format_key, date=date))
        elif open_other is not None:
            reports.append(check_deck(source, open_other(owner), format_key, date=date))
        else:
            reports.append(_other_game(source, database, get_game(owner), format_key, date))
    return reports


def _other_game(
    source: DeckSource,
    database: CardDatabase,
    owner: Game,
    format_key: str | None,
    date: datetime.date,
) -> DeckReport:
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
        date=date,
    )


def all_codes(
    keys: Iterable[str] | None = None, failures: list[GameUnavailable] | None = None
) -> dict[str, CodeInfo]:
    """Every code with its name, rulebook section and summary, in code order: the file and card
    codes, and the rules of the games named (default: every game). A game that cannot be used
    adds none (its failure is added to `failures` when given)."""
    from varz_deck.core.report.codes import codes_with

    chosen = game_keys() if keys is None else tuple(keys)
    rules: list[Rule[Any]] = []
    for key in chosen:
        try:
            rules.extend(game_rules(key).values())
        except GameUnavailable as exc:
            if failures is not None:
                failures.append(exc)
    return codes_with(rules)


def extract_code_summaries(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Sequence[str], options: Any
) -> Iterable[tuple[object, ...]]:
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
