"""The 30-card Deck of spells (rulebook 2.1, 3-2 ❹, 3.3, 6.1)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import CardName, Term, msg, nmsg
from varz_deck.games.varz.cards import COLORLESS, Card
from varz_deck.games.varz.deck import Entry
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_entry, at_section

SPELL_DECK_SIZE = 30
SPELL_COPY_LIMIT = 3


def spell_deck_size_wrong(view: DeckView) -> Iterator[Diagnostic]:
    """The spell deck holds exactly 30 cards.

    Legal:   spells: {Ember Imp: 3, ...}  # 30 in all
    Illegal: spells adding up to 29 or 31
    """
    if not view.counted("spells"):
        return
    size = view.size("spells")
    if size < SPELL_DECK_SIZE:
        message = nmsg(
            "V102",
            "{n} spell card; the Deck needs exactly {need} (add {diff})",
            "{n} spell cards; the Deck needs exactly {need} (add {diff})",
        )
    elif size > SPELL_DECK_SIZE:
        message = nmsg(
            "V102",
            "{n} spell card; the Deck needs exactly {need} (remove {diff})",
            "{n} spell cards; the Deck needs exactly {need} (remove {diff})",
        )
    else:
        return
    diff = abs(size - SPELL_DECK_SIZE)
    yield at_section(view, message(n=size, need=SPELL_DECK_SIZE, diff=diff), "spells")


rule(
    "V102",
    "spell-deck-size-wrong",
    "2.1, 3-2 ❹",
    fix="Add or remove spells until they add up to 30.",
)(spell_deck_size_wrong)


def spell_copy_limit_exceeded(view: DeckView) -> Iterator[Diagnostic]:
    """At most 3 copies of a spell, counting every printing of its name together.

    Legal:   Ember Imp: 3
    Illegal: Ember Imp: 2 and VZ02-101 (another printing of Ember Imp): 2
    """
    for card, count, first in view.by_name("spells").values():
        if count > SPELL_COPY_LIMIT:
            message = msg(
                "V103",
                "{count} copies of {card}; at most {limit} (all printings together): "
                "remove {excess}",
            )
            excess = count - SPELL_COPY_LIMIT
            yield at_entry(
                view,
                message(count=count, card=CardName.of(card), limit=SPELL_COPY_LIMIT, excess=excess),
                first,
                card,
            )


rule(
    "V103",
    "spell-copy-limit-exceeded",
    "2.1",
    fix="Cut copies until at most 3 remain, all printings of the name together.",
)(spell_copy_limit_exceeded)


def _off_colour(view: DeckView) -> Iterator[tuple[Card, Entry, int]]:
    """Each spell of a colour other than the hero's (first entry per name), with its VAZ count."""
    hero_color = view.hero.color if view.hero else None
    seen: set[str] = set()
    for card, entry in view.resolved("spells"):
        if card.color in (hero_color, COLORLESS, None) or card.name in seen:
            continue
        seen.add(card.name)
        vaz = sum(e.count for c, e in view.resolved("skills") if c.is_vaz and c.color == card.color)
        yield card, entry, vaz


def off_colour_spell_without_vaz(view: DeckView) -> Iterator[Diagnostic]:
    """A spell of another colour than the hero's needs a VAZ skill of that colour.

    Legal:   red hero, a blue spell, and `Azure VAZ` (blue) in the skills
    Illegal: red hero, a blue spell, and no blue VAZ skill
    """
    hero_color = view.hero.color if view.hero else None
    for card, entry, vaz in _off_colour(view):
        if vaz == 0:
            message = msg(
                "V114",
                "{card} is {color} but the hero is {hero_color} and the skills have no {color} "
                "VAZ skill; add one or cut the card",
            )
            yield at_entry(
                view,
                message(
                    card=CardName.of(card),
                    color=Term("color", card.color or ""),
                    hero_color=Term("color", hero_color or ""),
                ),
                entry,
                card,
            )


rule(
    "V114",
    "off-colour-spell-without-vaz",
    "3.3, 6.1",
    needs_hero=True,
    fix="Add a VAZ skill of the spell's colour, or cut the spell.",
)(off_colour_spell_without_vaz)


def off_colour_cost_unpayable(view: DeckView) -> Iterator[Diagnostic]:
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
