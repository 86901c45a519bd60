"""`cards lint`: every check of a card database, one module per family, each owning its code.

- files.py: a misnamed or second formats file (C007), no cards at all (C006);
- schema.py: card files and formats.yaml against their schemas, the game named (C001);
- cards.py: set codes (C102), ids (C002), printings (C003, C103), shared names (C101);
- formats.py: what formats.yaml names (C005, C104).

A game adds its own card checks (`Game.card_rules`), registered the same way on a
`Rulebook[CardFile]`. F001–F003 are the readers' (core/filecodes.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.core.cards import CardDatabase
from varz_deck.core.code import Code
from varz_deck.core.diagnostics import Diagnostic, diag
from varz_deck.core.discovery import FORMATS_NAMES, Content, display, formats_path
from varz_deck.core.filecodes import F001
from varz_deck.core.formats import read_formats
from varz_deck.core.i18n import msg
from varz_deck.core.lint import cards, files, formats, schema
from varz_deck.core.lint._base import CardFile, Cards, Entry, FormatsFile, duplicate_keys, entries
from varz_deck.core.resources import formats_schema
from varz_deck.core.source import LoadError, decode
from varz_deck.core.strictyaml import CARD_NODE_CAP, Document, load

if TYPE_CHECKING:
    from varz_deck.core.game import Game

__all__ = ["CARD_CODES", "CardFile", "Entry", "LintResult", "lint"]

# The code of every card-data check of the core, for `varz-deck rules`.
CARD_CODES: tuple[Code, ...] = (
    schema.C001,
    *(
        rule.info
        for book in (files.ROOT_FILES, files.FOLDER, cards.IN_FILE, cards.ACROSS, formats.FORMATS)
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


def lint(
    root: Path,
    game: Game,
    read: Iterable[tuple[Path, Content]],
    misnamed: list[Path],
    games: Sequence[str],
) -> LintResult:
    """Check every file read of the database at root, then the database whole. `games` are the
    installed games' keys (what formats.yaml's `game:` may name)."""
    result = LintResult(root)
    found_entries: list[Entry] = []
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
        problems: list[Diagnostic] = []
        if path.parent == root and path.name in FORMATS_NAMES and not is_formats:
            result.files[shown] = _misnamed(path, shown, formats_file)
            continue
        if path.is_dir():  # a folder discovery could not list
            result.files[shown] = [diag(F001, _FOLDER_UNREADABLE, file=shown)]
            continue
        try:
            if isinstance(content, LoadError):
                raise content
            if not is_formats and not any(m in content for m in _CARDS_MARKERS):
                if path in misnamed:
                    result.files[shown] = _misnamed(path, shown, formats_file)
                continue  # cannot have a `cards:` key: not a card file (SPEC §1)
            doc = load(decode(content), aliases=True, node_cap=CARD_NODE_CAP)
        except LoadError as err:
            result.files[shown] = [diag(err.code, err.message, err.mark, file=shown)]
            continue
        if is_formats:
            problems.extend(duplicate_keys(doc, shown))
            formats_name = formats_schema(game.key, game.format_fields)
            formats_found, _ = schema.schema_violations(formats_name, doc, shown)
            problems.extend(formats_found)
            problems.extend(schema.game_not_installed(doc, shown, games))
            result.files[shown] = problems
            formats_doc = (shown, doc)
            continue
        if not (isinstance(doc.data, dict) and "cards" in doc.data):
            if path in misnamed:
                result.files[shown] = _misnamed(path, shown, formats_file)
            continue  # not a card file: ignored (SPEC §1)
        result.files[shown] = problems
        problems.extend(duplicate_keys(doc, shown))
        card_found, bad_paths = schema.schema_violations(game.card_schema, doc, shown)
        problems.extend(card_found)
        view = CardFile(doc, shown, list(entries(doc, shown, bad_paths, game)), bad_paths)
        for rule in card_rules:
            problems.extend(rule.check(view))
        problems.extend(cards.IN_FILE.run(view))
        found_entries.extend(view.entries)
    shown_root = display(root)
    folder = files.Folder(shown_root, bool(found_entries), bool(result.errors))
    for problem in files.FOLDER.run(folder):
        result.files.setdefault(shown_root, []).append(problem)
    database = game.make_database([e.card for e in found_entries if e.card is not None], None)
    found = cards.ACROSS.run(Cards(found_entries, game))
    if formats_doc is not None:
        shown, doc = formats_doc
        found.extend(formats.FORMATS.run(FormatsFile(doc, shown, found_entries)))
        if not result.files[shown] and isinstance(doc.data, dict):
            database.formats = read_formats(doc.data, game)
    for problem in found:
        result.files.setdefault(problem.file or str(root), []).append(problem)
    for diags in result.files.values():
        diags.sort(key=Diagnostic.sort_key)
    result.database = database
    return result


def _misnamed(path: Path, shown: str, formats_file: Path | None) -> list[Diagnostic]:
    return list(files.ROOT_FILES.run(files.RootFile(path, shown, formats_file)))
