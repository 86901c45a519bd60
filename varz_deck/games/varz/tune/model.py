"""The checked deck `stats` and `tune` read, its model, and card names in a language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from varz_deck.core.analysis.capabilities import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.analysis.tuning import refuse_oversized
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.i18n import ENGLISH, CardName, Message, msg
from varz_deck.games.varz.declaration import SECTION_SIZES
from varz_deck.games.varz.sim.model import Model, ModelError, SpellCard, build_model
from varz_deck.games.varz.view import VarzView

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.declared import DeclaredGame
    from varz_deck.games.varz.cards import Card

_NO_HERO = msg("sim", "{path}: {problem}; name a Hero card under `hero:`")


@dataclass(frozen=True)
class Loaded:
    report: DeckReport
    view: VarzView
    warning: Message | None


def load(
    game: DeclaredGame,
    source: DeckSource,
    database: CardDatabase,
    *,
    bounded: bool = False,
    date: datetime.date,
) -> Loaded:
    """The deck read and checked by `game` (VARZ's) on `date`; DeckUnusable when it cannot be read; with
    `bounded` (tune: its work grows with the deck), DeckTooLarge when a section is far over its
    size (core/analysis/tuning.py)."""
    deck, problems = game.read_deck(source)
    unreadable = [d for d in problems if d.code in ("F001", "F002")]
    if unreadable or not deck.readable:
        raise DeckUnusable(unreadable or problems)
    if bounded:
        refuse_oversized(deck.path, deck.entries, SECTION_SIZES)
    report = game.check_parsed(deck, problems, database, None, date)
    if report.view is None:
        raise DeckUnusable(report.diagnostics)
    warning = NOT_LEGAL_TUNED(path=source.name, n=report.errors) if report.errors else None
    return Loaded(report, report.view, warning)


def model_of(loaded: Loaded, name: str) -> Model:
    try:
        return build_model(loaded.view)
    except ModelError as err:
        raise DeckUnusable(message=_NO_HERO(path=name, problem=err.message)) from None


def card_name(card: Card, lang: str) -> str:
    return CardName.of(card).in_language(lang)


def spell_name(card: SpellCard, lang: str) -> str:
    return card.name if lang == ENGLISH else CardName(card.name, card.names).in_language(lang)
