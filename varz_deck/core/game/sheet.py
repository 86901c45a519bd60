"""A declared game's registration sheet: a row per slot (the card, its id and colours), a table
per section, its total marked when it is off the section's size."""

from __future__ import annotations

from collections.abc import Sequence

from varz_deck.core.game.cards import Declared
from varz_deck.core.messages.i18n import CardName, Message
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.code import encode
from varz_deck.core.registration.register import Registration

_NAMED = Message("", "{name}")  # a name given in every language, as a message


def sheet_parts(game: Declared) -> page.SheetParts:
    declaration = game.declaration

    def slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
        rows = []
        for slot in declaration.slots:
            title = _NAMED(name=slot.title)
            picked = canonical.slots.get(slot.key) if canonical is not None else None
            if picked is None:
                rows.append((title, ""))
                continue
            card = picked.printing
            if card is None:
                rows.append((title, page.unknown_slot(picked, lang)))
                continue
            name = CardName.of(card, quote=False).in_language(lang)
            about = " · ".join((card.id, *game.colours_of(card)))
            rows.append((title, f"{page.e(name)} <small>{page.e(about)}</small>"))
        return rows

    def lists(registration: Registration, canonical: CanonicalDeck, lang: str) -> str:
        tables = [
            page.card_table(
                canonical,
                section.key,
                _NAMED(name=section.title),
                target=section.size.exact,
                lang=lang,
            )
            for section in declaration.sections
        ]
        return '<div class="lists"><div>\n' + "\n</div><div>\n".join(tables) + "\n</div></div>"

    return page.SheetParts(slots=slots, lists=lists, code=encode)
