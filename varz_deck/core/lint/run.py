"""`cards lint` run over a database: every file checked, the whole database after, results kept."""

from __future__ import annotations

import datetime
import gc
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.core.cards.discovery import FORMATS_NAMES, Content, display, formats_path
from varz_deck.core.cards.formats import read_formats, with_releases
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.files.resources import formats_schema
from varz_deck.core.files.source import LoadError, decode
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, Document, load
from varz_deck.core.lint import _whole, cards, files, formats, schema
from varz_deck.core.lint._base import CardFile, Entry, SetReleases, duplicate_keys
from varz_deck.core.lint._file import FileLint, decode_result, encode, lint_file
from varz_deck.core.messages.code import Code
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.filecodes import F001
from varz_deck.core.messages.i18n import msg

if TYPE_CHECKING:
    from varz_deck.core.cards.model import Format
    from varz_deck.core.lint._base import LintedGame
    from varz_deck.core.lint.lintstore import LintStore
    from varz_deck.core.messages.rulebook import Rule

__all__ = ["CARD_CODES", "CardFile", "Entry", "LintResult", "lint", "lint_file"]

# The code of every card-data check of the core, for `varz-deck rules`.
CARD_CODES: tuple[Code, ...] = (
    schema.C001,
    *(
        rule.info
        for book in (
            files.ROOT_FILES,
            files.FOLDER,
            cards.IN_FILE,
            cards.ACROSS,
            cards.RELEASES,
            formats.FORMATS,
        )
        for rule in book.rules.values()
    ),
)

# A file that does not contain the word "cards" (in any encoding decode() could be handed) cannot
# have a top-level `cards:` key, so it is not a card file and is skipped unparsed.
_CARDS_MARKERS = tuple(
    "cards".encode(enc) for enc in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
)
_FOLDER_UNREADABLE = msg(
    "F001", "folder cannot be read: permission denied; its card files are not loaded"
)


class LintResult:
    """Everything `cards lint` reports: each file's diagnostics, plus the database if usable
    (built when first asked for: `cards lint` itself never needs it)."""

    def __init__(
        self,
        root: Path,
        files: dict[str, list[Diagnostic]] | None = None,
        database: CardDatabase | Callable[[], CardDatabase] | None = None,
    ) -> None:
        self.root = root
        self.files: dict[str, list[Diagnostic]] = {} if files is None else files
        self._database = database
        self.unusable = False  # the folder declares no usable game: its cards were not linted

    @property
    def database(self) -> CardDatabase | None:
        if callable(self._database):
            self._database = self._database()
        return self._database

    @database.setter
    def database(self, value: CardDatabase | None) -> None:
        self._database = value

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for diags in self.files.values() for d in diags]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]


@contextmanager
def _no_gc() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: what runs in it allocates many objects, none in a
    cycle, and each collection would walk everything allocated before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@_no_gc()  # a lint allocates many objects, none in a cycle: a collection would walk them all
def lint(
    root: Path,
    game: LintedGame,
    read: Iterable[tuple[Path, Content]],
    misnamed: list[Path],
    games: Sequence[str],
    *,
    store: LintStore | None = None,
    unsaved: Collection[Path] = (),
) -> LintResult:
    """Check every file read of the database at root, then the database whole. `games` are the
    installed games' keys (what formats.yaml's `game:` may name). A card file's own result is
    taken from `store` when its content is there, and kept there when not (lint_file), except
    for `unsaved` files (an editor's buffers: each keystroke would be another row)."""
    unsaved_keys = {_path_key(path) for path in unsaved}
    result = LintResult(root)
    card_files: list[FileLint] = []
    formats_doc: tuple[str, Document] | None = None
    formats_file = formats_path(root)
    card_rules = list(game.card_rules().values())
    for path in misnamed:
        if path.suffix not in (".yaml", ".yml"):  # a YAML one is looked at below
            shown = display(path)
            result.files[shown] = _misnamed(path, shown, formats_file)
    for path, content in read:
        shown = display(path)
        is_formats = path == formats_file
        if path.parent == root and path.name in FORMATS_NAMES and not is_formats:
            result.files[shown] = _misnamed(path, shown, formats_file)
            continue
        if path.is_dir():  # a folder discovery could not list
            result.files[shown] = [diag(F001, _FOLDER_UNREADABLE, file=shown)]
            continue
        if isinstance(content, LoadError):
            result.files[shown] = [diag(content.code, content.message, content.mark, file=shown)]
            continue
        if is_formats:
            try:
                doc = load(decode(content), aliases=True, node_cap=CARD_NODE_CAP)
            except LoadError as err:
                result.files[shown] = [diag(err.code, err.message, err.mark, file=shown)]
                continue
            problems = list(duplicate_keys(doc, shown))
            formats_name = formats_schema(game.key, game.format_fields)
            formats_found, _ = schema.schema_violations(formats_name, doc, shown)
            problems.extend(formats_found)
            problems.extend(schema.game_not_installed(doc, shown, games))
            result.files[shown] = problems
            formats_doc = (shown, doc)
            continue
        if not any(m in content for m in _CARDS_MARKERS):
            if path in misnamed:
                result.files[shown] = _misnamed(path, shown, formats_file)
            continue  # cannot have a `cards:` key: not a card file (docs/guides/card-data.md)
        keep = not unsaved_keys or _path_key(path) not in unsaved_keys
        done = _file_result(
            content, shown, game, card_rules, None if path in misnamed else store, keep=keep
        )
        if done is None:
            if path in misnamed:
                result.files[shown] = _misnamed(path, shown, formats_file)
            continue  # not a card file: ignored (docs/guides/card-data.md)
        result.files[shown] = done.problems
        card_files.append(done)
    _whole_database(result, root, game, card_files, formats_doc)
    return result


def _whole_database(
    result: LintResult,
    root: Path,
    game: LintedGame,
    card_files: list[FileLint],
    formats_doc: tuple[str, Document] | None,
) -> None:
    """FOLDER, ACROSS and FORMATS over every card file's entries, in file order."""
    flat = _whole.placed(card_files)
    shown_root = display(root)
    folder = files.Folder(shown_root, bool(flat), bool(result.errors))
    for problem in files.FOLDER.run(folder):
        result.files.setdefault(shown_root, []).append(problem)
    found = _whole.across(flat, game)
    releases = [(f.shown, f.release) for f in card_files if f.release is not None]
    found.extend(cards.RELEASES.run(SetReleases(releases)))
    read_formats_of: dict[str, Format] | None = None
    if formats_doc is not None:
        shown, doc = formats_doc
        found.extend(formats.FORMATS.run(_whole.formats_view(doc, shown, flat)))
        if not result.files[shown] and isinstance(doc.data, dict):
            read_formats_of = read_formats(doc.data, game.format_fields)
    for problem in found:
        result.files.setdefault(problem.file or str(root), []).append(problem)
    for diags in result.files.values():
        diags.sort(key=Diagnostic.sort_key)
    result._database = partial(_database, game, card_files, read_formats_of)


def _file_result(
    content: bytes,
    shown: str,
    game: LintedGame,
    card_rules: list[Rule[CardFile]],
    store: LintStore | None,
    *,
    keep: bool = True,
) -> FileLint | None:
    """lint_file's result for a card file's bytes, from the store when it has them (and kept
    there when not, if `keep`)."""
    if store is None:
        return lint_file(content, shown, game, card_rules)
    digest = store.digest(content)
    head = store.head(digest)
    if head is not None:
        line = partial(store.entry, digest)
        again = partial(_again, store, digest, content, shown, game, card_rules, keep)
        try:
            lines = partial(store.lines, digest=digest)
            return decode_result(head, shown, game, line, again, lines)
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            pass  # a row that passed its sum but not its form: checked again, not stored again
    done = lint_file(content, shown, game, card_rules)
    if head is None and keep:
        encoded = encode(done)
        if encoded is not None:
            store.put(digest, *encoded)
    return done


def _again(
    store: LintStore,
    digest: bytes,
    content: bytes,
    shown: str,
    game: LintedGame,
    card_rules: list[Rule[CardFile]],
    keep: bool,
) -> list[Entry]:
    """A stored file's entries when one of them is gone or damaged: the file checked again."""
    done = lint_file(content, shown, game, card_rules)
    if done is None:  # its head said it is a card file
        return []
    encoded = encode(done) if keep else None
    if encoded is not None:
        store.put(digest, *encoded)
    return done.entries()


def _path_key(path: Path) -> str:
    """One spelling of a path (as discovery keys buffers)."""
    return os.path.normcase(os.path.abspath(path))


def _database(
    game: LintedGame, card_files: list[FileLint], formats_read: dict[str, Format] | None
) -> CardDatabase:
    cards_found = [e.card for f in card_files for e in f.entries() if e.card is not None]
    database = game.make_database(cards_found, None)
    if formats_read is not None:
        database.formats = formats_read
    released: dict[
        str, datetime.date
    ] = {}  # set code -> its release day (docs/guides/card-data.md)
    for found in card_files:
        if found.release is not None:  # files that disagree (C011): the latest day, in any order
            code, day, _ = found.release
            released[code] = max(released.get(code, day), day)
    if released:
        database.formats = with_releases(database.formats, released)
    return database


def _misnamed(path: Path, shown: str, formats_file: Path | None) -> list[Diagnostic]:
    return list(files.ROOT_FILES.run(files.RootFile(path, shown, formats_file)))
