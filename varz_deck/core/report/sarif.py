"""SARIF 2.1.0: one rule per diagnostic code, one result per diagnostic."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from varz_deck import __version__
from varz_deck.core.codes import CodeInfo
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.sanitize import json_dumps

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    """A relative or absolute path as a URI reference (spaces, %, # and the like escaped)."""
    return quote(path.replace("\\", "/"), safe="/")


def render(diagnostics: Iterable[Diagnostic], codes: Mapping[str, CodeInfo]) -> str:
    """The SARIF log: `codes` are the rules it describes (varz_deck.games.all_codes)."""
    index = {code: i for i, code in enumerate(codes)}
    rules = [
        {
            "id": info.code,
            "name": info.name,
            "shortDescription": {"text": info.summary},
            "fullDescription": {"text": info.doc or info.summary},
            "defaultConfiguration": {"level": info.severity.value},
            "properties": {"rulebook": info.section},
        }
        for info in codes.values()
    ]
    results: list[dict[str, Any]] = []
    for d in diagnostics:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": index.get(d.code, -1),
            "level": d.severity.value,
            "message": {"text": d.message},
        }
        if d.file:
            location: dict[str, Any] = {"artifactLocation": {"uri": _uri(d.file)}}
            if d.line is not None:
                region: dict[str, int] = {"startLine": d.line}
                if d.column is not None:
                    region["startColumn"] = d.column
                location["region"] = region
            result["locations"] = [{"physicalLocation": location}]
        if result["ruleIndex"] < 0:
            del result["ruleIndex"]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "varz-deck", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
    return json_dumps(log) + "\n"
