"""Which files are decks and how each is written, for every game.

- `is_text_list`: a deck file is a plain-text list (docs/guides/player.md) or YAML by its content, not only its
  extension: `.txt` is a list and `.yaml`/`.yml` YAML, as before; any other file (`.dek`, no
  extension, standard input) is a list when a line is a `COUNT NAME` line, which YAML decks never
  have at the start of a line (their list items start with `-`).
- `find_deck_files`: the deck files under a folder, recursively, in sorted path order (as ruff
  orders files), hidden folders and files skipped, `--exclude` patterns applied.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePath, PurePosixPath

DECK_SUFFIXES = (".yaml", ".yml", ".txt", ".dek")
STDIN_NAME = "<stdin>"  # how standard input is shown in reports
_YAML_SUFFIXES = frozenset({".yaml", ".yml"})
# `3 Name`, `3x Name`, `3× Name` after optional indentation: a text list's entry line
_COUNT_LINE = re.compile(r"[ \t]*[0-9]+[xX×]?[ \t]+[^\s#-]")
# `  2 Headed Dragon: 2`: a YAML mapping entry whose card name starts with a number
_MAPPING_COUNT = re.compile(r".*:[ \t]*[0-9]+[ \t]*(#.*)?$")
MAX_DECK_FILES = 100_000  # a folder search stops here rather than walking a whole disk


def is_text_list(name: str | PurePath, text: str) -> bool:
    """Whether a deck's text is read as a plain-text list (else as YAML), by its name's suffix,
    else by its content."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".txt":
        return True
    if suffix in _YAML_SUFFIXES:
        return False
    for line in text.splitlines():
        if _COUNT_LINE.match(line) and not _MAPPING_COUNT.match(line):
            return True
    return False


def _matches(relative: PurePosixPath, patterns: Iterable[str]) -> bool:
    """gitignore-ish: a pattern without `/` matches any one part of the path (a folder or the
    file name); one with `/` matches the whole relative path (`*` may cross folders)."""
    text = relative.as_posix()
    for pattern in patterns:
        bare = pattern.strip().rstrip("/")
        if not bare:
            continue
        if "/" in bare:
            if fnmatch.fnmatchcase(text, bare.lstrip("/")) or fnmatch.fnmatchcase(
                text, bare.lstrip("/") + "/*"
            ):
                return True
        elif any(fnmatch.fnmatchcase(part, bare) for part in relative.parts):
            return True
    return False


def find_deck_files(folder: Path, exclude: Iterable[str] = ()) -> list[Path]:
    """The deck files under folder (DECK_SUFFIXES, any case), sorted by path; hidden folders and
    files (a name starting with `.`) and paths an `exclude` pattern matches are left out.
    Symlinked folders are not followed (no loops); unreadable folders are skipped."""
    patterns = tuple(exclude)
    found: list[Path] = []
    for current, folders, files in os.walk(folder, followlinks=False):
        here = Path(current)
        relative_here = PurePosixPath(here.relative_to(folder).as_posix())
        folders[:] = sorted(
            name
            for name in folders
            if not name.startswith(".") and not _matches(relative_here / name, patterns)
        )
        for name in files:
            if name.startswith(".") or not name.lower().endswith(DECK_SUFFIXES):
                continue
            if _matches(relative_here / name, patterns):
                continue
            found.append(here / name)
            if len(found) >= MAX_DECK_FILES:
                return sorted(found)
    return sorted(found)
