"""Issue 11, the command-line rows (3, 4, 5, 8, 10, 12, 14, 15, 16, 18): each row's hostile case
from tests/hostile/ and what the tool must do with it."""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from varz_deck.cli import main
from varz_deck.core.messages.sanitize import clean_output, json_dumps, safe

HOSTILE = Path(__file__).resolve().parent / "hostile"
ROOT = HOSTILE.parent.parent
EXAMPLE = ROOT / "examples" / "blue-list.txt"

# What no output may carry raw: C0 but newline and tab, DEL, C1, and the bidi controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
BIDI = ["\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]  # fmt: skip


def hostile(name: str) -> ModuleType:
    path = next(HOSTILE.glob(f"{name}*.py"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The app in-process: (exit status, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- row 3


@pytest.fixture
def hostile_db(tmp_path: Path) -> tuple[Path, Path]:
    return hostile("row03").write(tmp_path)  # type: ignore[no-any-return]


ROW3_COMMANDS = [
    ("check",),
    ("check", "--output", "json"),
    ("check", "--output", "github"),
    ("check", "--output", "sarif"),
    ("sim", "--games", "200"),
    ("sim", "--games", "200", "--output", "json"),
    ("register",),
    ("register", "--output", "json"),
    ("register", "--output", "csv"),
    ("verify", "--hash", "v1-aaaaaaaaaaaa"),
    ("diff", "--output", "json", "DECK"),
    ("diff", "DECK"),
    ("code",),
]


@pytest.mark.parametrize("command", ROW3_COMMANDS, ids=" ".join)
def test_row03_no_raw_control_or_bidi_in_any_output(
    capsys: pytest.CaptureFixture[str], hostile_db: tuple[Path, Path], command: tuple[str, ...]
) -> None:
    db, deck = hostile_db
    args = [a if a != "DECK" else str(EXAMPLE) for a in command]
    code, out, err = run(capsys, args[0], "--cards", str(db), *args[1:], str(deck))
    assert code != 3, err
    assert RAW.findall(out) == [], out
    assert RAW.findall(err) == [], err
    if "json" in command or "sarif" in command:
        json.loads(out)  # escaped, never broken


@pytest.mark.parametrize("command", [("cards", "show", "T1-001"), ("cards", "search", "Imp"),
                                     ("cards", "lint")], ids=" ".join)  # fmt: skip
def test_row03_card_commands(
    capsys: pytest.CaptureFixture[str], hostile_db: tuple[Path, Path], command: tuple[str, ...]
) -> None:
    db, _ = hostile_db
    if command[1] == "lint":
        code, out, err = run(capsys, *command, str(db), "--output", "json")
    else:
        code, out, err = run(capsys, *command, "--cards", str(db))
    assert code in (0, 1), err
    assert RAW.findall(out + err) == []


def test_row03_json_names_round_trip(
    capsys: pytest.CaptureFixture[str], hostile_db: tuple[Path, Path]
) -> None:
    """The JSON escapes are `\\u` escapes of the very characters: decoding gives the names back."""
    db, deck = hostile_db
    code, out, _ = run(capsys, "sim", "--cards", str(db), "--games", "200", "-o", "json", str(deck))
    assert code == 0
    names = {c["name"] for c in json.loads(out)["cards"]}
    import yaml

    row = hostile("row03")
    expected = {yaml.safe_load(f'"{row.spell_name(i, n)}"') for i, (n, _) in enumerate(row.SPELLS)}
    assert names == expected
    assert "\\u202e" in out and "\\u061c" in out and "\\u009b" in out


def test_row03_json_dumps_escapes_c1_and_bidi() -> None:
    text = "".join(map(chr, range(0x20))) + "\x7f" + "".join(map(chr, range(0x80, 0xA0)))
    text += "".join(BIDI)
    dumped = json_dumps({"k": text})
    assert RAW.findall(dumped) == []
    assert json.loads(dumped) == {"k": text}


def test_row03_safe_and_stream_cover_every_bidi_control() -> None:
    for ch in [*BIDI, "\x9b", "\x1b"]:
        assert ch not in safe(f"a{ch}b")
        assert ch not in clean_output(f"a{ch}b")
    assert clean_output("\x1b[1;31mred\x1b[0m", allow_sgr=True) == "\x1b[1;31mred\x1b[0m"
    assert clean_output("\x1b]8;;x\x07", allow_sgr=True) == "\\x1b]8;;x\\x07"


@pytest.mark.parametrize("allow_sgr", [False, True])
def test_stream_keeps_only_newline_and_tab_raw(allow_sgr: bool) -> None:
    """Every C0 control but newline and tab is escaped on a stream: a raw carriage return
    would let a name overwrite the start of its line (issue 24: the guard passed a raw \\r)."""
    kept = {"\n", "\t"}
    for code in range(0x20):
        ch = chr(code)
        expected = ch if ch in kept else f"\\x{code:02x}"
        assert clean_output(f"a{ch}b", allow_sgr=allow_sgr) == f"a{expected}b"
    assert clean_output("ok\r\nmore") == "ok\\x0d\nmore"


def test_stream_escapes_read_as_the_code_point() -> None:
    """Past U+00FF an escape is \\uXXXX (a bidi override is never printed as \\x202e); colour
    (SGR) survives only when asked for, and by default a stream gets none."""
    for allow_sgr in (False, True):
        assert clean_output("a\u202eb\u2066", allow_sgr=allow_sgr) == "a\\u202eb\\u2066"
        assert clean_output("a\x85b", allow_sgr=allow_sgr) == "a\\x85b"
    assert clean_output("\x1b[1mX") == "\\x1b[1mX"
    assert clean_output("\x1b[1mX", allow_sgr=False) == "\\x1b[1mX"
    assert clean_output("\x1b[1mX", allow_sgr=True) == "\x1b[1mX"


# --------------------------------------------------------------------------- row 4


def test_row04_sheet_symlink_is_replaced_not_followed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    row = hostile("row04")
    sheets, target = row.write(tmp_path, "blue-list.html")
    code, _, err = run(capsys, "register", "--sheet", str(sheets), str(EXAMPLE))
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == row.SECRET
    sheet = sheets / "blue-list.html"
    assert not sheet.is_symlink()
    assert "<html" in sheet.read_text(encoding="utf-8").lower()


PLOTTING = {  # every command with --plot
    "sim": ("sim", "--games", "200"),
    "stats": ("stats",),
    "tune": ("tune",),
}


@pytest.mark.parametrize("command", list(PLOTTING))
def test_row04_plot_symlink_is_replaced_not_followed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    row = hostile("row04")
    folder, target = row.write(tmp_path, "plot.svg")
    plot = folder / "plot.svg"
    code, _, err = run(capsys, *PLOTTING[command], "--plot", str(plot), str(EXAMPLE))
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == row.SECRET
    assert not plot.is_symlink() and plot.read_text(encoding="utf-8").lstrip().startswith("<")
    assert sorted(p.name for p in folder.iterdir()) == ["plot.svg"]  # no temporary file left


@pytest.mark.parametrize("command", list(PLOTTING))
def test_row04_a_plot_that_cannot_be_written_is_exit_2_and_leaves_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """A plot named in a folder that does not exist, or as a folder: exit 2 saying so."""
    for plot in (tmp_path / "none" / "plot.svg", tmp_path):
        plot_arg = str(plot) if plot != tmp_path else str(tmp_path / "dir.svg")
        if plot == tmp_path:
            (tmp_path / "dir.svg").mkdir()
        code, _, err = run(capsys, *PLOTTING[command], "--plot", plot_arg, str(EXAMPLE))
        assert code == 2, err
        assert f"cannot write {plot_arg}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.svg"]


# --------------------------------------------------------------------------- row 5


def _subprocess(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *args],
        capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_row05_fifo_deck_is_f001_at_once(tmp_path: Path) -> None:
    fifo = hostile("row05").write(tmp_path)
    start = time.monotonic()
    proc = _subprocess("check", str(fifo), str(EXAMPLE), timeout=30)
    assert time.monotonic() - start < 20
    assert proc.returncode == 1, proc.stderr
    assert "F001" in proc.stdout and "not a regular file" in proc.stdout
    assert "1 legal" in proc.stdout  # the other deck is still reported


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_row05_fifo_card_file_is_f001_at_once(tmp_path: Path, altdb_path: Path) -> None:
    import shutil

    db = tmp_path / "db"
    shutil.copytree(altdb_path, db)
    os.mkfifo(db / "sets" / "fifo.yaml")
    proc = _subprocess("cards", "lint", str(db), timeout=30)
    assert proc.returncode == 1, proc.stderr
    assert "fifo.yaml" in proc.stdout and "not a regular file" in proc.stdout


# --------------------------------------------------------------------------- row 8


def test_row08_small_drafts_simulate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Fewer cards than a hand and a mulligan need: simulated as they are, copies summed right."""
    for deck in hostile("row08").write(tmp_path):
        for extra in ([], ["--mulligan", "auto"], ["--on", "draw", "--turns", "12"]):
            code, out, err = run(capsys, "sim", "--games", "200", "-o", "json", *extra, str(deck))
            assert code in (0, 1), (deck.name, extra, err)
            if code == 0:
                document = json.loads(out)
                for card in document["cards"]:
                    assert all(0.0 <= p <= 1.0 for p in card["p_drawn_by_turn"])


# --------------------------------------------------------------------------- row 10


def test_row10_huge_counts_are_f004_at_the_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    decks = hostile("row10").write(tmp_path)
    code, out, err = run(capsys, "check", "-o", "json", *(str(p) for p, _ in decks), str(EXAMPLE))
    assert code == 1, err
    reports = json.loads(out)["decks"]
    assert len(reports) == len(decks) + 1 and reports[-1]["legal"] is True
    for (path, (line, column)), report in zip(decks, reports, strict=False):
        f004 = [d for d in report["diagnostics"] if d["code"] == "F004"]
        assert f004, (path.name, report["diagnostics"])
        assert (f004[0]["line"], f004[0]["column"]) == (line, column), path.name
        assert len(f004[0]["message"]) < 300


# --------------------------------------------------------------------------- row 12


@pytest.mark.parametrize(
    "games", (HOSTILE / "row12_games.txt").read_text(encoding="utf-8").split("\n")[1:-1]
)
def test_row12_games_bound(capsys: pytest.CaptureFixture[str], games: str) -> None:
    start = time.monotonic()
    code, out, err = run(capsys, "sim", "--games", games, str(EXAMPLE))
    assert time.monotonic() - start < 5
    assert code == 2, err
    assert out == "" and "--games" in err and "Traceback" not in err


# --------------------------------------------------------------------------- row 14


@pytest.mark.parametrize("mode", ["closed", "broken"])
def test_row14_closed_or_broken_stdout_exits_quietly(mode: str) -> None:
    row = hostile("row14")
    many = [str(EXAMPLE)] * 400  # more than a pipe holds
    code, err = row.run(mode, ["check", "--output", "json", *many])
    assert code not in (0, 3)
    assert "Traceback" not in err and "internal error" not in err, err


# --------------------------------------------------------------------------- row 15


def test_row15_unreadable_deck_among_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    a, b, c = (tmp_path / f"{x}.txt" for x in "abc")
    for p in (a, b, c):
        shutil.copyfile(EXAMPLE, p)
    hostile("row15").unreadable(monkeypatch, b)
    code, out, err = run(capsys, "check", "-o", "json", str(a), str(b), str(c))
    assert code == 1, err
    decks = json.loads(out)["decks"]
    assert [d["path"] for d in decks] == [str(a), str(b), str(c)]
    assert [d["legal"] for d in decks] == [True, False, True]
    assert decks[1]["diagnostics"][0]["code"] == "F001"
    assert "permission denied" in decks[1]["diagnostics"][0]["message"]


# --------------------------------------------------------------------------- row 16


def test_row16_long_deck_names_get_short_sheet_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    decks = hostile("row16").write(tmp_path, EXAMPLE)
    sheets = tmp_path / "sheets"
    code, out, err = run(capsys, "register", "--sheet", str(sheets), *map(str, decks))
    assert code == 0, err
    assert out.count("v1-") >= 2  # both registrations printed
    names = sorted(p.name for p in sheets.iterdir())
    assert len(names) == 2
    for name, deck in zip(names, sorted(decks, key=lambda p: p.name), strict=True):
        assert len(name.encode("utf-8")) <= 200 and name.endswith(".html")
        stem = deck.name.rsplit(".", 1)[0]
        assert name.startswith(stem[:20])  # a readable prefix
        digest = hashlib.sha256(f"{stem}.html".encode()).hexdigest()[:10]
        assert digest in name  # and a hash of the full name


def test_row16_one_sheet_failing_keeps_the_batch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import shutil

    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    shutil.copyfile(EXAMPLE, a)
    shutil.copyfile(EXAMPLE, b)
    sheets = tmp_path / "sheets"
    (sheets / "a.html").mkdir(parents=True)  # a folder where a's sheet goes: cannot be written
    code, out, err = run(capsys, "register", "--sheet", str(sheets), str(a), str(b))
    assert code not in (0, 3)
    assert out.count("v1-") == 2  # the registrations are printed all the same
    assert "a.html" in err and "Traceback" not in err
    assert (sheets / "b.html").is_file()


# --------------------------------------------------------------------------- row 18


def test_row18_symlink_loop_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    loop = hostile("row18").symlink_loop(tmp_path)
    code, out, _ = run(capsys, "check", str(loop))
    assert code == 1
    assert "symlink loop" in out and "OSError" not in out


def test_row18_sheet_file_is_not_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = hostile("row18").sheet_file(tmp_path)
    code, out, err = run(capsys, "register", "--sheet", str(path), str(EXAMPLE))
    assert code == 2
    assert "is a file, not a folder" in err and "File exists" not in err
    assert "v1-" in out  # the registration is printed all the same


def test_row18_code_with_stray_full_stop(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "code", str(EXAMPLE))
    assert code == 0
    deck_code = out.strip()
    code, out, _ = run(capsys, "check", "-o", "json", deck_code + ".")
    assert code == 1
    (problem,) = json.loads(out)["decks"][0]["diagnostics"]
    assert problem["code"] == "F009" and "stray '.'" in problem["message"]


def test_row18_unreadable_database_folder_is_permission_denied(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bundled_db_path: Path,
) -> None:
    root, secret = hostile("row18").database_with_secret_folder(tmp_path, bundled_db_path)
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:  # root reads any folder: refuse as for a normal user
        if os.fspath(path) == os.fspath(secret):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run(capsys, "cards", "lint", str(root), "-o", "json")
    assert code == 1, err
    files = {f["path"]: f["diagnostics"] for f in json.loads(out)["files"]}
    secret_diags = [d for path, diags in files.items() if "secret" in path for d in diags]
    assert secret_diags and secret_diags[0]["code"] == "F001"
    assert "permission denied" in secret_diags[0]["message"]
