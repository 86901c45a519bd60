"""Our SARIF passes Microsoft's SARIF multitool with no error-level result (issue 24).

`Sarif.Multitool validate` checks a log against the SARIF 2.1.0 schema and its own rules (SARIF1004:
URIs; with --rule-kind Gh, GitHub code scanning's: GH2012, every rule needs `help`). It exits 0
whatever it finds, so the test reads the log it writes: a result of level error (its own, or its
rule's default level) fails. The logs come from `check` (an absolute path, a name that is not
UTF-8, a name with spaces and `#`, a missing file, an Azuki deck) and `cards lint` with problems.
Skipped without npm, failed under CI (tests/npmtools.py installs the pinned tool once).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import npmtools
import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_CASES = ROOT / "tests" / "lint_cases"
OPTIONS = ("--log", "ForceOverwrite", "--rule-kind", "Sarif;Gh")  # Gh: GitHub's rules too


def varz_deck(cwd: Path, *args: str | bytes) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "varz_deck", *args],
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")
    json.loads(done.stdout)  # a SARIF log is JSON
    return done.stdout


def validate(
    tool: Path, logs: list[Path], out: Path, levels: tuple[str, ...] = ("error",)
) -> dict[str, list[str]]:
    """Each log's findings of those levels as 'RULE: message arguments', by the log's name."""
    out.unlink(missing_ok=True)
    subprocess.run(
        [str(tool), "validate", *map(str, logs), "--output", str(out), *OPTIONS],
        capture_output=True,
        timeout=300,
        check=False,
    )
    run = json.loads(out.read_text(encoding="utf-8-sig"))["runs"][0]
    assert run["invocations"][0]["executionSuccessful"] is True
    rules = run["tool"]["driver"].get("rules", [])
    found: dict[str, list[str]] = {log.name: [] for log in logs}
    for result in run.get("results", []):
        rule: dict[str, Any] = rules[result["ruleIndex"]] if "ruleIndex" in result else {}
        level = result.get("level") or rule.get("defaultConfiguration", {}).get("level", "warning")
        if level not in levels:
            continue
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        name = Path(unquote(urlsplit(uri).path)).name
        message = result["message"]
        found.setdefault(name, []).append(
            f"{result['ruleId']}: {message.get('text') or message.get('arguments')}"
        )
    return found


@pytest.fixture(scope="module")
def multitool() -> Path:
    return npmtools.sarif_multitool()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """SARIF from `check` and `cards lint` on the awkward names and places of issue 24."""
    work = tmp_path_factory.mktemp("sarif-logs")
    illegal = (ROOT / "examples" / "illegal.yaml").read_bytes()
    (work / "my decks").mkdir()
    (work / "my decks" / "a #1 b.yaml").write_bytes(illegal)
    if sys.platform != "win32":
        with open(os.path.join(os.fsencode(work), b"p\xffr.yaml"), "wb") as handle:
            handle.write(illegal)
    lint_db = work / "cards #1"
    shutil.copytree(LINT_CASES / "C001" / "bad_values", lint_db)
    made = {
        "check-absolute.sarif": varz_deck(
            work, "check", str(ROOT / "examples" / "illegal.yaml"), "--output", "sarif"
        ),
        "check-relative.sarif": varz_deck(
            work,
            "check",
            "my decks/a #1 b.yaml",
            *([b"p\xffr.yaml"] if sys.platform != "win32" else []),
            "gone.yaml",
            "--output",
            "sarif",
        ),
        "check-azuki.sarif": varz_deck(
            work,
            "check",
            str(ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"),
            "--game",
            "azuki",
            "--output",
            "sarif",
        ),
        "check-examples.sarif": varz_deck(ROOT, "check", "examples", "--output", "sarif"),
        "lint-relative.sarif": varz_deck(work, "cards", "lint", "cards #1", "--output", "sarif"),
        "lint-absolute.sarif": varz_deck(
            work,
            "cards",
            "lint",
            str(LINT_CASES / "C005" / "bad_unknown_card_and_set"),
            "--output",
            "sarif",
        ),
    }
    paths = []
    for name, data in made.items():
        (work / name).write_bytes(data)
        paths.append(work / name)
    return paths


def test_our_sarif_has_no_error_in_the_multitool(
    multitool: Path, logs: list[Path], tmp_path: Path
) -> None:
    found = validate(multitool, logs, tmp_path / "validation.sarif")
    assert found == {log.name: [] for log in logs}


def test_the_logs_hold_the_places_they_are_about(logs: list[Path]) -> None:
    """The validation means something: the logs have results at the awkward places."""
    uris = set()
    for log in logs:
        for result in json.loads(log.read_bytes())["runs"][0]["results"]:
            for place in result.get("locations", []):
                uris.add(place["physicalLocation"]["artifactLocation"]["uri"])
    assert (ROOT / "examples" / "illegal.yaml").as_uri() in uris
    assert {"my%20decks/a%20%231%20b.yaml", "gone.yaml"} <= uris
    if sys.platform != "win32":
        assert "p%FFr.yaml" in uris
    assert any(uri.startswith("cards%20%231/") for uri in uris)
    assert any(uri.startswith("file:///") and "bad_unknown_card_and_set" in uri for uri in uris)


def test_the_multitool_finds_the_errors_issue_24_reported(multitool: Path, tmp_path: Path) -> None:
    """A log as varz-deck wrote it before: an absolute path as "/abs/..." and a rule without
    help. The harness must see SARIF1004 and GH2012, or a pass above would prove nothing."""
    old = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "varz-deck",
                        "rules": [{"id": "F001", "shortDescription": {"text": "unreadable"}}],
                    }
                },
                "results": [
                    {
                        "ruleId": "F001",
                        "ruleIndex": 0,
                        "level": "error",
                        "message": {"text": "no such file"},
                        "locations": [
                            {"physicalLocation": {"artifactLocation": {"uri": "/abs/a.yaml"}}}
                        ],
                    }
                ],
            }
        ],
    }
    log = tmp_path / "old.sarif"
    log.write_text(json.dumps(old), encoding="utf-8")
    found = validate(multitool, [log], tmp_path / "validation.sarif")
    rules = {line.split(":")[0] for line in found["old.sarif"]}
    assert {"GH2012", "SARIF1004"} <= rules


def test_no_warning_but_the_home_page_this_version_does_not_name(
    multitool: Path, logs: list[Path], tmp_path: Path
) -> None:
    """Every result has a region (a whole file's on its first line, `check examples` among
    them); only SARIF2005 (no `informationUri`: the package names no home page yet) is left."""
    found = validate(multitool, logs, tmp_path / "warnings.sarif", ("error", "warning", "note"))
    assert {
        name: [f for f in got if not f.startswith("SARIF2005:")] for name, got in found.items()
    } == {log.name: [] for log in logs}
