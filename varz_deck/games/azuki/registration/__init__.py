"""Azuki registration: the core's `GameRegistrar` (varz_deck/core/registration/registrar.py) built
with the game's `Layout` (varz_deck/games/azuki/layout.py), its deck reader (deck.py, which reads
its deck codes too), its check and its sheet (sheet.py: Leader, Gate, the 50-card main deck, the
IKZ deck with the token). `REGISTRAR` is what `Azuki.registrar` gives the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from varz_deck.core.registration.registrar import GameRegistrar
from varz_deck.games.azuki.cards import AzukiDatabase
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import SLOTS, AzukiDeck, read_deck
from varz_deck.games.azuki.layout import LAYOUT, is_code_argument

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.core.registration.sheet import SheetParts


def _slots(deck: AzukiDeck) -> Mapping[str, str | None]:
    return {slot: pick.ref if (pick := deck.picks.get(slot)) else None for slot in SLOTS}


def _check(
    deck: AzukiDeck,
    problems: list[Diagnostic],
    database: CardDatabase,
    format_key: str | None,
    date: datetime.date | None,
) -> DeckReport:
    assert isinstance(database, AzukiDatabase)
    return check_parsed(deck, problems, database, format_key, date)


def _sheet() -> SheetParts:
    from varz_deck.games.azuki.registration.sheet import PARTS

    return PARTS


REGISTRAR = GameRegistrar(
    layout=LAYOUT,
    read_deck=read_deck,
    check_parsed=_check,
    slots_of=_slots,
    is_code=is_code_argument,
    sheet=_sheet,
)
