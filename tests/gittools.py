"""Running git in a test's temporary repository, the same way everywhere: a fixed author, no user
or system configuration, output as text."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(cwd: Path, *args: str, stdin: str | None = None) -> str:
    """Run git in cwd (stdin: its input) and give its stdout, stripped; a failure raises
    CalledProcessError."""
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="test",
        GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="test",
        GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def crafted_commit(repo: Path, folder: str, *entries: str) -> str:
    """A commit on HEAD whose tree is HEAD's with more entries (`ls-tree` lines: mode, type,
    object, a tab, the name) in the tree at `folder` (e.g. `card_data/sets`), made with git's
    plumbing (`mktree --missing`, `commit-tree`): trees git's own commands never write, such as
    a name twice, a name too long for a file system, or a blob the repository does not have."""

    def tree(entries: list[str]) -> str:
        return git(repo, "mktree", "-z", "--missing", stdin="".join(e + "\0" for e in entries))

    def listing(path: str) -> list[str]:
        return [e for e in git(repo, "ls-tree", "-z", f"HEAD:{path}").split("\0") if e]

    changed = tree([*listing(folder), *entries])
    parts = folder.split("/")
    for depth in range(len(parts) - 1, -1, -1):  # each parent, up to the root, takes the new one
        name = parts[depth]
        changed = tree(
            [
                f"{e.partition(chr(9))[0].rsplit(' ', 1)[0]} {changed}\t{name}"
                if e.endswith(f"\t{name}")
                else e
                for e in listing("/".join(parts[:depth]))
            ]
        )
    return git(repo, "commit-tree", changed, "-p", "HEAD", "-m", "crafted")
