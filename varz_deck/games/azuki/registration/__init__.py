"""Azuki registration: canonicalising and registering a deck with the game's `Layout`
(varz_deck/games/azuki/layout.py); its deck codes are read in deck.py, its sheet is sheet.py
(Leader, Gate, the 50-card main deck, the IKZ deck with the token).

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/); `REGISTRAR` is what `Azuki.registrar` gives the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from varz_deck.core.cards import CardDatabase
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.canonical import canonicalize as canonical_form
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import ReadDeck, Registration, registration
from varz_deck.games.azuki.cards import AzukiDatabase
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import SLOTS, AzukiDeck, read_deck
from varz_deck.games.azuki.layout import LAYOUT, is_code_argument
from varz_deck.games.azuki.registration.sheet import render_sheet, render_sheets

if TYPE_CHECKING:
    from varz_deck.core.source import DeckSource


def _slots(deck: AzukiDeck) -> dict[str, str | None]:
    return {slot: pick.ref if (pick := deck.picks.get(slot)) else None for slot in SLOTS}


def canonicalize(
    deck: AzukiDeck, database: CardDatabase, format_key: str | None = None
) -> CanonicalDeck:
    """The canonical form of an Azuki deck that was read completely."""
    return canonical_form(
        LAYOUT,
        database,
        format=deck.format,
        slots=_slots(deck),
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
    """Read (a file or a deck code), check and canonicalise one Azuki deck."""
    assert isinstance(database, AzukiDatabase)
    deck, problems = read_deck(source)
    report = check_parsed(deck, problems, database, format_key)
    read = ReadDeck(
        path=deck.path,
        readable=deck.readable,
        problems=problems,
        format=deck.format,
        slots=_slots(deck),
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


class AzukiRegistrar:
    """`register`, `verify`, `diff`, `code` for Azuki decks."""

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
        return render_sheet(registration, lang)

    def render_sheets(self, registrations: Sequence[Registration], lang: str) -> str:
        return render_sheets(registrations, lang)


REGISTRAR = AzukiRegistrar()


__all__ = [
    "REGISTRAR",
    "AzukiRegistrar",
    "canonicalize",
    "register_deck",
    "render_sheet",
    "render_sheets",
]
