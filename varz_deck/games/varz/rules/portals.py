"""The Portal Deck's Shield Life, colours and effect portals (rulebook 2.1, 2.2, 3-2 ❸); its size
and copy limits are declared (declaration.py). Not checked when portals are pooled."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import Term, msg, nmsg
from varz_deck.games.varz.cards import COLORLESS, max_effect_portals
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_section, not_hero_colour
from varz_deck.games.varz.view import VarzView

SHIELD_LIFE_TOTAL = 20


def shield_life_total_wrong(view: VarzView) -> Iterator[Diagnostic]:
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


def portal_colour_mismatch(view: VarzView) -> Iterator[Diagnostic]:
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
            yield not_hero_colour(view, message, entry, card)


rule(
    "V106",
    "portal-colour-mismatch",
    "3-2 ❸",
    needs_hero=True,
    portal_rule=True,
    fix="Replace the portal with one of the hero's colour or a colorless one.",
)(portal_colour_mismatch)


def effect_portals_over_format_limit(view: VarzView) -> Iterator[Diagnostic]:
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
