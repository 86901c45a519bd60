"""Every varz-deck command on Tidewright, installed alone, run as a subprocess. Expected values
are written by hand from the card files and the decks in decks/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import DECKS, Run

CODE = "TW1AQAIVFcwMS0wMDEJioKBgYKBgJWBAouD714"  # decks/README.md: legal-mara-north-east.yaml
HASH = "v1-rcoi5gapqd"

# (deck, code, line, column, section) of each illegal deck's one diagnostic
ILLEGAL = [
    ("illegal-no-captain.yaml", "T101", None, None, "captain"),
    ("illegal-crew-size.yaml", "T102", 4, 1, "crew"),
    ("illegal-currents-size.txt", "T103", 12, 1, "currents"),
    ("illegal-copies.yaml", "T104", 5, 3, "crew"),
    ("illegal-off-sea.yaml", "T105", 16, 3, "currents"),
    ("illegal-format.yaml", "T106", 10, 5, "crew"),
]
LEGAL = [
    "legal-ilse-harbor.yaml",
    "legal-mara-north-east.yaml",
    "legal-oren-south-west.txt",
    "legal-thin-crew.yaml",
]


def test_the_decks_folder_holds_the_decks_these_tests_name() -> None:
    names = sorted(p.name for p in DECKS.iterdir() if p.name.startswith(("legal", "illegal")))
    assert names == sorted([*LEGAL, *(d[0] for d in ILLEGAL)])


# ------------------------------------------------------------------------------ check


@pytest.mark.parametrize(("deck", "code", "line", "column", "section"), ILLEGAL)
def test_check_json_each_illegal_deck_breaks_one_rule(
    run: Run, cards: Path, deck: str, code: str, line: int | None, column: int | None, section: str
) -> None:
    done = run("check", "--cards", str(cards), "--output", "json", deck)
    assert done.returncode == 1, done.stderr
    (report,) = json.loads(done.stdout)["decks"]
    assert report["legal"] is False
    got = [(d["code"], d["severity"], d["line"], d["column"], d["section"])
           for d in report["diagnostics"]]  # fmt: skip
    assert got == [(code, "error", line, column, section)]


def test_check_json_of_the_legal_decks(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "--output", "json", *LEGAL)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["summary"] == {"decks": 4, "legal": 4, "errors": 0, "warnings": 1}
    first = document["decks"][0]
    assert first["path"] == "legal-ilse-harbor.yaml"
    assert first["name"] == "Ice Line"
    assert first["format"] == "harbor"
    assert first["hero"] == {"id": "TW01-003", "name": "Ilse Brant"}  # SPEC §5: the lead card
    assert first["counts"] == {"crew": 20, "currents": 8}
    thin = document["decks"][3]
    assert thin["hero"] == {"id": "TW01-001", "name": "Mara Vell"}  # named in Japanese
    assert [(d["code"], d["severity"], d["line"]) for d in thin["diagnostics"]] == [
        ("T201", "warning", 4)
    ]


def test_check_text(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "illegal-off-sea.yaml",
               "legal-oren-south-west.txt", columns=200)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stdout == (
        "✗ illegal  illegal-off-sea.yaml  (Lost Bearings · standard · captain Mara Vell)  "
        "1 error, 0 warnings\n"
        "  currents\n"
        "    illegal-off-sea.yaml:16:3: T105 error: 'South Current' comes from the south; "
        "'Mara Vell' sails only the north and east\n"
        "✓ legal  legal-oren-south-west.txt  (Southwest Smugglers · standard · captain "
        "Oren Saltmarsh)\n"
        "2 decks checked: 1 legal, 1 illegal (1 error, 0 warnings)\n"
    )


def test_check_in_japanese_from_the_game_catalogue(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "--lang", "ja", "illegal-off-sea.yaml",
               "legal-thin-crew.yaml", columns=200)  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "(Lost Bearings · standard · キャプテン マーラ・ヴェル)" in lines[0]
    assert lines[2] == (
        "    illegal-off-sea.yaml:16:3: T105 エラー: 「South Current」は南の海のカードです。"
        "「マーラ・ヴェル」が航海するのは北と東の海だけです"
    )
    assert lines[5] == (
        "    legal-thin-crew.yaml:4:1: T201 警告: クルーの船員は8枚です。"
        "10枚未満ではデッキを支えきれないことが多いです"
    )


def test_check_github(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "-o", "github", "illegal-copies.yaml",
               "legal-thin-crew.yaml")  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "::error file=illegal-copies.yaml,line=5,col=3,title=T104::T104 'Rigger Finn': 4 copies; "
        "a crew holds at most 3 of one card",
        "::warning file=legal-thin-crew.yaml,line=4,col=1,title=T201::T201 the crew has 8 "
        "sailors; fewer than 10 rarely hold the deck",
    ]


def test_check_sarif(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "-o", "sarif", "illegal-format.yaml",
               "legal-thin-crew.yaml")  # fmt: skip
    assert done.returncode == 1, done.stderr
    (sarif_run,) = json.loads(done.stdout)["runs"]
    got = [
        (r["ruleId"], r["level"],
         r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in sarif_run["results"]
    ]  # fmt: skip
    assert got == [
        ("T106", "error", "illegal-format.yaml", 10),
        ("T201", "warning", "legal-thin-crew.yaml", 4),
    ]
    rules = {r["id"]: r for r in sarif_run["tool"]["driver"]["rules"]}
    assert rules["T201"]["defaultConfiguration"]["level"] == "warning"
    assert rules["T106"]["name"] == "not-in-format"


def test_check_strict_makes_the_warning_fail(run: Run, cards: Path) -> None:
    assert run("check", "--cards", str(cards), "legal-thin-crew.yaml").returncode == 0
    assert run("check", "--cards", str(cards), "--strict", "legal-thin-crew.yaml").returncode == 1


def test_check_from_standard_input_and_format_option(run: Run, cards: Path) -> None:
    text = (DECKS / "legal-mara-north-east.yaml").read_text(encoding="utf-8")
    done = run("check", "--cards", str(cards), "-o", "json", "--format", "harbor", "-",
               stdin=text)  # fmt: skip
    (report,) = json.loads(done.stdout)["decks"]
    assert report["format"] == "harbor"
    assert [(d["code"], d["card"]) for d in report["diagnostics"]] == []  # all TW01, none banned
    done = run("check", "--cards", str(cards), "--format", "nope", "-", stdin=text)
    assert done.returncode == 2
    assert "Tidewright has no --format 'nope'; did you mean one of harbor, standard?" in done.stderr
    named = text.replace("name: Northeast Trade", "format: nope")
    done = run("check", "--cards", str(cards), "-o", "json", "-", stdin=named)
    (report,) = json.loads(done.stdout)["decks"]
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("F007", 2)]


def test_check_says_the_deck_schema_in_the_game_words(run: Run, cards: Path) -> None:
    text = "captain: [Mara Vell]\ncrew:\n  - Rig\ncurrents: 8\n"
    done = run("check", "--cards", str(cards), "-o", "json", "-", stdin=text)
    (report,) = json.loads(done.stdout)["decks"]
    got = [
        (d["code"], d["line"], d["message"]) for d in report["diagnostics"] if d["code"] == "F004"
    ]
    assert got == [
        (
            "F004", 1,
            "captain: captain is one captain card: its name or id, e.g. Mara Vell or TW01-001 "
            """(got '["Mara Vell"]')""",
        ),
        ("F004", 3, """crew/0: each list item is "COUNT NAME", e.g. "3 Rigger Finn" (got '"Rig"')"""),
        (
            "F004", 4,
            'currents: currents (the 8 currents) is a mapping of card: count, or a list of '
            """"COUNT NAME" strings (got '8')""",
        ),
    ]  # fmt: skip
    done = run("check", "--cards", str(cards), "-o", "json", "-", stdin="- 1\n")
    (report,) = json.loads(done.stdout)["decks"]
    assert [d["message"] for d in report["diagnostics"]] == [
        "a Tidewright deck file is a mapping with captain, crew and currents (got '[1]')"
    ]


def test_check_finds_the_game_without_cards(run: Run) -> None:
    done = run(
        "check", "-o", "json", "legal-mara-north-east.yaml", "legal-oren-south-west.txt", CODE
    )
    assert done.returncode == 0, done.stdout + done.stderr
    decks = json.loads(done.stdout)["decks"]
    assert [d["legal"] for d in decks] == [True, True, True]
    text = (DECKS / "legal-oren-south-west.txt").read_text(encoding="utf-8")
    piped = run("check", "-o", "json", "-", stdin=text)  # a text list on standard input
    assert [d["legal"] for d in json.loads(piped.stdout)["decks"]] == [True], piped.stderr
    code = run("code", "legal-mara-north-east.yaml")
    assert (code.returncode, code.stdout) == (0, CODE + "\n"), code.stderr
    assert run("verify", "--hash", HASH, CODE).returncode == 0
    assert run("diff", CODE, "legal-mara-north-east.yaml").returncode == 0


def test_check_a_deck_code(run: Run, cards: Path) -> None:
    done = run("check", "--cards", str(cards), "-o", "json", CODE)
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = json.loads(done.stdout)["decks"]
    assert report["hero"] == {"id": "TW01-001", "name": "Mara Vell"}
    assert report["counts"] == {"crew": 20, "currents": 8}
    damaged = run("check", "--cards", str(cards), "-o", "json", CODE[:-3])
    assert damaged.returncode == 1
    (report,) = json.loads(damaged.stdout)["decks"]
    assert [d["code"] for d in report["diagnostics"]] == ["F009"]


@pytest.mark.parametrize("section", ["crew", "currents"])
def test_an_empty_section_is_one_problem_whatever_its_form(
    run: Run, cards: Path, tmp_path: Path, section: str
) -> None:
    """A section left out, written empty, or a list header with nothing under it, and the deck
    code of the same deck: the same diagnostics (SPEC §4, one problem, one diagnostic)."""
    text = (DECKS / "legal-mara-north-east.yaml").read_text(encoding="utf-8")
    base = re.sub(rf"(?m)^{section}:.*\n(?:[ \t]+.*\n)*", "", text)
    forms = {"out": base, "map": f"{base}{section}: {{}}\n", "null": f"{base}{section}:\n"}
    found = {}
    for name, deck in forms.items():
        (tmp_path / f"{name}.yaml").write_text(deck, encoding="utf-8")
    listed = run("code", "--cards", str(cards), str(tmp_path / "out.yaml"))
    assert listed.returncode == 0, listed.stderr
    for name in (*forms, listed.stdout.strip()):
        arg = str(tmp_path / f"{name}.yaml") if name in forms else name
        done = run("check", "--cards", str(cards), "-o", "json", arg)
        (report,) = json.loads(done.stdout)["decks"]
        found[name if name in forms else "code"] = sorted(d["code"] for d in report["diagnostics"])
    assert len({tuple(codes) for codes in found.values()}) == 1, found
    assert found["code"] == {"crew": ["T102", "T201"], "currents": ["T103"]}[section]


# ------------------------------------------------------------------------------ cards


def test_cards_lint_is_clean(run: Run, cards: Path) -> None:
    done = run("cards", "lint", str(cards), "-o", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["summary"]["errors"] == 0


def test_cards_lint_of_a_broken_copy(run: Run, cards: Path, tmp_path: Path) -> None:
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(cards, broken)
    extra = broken / "sets" / "bad.yaml"
    extra.write_text(
        "cards:\n"
        "  - {id: TW01-001, name: Copy, type: captain, seas: [north], renown: 1}\n"  # C002
        "  - {id: TW09-001, name: Fish, type: sailor, sea: up, cost: 1, might: 1}\n",  # C001
        encoding="utf-8",
    )
    done = run("cards", "lint", str(broken), "-o", "json")
    assert done.returncode == 1
    found = [
        (Path(f["path"]).name, d["code"], d["line"])
        for f in json.loads(done.stdout)["files"]
        for d in f["diagnostics"]
    ]
    # the duplicate id is said at the first card's place, naming the copy
    assert sorted(found) == [("bad.yaml", "C001", 3), ("tw01.yaml", "C002", 8)]


def test_cards_show_by_name_in_japanese(run: Run, cards: Path) -> None:
    done = run("cards", "show", "--cards", str(cards), "マーラ・ヴェル")
    assert done.returncode == 0, done.stderr
    assert "TW01-001" in done.stdout
    assert "north, east" in done.stdout
    unknown = run("cards", "show", "--cards", str(cards), "Mara Vel")
    assert unknown.returncode != 0
    assert "Mara Vell" in unknown.stderr + unknown.stdout  # did you mean


def test_cards_search_by_sea_and_refused_class(run: Run, cards: Path) -> None:
    done = run("cards", "search", "--cards", str(cards), "--color", "west", "--type", "sailor")
    assert done.returncode == 0, done.stderr
    ids = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("TW")]
    assert ids == ["TW01-014", "TW01-015", "TW02-005"]
    refused = run("cards", "search", "--cards", str(cards), "--class", "pirate")
    assert refused.returncode == 2
    assert "--class is not available for Tidewright decks" in refused.stderr
    wrong = run("cards", "search", "--cards", str(cards), "--color", "nort")
    assert wrong.returncode == 2
    assert "north" in wrong.stderr


# ------------------------------------------------------------------------------ rules, schema


def test_rules_lists_the_game_codes(run: Run) -> None:
    done = run("rules")
    assert done.returncode == 0, done.stderr
    for code, name in [("T101", "captain-missing"), ("T102", "crew-size-wrong"),
                       ("T103", "currents-size-wrong"), ("T104", "too-many-copies"),
                       ("T105", "off-sea"), ("T106", "not-in-format")]:  # fmt: skip
        assert re.search(rf"^{code}\s+error\s+{name}\b", done.stdout, re.MULTILINE)
    one = run("rules", "T105")
    assert one.returncode == 0
    assert "Illegal: captain: Mara Vell (north, east) with South Current" in one.stdout


def test_rules_says_the_warning_is_a_warning(run: Run) -> None:
    done = run("rules")
    assert re.search(r"^T201\s+warning\s+few-sailors\b", done.stdout, re.MULTILINE)


def test_schema_prints_the_game_schemas(run: Run) -> None:
    done = run("schema", "tidewright-deck")
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert sorted(schema["properties"]) == sorted(
        ["name", "format", "player", "event", "captain", "crew", "currents"]
    )
    card = json.loads(run("schema", "tidewright-card").stdout)
    assert card["$defs"]["card"]["properties"]["type"]["enum"] == [
        "captain", "sailor", "maneuver", "current"
    ]  # fmt: skip


# ------------------------------------------------------------------------------ registration


def test_register_verify_diff_code_round_trip(run: Run, cards: Path, tmp_path: Path) -> None:
    c = ("--cards", str(cards))
    done = run("register", *c, "--output", "json", "legal-mara-north-east.yaml")
    assert done.returncode == 0, done.stderr
    (entry,) = json.loads(done.stdout)["registrations"]
    assert entry["deck_hash"] == HASH
    assert entry["cards"]["captain"] == {"id": "TW01-001", "name": "Mara Vell"}
    code = run("code", *c, "legal-mara-north-east.yaml")
    assert code.returncode == 0, code.stderr
    assert code.stdout.strip() == CODE
    assert run("verify", *c, "--hash", HASH, CODE).returncode == 0
    assert run("verify", *c, "--hash", HASH, "illegal-off-sea.yaml").returncode == 1
    same = run("diff", *c, "legal-mara-north-east.yaml", CODE)
    assert same.returncode == 0, same.stdout + same.stderr
    differs = run("diff", *c, "legal-mara-north-east.yaml", "illegal-off-sea.yaml")
    assert differs.returncode == 1
    assert "-4  East Current   TW01-021" in differs.stdout
    assert "+4  South Current  TW01-022" in differs.stdout
    sheet = run("register", *c, "--sheet", str(tmp_path), "legal-mara-north-east.yaml")
    assert sheet.returncode == 0, sheet.stderr
    (page,) = tmp_path.glob("*.html")
    html = page.read_text(encoding="utf-8")
    assert "Captain" in html and "Mara Vell" in html and "Currents" in html


# ------------------------------------------------------------------------------ sim, stats, tune


def test_sim_and_tune_refuse_naming_the_game(run: Run, cards: Path) -> None:
    # the game has no simulator (goldfish None) and its tuner leaves "tune" out of its options
    sim = run("sim", "--cards", str(cards), "legal-mara-north-east.yaml")
    assert sim.returncode == 2
    assert sim.stderr == "varz-deck: sim is not available for Tidewright decks\n"
    tune = run("tune", "--cards", str(cards), "legal-mara-north-east.yaml")
    assert tune.returncode == 2
    assert tune.stderr == "varz-deck: tune is not available for Tidewright decks\n"
    vs = run("sim", "--cards", str(cards), "legal-mara-north-east.yaml", "--vs",
             "legal-thin-crew.yaml")  # fmt: skip
    assert vs.returncode == 2
    assert vs.stderr == "varz-deck: sim is not available for Tidewright decks\n"
    found = run("sim", "legal-mara-north-east.yaml")  # the game found from the deck's keys
    assert found.returncode == 2
    assert found.stderr == "varz-deck: sim is not available for Tidewright decks\n"


def test_stats(run: Run, cards: Path, tmp_path: Path) -> None:
    deck = "legal-mara-north-east.yaml"
    done = run("stats", "--cards", str(cards), "-o", "json", "--date", "2027-01-15", deck)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "version": 1,
        "deck": "legal-mara-north-east.yaml",
        "date": "2027-01-15",  # the day it was checked as of (--date), from the command
        "name": "Northeast Trade",
        "captain": "Mara Vell",
        "sizes": {"crew": 20, "currents": 8},
        # cost 1: Rigger Finn 3, Gull Spotter 3, Dawn Lookout 2, Hard to Port 2
        "curve": [
            {"cost": 1, "cards": 10},
            {"cost": 2, "cards": 5},
            {"cost": 3, "cards": 3},
            {"cost": 4, "cards": 2},
        ],
        "seas": {"north": 16, "east": 12},
    }
    deck = str(DECKS / "legal-mara-north-east.yaml")
    plot = run("stats", "--cards", str(cards), "--plot", "x.svg", deck, cwd=tmp_path)
    assert plot.returncode == 2
    assert plot.stderr == "varz-deck: --plot is not available for Tidewright decks\n"


# --------------------------------------------------------------------------- complete


def _without(text: str, section: str) -> str:
    """A deck's text with one section (its key or header and its lines) taken out."""
    out, skipping = [], False
    for line in text.splitlines():
        head = re.match(r"([A-Za-z][\w ]*):", line)
        if head and not line.startswith((" ", "-")):
            skipping = head.group(1).lower() == section
            if skipping:
                continue
        elif skipping and (line.startswith((" ", "-")) or re.match(r"\d", line)):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("deck", LEGAL)
@pytest.mark.parametrize("section", ["crew", "currents"])
def test_complete_fills_an_emptied_section_into_a_legal_deck(
    run: Run, cards: Path, tmp_path: Path, deck: str, section: str
) -> None:
    """Tidewright completes from its declaration alone: no code of its own for `complete`."""
    partial = tmp_path / f"partial{Path(deck).suffix}"
    partial.write_text(_without((DECKS / deck).read_text(encoding="utf-8"), section), "utf-8")
    done = run("complete", str(partial), "--cards", str(cards), "--explain")
    assert done.returncode == 0, done.stderr
    assert "by the cost curve" in done.stderr  # sailors and maneuvers declare a cost
    again = run("complete", str(partial), "--cards", str(cards), "--explain")
    assert again.stdout == done.stdout
    whole = tmp_path / "whole.yaml"
    whole.write_text(done.stdout, "utf-8")
    checked = run("check", str(whole), "--cards", str(cards))
    assert checked.returncode == 0, checked.stdout
    for line in partial.read_text("utf-8").splitlines():  # every card written is kept
        found = re.match(r"\s*-?\s*\d+\s+(.+?)\s*$", line) or re.match(
            r"captain:\s*(.+)", line, re.I
        )
        if found:
            assert found.group(1) in done.stdout, line


def test_complete_a_deck_whose_crew_is_short(run: Run, cards: Path, tmp_path: Path) -> None:
    done = run("complete", "illegal-crew-size.yaml", "--cards", str(cards), "-o", "txt")
    assert done.returncode == 0, done.stderr
    whole = tmp_path / "whole.txt"
    whole.write_text(done.stdout, "utf-8")
    assert run("check", str(whole), "--cards", str(cards)).returncode == 0
