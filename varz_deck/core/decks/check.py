"""The outcome of checking one deck (each game's `check_deck` makes it), and the words a report
uses for a game's lead card."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from varz_deck.core.cards.model import CardRecord
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import Message

LEAD_JSON = "hero"  # lead-json-key: the key check's JSON version 1 gives every game's lead card


@dataclass(frozen=True)
class DeckWords:
    """How a game's deck is spoken of outside its package: the lead card's words."""

    lead_named: Message  # the text report's header, "{name}" the lead card (e.g. "lead {name}")
    lead_title: Message  # a column or field title on the organiser's pages (e.g. "Lead")
    lead_json: str  # the lead card's key in `check`'s JSON (version 1: LEAD_JSON for every game)


@dataclass(frozen=True)
class DeckReport:
    """The outcome of checking one deck."""

    path: str
    name: str | None
    format: str
    lead_card: CardRecord | None  # the deck's lead card (the game's `lead` slot), or None
    counts: dict[str, int]
    diagnostics: tuple[Diagnostic, ...]
    view: Any = None  # the game's resolved deck
    places: tuple[str, ...] = ()  # the game's slots, then its sections: how text groups diagnostics
    game: str = field(kw_only=True)  # the key of the game the deck was checked as
    words: DeckWords = field(kw_only=True)  # how the report names the lead card
    date: datetime.date | None = field(default=None, kw_only=True)  # the day it was checked for

    @property
    def legal(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The deck's entry in `check --output json` (docs/reference/json.md); see diagnostic_json for lang."""
        return {
            "path": self.path,
            "name": self.name,
            "format": self.format,
            "date": self.date.isoformat() if self.date is not None else None,
            "legal": self.legal,
            self.words.lead_json: (
                {"id": self.lead_card.id, "name": self.lead_card.name} if self.lead_card else None
            ),
            "counts": self.counts,
            "diagnostics": [diagnostic_json(d, lang) for d in self.diagnostics],
        }


def diagnostic_json(d: Diagnostic, lang: str = "en") -> dict[str, Any]:
    """One diagnostic in JSON: the English message always, `message_localized` after it when
    another language is chosen (docs/reference/json.md key order otherwise)."""
    out: dict[str, Any] = {"code": d.code, "severity": d.severity.value, "message": d.message}
    if lang != "en":
        from varz_deck.core.messages.i18n import localized

        out["message_localized"] = localized(d, lang)
    out.update(section=d.section, card=d.card, line=d.line, column=d.column)
    return out
