"""SARIF 2.1.0: one rule per diagnostic code, one result per diagnostic."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from varz_deck import __version__
from varz_deck.core.codes import CodeInfo
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.report import json_document

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

# How to fix each code: the help GitHub code scanning shows beside a result (its GH2012 rule
# requires `help` on every rule). What the code means is its summary (varz_deck.core.codes).
FIXES: dict[str, str] = {
    "F001": "Check the path: a file (not a folder), saved as UTF-8, under the size limit.",
    "F002": "Fix the YAML at the place shown; write cards out instead of aliases or tags.",
    "F003": "Keep one entry per card in a section and add up its counts; drop the duplicate key.",
    "F004": 'Use only the deck\'s keys, give a section as card: count or as "COUNT NAME" items, '
    "and write each count as a whole number from 1 to 99.",
    "F005": "Check the spelling (`varz-deck cards search`), or write the card's id.",
    "F006": "Write the card's id instead of the name two cards share.",
    "F007": "Use a format the card database defines (the message lists them).",
    "F008": "Move the card to the section of its type, or choose another card.",
    "F009": "Copy the deck code again in full, or export it again with this version.",
    "F010": "Check the deck with its own game: pass --game, or --cards with that game's cards.",
    "V101": "Add `hero: NAME` naming one Hero card.",
    "V102": "Add or remove spells until they add up to 30.",
    "V103": "Cut copies until at most 3 remain, all printings of the name together.",
    "V104": "Add or remove portals until they add up to 8.",
    "V105": "Swap portals for ones of other Shield Life until it adds up to 20.",
    "V106": "Replace the portal with one of the hero's colour or a colorless one.",
    "V107": "Keep one copy of each portal with an effect.",
    "V108": "Keep at most 4 copies of each basic portal.",
    "V109": "Swap effect portals for basic ones until the format's limit is met.",
    "V110": "Add or remove skills until they add up to 9.",
    "V111": "Keep one copy of each skill; only VAZ skills may repeat.",
    "V112": "Swap non-VAZ skills for VAZ skills until no more than the hero's Memory remain.",
    "V113": "Replace the skill with one of the hero's classes or a generic one.",
    "V114": "Add a VAZ skill of the spell's colour, or cut the spell.",
    "V115": "Remove the banned card, every printing of it.",
    "V116": "Cut the restricted card down to the number the format allows.",
    "V117": "Replace the card with one printed in the format's sets, or play another format.",
    "W201": "Add VAZ skills of the spell's colour, or play a cheaper spell of that colour.",
    "W202": "Play another hero, or check the hero's evolution_level in the card data.",
    "A101": "Add `leader: NAME` naming one Leader card.",
    "A102": "Add `gate: NAME` naming one Gate card.",
    "A103": "Add or remove main-deck cards until they add up to 50.",
    "A104": "Make the ikz section exactly 10 IKZ and 1 IKZ Token.",
    "A105": "Replace the card with one of the Leader's element or a Neutral one.",
    "A106": "Keep at most 4 copies of each card id in the main deck.",
    "A107": "Remove the banned card from the deck.",
    "C001": "Fix the field the message names, as the schema says (`varz-deck schema NAME`).",
    "C002": "Give each card its own id: renumber or remove the duplicate.",
    "C003": "Make the printings of the name agree on their game fields, or rename one card.",
    "C004": "Use a skill class or keyword the game knows, or correct its spelling.",
    "C005": "Correct the card or set name in formats.yaml, or add it to the database.",
    "C006": "Point --cards at the folder of the card files, each with a top-level `cards:` list.",
    "C007": "Name the file exactly formats.yaml, and keep only one of formats.yaml and .yml.",
    "C101": "Rename one of the cards; until then decks must use the cards' ids.",
    "C102": "Move the card to the file of its set, or correct its id.",
    "C103": "Give every printing of the card the same translated names.",
    "C104": "Drop the entry from the format, or add a set the card is printed in.",
}
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
    fix = FIXES.get(info.code, _FALLBACK_FIX)
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
    rules = [
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
    results: list[dict[str, Any]] = []
    for d in diagnostics:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": index.get(d.code, -1),
            "level": d.severity.value,
            "message": {"text": d.message},
        }
        if d.file:
            location: dict[str, Any] = {"artifactLocation": _artifact(d.file)}
            if d.line is not None:
                region: dict[str, int] = {"startLine": d.line}
                if d.column is not None:
                    region["startColumn"] = d.column
                location["region"] = region
            result["locations"] = [{"physicalLocation": location}]
        if result["ruleIndex"] < 0:
            del result["ruleIndex"]
        results.append(result)
    run = {
        "tool": {"driver": {"name": "varz-deck", "version": __version__, "rules": rules}},
        "originalUriBaseIds": {
            SRCROOT: {"description": {"text": "The folder varz-deck was run in."}}
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return json_document({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]})
