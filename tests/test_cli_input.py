"""Deck arguments (issue 12, Input): `-` is standard input, a folder its deck files (sorted,
hidden folders skipped, --exclude), a list file is known by its content (.dek, no extension),
deck codes keep working, and `register CODE… --output csv` names each code apart."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.files.deckfiles import find_deck_files, is_text_list
from varz_deck.core.files.source import DECK_FILE_LIMIT

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BLUE_TXT = EXAMPLES / "blue-list.txt"
BLUE_YAML = EXAMPLES / "blue-minase-tide.yaml"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"


def run(*args: object, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# --- `-`: standard input -------------------------------------------------------------------------


@pytest.mark.parametrize("deck", [BLUE_TXT, BLUE_YAML])
def test_check_dash_reads_stdin_as_list_or_yaml(deck: Path) -> None:
    status, out, _ = run("check", "-", "-o", "json", stdin=deck.read_text(encoding="utf-8"))
    assert status == 0, out
    report = json.loads(out)
    assert [d["path"] for d in report["decks"]] == ["<stdin>"]
    assert report["decks"][0]["legal"] is True


def test_check_dash_is_the_same_verdict_as_the_file() -> None:
    broken = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")
    _, from_file, _ = run("check", EXAMPLES / "illegal.yaml", "-o", "json")
    _, from_stdin, _ = run("check", "-", "-o", "json", stdin=broken)
    codes = [[d["code"] for d in deck["diagnostics"]] for deck in json.loads(from_file)["decks"]]
    assert codes == [
        [d["code"] for d in deck["diagnostics"]] for deck in json.loads(from_stdin)["decks"]
    ]
    assert codes[0]  # the illegal deck has errors: the comparison means something


def test_stdin_over_the_deck_limit_is_f001() -> None:
    status, out, _ = run("check", "-", stdin=b"# " + b"x" * DECK_FILE_LIMIT)
    assert status == 1
    assert "<stdin>: F001" in out
    assert f"{DECK_FILE_LIMIT:,}" in out


def test_stdin_not_utf8_is_f001() -> None:
    status, out, _ = run("check", "-", stdin=b"hero: \xff\n")
    assert status == 1
    assert "<stdin>:1:7: F001" in out


def test_dash_twice_is_a_usage_error() -> None:
    status, _, err = run("diff", "-", "-", stdin=BLUE_TXT.read_text(encoding="utf-8"))
    assert status == 2
    assert "(-)" in err


@pytest.mark.parametrize(
    "command",
    [
        ("register", "-", "-o", "json"),
        ("verify", "-", "--hash", "v1-aaaaaaaaaa"),
        ("diff", "-", BLUE_TXT),
        ("sim", "-", "-n", "200", "-o", "json"),
        ("stats", "-", "-o", "json"),
        ("tune", "-", "-o", "json"),
        ("code", "-"),
    ],
)
def test_every_deck_command_reads_stdin(command: tuple[object, ...]) -> None:
    status, out, err = run(*command, stdin=BLUE_TXT.read_text(encoding="utf-8"))
    assert status in (0, 1), err  # verify: 1, a hash that does not match
    assert "F001" not in out + err and "no such file" not in out + err
    if command[0] == "diff":
        assert status == 0  # the same deck, read once from stdin and once from the file
    if command[0] == "code":
        _, expected, _ = run("code", BLUE_TXT)
        assert out == expected


# --- a list file by its content --------------------------------------------------------------


@pytest.mark.parametrize("name", ["blue.dek", "blue", "BLUE.DEK"])
def test_a_list_with_another_extension_is_a_list(tmp_path: Path, name: str) -> None:
    deck = tmp_path / name
    shutil.copyfile(BLUE_TXT, deck)
    status, out, _ = run("check", deck)
    assert status == 0, out


def test_a_yaml_deck_saved_as_dek_is_still_yaml(tmp_path: Path) -> None:
    deck = tmp_path / "blue.dek"
    shutil.copyfile(BLUE_YAML, deck)
    status, out, _ = run("check", deck)
    assert status == 0, out


@pytest.mark.parametrize(
    ("text", "is_list"),
    [
        ("Hero: X\nSpells:\n3 Fox\n", True),
        ("Leader: X\nMain:\n  4x Fox\n", True),
        ("hero: X\nspells:\n  - 3 Fox\n", False),
        ("hero: X\nspells:\n  2 Headed Dragon: 2\n", False),  # a name that starts with a digit
        ("hero: X\nspells:\n  Fox: 3\n", False),
        ("", False),
    ],
)
def test_content_sniffing(text: str, is_list: bool) -> None:
    assert is_text_list(Path("deck.dek"), text) is is_list
    assert is_text_list(Path("deck"), text) is is_list
    assert is_text_list(Path("deck.yaml"), text) is False  # the extension still decides
    assert is_text_list(Path("deck.txt"), text) is True


# --- folders ---------------------------------------------------------------------------------


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "decks"
    (root / "b" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "a").mkdir()
    shutil.copyfile(BLUE_TXT, root / "b" / "deep" / "z.txt")
    shutil.copyfile(BLUE_YAML, root / "b" / "m.yml")
    shutil.copyfile(KAGURA, root / "a" / "k.yaml")
    shutil.copyfile(BLUE_TXT, root / "a" / "list.dek")
    shutil.copyfile(KAGURA, root / ".hidden" / "skip.yaml")
    shutil.copyfile(KAGURA, root / ".dot.yaml")
    (root / "notes.md").write_text("not a deck\n", encoding="utf-8")
    return root


def test_a_folder_is_searched_recursively_in_sorted_order(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    expected = [root / "a" / "k.yaml", root / "a" / "list.dek"]
    expected += [root / "b" / "deep" / "z.txt", root / "b" / "m.yml"]
    assert find_deck_files(root) == expected
    status, out, _ = run("check", root, "-o", "json")
    assert status == 0, out
    assert [d["path"] for d in json.loads(out)["decks"]] == [str(p) for p in expected]


@pytest.mark.parametrize(
    ("patterns", "left"),
    [
        (["deep"], ["a/k.yaml", "a/list.dek", "b/m.yml"]),
        (["*.dek", "m.yml"], ["a/k.yaml", "b/deep/z.txt"]),
        (["b/*"], ["a/k.yaml", "a/list.dek"]),
        (["a/k.yaml"], ["a/list.dek", "b/deep/z.txt", "b/m.yml"]),
    ],
)
def test_exclude(tmp_path: Path, patterns: list[str], left: list[str]) -> None:
    root = _tree(tmp_path)
    assert find_deck_files(root, patterns) == [root / p for p in left]
    args = [a for p in patterns for a in ("--exclude", p)]
    _, out, _ = run("check", root, *args, "-o", "json")
    assert [d["path"] for d in json.loads(out)["decks"]] == [str(root / p) for p in left]


def test_check_examples_folder_checks_every_example(tmp_path: Path) -> None:
    expected = sorted(  # every example deck (the third game is a package of its own), not the
        p  # card data of the game declared in examples/yaml-game (skipped, said on stderr)
        for p in EXAMPLES.rglob("*")
        if p.suffix in (".yaml", ".yml", ".txt", ".dek")
        and "third-game" not in p.relative_to(EXAMPLES).parts
        and "card_data" not in p.relative_to(EXAMPLES).parts
    )
    status, out, err = run("check", EXAMPLES, "--exclude", "third-game/", "-o", "json")
    assert "skipped 4 files of card data" in err
    decks = json.loads(out)["decks"]
    assert [d["path"] for d in decks] == [str(p) for p in expected]
    assert status == 1  # examples/illegal.yaml, and the yaml game's two illegal decks
    illegal = [Path(d["path"]).name for d in decks if not d["legal"]]
    assert illegal == ["illegal.yaml", "illegal-copies.yaml", "illegal-court-size.yaml"]
    lantern = [d for d in decks if "yaml-game" in Path(d["path"]).parts]
    assert {tuple(d["counts"]) for d in lantern} == {("court", "wishes")}  # read as its game's
    status, _, _ = run("check", EXAMPLES, "--exclude", "illegal*", "--exclude", "third-game/")
    assert status == 0


def test_a_folder_without_decks_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("x", encoding="utf-8")
    status, out, err = run("check", tmp_path)
    assert status == 2
    assert str(tmp_path) in err and out == ""


def test_a_folder_of_several_decks_for_one_deck_commands_is_a_usage_error(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    status, _, err = run("sim", root, "-n", "10")
    assert status == 2
    assert "4" in err and str(root) in err
    one = tmp_path / "one"
    one.mkdir()
    shutil.copyfile(BLUE_TXT, one / "deck.txt")
    status, out, _ = run("stats", one, "-o", "json")
    assert status == 0, out


def test_register_of_a_folder_registers_each_deck(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    _, out, _ = run("register", root, "-o", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["path"] for r in rows] == [str(p) for p in find_deck_files(root)]


# --- deck codes ------------------------------------------------------------------------------


def _codes() -> list[str]:
    decks = sorted(p for p in EXAMPLES.glob("*.yaml") if p.stem != "illegal")
    decks.append(BLUE_TXT)
    codes = []
    for deck in decks:
        status, out, _ = run("code", deck)
        assert status == 0
        codes.append(out.strip())
    return codes


def test_deck_codes_still_work_among_files_and_stdin() -> None:
    code = _codes()[0]
    status, out, _ = run("check", code, "-", BLUE_YAML, stdin=BLUE_TXT.read_text(encoding="utf-8"))
    assert status == 0, out
    assert "3 decks checked" in out


def test_register_csv_names_every_code_apart() -> None:
    codes = _codes()
    assert len(codes) >= 8
    assert len(set(codes)) == len(codes)
    _, out, _ = run("register", *codes, "-o", "csv")
    paths = [r["path"] for r in csv.DictReader(io.StringIO(out))]
    assert len(paths) == len(codes)
    assert len(set(paths)) == len(paths)  # before: one 16-character prefix for 7 of 8
    for path, code in zip(paths, codes, strict=True):
        assert path == code or (path.startswith(code[:16]) and path.endswith(code[-8:]))
