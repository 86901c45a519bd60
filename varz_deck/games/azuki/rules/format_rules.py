"""What the format bans (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.diagnostics import Diagnostic, diag
from varz_deck.core.i18n import CardName, msg
from varz_deck.games.azuki.cards import AzukiCard
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules._book import rule


def card_banned(view: AzukiView) -> Iterator[Diagnostic]:
    """No card the format bans (Standard: Rushfire Gate).

    Legal:   gate: Ragefire Gate
    Illegal: gate: Rushfire Gate
    """
    banned = set(view.format.banned)
    if not banned:
        return
    message = msg("A107", "{card} ({id}) is banned in {format}")

    def hit(card: AzukiCard) -> bool:
        return card.id in banned or any(a in banned for a in card.aliases)

    for slot_key in ("leader", "gate"):
        card = view.picked.get(slot_key)
        if card is not None and hit(card):
            yield diag(
                "A107",
                message(
                    card=CardName.of(card),
                    id=card.id,
                    format=view.format.name,
                ),
                view.deck.picks[slot_key].mark,
                file=view.deck.path,
                section=slot_key,
                card=card.id,
            )
    for section in ("main", "ikz"):
        for slot in view.slots[section]:
            if slot.card is not None and hit(slot.card):
                yield diag(
                    "A107",
                    message(
                        card=CardName.of(slot.card),
                        id=slot.card.id,
                        format=view.format.name,
                    ),
                    slot.entry.mark,
                    file=view.deck.path,
                    section=section,
                    card=slot.card.id,
                )


rule(
    "A107",
    "card-banned",
    "Deck building",
    format_rule=True,
    fix="Remove the banned card from the deck.",
)(card_banned)
