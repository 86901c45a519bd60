"""`--output json` (docs/reference/json.md, version 1): stable key order, one entry per deck or file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from varz_deck import __version__
from varz_deck.core.decks.check import DeckReport, diagnostic_json
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.report import json_document

VERSION = 1


def render_check(reports: Sequence[DeckReport], lang: str = "en") -> str:
    """The `check` document; `message_localized` beside each message when lang is not English."""
    decks = [r.to_json(lang) for r in reports]
    summary = {
        "decks": len(reports),
        "legal": sum(1 for r in reports if r.legal),
        "errors": sum(r.errors for r in reports),
        "warnings": sum(r.warnings for r in reports),
    }
    return json_document(
        {"version": VERSION, "tool": f"varz-deck {__version__}", "decks": decks, "summary": summary}
    )


def render_lint(files: Mapping[str, Sequence[Diagnostic]], lang: str = "en") -> str:
    """The `cards lint` document; `message_localized` as in render_check."""
    entries = [
        {"path": path, "diagnostics": [diagnostic_json(d, lang) for d in diags]}
        for path, diags in files.items()
    ]
    all_diags = [d for diags in files.values() for d in diags]
    summary = {
        "files": len(entries),
        "errors": sum(1 for d in all_diags if d.is_error),
        "warnings": sum(1 for d in all_diags if not d.is_error),
    }
    return json_document(
        {
            "version": VERSION,
            "tool": f"varz-deck {__version__}",
            "files": entries,
            "summary": summary,
        }
    )
