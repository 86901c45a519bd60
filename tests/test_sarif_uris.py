"""SARIF locations are URIs (RFC 3986 / SARIF §3.10), every rule has help, columns are code points.

Issue 24: an absolute path came out as "/abs/..." (a relative reference beginning with a slash,
SARIF1004), rules had no `help` (GitHub's GH2012), the run no `columnKind`, and a file name with a
byte that is not UTF-8 (Python's surrogate escape, 'p\\udcffr.yaml') made `--output sarif` exit 3.
The expected URIs below are written by hand from RFC 3986 and RFC 8089.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.report import sarif
from varz_deck.games import all_codes

ROOT = Path(__file__).resolve().parent.parent


def log_of(*files: str | None) -> dict[str, Any]:
    diagnostics = [
        Diagnostic("F005", Severity.ERROR, "unknown card", file=f, line=2, column=3) for f in files
    ]
    text = sarif.render(diagnostics, all_codes())
    text.encode("utf-8")  # the document is text that can be written out (no lone surrogate)
    return json.loads(text)


def location(path: str) -> dict[str, Any]:
    result = log_of(path)["runs"][0]["results"][0]
    artifact: dict[str, Any] = result["locations"][0]["physicalLocation"]["artifactLocation"]
    return artifact


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("/abs/deck.yaml", "file:///abs/deck.yaml"),
        ("/tmp/my decks/a #1.yaml", "file:///tmp/my%20decks/a%20%231.yaml"),
        ("/tmp/100%/x?.yaml", "file:///tmp/100%25/x%3F.yaml"),
        ("/tmp/p\udcffr.yaml", "file:///tmp/p%FFr.yaml"),  # the byte 0xFF, as the disk has it
        ("/tmp/スコーチ.yaml", "file:///tmp/%E3%82%B9%E3%82%B3%E3%83%BC%E3%83%81.yaml"),
        ("C:\\decks\\a b.yaml", "file:///C:/decks/a%20b.yaml"),
        ("\\\\server\\share\\a.yaml", "file://server/share/a.yaml"),
    ],
)
def test_an_absolute_path_is_a_file_uri_without_a_base(path: str, uri: str) -> None:
    assert location(path) == {"uri": uri}


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("decks/a.yaml", "decks/a.yaml"),
        ("my decks/a #1.yaml", "my%20decks/a%20%231.yaml"),
        ("p\udcffr.yaml", "p%FFr.yaml"),
        ("a:b.yaml", "a%3Ab.yaml"),  # a colon in the first segment would read as a scheme
        ("decks\\win\\a.yaml", "decks/win/a.yaml"),
        ("../up.yaml", "../up.yaml"),
    ],
)
def test_a_relative_path_is_a_relative_reference_against_srcroot(path: str, uri: str) -> None:
    assert location(path) == {"uri": uri, "uriBaseId": "%SRCROOT%"}


def test_the_run_describes_srcroot_and_counts_columns_in_code_points() -> None:
    run = log_of("decks/a.yaml")["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    base = run["originalUriBaseIds"]["%SRCROOT%"]
    assert "uri" not in base  # the folder varz-deck ran in: not known to a pure reporter
    assert base["description"]["text"]


def test_a_lone_surrogate_in_a_message_is_shown_escaped() -> None:
    d = Diagnostic("F001", Severity.ERROR, "cannot read 'p\udcffr.yaml'", file="p\udcffr.yaml")
    log = json.loads(sarif.render([d], all_codes()))
    assert log["runs"][0]["results"][0]["message"]["text"] == "cannot read 'p\\udcffr.yaml'"


def test_every_rule_has_help_text_and_markdown() -> None:
    rules = log_of()["runs"][0]["tool"]["driver"]["rules"]
    assert {rule["id"] for rule in rules} == set(all_codes())
    for rule in rules:
        help_ = rule["help"]
        assert len(help_["text"]) > len(rule["shortDescription"]["text"]), rule["id"]
        assert help_["markdown"], rule["id"]
        assert f"varz-deck rules {rule['id']}" in help_["text"]


def _same_check() -> set[frozenset[str]]:
    """A game's code for a core format check with the core's code of that check (V116 and D116):
    one check, so one piece of advice may serve both."""
    from varz_deck.core.decks import legality
    from varz_deck.games import game_keys, get_game

    core = {
        "banned": legality.BANNED,
        "restricted": legality.RESTRICTED,
        "sets": legality.SETS,
        "released": legality.RELEASED,
        "announced": legality.ANNOUNCED,
    }
    pairs: set[frozenset[str]] = set()
    for key in game_keys():
        declaration = getattr(get_game(key), "declaration", None)
        for field, check in core.items():
            own = getattr(declaration.format_codes, field) if declaration else None
            if own is not None:
                pairs.add(frozenset({check.code.id, own.id}))
    return pairs


def test_each_code_has_its_own_way_to_fix_it() -> None:
    """The help says how to fix each code; a code added without one fails here."""
    fixes = {code: info.fix for code, info in all_codes().items()}
    assert all(fixes.values()), [code for code, fix in fixes.items() if not fix]
    by_fix: dict[str, set[str]] = {}
    for code, fix in fixes.items():
        by_fix.setdefault(fix, set()).add(code)
    shared = [codes for codes in by_fix.values() if len(codes) > 1]
    same_check = _same_check()
    # no copy-pasted advice: only a game's code for a core check says what the core's code says
    assert all(frozenset(codes) in same_check for codes in shared), shared
    for code, fix in fixes.items():
        assert fix[0].isupper() and fix.endswith("."), code


@pytest.mark.skipif(sys.platform == "win32", reason="a byte that is not UTF-8 in a POSIX file name")
@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_output(
    tmp_path: Path, output: str
) -> None:
    """Issue 24 row 5: `check` of `p\\377r.yaml` exited 3 with --output sarif."""
    import subprocess

    illegal = (ROOT / "examples" / "illegal.yaml").read_bytes()
    name = b"p\xffr.yaml"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
        handle.write(illegal)
    done = subprocess.run(
        [sys.executable, "-m", "varz_deck", "check", name, "--output", output],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode("utf-8")  # valid UTF-8, whatever the name
    if output == "sarif":
        uris = {
            loc["physicalLocation"]["artifactLocation"]["uri"]
            for result in json.loads(out)["runs"][0]["results"]
            for loc in result.get("locations", [])
        }
        assert uris == {"p%FFr.yaml"}
    elif output == "json":
        assert [d["path"] for d in json.loads(out)["decks"]] == ["p\\udcffr.yaml"]
    elif output == "github":
        assert out.startswith("::error file=p\\udcffr.yaml,line=")
    else:
        assert "✗ illegal  p\\udcffr.yaml  (" in out
