"""Checking decks: the game of the database reads, resolves and checks each; one DeckReport per
deck (VARZ: varz_deck/games/varz/check.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.games import DEFAULT_GAME, get_game


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


def check_deck(
    path: Path, database: CardDatabase, format_key: str | None = None, shown: str | None = None
) -> DeckReport:
    """Check one deck file against a database (a format given here overrides the file's)."""
    return get_game(database.game).check_deck(path, database, format_key, shown)


def check_decks(
    paths: Iterable[Path], database: CardDatabase, format_key: str | None = None
) -> list[DeckReport]:
    """Check each deck independently, in the order given."""
    return [check_deck(path, database, format_key) for path in paths]
