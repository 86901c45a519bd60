"""One registration per deck: the check's verdict, who and where, the hash and canonical list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from varz_deck.core.cards import CardDatabase
from varz_deck.core.check import DeckReport
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import read_deck
from varz_deck.games.varz.registration.canonical import CanonicalDeck, canonicalize, hashable
from varz_deck.games.varz.registration.code import is_code


@dataclass(frozen=True)
class Registration:
    """A deck as registered: player, event, the check report, the canonical list and its hash."""

    path: str
    player: str
    event: str
    report: DeckReport
    canonical: CanonicalDeck | None
    deck_hash: str | None
    is_code: bool = False

    @property
    def legal(self) -> bool:
        return self.report.legal

    @property
    def error_codes(self) -> list[str]:
        return _unique(d.code for d in self.report.diagnostics if d.is_error)

    @property
    def warning_codes(self) -> list[str]:
        return _unique(d.code for d in self.report.diagnostics if not d.is_error)


def register_deck(
    path: Path,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
) -> Registration:
    """Read (a file or a deck code), check and canonicalise one deck; options override the file."""
    deck, problems = read_deck(path)
    report = check_parsed(deck, problems, database, format_key)
    canonical = canonicalize(deck, database, format_key) if hashable(deck, problems) else None
    return Registration(
        path=deck.path,
        player=_clean(player if player is not None else deck.player),
        event=_clean(event if event is not None else deck.event),
        report=report,
        canonical=canonical,
        deck_hash=canonical.hash() if canonical is not None else None,
        is_code=is_code(path),
    )


def register_decks(
    paths: Iterable[Path],
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
) -> list[Registration]:
    """Register each deck independently, in the order given."""
    return [
        register_deck(p, database, player=player, event=event, format_key=format_key) for p in paths
    ]


def _clean(value: str | None) -> str:
    return " ".join(value.split()) if value else ""


def _unique(codes: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(codes))
