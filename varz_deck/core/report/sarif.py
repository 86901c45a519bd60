"""SARIF 2.1.0: one rule per diagnostic code, one result per diagnostic."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from varz_deck import __version__
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.report import json_document
from varz_deck.core.report.codes import CodeInfo

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

# Each code says how to fix what it flags (CodeInfo.fix, declared with the code: a rule's `fix=`);
# with what it means (its summary) that is the `help` GitHub code scanning requires (GH2012).
_FALLBACK_FIX = "Change what the result's message names."

_URI_SAFE = "/-._~!$&'()*+=@"  # RFC 3986 pchar less ':' and ';' (plus '/'): kept as written
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


def _encoded(path: str) -> str:
    """Percent-encoded path bytes; an undecodable byte (a surrogate escape) as itself: 'p%FFr'."""
    try:
        data = os.fsencode(path)
    except UnicodeEncodeError:  # a surrogate that is no escaped byte (\ud800)
        data = path.encode("utf-8", "surrogatepass")
    return quote(data, safe=_URI_SAFE)


def _artifact(path: str) -> dict[str, str]:
    """A `file:` URI for an absolute path; a relative reference against %SRCROOT% otherwise."""
    if _DRIVE.match(path):  # C:\decks\a.yaml
        return {"uri": f"file:///{path[:2]}{_encoded(path[2:].replace(chr(92), '/'))}"}
    slashed = path.replace("\\", "/")
    if slashed.startswith("//"):  # a UNC path: \\server\share\a.yaml
        return {"uri": f"file:{_encoded(slashed)}"}
    if slashed.startswith("/"):
        return {"uri": f"file://{_encoded(slashed)}"}
    return {"uri": _encoded(slashed), "uriBaseId": SRCROOT}


def _help(info: CodeInfo) -> dict[str, str]:
    """What the code means, its examples, how to fix it, and where to read more."""
    fix = info.fix or _FALLBACK_FIX
    more = f"varz-deck rules {info.code}"
    examples = [f"{label}: {text}" for label, text in info.examples]
    text = "\n".join([info.summary, *examples, f"How to fix: {fix}", f"More: {more}"])
    listed = [f"- {label}: {example}" for label, example in info.examples]
    markdown = "\n\n".join(
        part
        for part in (
            f"**{info.code} {info.name}**: {info.summary}",
            "\n".join(listed),
            f"**How to fix:** {fix}",
            f"More: `{more}`",
        )
        if part
    )
    return {"text": text, "markdown": markdown}


def render(diagnostics: Iterable[Diagnostic], codes: Mapping[str, CodeInfo]) -> str:
    """The SARIF log: `codes` are the rules it describes (varz_deck.games.all_codes)."""
    index = {code: i for i, code in enumerate(codes)}
    rules: list[dict[str, object]] = [
        {
            "id": info.code,
            "name": info.name,
            "shortDescription": {"text": info.summary},
            "fullDescription": {"text": info.doc or info.summary},
            "help": _help(info),
            "defaultConfiguration": {"level": info.severity.value},
            "properties": {"rulebook": info.section},
        }
        for info in codes.values()
    ]
    results: list[dict[str, object]] = []
    for d in diagnostics:
        result: dict[str, Any] = {  # Any: its ruleIndex is compared below
            "ruleId": d.code,
            "ruleIndex": index.get(d.code, -1),
            "level": d.severity.value,
            "message": {"text": d.message},
        }
        if d.file:
            location: dict[str, object] = {"artifactLocation": _artifact(d.file)}
            # a result about the whole file (no line: a missing section, an unreadable file)
            # is placed on its first line, as ruff places its file-level ones: GitHub shows
            # a result on the file only with a region
            region: dict[str, int] = {"startLine": d.line if d.line is not None else 1}
            if d.line is not None and d.column is not None:
                region["startColumn"] = d.column
            location["region"] = region
            result["locations"] = [{"physicalLocation": location}]
        if result["ruleIndex"] < 0:
            del result["ruleIndex"]
        results.append(result)
    run = {
        "tool": {"driver": _driver(rules)},
        "originalUriBaseIds": {
            SRCROOT: {"description": {"text": "The folder varz-deck was run in."}}
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return json_document({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]})


def _driver(rules: list[dict[str, object]]) -> dict[str, object]:
    """The tool: its name, version, rules and, when the installed package names a home page
    (`[project.urls]`), that page as `informationUri`."""
    driver: dict[str, object] = {"name": "varz-deck", "version": __version__}
    home = home_page()
    if home is not None:
        driver["informationUri"] = home
    driver["rules"] = rules
    return driver


def home_page() -> str | None:
    """The installed package's home page (its `Project-URL: Homepage, …`), or None."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        urls = metadata("varz-deck").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in map(str, urls):
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "documentation") and url.strip():
            return url.strip()
    return None
