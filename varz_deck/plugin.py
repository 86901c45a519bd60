"""The public API for game plugins: everything a game needs, and nothing else to import.

A game is a `Declaration` (its cards, its deck's slots and sections, their sizes and copy limits,
the codes its checks report under) given to `DeclaredGame`, with Python rules only for what no
declaration can say::

    from varz_deck.plugin import Declaration, DeclaredGame, Section, Size, ...

    DECLARATION = Declaration(key="kitsune", name="Kitsune", prefix="K", code_family="KT", ...)
    GAME = DeclaredGame(DECLARATION, Path(__file__).parent / "card_data", rules=RULES)

and registered under the entry-point group `varz_deck.games`. docs/reference/plugin.md documents
every name below.

Compatibility: the names in `__all__` keep their meaning and signature within a major version of
varz-deck (`API_VERSION` names it); a change that breaks a plugin written against them is a new
major version. Anything else in `varz_deck` may change in any release.
"""

from __future__ import annotations

from typing import Any

from varz_deck.core.analysis.capabilities import (
    NOT_LEGAL_SIMULATED,
    NOT_LEGAL_TUNED,
    DeckUnusable,
    Goldfish,
    Outcome,
    SimRequest,
    Tuner,
)
from varz_deck.core.analysis.glossary import Entry as GlossaryEntry
from varz_deck.core.analysis.parts import Chart, Part, Series, Table
from varz_deck.core.cards.cardinfo import CardLookup, CardQuery
from varz_deck.core.cards.model import CardDatabase, CardRecord, Format
from varz_deck.core.decks.check import DeckReport, DeckWords
from varz_deck.core.decks.declaration import (
    CardField,
    CardType,
    CheckCode,
    Copies,
    Declaration,
    FormatCodes,
    Section,
    Size,
    Slot,
)
from varz_deck.core.decks.entries import Entry
from varz_deck.core.decks.view import DeckView, DeclaredDeck, Pick
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game import Game
from varz_deck.core.game.cards import DeclaredCard
from varz_deck.core.game.complete import Completion, Draft, NoCompletion
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.game.yamlgame import load_game
from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import (
    CardName,
    Joined,
    Message,
    Quoted,
    Term,
    msg,
    nmsg,
    register_catalogue,
)
from varz_deck.core.messages.rulebook import Rule, Rulebook

API_VERSION = 1

__all__ = [
    "API_VERSION",
    "NOT_LEGAL_SIMULATED",
    "NOT_LEGAL_TUNED",
    "CardDatabase",
    "CardField",
    "CardLookup",
    "CardName",
    "CardQuery",
    "CardRecord",
    "CardType",
    "Chart",
    "CheckCode",
    "Completion",
    "Copies",
    "DeckReport",
    "DeckSource",
    "DeckUnusable",
    "DeckView",
    "DeckWords",
    "Declaration",
    "DeclaredCard",
    "DeclaredDeck",
    "DeclaredGame",
    "Diagnostic",
    "Draft",
    "Entry",
    "Format",
    "FormatCodes",
    "Game",
    "GlossaryEntry",
    "Goldfish",
    "Joined",
    "Mark",
    "Message",
    "NoCompletion",
    "Outcome",
    "Part",
    "Pick",
    "Quoted",
    "Rule",
    "Rulebook",
    "Section",
    "Series",
    "Severity",
    "SimRequest",
    "Size",
    "Slot",
    "Table",
    "Term",
    "Tuner",
    "diag",
    "format_known",
    "lead_known",
    "load_game",
    "msg",
    "nmsg",
    "register_catalogue",
]


def lead_known(view: DeckView[Any]) -> bool:
    """A rule's `when`: the deck's lead card is known (rules that read it)."""
    return view.lead is not None


def format_known(view: DeckView[Any]) -> bool:
    """A rule's `when`: the deck's format is one the database has."""
    return view.format_known
