"""The Azuki registration sheet: the Leader and Gate row and the main and IKZ deck tables (with
the token) on the core's page (varz_deck/core/registration/sheet.py)."""

from __future__ import annotations

from collections.abc import Sequence

from varz_deck.core.messages.i18n import CardName, Message, msg, term
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import Registration
from varz_deck.games.azuki.cards import AzukiCard
from varz_deck.games.azuki.declaration import MAIN_SIZE
from varz_deck.games.azuki.rules import IKZ_COUNT, TOKEN_COUNT

_LEADER = msg("sheet", "Leader")
_GATE = msg("sheet", "Gate")
_TITLES = {"main": msg("sheet", "Main deck"), "ikz": msg("sheet", "IKZ deck")}
_TARGETS = {"main": MAIN_SIZE, "ikz": IKZ_COUNT + TOKEN_COUNT}


def _sheet_slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
    return [(_LEADER, _slot(canonical, "leader", lang)), (_GATE, _slot(canonical, "gate", lang))]


def _slot(canonical: CanonicalDeck | None, slot: str, lang: str) -> str:
    picked = canonical.slots.get(slot) if canonical is not None else None
    if picked is None:
        return ""
    card = picked.printing
    if not isinstance(card, AzukiCard):  # None: unknown
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
