"""Checking a deck for an event, exactly as `check` checks it and `register` registers it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from varz_deck.core.messages.i18n import LANGUAGES
from varz_deck.server.models import Event
from varz_deck.server.services.carddata import database_for
from varz_deck.server.services.errors import OTHER_GAME, UNKNOWN_LANG, Invalid
from varz_deck.server.services.times import check_date

if TYPE_CHECKING:
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.registration.register import Registration


DECK_NAME = "<deck>"  # how a submitted deck is named in its diagnostics (like `<stdin>`)


@dataclass(frozen=True)
class Checked:
    """A deck text checked for an event: the check's report and the registration (hash)."""

    report: DeckReport
    registration: Registration

    @property
    def legal(self) -> bool:
        return self.report.legal

    @property
    def deck_hash(self) -> str | None:
        return self.registration.deck_hash

    @property
    def lead(self) -> str:
        card = self.report.lead_card
        return str(getattr(card, "name", "") or "") if card is not None else ""

    def diagnostics(self, lang: str = "en") -> list[dict[str, object]]:
        """As `check --output json` (with `message_localized` when lang is not English)."""
        return list(self.report.to_json(lang)["diagnostics"])

    def answer(self, lang: str) -> dict[str, object]:
        """The API's answer to a check: legal, deck_hash, diagnostics (in lang)."""
        return {
            "legal": self.legal,
            "deck_hash": self.deck_hash,
            "diagnostics": self.diagnostics(lang),
        }


def language(lang: str | None) -> str:
    """en, ja or zh (None: English); Invalid for anything else."""
    if lang is None or lang == "":
        return "en"
    if lang not in LANGUAGES:
        raise Invalid(UNKNOWN_LANG(lang=lang))
    return lang


def check_deck(event: Event, text: str, player: str = "") -> Checked:
    """Check a deck text for an event, as `check` would check a file holding it (or the deck code
    it is) under the event's format, as of the event's date (`check_date`); register it as
    `register` would (its hash)."""
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import check_decks, detect_game, game_keys, get_game

    database = database_for(event.game)
    registrar = get_game(database.game).registrar
    format_key = event.format or None
    word = text.strip()
    is_code = (
        bool(word)
        and not any(ch.isspace() for ch in word)
        and len(word) <= 4096
        and any(get_game(k).registrar.is_code(word) for k in (database.game, *game_keys()))
    )
    source = DeckSource(word, argument=word) if is_code else DeckSource.from_text(DECK_NAME, text)
    owner = detect_game(source, database.game)
    day = check_date(event)
    reg = registrar.register(
        source, database, player=player, event=event.name, format_key=format_key, date=day
    )
    if owner is None or owner == database.game:
        report = reg.report  # the same reader and rules as check_deck
    else:  # another game's deck: one F010, as `check --cards` gives it, in the server's words
        from varz_deck.core.messages.diagnostics import diag

        report = check_decks([source], database, format_key, date=day)[0]
        wording = OTHER_GAME(game=get_game(owner).name, mine=get_game(database.game).name)
        report = replace(report, diagnostics=(diag("F010", wording, file=source.name),))
        reg = replace(reg, report=report, canonical=None, deck_hash=None)
    return Checked(report, reg)


def codes_of(diagnostics: object, errors: bool = True) -> list[str]:
    """The error (or other) codes of a version's stored diagnostics, each once, in order."""
    if not isinstance(diagnostics, list):
        return []
    return list(
        dict.fromkeys(
            str(d.get("code", ""))
            for d in diagnostics
            if isinstance(d, dict) and (d.get("severity") == "error") == errors
        )
    )
