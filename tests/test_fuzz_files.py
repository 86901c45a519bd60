"""Time-bounded fuzzing of the files varz-deck reads and writes beside a deck (issue 37): a card
index with rows deleted, a git tree `cards diff --git` reads that git's own commands would never
write, and a --plot file name that is a symlink (or a folder, a loop, a dangling link).

Every command runs in-process; none may exit 3 or print a raw control character. A damaged index
gives the answer of a run with an empty cache folder; a symlinked plot never writes through the
link. CI runs a few dozen inputs in all (FUZZ_EXAMPLES=N multiplies them, as in
tests/test_fuzz_commands.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from gittools import crafted_commit, git
from hypothesis import assume, given
from hypothesis import strategies as st
from test_fuzz_commands import RAW, settings_for

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
DECKS = [*sorted((ROOT / "examples").glob("*.yaml")), ROOT / "examples" / "blue-list.txt"]


def run(*args: str) -> tuple[int, str, str]:
    """The app in-process: (exit status, stdout, stderr); never exit 3, never a raw control."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    text = out.getvalue() + err.getvalue()
    assert code != 3, (args, text[-2000:])
    assert RAW.findall(text) == [], (args, text[-2000:])
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def cache_in(folder: Path) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VARZ_DECK_CACHE", str(folder))
        yield


# --------------------------------------------------------------------------- a damaged index

# Each table of the index with its primary key: the rows a deletion names.
TABLES = {
    "cards": "ord",
    "printings": "card_key, pos",
    "refs": "ref, target",
    "id_refs": "ref",
    "formats": "pos",
    "names": "no",
    "trigrams": "code",
    "heads": "tbl",
    "chains": "tbl, k",
}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, bytes, list[str]]:
    """A copy of the bundled database, its index (as written: bytes) in a cache folder, and
    the output of `check` of every example deck with an empty cache folder."""
    work = tmp_path_factory.mktemp("fuzz-index")
    cards = work / "db"
    shutil.copytree(BUNDLED, cards)
    with cache_in(work / "empty"):
        fresh = [run("check", "--cards", str(cards), str(deck))[1] for deck in DECKS]
    with cache_in(work / "cache"):
        run("check", "--cards", str(cards), str(DECKS[0]))
    (index,) = (work / "cache").glob("db-*.sqlite")
    return cards, index, index.read_bytes(), fresh


@settings_for(12)
@given(data=st.data())
def test_fuzz_rows_deleted_from_the_index(
    data: st.DataObject, indexed: tuple[Path, Path, bytes, list[str]]
) -> None:
    cards, index, pristine, fresh = indexed
    index.write_bytes(pristine)
    with sqlite3.connect(index) as connection:
        for _ in range(data.draw(st.integers(1, 3))):
            table = data.draw(st.sampled_from(sorted(TABLES)))
            key = TABLES[table]
            (count,) = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
            if count == 0:
                continue
            at = data.draw(st.integers(0, count - 1))
            row = connection.execute(
                f"SELECT {key} FROM {table} ORDER BY {key} LIMIT 1 OFFSET ?", (at,)
            ).fetchone()
            where = " AND ".join(f"{column} = ?" for column in key.split(", "))
            connection.execute(f"DELETE FROM {table} WHERE {where}", row)
    connection.close()
    with cache_in(index.parent):
        for deck, wanted in zip(DECKS, fresh, strict=True):
            assert run("check", "--cards", str(cards), str(deck))[1] == wanted, deck.name


# --------------------------------------------------------------------------- crafted git trees


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:  # pragma: no cover - CI has git (tests must not skip there)
        assert not os.environ.get("CI"), "git is needed"
        pytest.skip("needs git")
    repo = tmp_path_factory.mktemp("fuzz-git") / "repo"
    shutil.copytree(BUNDLED, repo / "card_data")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-gpg-sign", "-m", "cards")
    return repo


MODES = [("100644", "blob"), ("100755", "blob"), ("120000", "blob"), ("040000", "tree")]
MODES += [("160000", "commit")]
NAME_CHARS = st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",))
NAMES = st.one_of(
    st.sampled_from(["pr.yaml", "vz01.yaml", "sets", "formats.yaml", "Formats.yaml", "x.yml"]),
    st.sampled_from([".", "..", ".git", ".hidden.yaml", "-", " "]),
    st.text(NAME_CHARS, min_size=1, max_size=12).map(lambda s: s + ".yaml"),
    st.integers(250, 400).map(lambda n: "y" * (n - 5) + ".yaml"),  # past a file name's bytes
)


@settings_for(15)
@given(data=st.data())
def test_fuzz_crafted_git_trees(data: st.DataObject, repository: Path) -> None:
    blob = git(repository, "rev-parse", "HEAD:card_data/sets/pr.yaml")
    tree = git(repository, "rev-parse", "HEAD:card_data/sets")
    entries = []
    for _ in range(data.draw(st.integers(1, 3))):
        mode, kind = data.draw(st.sampled_from(MODES))
        obj = data.draw(st.sampled_from([blob, tree, "1" * 40, "0" * 40]))
        entries.append(f"{mode} {kind} {obj}\t{data.draw(NAMES)}")
    folder = data.draw(st.sampled_from(["card_data", "card_data/sets"]))
    try:
        commit = crafted_commit(repository, folder, *entries)
    except subprocess.CalledProcessError:  # git refused the tree (a bad name, a type mismatch)
        assume(False)
        return
    code, out, err = run("cards", "diff", "--git", commit, str(repository / "card_data"))
    assert code in (0, 1, 2), err
    if code == 2:
        assert out == "" and err.startswith("varz-deck: "), err


# --------------------------------------------------------------------------- symlinked plots

SECRET = "do not overwrite me\n"
PLOTTING = {"sim": ("sim", "--games", "100"), "stats": ("stats",), "tune": ("tune",)}


@settings_for(12)
@given(
    command=st.sampled_from(sorted(PLOTTING)),
    kind=st.sampled_from(["to a file", "dangling", "to a folder", "a loop", "a folder", "file"]),
    suffix=st.sampled_from([".svg", ".SVG", ".png"]),
)
def test_fuzz_plot_files_are_never_written_through_a_link(
    tmp_path_factory: pytest.TempPathFactory, command: str, kind: str, suffix: str
) -> None:
    work = tmp_path_factory.mktemp("fuzz-plot")
    victim = work / "victim.txt"
    victim.write_text(SECRET, encoding="utf-8")
    plot = work / f"plot{suffix}"
    if kind == "to a file":
        plot.symlink_to(victim)
    elif kind == "dangling":
        plot.symlink_to(work / "nowhere" / "x.svg")
    elif kind == "to a folder":
        (work / "dir").mkdir()
        plot.symlink_to(work / "dir")
    elif kind == "a loop":
        plot.symlink_to(plot)
    elif kind == "a folder":
        plot.mkdir()
    else:
        plot.write_text("old\n", encoding="utf-8")
    code, _, err = run(*PLOTTING[command], "--plot", str(plot), str(DECKS[0]))
    assert code in (0, 2), err
    assert victim.read_text(encoding="utf-8") == SECRET
    if code == 0:
        assert plot.is_file() and not plot.is_symlink()
    left = sorted(p.name for p in work.iterdir())
    assert not [name for name in left if name.endswith(".tmp")], left
