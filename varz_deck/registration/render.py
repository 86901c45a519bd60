"""Registration reports as strings: text, JSON (version 1) and CSV; diffs and verifications too.

The text renderers build plain strings (ANSI colour only when asked): 500 decks of ~50 lines each
must not cost more than checking them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from varz_deck import __version__
from varz_deck.cards import SECTIONS
from varz_deck.check import diagnostic_json
from varz_deck.diagnostics import Diagnostic, safe
from varz_deck.registration.canonical import CanonicalCard, CanonicalDeck
from varz_deck.registration.diff import DeckDiff
from varz_deck.registration.register import Registration

VERSION = 1
CSV_COLUMNS = (
    "path", "player", "event", "hero", "format", "legal", "error_codes", "warning_codes",
    "deck_hash",
)  # fmt: skip
_ANSI = {"bold": "1", "dim": "2", "red": "1;31", "green": "1;32", "yellow": "33", "cyan": "36"}
_SEVERITY_STYLE = {"error": "red", "warning": "yellow"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if color else text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _dump(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def card_json(card: CanonicalCard) -> dict[str, Any]:
    return {"id": card.card.id if card.card else None, "name": card.name, "count": card.count}


def canonical_json(canonical: CanonicalDeck) -> dict[str, Any]:
    """The canonical list as JSON: format, hero and each section's cards (canonical order)."""
    out: dict[str, Any] = {
        "format": canonical.format,
        "hero": (
            {
                "id": canonical.hero.card.id if canonical.hero.card else None,
                "name": canonical.hero.name,
            }
            if canonical.hero
            else None
        ),
    }
    for section in SECTIONS:
        out[section] = [card_json(c) for c in canonical.sections[section]]
    return out


def registration_json(reg: Registration) -> dict[str, Any]:
    return {
        "path": reg.path,
        "player": reg.player,
        "event": reg.event,
        "legal": reg.legal,
        "deck_hash": reg.deck_hash,
        "diagnostics": [diagnostic_json(d) for d in reg.report.diagnostics],
        "cards": canonical_json(reg.canonical) if reg.canonical else None,
    }


def render_json(registrations: Sequence[Registration]) -> str:
    """`register --output json`: every deck in the order given, then a summary."""
    legal = sum(1 for r in registrations if r.legal)
    return _dump(
        {
            "version": VERSION,
            "tool": f"varz-deck {__version__}",
            "registrations": [registration_json(r) for r in registrations],
            "summary": {
                "decks": len(registrations),
                "legal": legal,
                "illegal": len(registrations) - legal,
            },
        }
    )


def _cell(value: str) -> str:
    """A spreadsheet cell that cannot start a formula (CSV injection): prefix it with '."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def render_csv(registrations: Sequence[Registration]) -> str:
    """`register --output csv`: a header, then one row per deck (RFC 4180 quoting, LF rows)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for reg in registrations:
        hero = reg.canonical.hero.name if reg.canonical and reg.canonical.hero else ""
        fmt = reg.canonical.format if reg.canonical else reg.report.format
        row = (
            reg.path, reg.player, reg.event, hero, fmt, "true" if reg.legal else "false",
            " ".join(reg.error_codes), " ".join(reg.warning_codes), reg.deck_hash or "",
        )  # fmt: skip
        writer.writerow([_cell(safe(value)) for value in row])
    return buffer.getvalue()


def diagnostic_line(d: Diagnostic, color: bool = False) -> str:
    """`path:line:col: CODE severity: message`, as `check` prints it."""
    place = safe(d.file or "")
    if d.line is not None:
        place += f":{d.line}:{d.column or 1}"
    style = _SEVERITY_STYLE[d.severity.value]
    head = _paint(f"{place}: ", "bold", color) if place else ""
    return head + _paint(f"{d.code} {d.severity.value}:", style, color) + f" {safe(d.message)}"


def card_lines(canonical: CanonicalDeck, indent: str = "  ") -> list[str]:
    """The canonical list as aligned text: hero, then each section with its cards and total."""
    out = []
    hero = canonical.hero
    out.append(f"{indent}hero: {_card_label(hero) if hero else '(none)'}")
    names = [c.name for c in canonical.cards()]
    width = max((len(safe(n)) for n in names), default=0)
    for section in SECTIONS:
        total = f"{canonical.size(section)}"
        if section == "portals":
            total += f", Shield Life {canonical.shield_life()}"
        out.append(f"{indent}{section} ({total})")
        for c in canonical.sections[section]:
            key = c.card.id if c.card else "unknown"
            out.append(f"{indent}  {c.count:>3}  {safe(c.name).ljust(width)}  {key}")
    return out


def _hero_label(card: CanonicalCard | None) -> str:
    return _card_label(card) if card is not None else "(none)"


def _card_label(card: CanonicalCard) -> str:
    return f"{safe(card.name)} ({card.card.id})" if card.card else f"{safe(card.ref)} (unknown)"


def render_text(registrations: Sequence[Registration], *, color: bool = False) -> str:
    """`register --output text`: per deck its verdict, who, hash, canonical list, diagnostics."""
    out: list[str] = []
    for reg in registrations:
        verdict = (
            _paint("✓ legal", "green", color) if reg.legal else _paint("✗ illegal", "red", color)
        )
        out.append(
            f"{verdict}  {_paint(safe(reg.path), 'bold', color)}  {reg.deck_hash or 'no hash'}"
        )
        fmt = reg.canonical.format if reg.canonical else reg.report.format
        name = f"{safe(reg.report.name)} · " if reg.report.name else ""
        out.append(
            f"  {name}player: {safe(reg.player) or '-'} · event: {safe(reg.event) or '-'} · "
            f"format: {safe(fmt)}"
        )
        if reg.canonical is not None:
            out.extend(card_lines(reg.canonical))
        else:
            out.append("  no hash: the deck could not be read completely; fix the errors below")
        for d in reg.report.diagnostics:
            out.append("    " + diagnostic_line(d, color))
    legal = sum(1 for r in registrations if r.legal)
    summary = (
        f"{_plural(len(registrations), 'deck')} registered: {legal} legal, "
        f"{len(registrations) - legal} illegal"
    )
    out.append(_paint(summary, "green" if legal == len(registrations) else "red", color))
    return "".join(line + "\n" for line in out)


def render_verify_text(path: str, deck_hash: str, expected: str, *, color: bool = False) -> str:
    if deck_hash == expected:
        return f"{_paint('✓ match', 'green', color)}  {safe(path)}  {deck_hash}\n"
    return (
        f"{_paint('✗ no match', 'red', color)}  {safe(path)}  {deck_hash} (registered {expected})\n"
        f"  `varz-deck diff REGISTERED {safe(path)}` shows what changed\n"
    )


def render_verify_json(path: str, deck_hash: str, expected: str) -> str:
    return _dump(
        {
            "version": VERSION,
            "path": path,
            "deck_hash": deck_hash,
            "expected": expected,
            "match": deck_hash == expected,
        }
    )


def _hero_json(card: CanonicalCard | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {"id": card.card.id if card.card else None, "name": card.name}


def render_diff_json(diff: DeckDiff, registered: Registration, presented: Registration) -> str:
    """`diff --output json`: both decks' hashes, then format, hero and card changes."""
    return _dump(
        {
            "version": VERSION,
            "same": diff.same,
            "registered": {"path": registered.path, "deck_hash": registered.deck_hash},
            "presented": {"path": presented.path, "deck_hash": presented.deck_hash},
            "format": (
                {"registered": diff.format[0], "presented": diff.format[1]} if diff.format else None
            ),
            "hero": (
                {"registered": _hero_json(diff.hero[0]), "presented": _hero_json(diff.hero[1])}
                if diff.hero
                else None
            ),
            "changes": [
                {
                    "section": c.section,
                    "id": c.id,
                    "name": c.name,
                    "registered": c.registered,
                    "presented": c.presented,
                }
                for c in diff.changes
            ],
        }
    )


def render_diff_text(
    diff: DeckDiff, registered: Registration, presented: Registration, *, color: bool = False
) -> str:
    """`diff`: one line per difference, grouped by section, then the verdict."""
    out = [
        f"registered  {safe(registered.path)}  {registered.deck_hash}",
        f"presented   {safe(presented.path)}  {presented.deck_hash}",
    ]
    if diff.format:
        out.append(f"format: {safe(diff.format[0])} → {safe(diff.format[1])}")
    if diff.hero:
        old, new = diff.hero
        out.append(f"hero: {_hero_label(old)} → {_hero_label(new)}")
    width = max((len(safe(c.name)) for c in diff.changes), default=0)
    section = None
    for change in diff.changes:
        if change.section != section:
            section = change.section
            out.append(_paint(section, "cyan", color))
        sign = f"{change.delta:+d}"
        key = change.id or "unknown"
        line = (
            f"  {sign:>3}  {safe(change.name).ljust(width)}  {key:<10}  "
            f"registered {change.registered}, presented {change.presented}"
        )
        out.append(_paint(line, "green" if change.delta > 0 else "red", color))
    if diff.same:
        out.append(_paint("same deck", "green", color))
    else:
        parts = []
        if diff.format:
            parts.append("format")
        if diff.hero:
            parts.append("hero")
        if diff.changes:
            parts.append(_plural(len(diff.changes), "card change"))
        out.append(_paint(f"different deck: {', '.join(parts)}", "red", color))
    return "".join(line + "\n" for line in out)
