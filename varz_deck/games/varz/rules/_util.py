"""Small helpers the rule modules share."""

from __future__ import annotations

from varz_deck.core.decks.entries import Entry
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, Message, Term
from varz_deck.games.varz.cards import Card
from varz_deck.games.varz.view import VarzView


def at_entry(
    view: VarzView, message: Message, entry: Entry, card: Card | None = None
) -> Diagnostic:
    """A diagnostic placed at a card's entry; its code is the message's context."""
    return diag(
        message.context,
        message,
        entry.mark,
        file=view.deck.path,
        section=entry.section,
        card=card.id if card else None,
    )


def at_section(view: VarzView, message: Message, section: str) -> Diagnostic:
    """A diagnostic placed at a section's key (no place when the section is missing)."""
    mark: Mark | None = view.deck.section_marks.get(section)
    return diag(message.context, message, mark, file=view.deck.path, section=section)


def at_hero(view: VarzView, message: Message) -> Diagnostic:
    """A diagnostic placed at the hero's entry."""
    hero = view.hero
    return diag(
        message.context,
        message,
        view.hero_mark,
        file=view.deck.path,
        section="hero",
        card=hero.id if hero else None,
    )


def not_hero_colour(view: VarzView, message: Message, entry: Entry, card: Card) -> Diagnostic:
    """A card of another colour than the hero's, at its entry: the message names the card, its
    colour and the hero's (`card`, `color`, `hero_color`)."""
    hero_color = view.hero.color if view.hero else None
    return at_entry(
        view,
        message(
            card=CardName.of(card),
            color=Term("color", card.color or ""),
            hero_color=Term("color", hero_color or ""),
        ),
        entry,
        card,
    )
