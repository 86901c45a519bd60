"""Issue 24 row 5: card files and folders whose names are not UTF-8 (a Latin-1 name from another
machine, `v\\xffz01.yaml`). Python sees such a name as a str with a lone surrogate
('v\\udcffz01.yaml'). The file is read like any other; a message that names it shows the name
escaped, never the raw byte; the cache keys and stores it like any other name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from varz_deck.core import lint as lint_module
from varz_deck.games import lint_database, open_database

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"  # legal; most of its cards are in VZ01
LATIN1 = b"v\xffz01.yaml"  # vz01.yaml renamed: unread, the deck would be illegal


def fs(name: bytes) -> str:
    """A file name as Python's os functions give it (lone surrogates for undecodable bytes)."""
    return os.fsdecode(name)


def database(folder: Path, vz01_name: bytes = LATIN1) -> Path:
    """The bundled database with sets/vz01.yaml renamed to `vz01_name`."""
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", folder / "sets")
    shutil.copy(ROOT / "card_data" / "varz" / "formats.yaml", folder)
    os.rename(folder / "sets" / "vz01.yaml", folder / "sets" / fs(vz01_name))
    return folder


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


def cli(*args: str | Path, cache: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """The real command line (its real stdout and stderr, as bytes)."""
    env = {**os.environ, "VARZ_DECK_NO_CACHE": "1"} if cache is None else os.environ.copy()
    if cache is not None:
        env["VARZ_DECK_CACHE"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *map(str, args)],
        capture_output=True,
        timeout=120,
        check=False,
        env=env,
    )


def assert_escaped(done: subprocess.CompletedProcess[bytes]) -> str:
    """No traceback and no raw non-UTF-8 byte in the output: the output, as text."""
    for stream in (done.stdout, done.stderr):
        text = stream.decode("utf-8")  # strict: a raw \xff byte fails here
        assert "Traceback" not in text and "internal error" not in text, text
    return done.stdout.decode() + done.stderr.decode()


def test_a_card_file_with_a_latin1_name_is_read(tmp_path: Path, private_cache: Path) -> None:
    cards = database(tmp_path / "db")
    result = lint_database(cards)
    assert result.diagnostics == []
    assert result.database is not None
    # VZ01-001 is only in the renamed file: read, not skipped
    assert result.database.cards["VZ01-001"].file.endswith(fs(b"sets/" + LATIN1))
    done = cli("cards", "lint", cards)
    assert done.returncode == 0, done
    assert assert_escaped(done).rstrip().endswith("4 files linted, clean")


def test_a_problem_in_a_latin1_named_file_names_it_escaped(
    tmp_path: Path, private_cache: Path
) -> None:
    cards = database(tmp_path / "db")
    (cards / "sets" / fs(b"b\xff.yaml")).write_text("cards:\n  - id: VZ09-001\n", "utf-8")
    done = cli("cards", "lint", cards)
    assert done.returncode == 1, done
    output = assert_escaped(done)
    assert "C001" in output
    place = next(line for line in output.splitlines() if "C001" in line)
    assert place.startswith(str(cards / "sets" / "b")), place
    assert place.split(":", 1)[0].endswith(("b\\xff.yaml", "b\\udcff.yaml")), place


@pytest.mark.parametrize("cached", [False, True], ids=["no-cache", "cache"])
def test_check_with_a_latin1_named_card_file(
    cached: bool, tmp_path: Path, private_cache: Path
) -> None:
    cards = database(tmp_path / "db")
    cache = private_cache if cached else None
    for _ in range(2 if cached else 1):  # with the cache: built, then served
        done = cli("check", DECK, "--cards", cards, cache=cache)
        assert done.returncode == 0, done
        assert_escaped(done)
    if cached:
        assert len(list(private_cache.glob("db-*.sqlite"))) == 1


def test_a_folder_with_a_latin1_name(tmp_path: Path, private_cache: Path) -> None:
    cards = database(tmp_path / fs(b"d\xffb"), b"vz01.yaml")
    assert cli("cards", "lint", cards).returncode == 0
    done = cli("check", DECK, "--cards", cards, cache=private_cache)
    assert done.returncode == 0, done
    assert_escaped(done)


def test_the_cache_keeps_a_latin1_name(
    tmp_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stored and served from the cache; two names that differ only in the undecodable byte
    are two databases, each showing its own file's name."""
    first = database(tmp_path / "one", b"v\xffz01.yaml")
    second = database(tmp_path / "two", b"v\xfez01.yaml")
    built = open_database(first)
    lints: list[Path] = []
    real = lint_module.lint

    def counted(root: Path, *args: object) -> object:
        lints.append(root)
        return real(root, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(lint_module, "lint", counted)  # imported by a cold build only
    again = open_database(first)
    assert lints == []  # served from the cache
    assert again.cards == built.cards
    assert again.cards["VZ01-001"].file.endswith(fs(b"sets/v\xffz01.yaml"))
    other = open_database(second)
    assert lints == [second]  # another name: another key
    assert other.cards["VZ01-001"].file.endswith(fs(b"sets/v\xfez01.yaml"))
    assert len(list(private_cache.glob("db-*.sqlite"))) == 2


def test_a_misnamed_formats_file_with_a_latin1_name_is_c007(
    tmp_path: Path, private_cache: Path
) -> None:
    cards = database(tmp_path / "db", b"vz01.yaml")
    (cards / "formats.yaml").rename(cards / fs(b"f\xffrmats.yaml"))
    done = cli("cards", "lint", cards)
    assert done.returncode == 1, done
    output = assert_escaped(done)
    assert "C007" in output and "did you mean formats.yaml" in output
    done = cli("check", DECK, "--cards", cards, cache=private_cache)
    assert done.returncode == 2, done
    assert "C007" in assert_escaped(done)
