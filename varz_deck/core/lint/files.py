"""The database's files: a misnamed or second formats file (C007), no cards at all (C006)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from varz_deck.core.cards.discovery import FORMATS_NAMES
from varz_deck.core.messages.code import Scope
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Quoted, msg
from varz_deck.core.messages.rulebook import Rulebook


@dataclass(frozen=True)
class RootFile:
    """A file at the database's root named like its formats file, and the one that is read."""

    path: Path
    shown: str
    formats_file: Path | None


@dataclass(frozen=True)
class Folder:
    """The database's folder, and whether any card or any error was found in it."""

    shown: str
    has_cards: bool
    has_errors: bool


ROOT_FILES: Rulebook[RootFile] = Rulebook(Scope.CARDS)
FOLDER: Rulebook[Folder] = Rulebook(Scope.CARDS)


def formats_file_misnamed(view: RootFile) -> Iterator[Diagnostic]:
    """a file at the root is named like formats.yaml but is not read as it (Formats.yaml, format.yml, formats.yaml.txt), or formats.yaml and formats.yml are both there"""
    name = view.path.name
    if name in FORMATS_NAMES:
        other = view.formats_file.name if view.formats_file else ""
        message = msg(
            "C007",
            "{name} and {other} are both formats files; only {other} is read: merge them into "
            "one and delete the other",
        )(name=Quoted(name), other=Quoted(other))
    else:
        message = msg(
            "C007",
            "{name} is not read as the formats file, so its formats, bans and restrictions "
            "would not apply; did you mean formats.yaml? Rename it (or move it out of the "
            "card database)",
        )(name=Quoted(name))
    yield diag(C007, message, file=view.shown)


ROOT_FILES.rule(
    "C007",
    "formats-file-misnamed",
    "card data",
    fix="Name the file exactly formats.yaml, and keep only one of formats.yaml and .yml.",
)(formats_file_misnamed)
C007 = ROOT_FILES.rules["C007"].info


_EMPTY = msg(
    "C006",
    "no cards in {folder}: a card file is a .yaml or .yml file with a top-level `cards:` list; "
    "give the folder that holds the card files (--cards, or VARZ_DECK_CARDS)",
)


def database_empty(view: Folder) -> Iterator[Diagnostic]:
    """the card database has no cards: no .yaml/.yml file below it has a top-level cards: list"""
    if not view.has_cards and not view.has_errors:
        yield diag(C006, _EMPTY(folder=view.shown), file=view.shown)


FOLDER.rule(
    "C006",
    "card-database-empty",
    "card data",
    fix="Point --cards at the folder of the card files, each with a top-level `cards:` list.",
)(database_empty)
C006 = FOLDER.rules["C006"].info
