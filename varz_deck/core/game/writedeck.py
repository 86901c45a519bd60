"""A completed deck written out: as a YAML deck file, a plain-text list, or JSON (the same
forms `check` reads; docs/guides/complete.md)."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

from varz_deck.core.game.complete import Completed, ref_of

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 '()\-.,!&/]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"})


def yaml_text(text: str) -> str:
    """A string as YAML: plain when it reads back as itself, else JSON-quoted (valid YAML)."""
    if _PLAIN.fullmatch(text) and text == text.strip() and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _meta(done: Completed) -> list[tuple[str, str]]:
    deck = done.deck
    found = [("name", deck.name), ("format", deck.format), ("player", deck.player)]
    found.append(("event", deck.event))
    return [(key, value) for key, value in found if value]


def _slots(done: Completed) -> list[tuple[str, str]]:
    out = []
    for slot in done.draft.declaration.slots:
        ref = done.deck.pick(slot.key)
        if ref is not None:
            out.append((slot.key, ref))
    return out


def render_yaml(done: Completed) -> str:
    lines = [f"{key}: {yaml_text(value)}" for key, value in (*_meta(done), *_slots(done))]
    for section in done.draft.declaration.sections:
        entries = done.deck.entries.get(section.key) or []
        if not entries:
            continue
        lines.append(f"{section.key}:")
        lines += [f"  {yaml_text(e.ref)}: {e.count}" for e in entries]
    return "\n".join(lines) + "\n"


def render_text(done: Completed) -> str:
    """A plain-text list: `Key: value` lines, then each section's header and COUNT NAME lines."""
    head = [(k, v) for k, v in _meta(done) if k in ("name", "format")] + _slots(done)
    lines = [f"{key.capitalize()}: {value}" for key, value in head]
    for section in done.draft.declaration.sections:
        entries = done.deck.entries.get(section.key) or []
        if entries:
            lines += ["", f"{section.key.capitalize()}:"]
            lines += [f"{e.count} {e.ref}" for e in entries]
    return "\n".join(lines) + "\n"


def render_json(done: Completed, day: datetime.date) -> str:
    """The completed deck for programs (English)."""
    draft = done.draft
    database = draft.database
    sections: dict[str, list[dict[str, Any]]] = {}
    for key, lines in draft.lines.items():
        sections[key] = [
            {
                "card": line.card.id,
                "name": line.card.name,
                "ref": line.entry.ref if line.entry is not None else ref_of(database, line.card),
                "count": line.count,
                "added": line.added,
                "why": line.why.render("en") if line.added and line.why is not None else None,
            }
            for line in lines
            if line.count
        ]
    document = {
        "deck": done.deck.path,
        "date": day.isoformat(),
        "game": draft.declaration.key,
        "format": done.report.format,
        "legal": done.report.legal,
        "measure": done.measure.render("en"),
        "slots": {
            key: (card.id if card is not None else None) for key, card in draft.picked.items()
        },
        "sections": sections,
        "not_kept": [
            {
                "section": gone.section,
                "card": gone.card.id,
                "name": gone.card.name,
                "count": gone.count,
                "code": gone.code,
            }
            for gone in done.dropped
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def render(done: Completed, output: str, day: datetime.date, lang: str = "en") -> str:
    if output == "json":
        return render_json(done, day)
    if output == "txt":
        return render_text(done)
    return render_yaml(done)
