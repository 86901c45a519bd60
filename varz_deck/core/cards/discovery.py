"""Finding a card database's files: its root, its YAML files, its formats file, its game key.

The formats file is `formats.yaml` or `formats.yml` at the root (both at once is C007); a file
there whose name is close to it (`Formats.yaml`, `format.yaml`, `formats.yaml.txt`) is C007 too,
never silently ignored.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from varz_deck.core.files.source import CARD_FILE_LIMIT, LoadError, buffer_bytes, read_bytes

FORMATS_FILE = "formats.yaml"
FORMATS_NAMES = (FORMATS_FILE, "formats.yml")  # at a database's root; the first is read if both
_GAME_LINE = re.compile(rb"^game:[ \t]*[\"']?([a-z0-9_-]+)", re.MULTILINE)

Content = bytes | LoadError  # a file's bytes, or why they could not be read
Buffers = Mapping[Path, str]  # an editor's unsaved card files: read as their text, not the file


def yaml_files(root: Path) -> list[Path]:
    """The YAML files of a database; a folder below the root with its own formats.yaml is a
    separate database (another game's bundled one inside the first) and is skipped."""
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


def read_files(
    root: Path, buffers: Buffers | None = None, before: Callable[[Path], None] | None = None
) -> Iterator[tuple[Path, Content]]:
    """Each YAML file of the database with its bytes, read once: a file with a buffer (an
    editor's unsaved text) as that text, through the same limit. `before(path)` is called just
    before each file is read (the cache's stat record takes its stat then)."""
    keyed = _keyed(buffers)
    for path in yaml_files(root):
        if before is not None:
            before(path)
        try:
            yield path, _read(path, keyed)
        except LoadError as err:
            yield path, err


def _keyed(buffers: Buffers | None) -> dict[str, str]:
    return {_key(path): text for path, text in (buffers or {}).items()}


def _key(path: Path) -> str:
    """One spelling of a path, however it was written (relative, with `..`, in another case
    where the file system ignores case)."""
    return os.path.normcase(os.path.abspath(path))


def read_file(path: Path, buffers: Buffers | None = None) -> bytes:
    """One file of a database: its buffer's bytes when it has one, else the file's; LoadError if
    either is not readable or over the limit."""
    return _read(path, _keyed(buffers))


def _read(path: Path, keyed: Mapping[str, str]) -> bytes:
    """A card file's bytes, or its buffer's (`keyed` by `_key`) when it has one; LoadError if
    either is not readable or over the limit."""
    text = keyed.get(_key(path))
    if text is not None:
        return buffer_bytes(text, CARD_FILE_LIMIT)
    return read_bytes(path, CARD_FILE_LIMIT)


def game_key_of(data: bytes | None) -> str | None:
    """The key of the game a database is for, from its formats.yaml bytes (`game:`; None without
    it: the default game). The games layer maps it to a game; the lint reports an unknown one
    (C001)."""
    match = _GAME_LINE.search(data) if data else None
    return match.group(1).decode() if match else None


def database_game_key(root: Path, buffers: Buffers | None = None) -> str | None:
    """The game key of the database at root (its formats.yaml, or that file's buffer), without
    loading the cards."""
    path = formats_path(root)
    try:
        data: bytes | None = _read(path, _keyed(buffers)) if path else None
    except LoadError:
        data = None
    return game_key_of(data)


_CARDS_KEY = re.compile(rb"^cards[ \t]*:", re.MULTILINE)
_FORMATS_KEY = re.compile(rb"^formats[ \t]*:", re.MULTILINE)
LOOK_BUDGET = 5_000  # entries `holds_card_files` looks at before it gives up
HEAD = 65_536  # bytes of a file `card_data_kind` is shown: a card file's `cards:` comes early


def card_data_kind(name: str, head: bytes) -> str | None:
    """What a YAML file is to a card database, by its name and the start of its text:
    "formats" (named formats.yaml or formats.yml, or with a top-level `formats:`), "cards" (a
    top-level `cards:`, as `holds_card_files` knows a card file), else None."""
    if name in FORMATS_NAMES or _FORMATS_KEY.search(head):
        return "formats"
    if _CARDS_KEY.search(head):
        return "cards"
    return None


def read_head(path: Path, size: int = HEAD) -> bytes | None:
    """The first `size` bytes of a regular file (whatever its length), or None when it is not
    one or cannot be read: opened without blocking, as every read is (a FIFO is never waited
    on)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    try:
        return os.read(fd, size) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(fd)


def holds_card_files(root: Path, budget: int = LOOK_BUDGET) -> bool:
    """Whether a folder looks like a card database: a formats file at its root, or a YAML file
    with a top-level `cards:` key in it or in a folder just below it (`sets/`). Hidden folders
    and nested databases are not looked in, nor anything deeper, so that a home folder or /tmp
    with a database somewhere inside is not taken for one; at most `budget` entries are looked
    at."""
    if formats_path(root) is not None:
        return True
    seen = 0
    for top, dirs, names in os.walk(root):
        here = Path(top)
        dirs[:] = sorted(
            d
            for d in dirs
            if here == root and not d.startswith(".") and formats_path(here / d) is None
        )
        for name in sorted(names):
            seen += 1
            if seen > budget:
                return False
            if name.startswith(".") or not name.endswith((".yaml", ".yml")):
                continue
            try:
                if _CARDS_KEY.search(read_bytes(here / name, CARD_FILE_LIMIT)):
                    return True
            except LoadError:
                continue  # unreadable: it tells nothing either way
    return False


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


def misnamed(root: Path) -> list[Path]:
    """Files at the root named like a formats file but not read as one (C007)."""
    have_formats = formats_path(root) is not None
    try:
        names = sorted(p.name for p in root.iterdir())
    except OSError:
        return []
    return [root / name for name in names if misnamed_formats(name, have_formats)]


def display(path: Path) -> str:
    """A path as messages show it: relative to the working directory when under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
