"""The outcome of checking one deck (each game's check_deck makes it: varz_deck/core/game.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from varz_deck.core.cards import DEFAULT_GAME
from varz_deck.core.diagnostics import Diagnostic


@dataclass(frozen=True)
class DeckReport:
    """The outcome of checking one deck."""

    path: str
    name: str | None
    format: str
    hero: Any  # the deck's leading card, or None (VARZ: the Hero; Azuki: the Leader)
    counts: dict[str, int]
    diagnostics: tuple[Diagnostic, ...]
    view: Any = None  # the game's resolved deck (VARZ: games/varz/resolve.py DeckView)
    game: str = DEFAULT_GAME
    lead: str = "hero"  # the slot of `hero` in the game's deck file (Azuki: "leader")
    places: tuple[str, ...] = ()  # the game's slots, then its sections: how text groups diagnostics

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
        """The deck's entry in `check --output json` (SPEC §5); see diagnostic_json for lang."""
        return {
            "path": self.path,
            "name": self.name,
            "format": self.format,
            "legal": self.legal,
            "hero": {"id": self.hero.id, "name": self.hero.name} if self.hero else None,
            "counts": self.counts,
            "diagnostics": [diagnostic_json(d, lang) for d in self.diagnostics],
        }


def diagnostic_json(d: Diagnostic, lang: str = "en") -> dict[str, Any]:
    """One diagnostic in JSON: the English message always, `message_localized` after it when
    another language is chosen (SPEC §5 key order otherwise)."""
    out: dict[str, Any] = {"code": d.code, "severity": d.severity.value, "message": d.message}
    if lang != "en":
        from varz_deck.core.i18n import localized

        out["message_localized"] = localized(d, lang)
    out.update(section=d.section, card=d.card, line=d.line, column=d.column)
    return out
