"""Azuki registration: canonicalising and registering a deck with the game's `Layout`
(varz_deck/games/azuki/layout.py; its deck codes are read in deck.py), and its sheet (Leader,
Gate, the 50-card main deck, the IKZ deck with the token).

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/); `REGISTRAR` is what `Azuki.registrar` gives the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.core.source import DeckSource

from collections.abc import Sequence

from varz_deck.core.cards import CardDatabase
from varz_deck.core.i18n import ENGLISH, CardName, Message, msg, term
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.canonical import canonicalize as canonical_form
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import ReadDeck, Registration, registration
from varz_deck.games.azuki.cards import AzukiDatabase
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import SLOTS, AzukiDeck, read_deck
from varz_deck.games.azuki.layout import IKZ_DECK, LAYOUT, MAIN_DECK, is_code_argument


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


# ----------------------------------------------------------------------------- the sheet

_LEADER = msg("sheet", "Leader")
_GATE = msg("sheet", "Gate")
_TITLES = {"main": msg("sheet", "Main deck"), "ikz": msg("sheet", "IKZ deck")}
_TARGETS = {"main": MAIN_DECK, "ikz": IKZ_DECK}


def render_sheet(reg: Registration, lang: str = ENGLISH) -> str:
    """One Azuki registration as a complete HTML document, its words in a language."""
    return page.render_sheet(reg, PARTS, lang)


def _sheet_slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
    return [(_LEADER, _slot(canonical, "leader", lang)), (_GATE, _slot(canonical, "gate", lang))]


def _slot(canonical: CanonicalDeck | None, slot: str, lang: str) -> str:
    picked = canonical.slots.get(slot) if canonical is not None else None
    if picked is None:
        return ""
    card = picked.printing
    if card is None:
        return page.unknown_slot(picked, lang)
    facts = [" / ".join(term("element", e, lang) for e in card.elements)]
    if slot == "leader" and card.health is not None:
        facts.append(msg("sheet", "Health {health}")(health=card.health).render(lang))
    details = " · ".join(f for f in facts if f)
    name = CardName.of(card, quote=False).in_language(lang)
    return f"{page.e(name)} <small>{page.e(picked.shown_id)}{' · ' + page.e(details) if details else ''}</small>"


def _lists(reg: Registration, canonical: CanonicalDeck, lang: str) -> str:
    return "\n".join(
        [
            '<div class="lists"><div>',
            _table(canonical, "main", lang),
            "</div><div>",
            _table(canonical, "ikz", lang),
            "</div></div>",
        ]
    )


def _table(canonical: CanonicalDeck, section: str, lang: str) -> str:
    return page.card_table(
        canonical, section, _TITLES[section], target=_TARGETS[section], lang=lang
    )


PARTS = page.SheetParts(slots=_sheet_slots, lists=_lists, code=encode)


def render_sheets(registrations: Sequence[Registration], lang: str = ENGLISH) -> str:
    """Every Azuki registration's sheet in one document, a page each."""
    return page.render_sheets(registrations, PARTS, lang)


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
