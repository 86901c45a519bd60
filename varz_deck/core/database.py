"""Loading a card database folder: files, schema, cross-file checks, and a content-keyed cache.

`lint_database` reads every file once and reports every problem: F001–F003 for the files, C001
schema violations, C002–C007 across the database, and the C1xx warnings. `open_database` returns a
usable database, from a JSON cache keyed by the files' content when nothing changed: it reads each
file once, and the bytes it hashes for the key are the bytes it lints (a file edited meanwhile
cannot put its new content under its old content's key). The cache file's layout and what a read
of it trusts are in cachedoc.py.

The formats file is `formats.yaml` or `formats.yml` at the root (both at once is C007); a file
there whose name is close to it (`Formats.yaml`, `format.yaml`, `formats.yaml.txt`) is C007 too,
never silently ignored, and a database without any card is C006.

Schema checking is two-stage: a fast checker compiled from the JSON Schema answers "valid?" for
each file; only files it rejects go through jsonschema, whose errors become placed diagnostics
with one message per offending value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from varz_deck import __version__
from varz_deck.core import cachedoc, cachestore
from varz_deck.core._hash import blake2b
from varz_deck.core.cards import DEFAULT_GAME, CardDatabase, Format, normalize
from varz_deck.core.diagnostics import Diagnostic, Mark, Severity, diag
from varz_deck.core.i18n import Joined, Message, Quoted, msg
from varz_deck.core.resources import resource_dir, schema_text
from varz_deck.core.source import CARD_FILE_LIMIT, LoadError, decode, read_bytes
from varz_deck.core.strictyaml import CARD_NODE_CAP, Document, load

if TYPE_CHECKING:
    from varz_deck.core.game import Game

FORMATS_FILE = "formats.yaml"
FORMATS_NAMES = (FORMATS_FILE, "formats.yml")  # at a database's root; the first is read if both
_GAME_LINE = re.compile(rb"^game:[ \t]*[\"']?([a-z0-9_-]+)", re.MULTILINE)
# A file that does not contain the word "cards" (in any encoding decode() could be handed) cannot
# have a top-level `cards:` key, so it is not a card file and is skipped unparsed.
_CARDS_MARKERS = tuple(
    "cards".encode(enc) for enc in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
)


_NOT_A_FOLDER = msg("F001", "card database {path} is not a folder")


class DatabaseError(Exception):
    """The card database cannot be used: its diagnostics say why."""

    def __init__(self, root: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"card database {root} has {len(diagnostics)} problem(s)")
        self.root = root
        self.diagnostics = diagnostics


@dataclass
class LintResult:
    """Everything `cards lint` reports: each file's diagnostics, plus the database if usable."""

    root: Path
    files: dict[str, list[Diagnostic]] = field(default_factory=dict)
    database: CardDatabase | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for diags in self.files.values() for d in diags]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]


def bundled_root() -> Path:
    return resource_dir("card_data")


def resolve_root(cards: Path | None, game: str | None = None) -> Path:
    """--cards, else the bundled database of --game when given, else VARZ_DECK_CARDS, else the
    bundled database (SPEC §3). Another game's bundled database is card_data/<game>/."""
    if cards is not None:
        return cards
    if game is not None and game != DEFAULT_GAME:
        return bundled_root() / game
    env = os.environ.get("VARZ_DECK_CARDS")
    return Path(env) if env else bundled_root()


_FOLDER_UNREADABLE = msg(
    "F001", "folder cannot be read: permission denied; its card files are not loaded"
)


def _yaml_files(root: Path) -> list[Path]:
    """The YAML files of a database; a folder below the root with its own formats.yaml is a
    separate database (the bundled Azuki one inside the bundled VARZ one) and is skipped."""
    found = []
    nested: set[Path] = set()
    unreadable: list[Path] = []  # folders that cannot be listed: reported, never skipped silently

    def _walk_error(err: OSError) -> None:
        if err.filename is not None:
            unreadable.append(Path(err.filename))

    walked = (
        Path(top) / name
        for top, dirs, names in os.walk(root, onerror=_walk_error)
        for name in (*dirs, *names)
    )
    for path in walked:
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if path.suffix in (".yaml", ".yml") and not path.is_dir():  # a FIFO is F001, not skipped
            found.append(path)
            if path.name in FORMATS_NAMES and path.parent != root:
                nested.add(path.parent)
    found.extend(p for p in unreadable if p != root)
    if nested:
        found = [p for p in found if not any(d in p.parents for d in nested)]
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def game_key_of(data: bytes | None) -> str:
    """The key of the game a database is for, from its formats.yaml bytes (`game:`; default
    VARZ). The games layer maps it to a game; the formats schema reports an unknown one (C001)."""
    match = _GAME_LINE.search(data) if data else None
    return match.group(1).decode() if match else DEFAULT_GAME


def database_game_key(root: Path) -> str:
    """The game key of the database at root (its formats.yaml), without loading the cards."""
    path = formats_path(root)
    try:
        data: bytes | None = read_bytes(path, CARD_FILE_LIMIT) if path else None
    except LoadError:
        data = None
    return game_key_of(data)


def formats_path(root: Path) -> Path | None:
    """The formats file of the database at root: formats.yaml, else formats.yml, else none."""
    for name in FORMATS_NAMES:
        if (root / name).is_file():
            return root / name
    return None


def _close_to(word: str, target: str) -> bool:
    """Equal, or one edit away: a letter added, dropped or changed, or two neighbours swapped."""
    if word == target:
        return True
    if len(word) == len(target):
        differ = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and word[differ[0]] == target[differ[1]]
            and word[differ[1]] == target[differ[0]]
        )
    short, long = sorted((word, target), key=len)
    if len(long) - len(short) != 1:
        return False
    first = next(
        (i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short)
    )
    return short[first:] == long[first + 1 :]


def misnamed_formats(name: str, have_formats: bool) -> bool:
    """Whether a file name at a database's root looks meant as its formats file but is not
    read as one: Formats.yaml, format.yml, formats.yaml.txt, fromats.yaml... A copy beside a
    real formats file (formats.yaml.bak, formats.yaml~) is left alone."""
    if name in FORMATS_NAMES or name.startswith("."):
        return False
    if have_formats and any(name.startswith(real) for real in FORMATS_NAMES):
        return False
    stem, _, rest = name.casefold().partition(".")
    suffixes = rest.split(".") if rest else []
    return _close_to(stem, "formats") and any(
        _close_to(s.rstrip("~"), "yaml") or _close_to(s.rstrip("~"), "yml") for s in suffixes
    )


def _display(path: Path) -> str:
    """A path as messages show it: relative to the working directory when under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- cache


def _cache_dir() -> Path | None:
    return cachestore.cache_dir()


Content = bytes | LoadError  # a file's bytes, or why they could not be read


def _read_files(root: Path) -> Iterator[tuple[Path, Content]]:
    """Each YAML file of the database with its bytes, read once."""
    for path in _yaml_files(root):
        try:
            yield path, read_bytes(path, CARD_FILE_LIMIT)
        except LoadError as err:
            yield path, err


def _misnamed(root: Path) -> list[Path]:
    """Files at the root named like a formats file but not read as one (C007)."""
    have_formats = formats_path(root) is not None
    try:
        names = sorted(p.name for p in root.iterdir())
    except OSError:
        return []
    return [root / name for name in names if misnamed_formats(name, have_formats)]


def _cache_key(
    root: Path, files: list[tuple[Path, Content]], game: Game, misnamed: list[Path]
) -> str:
    digest = blake2b(f"{__version__} cache-3".encode(), digest_size=20)
    digest.update(game.key.encode())
    digest.update(schema_text(game.card_schema).encode())
    digest.update(schema_text("formats").encode())
    for path, data in files:
        rel = os.fsencode(path.relative_to(root).as_posix())  # a name may not be UTF-8
        digest.update(len(rel).to_bytes(8, "big") + rel)
        if isinstance(data, LoadError):
            digest.update(b"unreadable")
        else:
            digest.update(len(data).to_bytes(8, "big") + data)
    for path in misnamed:  # never cached (C007), but a new one must not hit an older entry
        name = os.fsencode(path.name)
        digest.update(b"misnamed" + len(name).to_bytes(8, "big") + name)
    return digest.hexdigest()[:40]


def _cache_read(key: str, root: Path, game: Game) -> CardDatabase | None:
    """The cached database for key, or None when there is none that fits (see cachedoc)."""
    folder = _cache_dir()
    if folder is None:
        return None
    try:
        text = (folder / f"db-{key}.json").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    document = cachedoc.decode(text, key, __version__, game.key)
    if document is None:
        return None
    cards = []
    shown_root = Path(_display(root))  # the working directory is asked once, not per card
    for data in document["cards"]:
        shown = {**data, "file": str(shown_root / data["file"])}
        card = cachedoc.rebuild(partial(game.card_from_json, shown))
        if card is None:
            return None
        cards.append(card)
    formats = {}
    for name, data in document["formats"].items():
        found = cachedoc.rebuild(partial(Format.from_json, data))
        if found is None:
            return None
        formats[name] = found
    return game.make_database(cards, formats)


def _cache_write(key: str, root: Path, database: CardDatabase) -> None:
    """Store a database; card files are kept relative to its root, so the same content in
    another folder, or checked from another working directory, shows its own paths."""
    folder = _cache_dir()
    if folder is None:
        return
    try:
        base = root.resolve()
        payload = {
            "version": __version__,
            "game": database.game,
            "cards": [
                {**c.to_json(), "file": Path(c.file).resolve().relative_to(base).as_posix()}
                for c in database.cards.values()
            ],
            "formats": {k: f.to_json() for k, f in database.formats.items()},
        }
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".db-{key}.{os.getpid()}.tmp"
        tmp.write_text(cachedoc.encode(key, payload), encoding="utf-8")
        os.replace(tmp, folder / f"db-{key}.json")
    except (OSError, ValueError, MemoryError, RecursionError):  # no cache is slower, never wrong
        pass


Progress = Callable[[int, int], None]  # (done, total): the CLI draws a bar, the core prints none
_T = TypeVar("_T")


def _counted(items: Sequence[_T], progress: Progress | None) -> Iterator[_T]:
    """Each item, telling `progress(done, total)` as each is taken and when all are done."""
    total = len(items)
    for done, item in enumerate(items):
        if progress is not None:
            progress(done, total)
        yield item
    if progress is not None:
        progress(total, total)


# --------------------------------------------------------------------------- loading


def open_database(root: Path, game: Game, progress: Progress | None = None) -> CardDatabase:
    """A valid database of `game` (see database_game_key), from the cache when its files are
    unchanged; DatabaseError if invalid. `progress` hears of each file a cold build checks."""
    if not root.is_dir():
        raise DatabaseError(root, [diag("F001", _NOT_A_FOLDER(path=Quoted(str(root))))])
    files = list(_read_files(root))  # read once: the key is of the very bytes linted below
    misnamed = _misnamed(root)
    key = _cache_key(root, files, game, misnamed)
    cached = _cache_read(key, root, game)
    if cached is not None:
        cachestore.touch(key)  # the least recently used databases are evicted first
        return cached
    result = _lint(root, game, _counted(files, progress), misnamed)
    if result.errors or result.database is None:
        raise DatabaseError(root, result.errors)
    _cache_write(key, root, result.database)
    cachestore.evict()
    return result.database


@dataclass(frozen=True)
class _Entry:
    """One card mapping of a card file: its data, its places, and its Card if the schema passed.

    Only the places the cross-file checks point at are kept (the card, each of its fields, each
    translation), so the documents themselves can be dropped as soon as a file is done.
    """

    file: str
    index: int
    raw: dict[str, Any]
    set_code: str | None
    card: Any
    marks: dict[tuple[str | int, ...], Mark]

    @property
    def id(self) -> str | None:
        value = self.raw.get("id")
        return value if isinstance(value, str) else None

    def mark(self, *path: str | int) -> Mark:
        for end in range(len(path), -1, -1):
            found = self.marks.get(path[:end])
            if found is not None:
                return found
        return Mark(1, 1)

    def where(self) -> str:
        mark = self.mark("id") if self.id is not None else self.mark()
        return f"{self.file}:{mark.line}:{mark.column}"


def lint_database(root: Path, game: Game, progress: Progress | None = None) -> LintResult:
    """Load every file of a database of `game` and check it whole: F001–F003, C001–C007,
    C101–C104. `progress` hears of each file checked."""
    if not root.is_dir():
        result = LintResult(root)
        result.files[str(root)] = [diag("F001", _NOT_A_FOLDER(path=Quoted(str(root))))]
        return result
    files = list(_read_files(root))
    return _lint(root, game, _counted(files, progress), _misnamed(root))


def _lint(
    root: Path, game: Game, files: Iterable[tuple[Path, Content]], misnamed: list[Path]
) -> LintResult:
    from varz_deck.core.schemaexplain import schema_problems

    result = LintResult(root)
    entries: list[_Entry] = []
    formats_doc: tuple[str, Document] | None = None
    formats_file = formats_path(root)
    for path in misnamed:
        if path.suffix not in (".yaml", ".yml"):  # a YAML one is looked at below
            shown = _display(path)
            result.files[shown] = [_misnamed_formats(path, shown)]
    for path, content in files:
        shown = _display(path)
        is_formats = path == formats_file
        problems: list[Diagnostic] = []
        if path.parent == root and path.name in FORMATS_NAMES and not is_formats:
            result.files[shown] = [_second_formats(path, formats_file, shown)]
            continue
        if path.is_dir():  # a folder _yaml_files could not list
            result.files[shown] = [diag("F001", _FOLDER_UNREADABLE, file=shown)]
            continue
        try:
            if isinstance(content, LoadError):
                raise content
            if not is_formats and not any(m in content for m in _CARDS_MARKERS):
                if path in misnamed:
                    result.files[shown] = [_misnamed_formats(path, shown)]
                continue  # cannot have a `cards:` key: not a card file (SPEC §1)
            doc = load(decode(content), aliases=True, node_cap=CARD_NODE_CAP)
        except LoadError as err:
            result.files[shown] = [diag(err.code, err.message, err.mark, file=shown)]
            continue
        if is_formats:
            problems.extend(_duplicate_keys(doc, shown))
            formats_found, _ = schema_problems("formats", doc, shown)
            problems.extend(formats_found)
            result.files[shown] = problems
            formats_doc = (shown, doc)
            continue
        if not (isinstance(doc.data, dict) and "cards" in doc.data):
            if path in misnamed:
                result.files[shown] = [_misnamed_formats(path, shown)]
            continue  # not a card file: ignored (SPEC §1)
        result.files[shown] = problems
        problems.extend(_duplicate_keys(doc, shown))
        card_found, bad_paths = schema_problems(game.card_schema, doc, shown)
        problems.extend(card_found)
        file_entries = list(_entries(doc, shown, bad_paths, game))
        problems.extend(game.vocabulary(file_entries, doc, bad_paths))
        problems.extend(_set_code_mismatch(file_entries, bad_paths))
        entries.extend(file_entries)
    if not entries and not result.errors:
        shown = _display(root)
        result.files.setdefault(shown, []).append(diag("C006", _EMPTY(folder=shown), file=shown))
    cards = [e.card for e in entries if e.card is not None]
    database = game.make_database(cards, None)
    found: list[Diagnostic] = [
        *_duplicate_ids(entries),
        *_printings_differ(entries, game),
        *_shared_names(entries),
        *_translations_differ(entries, game),
    ]
    if formats_doc is not None:
        shown, doc = formats_doc
        parsed, problems = _formats(doc, shown, entries, clean=not result.files[shown])
        found.extend(problems)
        if parsed is not None:
            database.formats = parsed
    for problem in found:
        result.files.setdefault(problem.file or str(root), []).append(problem)
    for diags in result.files.values():
        diags.sort(key=Diagnostic.sort_key)
    result.database = database
    return result


_EMPTY = msg(
    "C006",
    "no cards in {folder}: a card file is a .yaml or .yml file with a top-level `cards:` list; "
    "give the folder that holds the card files (--cards, or VARZ_DECK_CARDS)",
)


def _misnamed_formats(path: Path, shown: str) -> Diagnostic:
    """C007: a file named like the formats file, which is not read as one."""
    return diag(
        "C007",
        msg(
            "C007",
            "{name} is not read as the formats file, so its formats, bans and restrictions "
            "would not apply; did you mean formats.yaml? Rename it (or move it out of the "
            "card database)",
        )(name=Quoted(path.name)),
        file=shown,
    )


def _second_formats(path: Path, formats_file: Path | None, shown: str) -> Diagnostic:
    """C007: formats.yml beside formats.yaml; only one is read."""
    return diag(
        "C007",
        msg(
            "C007",
            "{name} and {other} are both formats files; only {other} is read: merge them into "
            "one and delete the other",
        )(name=Quoted(path.name), other=Quoted(formats_file.name if formats_file else "")),
        file=shown,
    )


def _duplicate_keys(doc: Document, shown: str) -> Iterator[Diagnostic]:
    for dup in doc.duplicates:
        yield diag(
            "F003",
            msg("F003", "key {key} is given twice (first at line {line}); keep one")(
                key=Quoted(dup.key), line=dup.first.line
            ),
            dup.second,
            file=shown,
        )


def _entries(doc: Document, shown: str, bad_paths: set[Any], game: Game) -> Iterator[_Entry]:
    """Every card mapping of a file; a Card for each one the schema accepted."""
    data = doc.data
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        return
    set_block = data.get("set")
    set_code = set_block.get("code") if isinstance(set_block, dict) else None
    set_code = set_code if isinstance(set_code, str) else None
    bad = {p[1] for p in bad_paths if len(p) >= 2 and p[0] == "cards"}
    if () in bad_paths or ("cards",) in bad_paths:
        bad = set(range(len(raw_cards)))
    for i, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            continue
        card = None
        if i not in bad:
            line = (doc.mark(("cards", i)) or Mark(1, 1)).line
            card = game.make_card(raw, set_code, shown, line)
        base = ("cards", i)
        marks: dict[tuple[str | int, ...], Mark] = {}
        for path in ((), *((k,) for k in raw)):
            mark = doc.marks.get((*base, *path))
            if mark is not None:
                marks[path] = mark
        names = raw.get("names")
        for lang in names if isinstance(names, dict) else ():
            mark = doc.marks.get((*base, "names", lang))
            if mark is not None:
                marks[("names", lang)] = mark
        yield _Entry(shown, i, raw, set_code, card, marks)


def _set_code_mismatch(entries: list[_Entry], bad_paths: set[Any]) -> Iterator[Diagnostic]:
    """C102 (warning): a card whose id does not start with its file's set code."""
    for entry in entries:
        card_id = entry.id
        if entry.set_code is None or card_id is None or "-" not in card_id:
            continue
        if ("cards", entry.index, "id") in bad_paths or ("set", "code") in bad_paths:
            continue  # C001 already says what is wrong with it
        prefix = card_id.split("-", 1)[0]
        if prefix != entry.set_code:
            yield diag(
                "C102",
                msg(
                    "C102",
                    "id {id} does not start with this file's set code {set}; number it "
                    "{code}-…, or move it to a file of set {other}",
                )(
                    id=Quoted(card_id),
                    set=Quoted(entry.set_code),
                    code=entry.set_code,
                    other=Quoted(prefix),
                ),
                entry.mark("id"),
                file=entry.file,
                card=card_id,
                severity=Severity.WARNING,
            )


def _duplicate_ids(entries: list[_Entry]) -> Iterator[Diagnostic]:
    """C002: the same id twice, reported at the second with the place of the first."""
    first: dict[str, _Entry] = {}
    for entry in entries:
        if entry.id is None:
            continue
        seen = first.setdefault(entry.id, entry)
        if seen is entry:
            continue
        yield diag(
            "C002",
            msg("C002", "id {id} is used twice: also at {place} ({name}); ids must be unique")(
                id=Quoted(entry.id), place=seen.where(), name=Quoted(seen.raw.get("name", ""))
            ),
            entry.mark("id"),
            file=entry.file,
            card=entry.id,
        )


def _unique_cards(entries: list[_Entry]) -> list[_Entry]:
    """Entries with a valid card, the first printing of each id only."""
    seen: set[str] = set()
    out = []
    for entry in entries:
        if entry.card is not None and entry.card.id not in seen:
            seen.add(entry.card.id)
            out.append(entry)
    return out


def _printings_differ(entries: list[_Entry], game: Game) -> Iterator[Diagnostic]:
    """C003: printings of one card (the game's identity) whose game fields differ."""
    first_by_name: dict[str, _Entry] = {}
    for entry in _unique_cards(entries):
        assert entry.card is not None
        base = first_by_name.setdefault(game.identity(entry.card), entry)
        if base is entry:
            continue
        assert base.card is not None
        ours, theirs = game.game_fields(entry.card), game.game_fields(base.card)
        differ = [f for f in ours if ours[f] != theirs.get(f)]
        if not differ:
            continue
        details = Joined(
            tuple(
                msg("C003", "{field} ({here} here, {there} there)")(
                    field=f,
                    here=_show_field(getattr(entry.card, f)),
                    there=_show_field(getattr(base.card, f)),
                )
                for f in differ
            )
        )
        place = next((f for f in differ if f in entry.raw), None)
        yield diag(
            "C003",
            msg(
                "C003",
                "{id} and {other} ({place}) are printings of {name} but differ in {details}; "
                "make them the same or rename one",
            )(
                id=entry.card.id,
                other=base.card.id,
                place=base.where(),
                name=Quoted(entry.card.name),
                details=details,
            ),
            entry.mark(place) if place else entry.mark(),
            file=entry.file,
            card=entry.card.id,
        )


def _show_field(value: Any) -> object:
    from varz_deck.core.schemaexplain import show_value, value_shown

    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return msg("C003", "none") if value is None else value_shown(value)


def _names_of(entry: _Entry) -> Iterator[tuple[tuple[str, ...], str, str | None]]:
    """(path, name, language) for the canonical name and every translation of a card."""
    assert entry.card is not None
    yield ("name",), entry.card.name, None
    for lang, name in entry.card.names.items():
        yield ("names", lang), name, lang


def _shared_names(entries: list[_Entry]) -> Iterator[Diagnostic]:
    """C101 (warning): one name, in any language, that two different cards have."""
    owner: dict[str, tuple[_Entry, tuple[str, ...], str | None]] = {}
    reported: set[tuple[str, str]] = set()
    for entry in _unique_cards(entries):
        assert entry.card is not None
        for path, name, lang in _names_of(entry):
            key = normalize(name)
            seen, seen_path, seen_lang = owner.setdefault(key, (entry, path, lang))
            other = seen.card
            assert other is not None
            if other.name == entry.card.name or (key, entry.card.name) in reported:
                continue
            reported.add((key, entry.card.name))
            shown: object = (
                msg("C101", "{name} ({lang})")(name=Quoted(name), lang=lang)
                if lang
                else Quoted(name)
            )
            their = (
                msg("C101", "the {lang} name")(lang=seen_lang)
                if seen_lang
                else msg("C101", "the name")
            )
            mark = seen.mark(*seen_path)
            yield diag(
                "C101",
                msg(
                    "C101",
                    "{name} is also {their} of {other} ({id}, {place}); a deck that lists it "
                    "cannot tell the two cards apart (F006): give one a different name",
                )(
                    name=shown,
                    their=their,
                    other=Quoted(other.name),
                    id=other.id,
                    place=f"{seen.file}:{mark.line}:{mark.column}",
                ),
                entry.mark(*path),
                file=entry.file,
                card=entry.card.id,
                severity=Severity.WARNING,
            )


def _translations_differ(entries: list[_Entry], game: Game) -> Iterator[Diagnostic]:
    """C103 (warning): printings of one card that translate its name differently."""
    first_by_name: dict[str, _Entry] = {}
    for entry in _unique_cards(entries):
        assert entry.card is not None
        base = first_by_name.setdefault(game.identity(entry.card), entry)
        assert base.card is not None
        if base is entry:
            continue
        for lang, name in entry.card.names.items():
            theirs = base.card.names.get(lang)
            if theirs is not None and theirs != name:
                yield diag(
                    "C103",
                    msg(
                        "C103",
                        "{id} calls {name} {translation} in {lang}, but its printing {other} "
                        "({place}) calls it {theirs}; use one translation",
                    )(
                        id=entry.card.id,
                        name=Quoted(entry.card.name),
                        translation=Quoted(name),
                        lang=lang,
                        other=base.card.id,
                        place=base.where(),
                        theirs=Quoted(theirs),
                    ),
                    entry.mark("names", lang),
                    file=entry.file,
                    card=entry.card.id,
                    severity=Severity.WARNING,
                )


# --------------------------------------------------------------------------- formats.yaml


def _formats(
    doc: Document, shown: str, entries: list[_Entry], clean: bool
) -> tuple[dict[str, Format] | None, list[Diagnostic]]:
    """Formats from formats.yaml (when it is valid); C005 and C104 for what it names."""
    import difflib

    problems: list[Diagnostic] = []
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("formats"), dict):
        return None, problems
    ids: dict[str, _Entry] = {}
    for entry in entries:
        if entry.id is not None:
            ids.setdefault(entry.id, entry)
    known_sets: set[str] = set()
    for entry in entries:
        card_id = entry.id
        if entry.set_code is not None:
            known_sets.add(entry.set_code)
        elif card_id is not None:
            known_sets.add(card_id.split("-", 1)[0])
    sets_of_name: dict[str, set[str]] = {}
    for entry in entries:
        if entry.card is not None:
            sets_of_name.setdefault(entry.card.name, set()).add(entry.card.set)
    out: dict[str, Format] = {}
    for key, spec in data["formats"].items():
        if not isinstance(spec, dict):
            continue
        base = ("formats", key)
        sets = spec.get("sets")
        legal_sets = {s for s in sets if isinstance(s, str)} if isinstance(sets, list) else None
        for j, code in enumerate(sets if isinstance(sets, list) else []):
            if isinstance(code, str) and code not in known_sets:
                close = difflib.get_close_matches(code, sorted(known_sets), n=1)
                problem = msg("C005", "format {format} names set {set}, which no card file has")(
                    format=Quoted(key), set=Quoted(code)
                )
                problems.append(
                    diag(
                        "C005",
                        _format_hint(problem, close),
                        doc.mark((*base, "sets", j)),
                        file=shown,
                    )
                )
        named: list[tuple[str, str, Mark | None]] = []
        banned = spec.get("banned")
        for j, card_id in enumerate(banned if isinstance(banned, list) else []):
            if isinstance(card_id, str):
                named.append(("bans", card_id, doc.mark((*base, "banned", j))))
        restricted = spec.get("restricted")
        for card_id in restricted if isinstance(restricted, dict) else {}:
            named.append(("restricts", card_id, doc.key_mark((*base, "restricted", card_id))))
        for verb, card_id, mark in named:
            named_entry = ids.get(card_id)
            if named_entry is None:
                close = difflib.get_close_matches(card_id, list(ids), n=1)
                missing = (
                    msg("C005", "format {format} bans card {card}, which does not exist")
                    if verb == "bans"
                    else msg("C005", "format {format} restricts card {card}, which does not exist")
                )
                problems.append(
                    diag(
                        "C005",
                        _format_hint(missing(format=Quoted(key), card=Quoted(card_id)), close),
                        mark,
                        file=shown,
                        card=card_id,
                    )
                )
            elif legal_sets is not None and named_entry.card is not None:
                printed_in = sets_of_name.get(named_entry.card.name, set())
                if not printed_in & legal_sets:
                    problems.append(
                        diag(
                            "C104",
                            (
                                msg(
                                    "C104",
                                    "format {format} bans {id} ({name}), but no printing of it is "
                                    "in a set the format allows, so this has no effect; remove it "
                                    "or add the set",
                                )
                                if verb == "bans"
                                else msg(
                                    "C104",
                                    "format {format} restricts {id} ({name}), but no printing of "
                                    "it is in a set the format allows, so this has no effect; "
                                    "remove it or add the set",
                                )
                            )(format=Quoted(key), id=card_id, name=Quoted(named_entry.card.name)),
                            mark,
                            file=shown,
                            card=card_id,
                            severity=Severity.WARNING,
                        )
                    )
        if clean:
            out[key] = Format(
                key=key,
                name=str(spec.get("name", key)),
                max_effect_portals=spec.get("max_effect_portals"),
                sets=tuple(sets) if isinstance(sets, list) else None,
                banned=tuple(banned) if isinstance(banned, list) else (),
                restricted=dict(restricted) if isinstance(restricted, dict) else {},
                portals=str(spec.get("portals", "constructed")),
            )
    return (out if clean else None), problems


def _format_hint(problem: Message, close: list[str]) -> Message:
    """A C005 problem, and '; did you mean 'X'?' when there is a close match."""
    if not close:
        return problem
    return msg("C005", "{problem}; did you mean {close}?")(problem=problem, close=Quoted(close[0]))
