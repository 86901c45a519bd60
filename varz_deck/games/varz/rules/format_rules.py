"""Format data: bans, restrictions, legal sets (rulebook 2.2; the lists live in formats.yaml)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.i18n import CardName, Joined, Message, Term, msg
from varz_deck.games.varz.cards import SECTIONS, Card
from varz_deck.games.varz.deck import Entry
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_entry, at_hero


def _every_card(view: DeckView) -> Iterator[tuple[Card, Entry | None]]:
    """The hero (entry None) and the first entry of every card name in every section."""
    if view.hero is not None:
        yield view.hero, None
    for section in SECTIONS:
        for card, _count, first in view.by_name(section).values():
            yield card, first


def banned_card(view: DeckView) -> Iterator[Diagnostic]:
    """No card the format bans; a ban covers every printing of the card.

    Legal:   a deck without VZ01-031 in Standard
    Illegal: VZ01-031 (or any reprint of it) in Standard
    """
    cards = view.database.cards
    banned = {cards[i].name for i in view.format.banned if i in cards}
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        if card.name in banned:
            message = msg("V115", "{card} is banned in {format}; replace it")
            yield _place(view, message(card=CardName.of(card), format=fmt), card, entry)


rule(
    "V115",
    "banned-card",
    "format data (2.2)",
    format_rule=True,
    fix="Remove the banned card, every printing of it.",
)(banned_card)


def restricted_card_over_limit(view: DeckView) -> Iterator[Diagnostic]:
    """No more copies of a restricted card than the format allows.

    Legal:   VZ01-040: 1 when Standard restricts it to 1
    Illegal: VZ01-040: 2 when Standard restricts it to 1
    """
    cards = view.database.cards
    limits = {cards[i].name: n for i, n in view.format.restricted.items() if i in cards}
    fmt = Term("format", view.format.name)
    for section in SECTIONS:
        for name, (card, count, first) in view.by_name(section).items():
            if name in limits and count > limits[name]:
                message = msg(
                    "V116",
                    "{count} copies of {card}; {format} restricts it to {limit}: remove {excess}",
                )
                limit = limits[name]
                yield at_entry(
                    view,
                    message(
                        count=count,
                        card=CardName.of(card),
                        format=fmt,
                        limit=limit,
                        excess=count - limit,
                    ),
                    first,
                    card,
                )


rule(
    "V116",
    "restricted-card-over-limit",
    "format data (2.2)",
    format_rule=True,
    fix="Cut the restricted card down to the number the format allows.",
)(restricted_card_over_limit)


def card_not_in_format_sets(view: DeckView) -> Iterator[Diagnostic]:
    """Every card is printed in a set the format allows (any printing of it counts).

    Legal:   a VZ01 card in a format with sets [VZ01, VZ02]
    Illegal: a card printed only in PR in that format
    """
    sets = view.format.sets
    if sets is None:
        return
    allowed = set(sets)
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        printings = view.database.printings.get(card.name, [card])
        if not any(p.set in allowed for p in printings):
            message = msg(
                "V117", "{card} is only in set {sets}; {format} allows {allowed}: replace it"
            )
            yield _place(
                view,
                message(
                    card=CardName.of(card),
                    sets=Joined(tuple(sorted({p.set for p in printings}))),
                    format=fmt,
                    allowed=Joined(tuple(sets)),
                ),
                card,
                entry,
            )


rule(
    "V117",
    "card-not-in-format-sets",
    "format data (2.2)",
    format_rule=True,
    fix="Replace the card with one printed in the format's sets, or play another format.",
)(card_not_in_format_sets)


def _place(view: DeckView, message: Message, card: Card, entry: Entry | None) -> Diagnostic:
    """At the card's entry, or at the hero when the card is the hero (entry None)."""
    return at_hero(view, message) if entry is None else at_entry(view, message, entry, card)
