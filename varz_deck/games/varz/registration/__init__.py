"""VARZ registration: canonicalising and registering a deck with the game's `Layout`
(varz_deck/games/varz/layout.py); its deck codes are read in deck.py, its sheet is sheet.py.

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/); `REGISTRAR` is what `Varz.registrar` gives the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.core.source import DeckSource

from collections.abc import Sequence

from varz_deck.core.cards import CardDatabase
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.canonical import canonicalize as canonical_form
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import ReadDeck, Registration, registration
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import Deck, read_deck
from varz_deck.games.varz.layout import LAYOUT, is_code_argument


def canonicalize(
    deck: Deck, database: CardDatabase, format_key: str | None = None
) -> CanonicalDeck:
    """The canonical form of a VARZ deck that was read completely."""
    return canonical_form(
        LAYOUT,
        database,
        format=deck.format,
        slots={"hero": deck.hero},
        entries=deck.entries,
        format_key=format_key,
    )


def register_deck(
    source: DeckSource,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
) -> Registration:
    """Read (a file or a deck code), check and canonicalise one VARZ deck."""
    deck, problems = read_deck(source)
    report = check_parsed(deck, problems, database, format_key)
    read = ReadDeck(
        path=deck.path,
        readable=deck.readable,
        problems=problems,
        format=deck.format,
        slots={"hero": deck.hero},
        entries=deck.entries,
        player=deck.player,
        event=deck.event,
    )
    return registration(
        LAYOUT,
        read,
        report,
        database,
        player=player,
        event=event,
        format_key=format_key,
        is_code=source.argument is not None and is_code_argument(source.argument),
    )


class VarzRegistrar:
    """`register`, `verify`, `diff`, `code` for VARZ decks."""

    layout = LAYOUT

    def is_code(self, argument: str) -> bool:
        return is_code_argument(argument)

    def register(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        player: str | None = None,
        event: str | None = None,
        format_key: str | None = None,
    ) -> Registration:
        return register_deck(source, database, player=player, event=event, format_key=format_key)

    def encode(self, canonical: CanonicalDeck) -> str:
        return encode(canonical)

    def render_sheet(self, registration: Registration, lang: str) -> str:
        from varz_deck.games.varz.registration.sheet import render_sheet

        return render_sheet(registration, lang)

    def render_sheets(self, registrations: Sequence[Registration], lang: str) -> str:
        from varz_deck.games.varz.registration.sheet import render_sheets

        return render_sheets(registrations, lang)


REGISTRAR = VarzRegistrar()
