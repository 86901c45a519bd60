"""The VARZ registration sheet: the hero row and the spells, skills and portals tables (with
Shield Life) on the core's page (varz_deck/core/registration/sheet.py).

Spells and skills are sorted by cost, then name; portals have no cost, so by Shield Life (the
column the sheet shows, the numbers that add up to 20), then name.
"""

from __future__ import annotations

from collections.abc import Sequence

from varz_deck.core.cards.model import CardRecord
from varz_deck.core.messages.i18n import ENGLISH, CardName, Message, msg, term
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalCard, CanonicalDeck
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import Registration
from varz_deck.games.varz.cards import Card, pooled_portals
from varz_deck.games.varz.declaration import SECTION_SIZES
from varz_deck.games.varz.layout import shield_life

_TITLES = {
    "spells": msg("sheet", "Spells"),
    "skills": msg("sheet", "Skills"),
    "portals": msg("sheet", "Portals"),
}
_HERO = msg("sheet", "Hero")
_SHIELD = msg("sheet", "Shield")
_TOTAL_LIFE = msg("sheet", "Total · Shield Life")
SHIELD_LIFE = 20


def _slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
    return [(_HERO, _hero(canonical, lang))]


def _lists(reg: Registration, canonical: CanonicalDeck, lang: str) -> str:
    pooled = _pooled(reg)
    return "\n".join(  # one line each, as the page's own parts
        [
            '<div class="lists"><div>',
            _table(canonical, "spells", lang=lang),
            "</div><div>",
            _table(canonical, "skills", lang=lang),
            _table(canonical, "portals", pooled, lang),
            "</div></div>",
        ]
    )


PARTS = page.SheetParts(slots=_slots, lists=_lists, code=encode)


def _pooled(reg: Registration) -> bool:
    view = reg.report.view
    return view is not None and pooled_portals(view.format)


def _hero(canonical: CanonicalDeck | None, lang: str = ENGLISH) -> str:
    hero = canonical.slots.get("hero") if canonical is not None else None
    if hero is None:
        return ""
    card = hero.printing
    if not isinstance(card, Card):  # None: unknown
        return page.unknown_slot(hero, lang)
    facts = [term("color", card.color, lang) if card.color else ""]
    if card.life is not None:
        facts.append(msg("sheet", "Life {life}")(life=card.life).render(lang))
    if card.memory is not None:
        facts.append(msg("sheet", "Memory {memory}")(memory=card.memory).render(lang))
    details = " · ".join(f for f in facts if f)
    name = CardName.of(card, quote=False).in_language(lang)
    return f"{page.e(name)} <small>{page.e(hero.shown_id)}{' · ' + page.e(details) if details else ''}</small>"


def _table(
    canonical: CanonicalDeck, section: str, pooled: bool = False, lang: str = ENGLISH
) -> str:
    """One section as a table; totals off the rulebook's numbers are marked (docs/reference/rules/)."""
    portals = section == "portals"
    checked = not (portals and pooled)
    extra = None
    if portals:
        life = shield_life(canonical)
        extra = page.Column(_SHIELD, _shield, _TOTAL_LIFE, life, checked and life != SHIELD_LIFE)
    empty = (
        msg("sheet", "(none: portals are pooled)") if portals and pooled else msg("sheet", "(none)")
    )
    return page.card_table(
        canonical,
        section,
        _TITLES[section],
        target=SECTION_SIZES[section] if checked else None,
        empty=empty,
        extra=extra,
        order=_by_shield if portals else None,
        lang=lang,
    )


def _by_shield(card: CanonicalCard, lang: str) -> tuple[bool | int | str, ...]:
    """Portals: by Shield Life, then name (unknown cards last)."""
    shield = getattr(card.card, "shield_life", None)
    return (card.card is None, shield is None, shield or 0, *page.by_name(card, lang)[1:])


def _shield(card: CardRecord | None) -> str:
    return str(card.shield_life) if isinstance(card, Card) and card.shield_life is not None else ""
