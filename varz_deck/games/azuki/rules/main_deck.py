"""The main deck: its size and the copies of a card (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import CardName, msg
from varz_deck.games.azuki.cards import AzukiCard
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules._book import rule
from varz_deck.games.azuki.rules._util import at_key

MAIN_SIZE = 50
MAX_COPIES = 4


def main_deck_size_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """The main deck has exactly 50 cards.

    Legal:   main: 50 cards (entities, spells, weapons)
    Illegal: main: 49 cards
    """
    if "main" in view.deck.uncounted:
        return
    size = view.size("main")
    if size != MAIN_SIZE:
        yield at_key(
            view,
            "A103",
            msg("A103", "the main deck has {n} cards; it must have exactly {size}")(
                n=size, size=MAIN_SIZE
            ),
            "main",
        )


rule(
    "A103",
    "main-deck-size-wrong",
    "Deck building",
    fix="Add or remove main-deck cards until they add up to 50.",
)(main_deck_size_wrong)


def copy_limit_exceeded(view: AzukiView) -> Iterator[Diagnostic]:
    """At most 4 copies of a card id in the main deck (alternate art counts with its id).

    Legal:   main: {Rei: 4}
    Illegal: main: {Rei: 5}
    """
    totals: dict[str, tuple[AzukiCard, int, object]] = {}
    for slot in view.slots["main"]:
        card = slot.card
        if card is None:
            continue
        seen = totals.get(card.id)
        count = slot.entry.count + (seen[1] if seen else 0)
        totals[card.id] = (card, count, seen[2] if seen else slot.entry)
    for card, count, entry in totals.values():
        if count > MAX_COPIES:
            yield diag(
                "A106",
                msg("A106", "{n} copies of {card} ({id}); at most {max} of a card")(
                    n=count,
                    card=CardName.of(card),
                    id=card.id,
                    max=MAX_COPIES,
                ),
                entry.mark,  # type: ignore[attr-defined]
                file=view.deck.path,
                section="main",
                card=card.id,
            )


rule(
    "A106",
    "copy-limit-exceeded",
    "Deck building",
    fix="Keep at most 4 copies of each card id in the main deck.",
)(copy_limit_exceeded)
