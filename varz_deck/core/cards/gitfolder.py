"""A card-database folder as it was at a git revision (`cards diff --git REV`), written into a
temporary folder: the YAML files below it and the files at its root (what a database is read
from), never a symlink, a submodule or a path that leaves the folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import BinaryIO

from varz_deck.core.files.source import CARD_FILE_LIMIT
from varz_deck.core.messages.i18n import Message, Quoted, msg

_NO_GIT = msg("cli", "--git needs git, and no git command was found")
_NO_REPOSITORY = msg("cli", "{folder} is not in a git repository; --git needs one")
_NO_REVISION = msg("cli", "{rev} is not a revision of {repository}: give a commit, branch or tag")
_GIT_FAILED = msg("cli", "git could not read {folder} at {rev}: {error}")
_BAD_ENTRY = msg("cli", "{folder} at {rev} cannot be read: its entry {entry} {problem}")
_TWICE = msg("cli", "is in the tree twice (a tree git would not check out)")
_MISSING = msg("cli", "is missing from the repository (its blob is not there to read)")
_UNWRITABLE = msg("cli", "cannot be written to a folder ({error})")

CARD_SUFFIXES = (b".yaml", b".yml")
REGULAR = (b"100644", b"100755")


class GitError(Exception):
    """--git cannot be honoured: the message says why (a usage error)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


class _BadEntry(Exception):
    """An entry of the tree that cannot be taken as it is: its path and why."""

    def __init__(self, path: bytes, problem: Message) -> None:
        super().__init__(path)
        self.path = path
        self.problem = problem


def _git(git: str, cwd: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    """git's standard output, or None when it fails."""
    try:
        done = subprocess.run(
            [git, *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"},
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def export(folder: Path, rev: str, target: Path) -> bool:
    """Write `folder` as it was at `rev` into the empty folder `target`; False when the folder
    did not exist at that revision (or `rev` is HEAD and there is no commit yet): target stays
    empty. GitError for no git, no repository or no such revision."""
    git = shutil.which("git")
    if git is None:
        raise GitError(_NO_GIT())
    where = folder.resolve()
    top_out = _git(git, where, "rev-parse", "--show-toplevel") if where.is_dir() else None
    if not top_out:
        raise GitError(_NO_REPOSITORY(folder=Quoted(str(folder))))
    top = Path(os.fsdecode(top_out.rstrip(b"\n"))).resolve()
    commit = None
    if rev and not rev.startswith("-"):
        commit = _git(git, top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if not commit:
        if rev == "HEAD" and _git(git, top, "symbolic-ref", "-q", "HEAD") is not None:
            return False  # no commit yet (the first commit's hook): nothing was there
        raise GitError(_NO_REVISION(rev=Quoted(rev), repository=Quoted(str(top))))
    sha = commit.decode("ascii", "replace").strip()
    prefix = where.relative_to(top).as_posix() if where != top else ""
    tree = f"{sha}:{prefix}"
    if _git(git, top, "cat-file", "-t", tree) != b"tree\n":
        return False
    listing = _git(git, top, "ls-tree", "-r", "-l", "-z", tree)
    if listing is None:
        raise GitError(_GIT_FAILED(folder=Quoted(str(folder)), rev=Quoted(rev), error="ls-tree"))
    try:
        _write(git, top, _wanted(listing), target, folder, rev)
    except _BadEntry as bad:
        entry = Quoted(os.fsdecode(bad.path))
        raise GitError(
            _BAD_ENTRY(
                folder=Quoted(str(folder)), rev=Quoted(rev), entry=entry, problem=bad.problem
            )
        ) from None
    return True


def _wanted(listing: bytes) -> list[tuple[bytes, int, bytes]]:
    """(object, size, path) of each regular file a database reads, from `ls-tree -r -l -z`;
    _BadEntry for one that is there twice or whose blob is missing (no size)."""
    found = []
    seen: set[bytes] = set()
    for entry in listing.split(b"\0"):
        meta, tab, path = entry.partition(b"\t")
        parts = meta.split()
        if not tab or len(parts) != 4 or parts[1] != b"blob" or parts[0] not in REGULAR:
            continue
        names = path.split(b"/")
        if any(n in (b"", b".", b"..", b".git") for n in names):
            continue
        if len(names) > 1 and not path.lower().endswith(CARD_SUFFIXES):
            continue
        if path in seen:
            raise _BadEntry(path, _TWICE)
        seen.add(path)
        if not parts[3].isdigit():  # git shows no size for a blob it does not have
            raise _BadEntry(path, _MISSING)
        found.append((parts[2], int(parts[3]), path))
    return found


def _write(
    git: str,
    top: Path,
    wanted: list[tuple[bytes, int, bytes]],
    target: Path,
    folder: Path,
    rev: str,
) -> None:
    """Each file's bytes from `git cat-file --batch`; one over the card-file limit is written as
    that many bytes of nothing (a sparse file), so reading the database says it is too large."""
    small = [(obj, path) for obj, size, path in wanted if size <= CARD_FILE_LIMIT]
    for _obj, size, path in wanted:
        if size > CARD_FILE_LIMIT:
            with _create(target, path) as out:
                out.truncate(CARD_FILE_LIMIT + 1)
    if not small:
        return
    batch = _git(git, top, "cat-file", "--batch", stdin=b"".join(o + b"\n" for o, _ in small))
    if batch is None:
        raise GitError(_GIT_FAILED(folder=Quoted(str(folder)), rev=Quoted(rev), error="cat-file"))
    at = 0
    for _obj, path in small:
        end = batch.find(b"\n", at)
        header = batch[at:end].split()
        if end < 0 or len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
            raise _BadEntry(path, _MISSING)  # `<object> missing`, or not a blob at all
        size = int(header[2])
        with _create(target, path) as out:
            out.write(batch[end + 1 : end + 1 + size])
        at = end + 1 + size + 1  # the content, then a newline


def _create(target: Path, path: bytes) -> BinaryIO:
    """A new file at `path` (a relative git path) below target, its folders made; _BadEntry
    when the file system refuses it (a name too long, a file where a folder must go)."""
    out = target / os.fsdecode(path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return open(out, "xb")
    except OSError as err:
        raise _BadEntry(path, _UNWRITABLE(error=err.strerror or type(err).__name__)) from None
