"""Azuki TCG, the second game: a declaration (declaration.py: leader, gate, main, ikz; codes
A101-A103, A106-A108, A201) on the core's `DeclaredGame`, with what is Azuki's own: its cards (an
id and its alias ids are one card: cards.py), two rules (rules/: A104, A105), its schemas, deck
words, registration sheet, card look-up, simulator, tuner and glossary.

Everything Azuki is in this package; the core reaches it through `varz_deck.games.get_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import varz_deck.games.azuki.schemahints  # noqa: F401 - registers its schemas' messages
from varz_deck.core.decks.entries import ListWords, looks_like_code, top_level_words
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.i18n import register_catalogue
from varz_deck.games.azuki.cards import AzukiCard, AzukiDatabase
from varz_deck.games.azuki.declaration import DECLARATION
from varz_deck.games.azuki.rules import RULEBOOK
from varz_deck.games.azuki.words import CODE_TRAILING, OUTSIDE, OWN_WORDS, section_heading
from varz_deck.games.bundled import bundled

if TYPE_CHECKING:
    from varz_deck.core.analysis.capabilities import Goldfish, Tuner
    from varz_deck.core.analysis.glossary import Entry
    from varz_deck.core.cards.cardinfo import CardLookup
    from varz_deck.core.cards.model import Format
    from varz_deck.core.game import Game
    from varz_deck.core.game.complete import Completion
    from varz_deck.core.registration.canonical import Layout
    from varz_deck.core.registration.sheet import SheetParts

_HERE = Path(__file__).resolve().parent


class Azuki(DeclaredGame):
    """The Azuki TCG: its declaration, and what the core's defaults do not say of it."""

    schemas: Mapping[str, Path]  # its own, hand-written (schemas/)

    def __init__(self) -> None:
        super().__init__(
            DECLARATION,
            bundled("card_data", "azuki"),
            rules=RULEBOOK,
            colours=("elements",),
            schemas={
                "azuki-card": bundled("schemas", "azuki", "card-file.schema.json"),
                "azuki-deck": bundled("schemas", "azuki", "deck.schema.json"),
            },
        )

    # -- cards: an Azuki card is its id, and its alias ids name it too (cards.py) ---------------

    def make_card(  # type: ignore[override]  # Azuki's own card class
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> AzukiCard:
        return AzukiCard.from_raw(raw, set_code, file, line)

    def card_from_json(self, data: Mapping[str, Any]) -> AzukiCard:  # type: ignore[override]
        return AzukiCard.from_json(data)

    def make_database(
        self, cards: list[AzukiCard], formats: Mapping[str, Format] | None
    ) -> AzukiDatabase:
        return AzukiDatabase(cards, formats)

    def game_fields(self, card: AzukiCard) -> dict[str, object]:
        return card.game_fields()

    @property
    def section_sizes(self) -> Mapping[str, int]:
        """The declared sizes, and the IKZ deck's 11 (A104 checks it, not a declared size)."""
        from varz_deck.games.azuki.rules.ikz import IKZ_COUNT, TOKEN_COUNT

        return {**super().section_sizes, "ikz": IKZ_COUNT + TOKEN_COUNT}

    # -- deck words ----------------------------------------------------------------------------

    @cached_property
    def list_words(self) -> ListWords:
        return replace(super().list_words, outside=OUTSIDE)

    def owns_deck(self, text: str) -> bool:
        """Whether a deck file's keys or headers are Azuki's (leader, gate, ikz), or the text is
        an Azuki deck code (`AZ` and a version digit)."""
        return looks_like_code(text, DECLARATION.code_family) or bool(
            top_level_words(text) & OWN_WORDS
        )

    @cached_property
    def layout(self) -> Layout[AzukiCard]:
        return replace(super().layout, code_trailing=CODE_TRAILING, section_heading=section_heading)

    @cached_property
    def sheet_parts(self) -> SheetParts:
        from varz_deck.games.azuki.sheet import PARTS

        return PARTS

    # -- capabilities (imported when asked: `check` starts faster) ---------------------------

    @cached_property
    def goldfish(self) -> Goldfish:
        from varz_deck.games.azuki.sim import AzukiGoldfish

        return AzukiGoldfish(self)

    @cached_property
    def tuner(self) -> Tuner:
        from varz_deck.games.azuki.tune import AzukiTuner

        return AzukiTuner(self)

    @cached_property
    def completion(self) -> Completion:
        from varz_deck.games.azuki.complete import AzukiCompletion

        return AzukiCompletion()

    @cached_property
    def lookup(self) -> CardLookup[AzukiCard]:
        from varz_deck.games.azuki.cardinfo import LOOKUP

        return LOOKUP

    @property
    def glossary(self) -> tuple[Entry, ...]:
        from varz_deck.games.azuki.glossary import GLOSSARY

        return GLOSSARY


GAME: Game[AzukiCard] = Azuki()
register_catalogue("azuki", _HERE / "locale")
