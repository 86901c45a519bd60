"""The spells of another colour than the hero's (rulebook 3.3, 6.1); the Deck's size and copy limit
are declared (declaration.py)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.decks.entries import Entry
from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import CardName, Term, msg, nmsg
from varz_deck.games.varz.cards import COLORLESS, Card
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_entry, not_hero_colour
from varz_deck.games.varz.view import VarzView


def _off_colour(view: VarzView) -> Iterator[tuple[Card, Entry, int]]:
    """Each spell of a colour other than the hero's (first entry per name), with its VAZ count."""
    hero_color = view.hero.color if view.hero else None
    seen: set[str] = set()
    for card, entry in view.resolved("spells"):
        if card.color in (hero_color, COLORLESS, None) or card.name in seen:
            continue
        seen.add(card.name)
        vaz = sum(e.count for c, e in view.resolved("skills") if c.is_vaz and c.color == card.color)
        yield card, entry, vaz


def off_colour_spell_without_vaz(view: VarzView) -> Iterator[Diagnostic]:
    """A spell of another colour than the hero's needs a VAZ skill of that colour.

    Legal:   red hero, a blue spell, and `Azure VAZ` (blue) in the skills
    Illegal: red hero, a blue spell, and no blue VAZ skill
    """
    for card, entry, vaz in _off_colour(view):
        if vaz == 0:
            message = msg(
                "V114",
                "{card} is {color} but the hero is {hero_color} and the skills have no {color} "
                "VAZ skill; add one or cut the card",
            )
            yield not_hero_colour(view, message, entry, card)


rule(
    "V114",
    "off-colour-spell-without-vaz",
    "3.3, 6.1",
    needs_hero=True,
    fix="Add a VAZ skill of the spell's colour, or cut the spell.",
)(off_colour_spell_without_vaz)


def off_colour_cost_unpayable(view: VarzView) -> Iterator[Diagnostic]:
    """Warn when an off-colour spell costs more than all the deck's VAZ of its colour can pay.

    Fine:    blue spell of cost 2 with two blue VAZ skills
    Warning: blue spell of cost 3 with two blue VAZ skills (it can never be cast)
    """
    for card, entry, vaz in _off_colour(view):
        cost = card.cost or 0
        if 0 < vaz < cost:
            message = nmsg(
                "W201",
                "{card} costs {cost} {color} VAZ but the skills make at most {vaz}; "
                "add {n} more {color} VAZ skill",
                "{card} costs {cost} {color} VAZ but the skills make at most {vaz}; "
                "add {n} more {color} VAZ skills",
            )
            color = Term("color", card.color or "")
            yield at_entry(
                view,
                message(card=CardName.of(card), cost=cost, color=color, vaz=vaz, n=cost - vaz),
                entry,
                card,
            )


rule(
    "W201",
    "off-colour-cost-unpayable",
    "3.3, 6.1",
    needs_hero=True,
    severity=Severity.WARNING,
    fix="Add VAZ skills of the spell's colour, or play a cheaper spell of that colour.",
)(off_colour_cost_unpayable)
