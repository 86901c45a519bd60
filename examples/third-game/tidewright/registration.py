"""Tidewright registration (`register`, `verify`, `diff`, `code`) and its printable sheet.

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/), shaped by the game's `LAYOUT` (tidewright/layout.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import ENGLISH, CardName, Message, msg
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import ReadDeck, Registration, registration

from tidewright.cards import TideDatabase
from tidewright.check import check_parsed
from tidewright.deck import LEAD, TideDeck, read_deck
from tidewright.layout import LAYOUT, is_code_argument
from tidewright.rules import CREW_SIZE, CURRENTS_SIZE

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource


def _slots(deck: TideDeck) -> dict[str, str | None]:
    return {LEAD: deck.captain.ref if deck.captain else None}


def register_deck(
    source: DeckSource,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
    date: datetime.date | None = None,
) -> Registration:
    """Read (a file or a deck code), check it on `date` (None: today), canonicalise it."""
    assert isinstance(database, TideDatabase)
    deck, problems = read_deck(source)
    report = check_parsed(deck, problems, database, format_key, date)
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


_CAPTAIN = msg("sheet", "Captain")
_TITLES = {"crew": msg("sheet", "Crew"), "currents": msg("sheet", "Currents")}
_TARGETS = {"crew": CREW_SIZE, "currents": CURRENTS_SIZE}


def _sheet_slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
    picked = canonical.slots.get(LEAD) if canonical is not None else None
    if picked is None:
        return [(_CAPTAIN, "")]
    card = picked.printing
    if card is None:
        return [(_CAPTAIN, page.unknown_slot(picked, lang))]
    name = CardName.of(card, quote=False).in_language(lang)
    seas = " / ".join(card.seas)
    return [(_CAPTAIN, f"{page.e(name)} <small>{page.e(card.id)} · {page.e(seas)}</small>")]


def _lists(reg: Registration, canonical: CanonicalDeck, lang: str) -> str:
    tables = [
        page.card_table(canonical, s, _TITLES[s], target=_TARGETS[s], lang=lang)
        for s in ("crew", "currents")
    ]
    return '<div class="lists"><div>\n' + "\n</div><div>\n".join(tables) + "\n</div></div>"


PARTS = page.SheetParts(slots=_sheet_slots, lists=_lists, code=encode)


class TideRegistrar:
    """`register`, `verify`, `diff`, `code` for Tidewright decks."""

    layout = LAYOUT
    sheet_parts = PARTS

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
        date: datetime.date | None = None,
    ) -> Registration:
        return register_deck(
            source, database, player=player, event=event, format_key=format_key, date=date
        )

    def encode(self, canonical: CanonicalDeck) -> str:
        return encode(canonical)

    def render_sheet(self, registration: Registration, lang: str = ENGLISH) -> str:
        return page.render_sheet(registration, PARTS, lang)

    def render_sheets(self, registrations: Sequence[Registration], lang: str = ENGLISH) -> str:
        return page.render_sheets(registrations, PARTS, lang)


REGISTRAR = TideRegistrar()
