"""VARZ, the first game: a declared game (declaration.py: the hero, spells, skills and portals,
their sizes and copy limits, the codes of the format checks) with its own card class, rules
(rules/), simulator (sim/), tuner (tune/), registration layout and sheet, and look-up.

The core reads, resolves and checks its decks (core/game/declared.py); what is VARZ's own is
overridden here, each capability imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import varz_deck.games.varz.schemahints  # noqa: F401 - registers its schemas' messages
from varz_deck.core.decks.entries import ListWords, top_level_words
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.i18n import msg, register_catalogue
from varz_deck.games.bundled import bundled
from varz_deck.games.varz.cards import BUILTIN_FORMATS, FORMAT_FIELDS, WORDS, Card, VarzDatabase
from varz_deck.games.varz.declaration import DECLARATION
from varz_deck.games.varz.rules import RULEBOOK
from varz_deck.games.varz.view import VarzView

if TYPE_CHECKING:
    from varz_deck.core.analysis.capabilities import Goldfish, Tuner
    from varz_deck.core.analysis.glossary import Entry
    from varz_deck.core.cards.cardinfo import CardLookup
    from varz_deck.core.cards.model import CardDatabase, Format
    from varz_deck.core.game import Game
    from varz_deck.core.game.complete import Completion
    from varz_deck.core.lint import CardFile
    from varz_deck.core.messages.rulebook import Rule
    from varz_deck.core.registration.canonical import Layout
    from varz_deck.core.registration.sheet import SheetParts


_HERE = Path(__file__).resolve().parent
# Besides its keys, the headers of a plain-text list that say a deck is VARZ's.
_OWN_HEADERS = frozenset({"spell deck", "skill deck", "portal deck"})


class Varz(DeclaredGame):
    """The VARZ TCG: its declaration, and what the core's defaults do not say of it."""

    schemas: Mapping[str, Path]  # its own, hand-written (schemas/)

    def __init__(self) -> None:
        super().__init__(
            DECLARATION,
            bundled("card_data", "varz"),
            rules=RULEBOOK,
            format_fields=FORMAT_FIELDS,
            colours=("color",),
            schemas={
                "card": bundled("schemas", "varz", "card-file.schema.json"),
                "deck": bundled("schemas", "varz", "deck.schema.json"),
            },
            view_class=VarzView,
        )
        self.card_schema, self.deck_schema = "card", "deck"  # VARZ's names of them since 0.1
        self.words = WORDS

    # -- cards: VARZ's own card class and database ---------------------------------------------

    def make_card(  # type: ignore[override]  # VARZ's own card class
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> Card:
        from varz_deck.core.cards.model import record_fields
        from varz_deck.games.varz.cards import GAME_FIELDS

        values = record_fields(raw, set_code, file, line)
        for name in (*GAME_FIELDS, "flavor", "rarity"):
            if name in raw and name != "type":
                value = raw[name]
                values[name] = tuple(value) if isinstance(value, list) else value
        if isinstance(values.get("v_sync"), dict):
            values["v_sync"] = dict(values["v_sync"])
        return Card(**values)

    def card_from_json(self, data: Mapping[str, Any]) -> Card:  # type: ignore[override]
        return Card.from_json(data)

    def make_database(
        self, cards: list[Card], formats: Mapping[str, Format] | None
    ) -> CardDatabase[Card]:
        return VarzDatabase(cards, formats or self.builtin_formats())

    def builtin_formats(self) -> dict[str, Format]:
        return dict(BUILTIN_FORMATS)

    def game_fields(self, card: Card) -> dict[str, object]:
        return card.game_fields()

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        from varz_deck.games.varz.vocabulary import CARD_RULES

        return CARD_RULES.rules

    # -- decks: its list words, the headers that are its own, Shield Life ----------------------

    @cached_property
    def list_words(self) -> ListWords:
        outside = msg(
            "F004", "{line} is outside a section; put it under Spells:, Skills: or Portals:"
        )
        return replace(super().list_words, outside=outside)

    def owns_deck(self, text: str) -> bool:
        """Whether a deck file's keys or headers are VARZ's, or the text is a VARZ deck code."""
        return super().owns_deck(text) or bool(top_level_words(text) & _OWN_HEADERS)

    def counts(self, view: Any) -> dict[str, int]:
        """Each section's size, and the portals' Shield Life."""
        counts = super().counts(view)
        counts["shield_life"] = view.shield_life() if view is not None else 0
        return counts

    # -- capabilities, each imported on first use ----------------------------------------------

    @cached_property
    def goldfish(self) -> Goldfish:
        from varz_deck.games.varz.sim.goldfish import VarzGoldfish

        return VarzGoldfish(self)

    @cached_property
    def tuner(self) -> Tuner:
        from varz_deck.games.varz.tune import VarzTuner

        return VarzTuner(self)

    @cached_property
    def completion(self) -> Completion:
        from varz_deck.games.varz.complete import VarzCompletion

        return VarzCompletion()

    @property
    def glossary(self) -> tuple[Entry, ...]:
        from varz_deck.games.varz.glossary import GLOSSARY

        return GLOSSARY

    @property
    def lookup(self) -> CardLookup[Card]:
        from varz_deck.games.varz.cardinfo import LOOKUP

        return LOOKUP

    @property
    def layout(self) -> Layout[Card]:
        from varz_deck.games.varz.layout import LAYOUT

        return LAYOUT

    @property
    def sheet_parts(self) -> SheetParts:
        from varz_deck.games.varz.sheet import PARTS

        return PARTS


GAME: Game[Card] = Varz()
register_catalogue("varz", _HERE / "locale")
