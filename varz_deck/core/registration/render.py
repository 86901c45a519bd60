"""Registration reports as strings: text, JSON (version 1) and CSV; diffs and verifications too.

The text renderers build plain strings (ANSI colour only when asked): 500 decks of ~50 lines each
must not cost more than checking them.
"""

from __future__ import annotations

import csv
import datetime
import io
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from varz_deck import __version__
from varz_deck.core.decks.check import diagnostic_json
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import (
    ENGLISH,
    CardName,
    Joined,
    Message,
    Term,
    localized,
    msg,
    nmsg,
    term,
)
from varz_deck.core.messages.sanitize import json_dumps, safe
from varz_deck.core.registration.canonical import CanonicalCard, CanonicalDeck, Layout
from varz_deck.core.registration.diff import CardChange, DeckDiff
from varz_deck.core.registration.register import Registration

VERSION = 1
# {lead}: the game's lead slot (its layout's `lead`)
CSV_COLUMNS = (
    "path", "player", "event", "{lead}", "format", "legal", "error_codes", "warning_codes",
    "deck_hash",
)  # fmt: skip
_ANSI = {"bold": "1", "dim": "2", "red": "1;31", "green": "1;32", "yellow": "33", "cyan": "36"}
_SEVERITY_STYLE = {"error": "red", "warning": "yellow"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if color else text


def _width(text: str) -> int:
    """Columns the text takes in a terminal: wide (CJK) characters take two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(width - _width(text), 0)


def _say(message: Message, lang: str) -> str:
    return message.render(lang)


_NONE = msg("register", "(none)")
_UNKNOWN = msg("register", "unknown")


def _dump(payload: object) -> str:
    return json_dumps(payload) + "\n"


def card_json(card: CanonicalCard) -> dict[str, object]:
    return {"id": card.card.id if card.card else None, "name": card.name, "count": card.count}


def canonical_json(canonical: CanonicalDeck) -> dict[str, object]:
    """The canonical list as JSON: format, each slot's card, each section's cards (canonical
    order)."""
    out: dict[str, object] = {"format": canonical.format}
    for slot in canonical.layout.slots:
        out[slot] = _slot_json(canonical.slots.get(slot))
    for section in canonical.layout.sections:
        out[section] = [card_json(c) for c in canonical.sections[section]]
    return out


def registration_json(reg: Registration, lang: str = ENGLISH) -> dict[str, object]:
    """One registration as JSON; diagnostics get `message_localized` in another language."""
    return {
        "path": reg.path,
        "player": reg.player,
        "event": reg.event,
        "date": reg.date or None,
        "legal": reg.legal,
        "deck_hash": reg.deck_hash,
        "diagnostics": [diagnostic_json(d, lang) for d in reg.report.diagnostics],
        "cards": canonical_json(reg.canonical) if reg.canonical else None,
    }


def render_json(registrations: Sequence[Registration], lang: str = ENGLISH) -> str:
    """`register --output json`: every deck in the order given, then a summary."""
    legal = sum(1 for r in registrations if r.legal)
    return _dump(
        {
            "version": VERSION,
            "tool": f"varz-deck {__version__}",
            "registrations": [registration_json(r, lang) for r in registrations],
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


def render_csv(
    registrations: Sequence[Registration], layout: Layout, *, mixed: bool = False
) -> str:
    """`register --output csv`: a header, then one row per deck (RFC 4180 quoting, LF rows).
    Decks of several games (`mixed`) share one column for their lead cards, named `lead`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([c.format(lead="lead" if mixed else layout.lead) for c in CSV_COLUMNS])
    for reg in registrations:
        lead = reg.canonical.lead if reg.canonical else None
        lead_name = lead.name if lead else ""
        fmt = reg.canonical.format if reg.canonical else reg.report.format
        row = (
            reg.path, reg.player, reg.event, lead_name, fmt, "true" if reg.legal else "false",
            " ".join(reg.error_codes), " ".join(reg.warning_codes), reg.deck_hash or "",
        )  # fmt: skip
        writer.writerow([_cell(safe(value)) for value in row])
    return buffer.getvalue()


def diagnostic_line(d: Diagnostic, color: bool = False, lang: str = ENGLISH) -> str:
    """`path:line:col: CODE severity: message`, as `check` prints it."""
    place = safe(d.file or "")
    if d.line is not None:
        place += f":{d.line}:{d.column or 1}"
    style = _SEVERITY_STYLE[d.severity.value]
    head = _paint(f"{place}: ", "bold", color) if place else ""
    severity = term("severity", d.severity.value, lang)
    return head + _paint(f"{d.code} {severity}:", style, color) + f" {safe(localized(d, lang))}"


def _name(card: CanonicalCard, lang: str) -> str:
    """A card's name in the language when the database has it (English: the list's name)."""
    if lang == ENGLISH or card.card is None:
        return safe(card.name)
    return safe(CardName.of(card.card, quote=False).in_language(lang))


def card_lines(canonical: CanonicalDeck, indent: str = "  ", lang: str = ENGLISH) -> list[str]:
    """The canonical list as aligned text: the slots, then each section with its cards and
    total."""
    out = []
    layout = canonical.layout
    for slot in layout.slots:
        card = canonical.slots.get(slot)
        shown = _card_label(card, lang) if card else _say(_NONE, lang)
        out.append(indent + _say(layout.slot_lines[slot](**{slot: shown}), lang))
    names = [_name(c, lang) for c in canonical.cards()]
    width = max((_width(n) for n in names), default=0)
    unknown = _say(_UNKNOWN, lang)
    for section in layout.sections:
        size = canonical.size(section)
        heading = layout.section_heading(canonical, section) or msg(
            "register", "{section} ({size})"
        )(section=Term("section", section), size=size)
        out.append(indent + _say(heading, lang))
        for c in canonical.sections[section]:
            key = c.card.id if c.card else unknown
            out.append(f"{indent}  {c.count:>3}  {_ljust(_name(c, lang), width)}  {key}")
    return out


def _slot_label(card: CanonicalCard | None, lang: str = ENGLISH) -> str:
    return _card_label(card, lang) if card is not None else _say(_NONE, lang)


def _card_label(card: CanonicalCard, lang: str = ENGLISH) -> str:
    if card.card:
        return f"{_name(card, lang)} ({card.card.id})"
    return _say(msg("register", "{ref} (unknown)")(ref=card.ref), lang)


def render_text(
    registrations: Sequence[Registration],
    *,
    color: bool = False,
    lang: str = ENGLISH,
    width: int = 80,
) -> str:
    """`register --output text`: per deck its verdict, who, hash, canonical list, diagnostics.
    The deck's name and who registered it share a line when it fits the width."""
    out: list[str] = []
    legal_word = _say(msg("register", "✓ legal"), lang)
    illegal_word = _say(msg("register", "✗ illegal"), lang)
    no_hash = _say(msg("register", "no hash"), lang)
    who = msg("register", "player: {player} · event: {event} · format: {format}")
    for reg in registrations:
        verdict = (
            _paint(legal_word, "green", color) if reg.legal else _paint(illegal_word, "red", color)
        )
        out.append(
            f"{verdict}  {_paint(safe(reg.path), 'bold', color)}  {reg.deck_hash or no_hash}"
        )
        fmt = reg.canonical.format if reg.canonical else reg.report.format
        line = _say(who(player=reg.player or "-", event=reg.event or "-", format=fmt), lang)
        name = safe(reg.report.name) if reg.report.name else ""
        if name and _width(f"  {name} · {line}") <= width:
            out.append(f"  {name} · {line}")
        else:
            out.extend(f"  {part}" for part in (name, line) if part)
        if reg.canonical is not None:
            out.extend(card_lines(reg.canonical, lang=lang))
        else:
            unread = msg(
                "register", "no hash: the deck could not be read completely; fix the errors below"
            )
            out.append("  " + _say(unread, lang))
        for d in reg.report.diagnostics:
            out.append("    " + diagnostic_line(d, color, lang))
    legal = sum(1 for r in registrations if r.legal)
    summary = nmsg(
        "register",
        "{n} deck registered: {legal} legal, {illegal} illegal",
        "{n} decks registered: {legal} legal, {illegal} illegal",
    )(n=len(registrations), legal=legal, illegal=len(registrations) - legal)
    out.append(
        _paint(_say(summary, lang), "green" if legal == len(registrations) else "red", color)
    )
    return "".join(line + "\n" for line in out)


def render_verify_text(
    path: str, deck_hash: str, expected: str, *, color: bool = False, lang: str = ENGLISH
) -> str:
    if deck_hash == expected:
        match = _say(msg("register", "✓ match"), lang)
        return f"{_paint(match, 'green', color)}  {safe(path)}  {deck_hash}\n"
    no_match = _say(msg("register", "✗ no match"), lang)
    registered = _say(msg("register", "(registered {hash})")(hash=expected), lang)
    hint = msg("register", "`varz-deck diff REGISTERED {path}` shows what changed")(path=path)
    return (
        f"{_paint(no_match, 'red', color)}  {safe(path)}  {deck_hash} {registered}\n"
        f"  {_say(hint, lang)}\n"
    )


def render_verify_json(path: str, deck_hash: str, expected: str, date: datetime.date) -> str:
    """`verify --output json`; `date` is the day the deck was read as of (the hash has none)."""
    return _dump(
        {
            "version": VERSION,
            "path": path,
            "date": date.isoformat(),
            "deck_hash": deck_hash,
            "expected": expected,
            "match": deck_hash == expected,
        }
    )


def _slot_json(card: CanonicalCard | None) -> dict[str, object] | None:
    if card is None:
        return None
    return {"id": card.card.id if card.card else None, "name": card.name}


def render_diff_json(diff: DeckDiff, registered: Registration, presented: Registration) -> str:
    """`diff --output json`: both decks' hashes, then format, each slot and card changes."""
    assert registered.canonical is not None
    document: dict[str, object] = {
        "version": VERSION,
        "same": diff.same,
        "registered": {"path": registered.path, "deck_hash": registered.deck_hash},
        "presented": {"path": presented.path, "deck_hash": presented.deck_hash},
        "format": (
            {"registered": diff.format[0], "presented": diff.format[1]} if diff.format else None
        ),
    }
    for slot in registered.canonical.layout.slots:
        change = diff.slot(slot)
        document[slot] = (
            {"registered": _slot_json(change.registered), "presented": _slot_json(change.presented)}
            if change
            else None
        )
    return _dump(
        {
            **document,
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


class ChangeRow(NamedTuple):
    """One card's change in a `diff`, as shown: its name in the language, its id ("unknown" for
    a card the database lacks) and both counts."""

    name: str
    id: str
    registered: int
    presented: int

    @property
    def sign(self) -> str:
        """The change of its count: "+2", "-1"."""
        return f"{self.presented - self.registered:+d}"


class DiffLines(NamedTuple):
    """A `diff` said in a language: the format and slot changes, then each section's changes."""

    notes: tuple[str, ...]
    sections: tuple[tuple[str, tuple[ChangeRow, ...]], ...]  # (the section's word, its rows)


def diff_lines(
    diff: DeckDiff, registered: Registration, presented: Registration, lang: str = ENGLISH
) -> DiffLines:
    """What `diff` shows of two decks, for the text below and the judge's page (a table)."""
    notes = []
    if diff.format:
        moved = msg("register", "format: {registered} → {presented}")
        notes.append(_say(moved(registered=diff.format[0], presented=diff.format[1]), lang))
    assert registered.canonical is not None
    layout = registered.canonical.layout
    for slot_change in diff.slots:
        moved = layout.slot_moves[slot_change.slot]
        old = _slot_label(slot_change.registered, lang)
        new = _slot_label(slot_change.presented, lang)
        notes.append(_say(moved(registered=old, presented=new), lang))
    unknown = _say(_UNKNOWN, lang)
    sections: list[tuple[str, list[ChangeRow]]] = []
    for change in diff.changes:
        if not sections or sections[-1][0] != change.section:
            sections.append((change.section, []))
        name = _change_name(change, registered, presented, lang)
        row = ChangeRow(name, change.id or unknown, change.registered, change.presented)
        sections[-1][1].append(row)
    return DiffLines(
        tuple(notes),
        tuple((term("section", section, lang), tuple(rows)) for section, rows in sections),
    )


def render_diff_text(
    diff: DeckDiff,
    registered: Registration,
    presented: Registration,
    *,
    color: bool = False,
    lang: str = ENGLISH,
) -> str:
    """`diff`: one line per difference, grouped by section, then the verdict."""
    labels = [_say(msg("register", "registered"), lang), _say(msg("register", "presented"), lang)]
    label_width = max(_width(label) for label in labels) + 2
    out = [
        f"{_ljust(labels[0], label_width)}{safe(registered.path)}  {registered.deck_hash}",
        f"{_ljust(labels[1], label_width)}{safe(presented.path)}  {presented.deck_hash}",
    ]
    lines = diff_lines(diff, registered, presented, lang)
    out.extend(lines.notes)
    width = max((_width(row.name) for _, rows in lines.sections for row in rows), default=0)
    counts = msg("register", "registered {registered}, presented {presented}")
    for section, rows in lines.sections:
        out.append(_paint(section, "cyan", color))
        for row in rows:
            shown = _say(counts(registered=row.registered, presented=row.presented), lang)
            line = f"  {row.sign:>3}  {_ljust(row.name, width)}  {row.id:<10}  {shown}"
            out.append(_paint(line, "green" if row.presented > row.registered else "red", color))
    if diff.same:
        out.append(_paint(_say(msg("register", "same deck"), lang), "green", color))
    else:
        assert registered.canonical is not None
        layout = registered.canonical.layout
        parts: list[object] = []
        if diff.format:
            parts.append(msg("register", "format"))
        parts.extend(layout.slot_words[c.slot] for c in diff.slots)
        if diff.changes:
            parts.append(
                nmsg("register", "{n} card change", "{n} card changes")(n=len(diff.changes))
            )
        verdict = msg("register", "different deck: {changes}")(changes=Joined(tuple(parts)))
        out.append(_paint(_say(verdict, lang), "red", color))
    return "".join(line + "\n" for line in out)


def _change_name(
    change: CardChange, registered: Registration, presented: Registration, lang: str
) -> str:
    """A changed card's name, in the language when the database has it."""
    if lang == ENGLISH or change.id is None:
        return safe(change.name)
    for reg in (registered, presented):
        if reg.canonical is not None:
            for card in reg.canonical.sections[change.section]:
                if card.key == change.key:
                    return _name(card, lang)
    return safe(change.name)
