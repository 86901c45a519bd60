"""The 8-card Portal Deck (rulebook 2.1, 2.2, 3-2 ❸). Not checked when portals are pooled."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import CardName, Term, msg, nmsg
from varz_deck.games.varz.cards import COLORLESS, max_effect_portals
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_entry, at_section

PORTAL_DECK_SIZE = 8
SHIELD_LIFE_TOTAL = 20
EFFECT_PORTAL_COPIES = 1
BASIC_PORTAL_COPIES = 4


def portal_deck_size_wrong(view: DeckView) -> Iterator[Diagnostic]:
    """The Portal Deck holds exactly 8 cards.

    Legal:   portals: {Basic Gate (3): 4, Basic Gate (2): 4}
    Illegal: 7 portals
    """
    if not view.counted("portals"):
        return
    size = view.size("portals")
    if size < PORTAL_DECK_SIZE:
        message = nmsg(
            "V104",
            "{n} portal; the Portal Deck needs exactly {need} (add {diff})",
            "{n} portals; the Portal Deck needs exactly {need} (add {diff})",
        )
    elif size > PORTAL_DECK_SIZE:
        message = nmsg(
            "V104",
            "{n} portal; the Portal Deck needs exactly {need} (remove {diff})",
            "{n} portals; the Portal Deck needs exactly {need} (remove {diff})",
        )
    else:
        return
    diff = abs(size - PORTAL_DECK_SIZE)
    yield at_section(view, message(n=size, need=PORTAL_DECK_SIZE, diff=diff), "portals")


rule(
    "V104",
    "portal-deck-size-wrong",
    "2.1, 3-2 ❸",
    portal_rule=True,
    fix="Add or remove portals until they add up to 8.",
)(portal_deck_size_wrong)


def shield_life_total_wrong(view: DeckView) -> Iterator[Diagnostic]:
    """The portals' Shield Life adds up to exactly 20.

    Legal:   4 × Basic Gate (3) + 4 × Basic Gate (2) = 20
    Illegal: 4 × Basic Gate (3) + 3 × Basic Gate (2) + 1 × Basic Gate (1) = 19
    """
    if not view.counted("portals") or view.size("portals") == 0:
        return  # no portals at all, however written: one problem, V104's
    if not view.all_resolved("portals"):
        return
    total = view.shield_life()
    if total < SHIELD_LIFE_TOTAL:
        message = msg(
            "V105",
            "{total} Shield Life; needs exactly {need} "
            "({diff} more: swap portals for ones of other Shield Life)",
        )
    elif total > SHIELD_LIFE_TOTAL:
        message = msg(
            "V105",
            "{total} Shield Life; needs exactly {need} "
            "({diff} less: swap portals for ones of other Shield Life)",
        )
    else:
        return
    diff = abs(total - SHIELD_LIFE_TOTAL)
    yield at_section(view, message(total=total, need=SHIELD_LIFE_TOTAL, diff=diff), "portals")


rule(
    "V105",
    "shield-life-total-wrong",
    "2.1, 3-2 ❸",
    portal_rule=True,
    fix="Swap portals for ones of other Shield Life until it adds up to 20.",
)(shield_life_total_wrong)


def portal_colour_mismatch(view: DeckView) -> Iterator[Diagnostic]:
    """A coloured portal must be the hero's colour (colorless portals always fit).

    Legal:   red hero with a red or colorless portal
    Illegal: red hero with a blue portal
    """
    hero_color = view.hero.color if view.hero else None
    for card, entry in view.resolved("portals"):
        if card.color not in (COLORLESS, hero_color, None):
            message = msg(
                "V106",
                "{card} is a {color} portal but the hero is {hero_color}; "
                "use {hero_color} or colorless portals",
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
    "V106",
    "portal-colour-mismatch",
    "3-2 ❸",
    needs_hero=True,
    portal_rule=True,
    fix="Replace the portal with one of the hero's colour or a colorless one.",
)(portal_colour_mismatch)


def effect_portal_copy_limit_exceeded(view: DeckView) -> Iterator[Diagnostic]:
    """At most 1 copy of each portal with an effect.

    Legal:   Shrine Gate (has text): 1
    Illegal: Shrine Gate: 2
    """
    for card, count, first in view.by_name("portals").values():
        if card.has_effect and count > EFFECT_PORTAL_COPIES:
            message = msg(
                "V107",
                "{count} copies of {card}, a portal with an effect; at most {limit}: "
                "remove {excess}",
            )
            excess = count - EFFECT_PORTAL_COPIES
            yield at_entry(
                view,
                message(
                    count=count, card=CardName.of(card), limit=EFFECT_PORTAL_COPIES, excess=excess
                ),
                first,
                card,
            )


rule(
    "V107",
    "effect-portal-copy-limit-exceeded",
    "2.1, 3-2 ❸",
    portal_rule=True,
    fix="Keep one copy of each portal with an effect.",
)(effect_portal_copy_limit_exceeded)


def basic_portal_copy_limit_exceeded(view: DeckView) -> Iterator[Diagnostic]:
    """At most 4 copies of each basic portal (one with no effect).

    Legal:   Basic Gate (3): 4
    Illegal: Basic Gate (3): 5
    """
    for card, count, first in view.by_name("portals").values():
        if not card.has_effect and count > BASIC_PORTAL_COPIES:
            message = msg(
                "V108", "{count} copies of {card}, a basic portal; at most {limit}: remove {excess}"
            )
            excess = count - BASIC_PORTAL_COPIES
            yield at_entry(
                view,
                message(
                    count=count, card=CardName.of(card), limit=BASIC_PORTAL_COPIES, excess=excess
                ),
                first,
                card,
            )


rule(
    "V108",
    "basic-portal-copy-limit-exceeded",
    "2.1 (Japanese/Chinese)",
    portal_rule=True,
    fix="Keep at most 4 copies of each basic portal.",
)(basic_portal_copy_limit_exceeded)


def effect_portals_over_format_limit(view: DeckView) -> Iterator[Diagnostic]:
    """No more portals with effects than the format allows (Standard: 2).

    Legal:   two different effect portals in Standard
    Illegal: three different effect portals in Standard
    """
    limit = max_effect_portals(view.format)
    if limit is None:
        return
    total = sum(entry.count for card, entry in view.resolved("portals") if card.has_effect)
    if total > limit:
        message = nmsg(
            "V109",
            "{n} portal with effects; {format} allows {limit}: replace {excess} with basic portals",
            "{n} portals with effects; {format} allows {limit}: replace {excess} with basic portals",
        )
        fmt = Term("format", view.format.name)
        yield at_section(
            view, message(n=total, format=fmt, limit=limit, excess=total - limit), "portals"
        )


rule(
    "V109",
    "effect-portals-over-format-limit",
    "2.2",
    portal_rule=True,
    format_rule=True,
    fix="Swap effect portals for basic ones until the format's limit is met.",
)(effect_portals_over_format_limit)
