"""The models as the templates show them, in the page's language: an event's line, a verdict,
diagnostics, a canonical list, the judge's comparison, a list's versions, the dashboard's rows.

Every text from a player or a deck passes through `safe` here (controls, terminal escapes and
bidi controls made visible); the templates escape the markup.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from django.urls import reverse

from varz_deck.core.messages.i18n import CardName, Message, msg, term
from varz_deck.core.messages.sanitize import clean_output, safe
from varz_deck.server import service
from varz_deck.server.limits import LIVE_CHECK_LIMIT
from varz_deck.server.views import texts

if TYPE_CHECKING:
    from varz_deck.core.registration.canonical import CanonicalCard, CanonicalDeck
    from varz_deck.core.registration.render import DiffLines
    from varz_deck.server.models import Decklist, Event

T = TypeVar("T")
# what a page shows of a long list (one stored before lists were bounded, or any list a judge is
# shown): each section's first card lines and the first problems, then how many are left out
SHOWN_LINES = 100
SHOWN_PROBLEMS = 100


def cut_rows(rows: Sequence[T], most: int) -> tuple[list[T], int]:
    """The first `most` rows, and how many more there are."""
    shown = list(rows[:most])
    return shown, len(rows) - len(shown)


def event_view(event: Event) -> dict[str, str]:
    return {"key": event.key, "name": safe(event.name)}


def event_line(event: Event, lang: str) -> str:
    """The game and format, the deadline, whether lists are required."""
    game = service.game_of(event).name
    parts = [
        (
            texts.GAME_FORMAT(game=game, format=event.format)
            if event.format
            else texts.GAME_ANY_FORMAT(game=game)
        )
    ]
    if event.deadline is not None:
        parts.append(texts.DEADLINE(deadline=when(event, event.deadline)))
    else:
        parts.append(texts.NO_DEADLINE)
    parts.append(texts.REQUIRED if event.requires_lists else texts.OPTIONAL)
    return " · ".join(part.render(lang) for part in parts)


def lead_title(event: Event, lang: str) -> str:
    """The game's title for the deck's lead card (a column of the dashboard)."""
    return service.game_of(event).words.lead_title.render(lang)


def when(event: Event, moment: datetime.datetime) -> str:
    """A time as the pages show it, in the event's zone: `2027-01-15 09:30 (UTC+09:00,
    Asia/Tokyo)` (service.shown_time)."""
    return service.shown_time(event, moment)


def iso(event: Event, moment: datetime.datetime) -> str:
    """A time for a `<time datetime>` attribute: ISO 8601 with the event's offset."""
    return service.local_time(event, moment).isoformat()


# a list whose current verdict is not the one its player got when submitting it
_ROW_ILLEGAL = msg("page", "became illegal on {when}: {codes}")
_ROW_LEGAL = msg("page", "became legal on {when}")
_ROW_OTHER = msg("page", "its errors changed on {when}: {codes}")
_YOURS_ILLEGAL = msg("page", "Your list became illegal on {when}: {codes}.")
_YOURS_LEGAL = msg("page", "Your list became legal on {when}.")
_YOURS_OTHER = msg("page", "The errors of your list changed on {when}: {codes}.")
_WHY = msg("page", "The card data or the event's date changed after you submitted it.")


def changed_text(
    event: Event, changed_at: datetime.datetime | None, legal: bool, codes: Sequence[str],
    submitted_legal: bool | None, lang: str, *, player: bool = False,
) -> str:  # fmt: skip
    """What changed in a list's verdict since its submission, when it did ("" when nothing)."""
    if changed_at is None:
        return ""
    shown = {"when": when(event, changed_at), "codes": " ".join(codes)}
    message: Message
    if not legal:
        message = _YOURS_ILLEGAL if player else _ROW_ILLEGAL
        if submitted_legal is False:
            message = _YOURS_OTHER if player else _ROW_OTHER
    else:
        message = _YOURS_LEGAL if player else _ROW_LEGAL
    text = message(**shown).render(lang)
    return f"{text} {_WHY.render(lang)}" if player else text


def verdict(legal: bool, diagnostics: Sequence[Mapping[str, object]], lang: str) -> str:
    """ "Legal", or "Not legal · 2 errors, 1 warning"."""
    errors = sum(1 for d in diagnostics if d.get("severity") == "error")
    warnings = len(diagnostics) - errors
    parts = [(texts.LEGAL if legal else texts.NOT_LEGAL).render(lang)]
    counts = []
    if errors:
        counts.append(texts.N_ERRORS(n=errors).render(lang))
    if warnings:
        counts.append(texts.N_WARNINGS(n=warnings).render(lang))
    if counts:
        parts.append(", ".join(counts))
    return " · ".join(parts)


def diagnostic_rows(diagnostics: Sequence[Mapping[str, object]], lang: str) -> list[dict[str, str]]:
    """Diagnostics (as `check --output json`) as the pages and the live check show them: place
    (line:column), code, severity and message in the language."""
    rows = []
    for d in diagnostics:
        line, column = d.get("line"), d.get("column")
        where = f"{line}:{column or 1}" if line else "—"
        severity = str(d.get("severity", "error"))
        text = d.get("message_localized") or d.get("message") or ""
        rows.append(
            {
                "where": where,
                "line": str(line or ""),
                "column": str(column or ""),
                "code": safe(d.get("code", "")),
                "severity": "warning" if severity == "warning" else "error",
                "severity_label": term("severity", severity, lang),
                "text": safe(text),
            }
        )
    return rows


def problems_view(
    diagnostics: Sequence[Mapping[str, object]], lang: str, name: str = "diagnostics"
) -> dict[str, object]:
    """A page's diagnostics (`diagnostic_rows`), the first SHOWN_PROBLEMS of them, and the note
    of how many more (`NAME_more`, "" when none)."""
    shown, more = cut_rows(diagnostics, SHOWN_PROBLEMS)
    note = texts.MORE_PROBLEMS(n=more).render(lang) if more else ""
    return {name: diagnostic_rows(shown, lang), f"{name}_more": note}


def _card_name(card: CanonicalCard, lang: str) -> str:
    if card.card is None or lang == "en":
        return safe(card.name)
    return safe(CardName.of(card.card, quote=False).in_language(lang))


def canonical_view(canonical: CanonicalDeck | None, lang: str) -> dict[str, object] | None:
    """A canonical list (slots, then sections with their cards) in the language."""
    if canonical is None:
        return None
    layout = canonical.layout
    slots = []
    for slot in layout.slots:
        card = canonical.slots.get(slot)
        slots.append(
            {
                "label": layout.slot_words[slot].render(lang),
                "name": _card_name(card, lang) if card else texts.NO_LEAD.render(lang),
                "id": safe(card.shown_id) if card else "",
            }
        )
    sections = []
    for section in layout.sections:
        cards, more = cut_rows(canonical.sections[section], SHOWN_LINES)
        sections.append(
            {
                "label": term("section", section, lang),
                "total": canonical.size(section),
                "cards": [
                    {"count": c.count, "name": _card_name(c, lang), "id": safe(c.shown_id or "?")}
                    for c in cards
                ],
                "more": texts.MORE_LINES(n=more).render(lang) if more else "",
            }
        )
    return {"slots": slots, "sections": sections}


def diff_view(lines: DiffLines, lang: str) -> dict[str, object]:
    """The judge's comparison (core's DiffLines) as the page's table: the format and slot
    changes, then each section's cards with both counts (a table, not the terminal's aligned
    text: a browser's CJK glyphs are not two monospace columns wide)."""
    return {
        "notes": list(lines.notes),
        "registered": texts.REGISTERED.render(lang),
        "presented": texts.PRESENTED_COUNT.render(lang),
        "sections": [
            {
                "label": label,
                "rows": [
                    {
                        "sign": row.sign,
                        "name": row.name,
                        "id": safe(row.id),
                        "registered": row.registered,
                        "presented": row.presented,
                        "added": row.presented > row.registered,
                    }
                    for row in rows
                ],
            }
            for label, rows in lines.sections
        ],
    }


def deck_for_textarea(text: str) -> str:
    """A deck text with its line ends as a text area posts them back (`\\n`)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decklist_view(decklist: Decklist, lang: str) -> dict[str, object]:
    """One list as its page shows it: the current version's verdict, diagnostics, hash and
    canonical list, every version, and its text for the replace form."""
    event = decklist.event
    every = service.versions(decklist)
    current = decklist.current or (every[-1] if every else None)
    deck = current.deck if current is not None else ""
    checked = service.check_deck(event, deck, decklist.player)
    diagnostics = checked.diagnostics(lang)
    legal = checked.legal if current is not None else False  # the verdict of these diagnostics
    versions = []
    for v in every:
        status = (texts.LEGAL if v.legal else texts.NOT_LEGAL).render(lang)
        if v.by_organiser:
            status = texts.VERSION_BY_ORGANISER(status=status).render(lang)
        versions.append(
            {
                "iso": iso(event, v.submitted_at),
                "when": when(event, v.submitted_at),
                "deck_hash": v.deck_hash,
                "legal": v.legal,
                "status": status,
            }
        )
    changed = ""
    if current is not None:
        codes = service.codes_of(current.diagnostics)
        changed = changed_text(
            event, current.changed_at, current.legal, codes, current.submitted_legal, lang,
            player=True,
        )  # fmt: skip
    return {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "player": safe(decklist.player),
        "legal": legal,
        "verdict": verdict(legal, diagnostics, lang),
        "deck_hash": current.deck_hash if current is not None else None,
        "submitted_iso": iso(event, current.submitted_at) if current is not None else "",
        "submitted": when(event, current.submitted_at) if current is not None else "—",
        "changed": changed,
        **problems_view(diagnostics, lang),
        "canonical": canonical_view(checked.registration.canonical, lang),
        "versions": versions,
        **deck_view(deck, lang),
        "check_url": reverse("page-check", args=[event.key]),
    }


def deck_view(deck: str, lang: str) -> dict[str, str]:
    """A stored list for the replace form's text area; one over what the live check takes is not
    put there (a note says so): it would make the page as large as the list."""
    size = len(deck.encode())  # storable: every stored list is UTF-8
    if size > LIVE_CHECK_LIMIT:
        return {"deck": "", "deck_note": texts.DECK_NOT_SHOWN(size=size).render(lang)}
    return {"deck": clean_output(deck_for_textarea(deck)), "deck_note": ""}


@dataclass(frozen=True, slots=True)
class Row:
    """One list on the dashboard: its current version's verdict, errors, lead card, hash, time
    and versions, as stored."""

    id: int
    player: str
    submitted_at: datetime.datetime
    legal: bool
    deck_hash: str | None
    lead: str
    errors: tuple[str, ...]
    versions: int
    iso: str = ""  # submitted_at with the event's offset
    when: str = ""  # submitted_at as the pages show it
    changed: str = ""  # how its verdict changed since submission, when ("" when it did not)

    def shown(self, legal: str, not_legal: str) -> dict[str, object]:
        """The row as the dashboard's template shows it (a dict: the template engine's fastest
        look-up, for a thousand rows), with the words for its verdict."""
        return {
            "id": self.id,
            "state": "legal" if self.legal else "illegal",
            "status": legal if self.legal else not_legal,
            "player": safe(self.player),
            "codes": " ".join(self.errors),
            "lead": safe(self.lead),
            "deck_hash": self.deck_hash or "—",
            "iso": self.iso,
            "when": self.when,
            "versions": self.versions,
            "changed": self.changed,
        }


def dashboard_rows(event: Event, lang: str = "en") -> list[Row]:
    """Every list of the event with a current version, in order of first submission (three
    queries for every list of the event, never a query per row)."""
    changed = service.changed_lists(event)
    rows = []
    for pk, player, at, legal, deck_hash, found, lead, n in service.current_lists(event):
        errors = tuple(service.codes_of(found))
        flag = ""
        if pk in changed:
            at_change, legal_before = changed[pk]
            flag = changed_text(event, at_change, legal, errors, legal_before, lang)
        shown = {"iso": iso(event, at), "when": when(event, at), "changed": flag}
        rows.append(Row(pk, player, at, legal, deck_hash, lead or "", errors, n, **shown))
    return rows
