"""Format data: bans, restrictions, legal sets (rulebook 2.2; the lists live in formats.yaml)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.cards.formats import Legality
from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import CardName, Joined, Message, Term, msg, nmsg
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


def _legality(view: DeckView) -> Legality:
    return Legality(view.format, view.database, view.date)


def banned_card(view: DeckView) -> Iterator[Diagnostic]:
    """No card the format bans; a ban covers every printing of the card.

    Legal:   a deck without VZ01-031 in Standard
    Illegal: VZ01-031 (or any reprint of it) in Standard
    """
    legality = _legality(view)
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        if card.name not in legality.banned:
            continue
        since = legality.banned[card.name]
        if since is None:
            message = msg("V115", "{card} is banned in {format}; replace it")(
                card=CardName.of(card), format=fmt
            )
        else:
            message = msg("V115", "{card} is banned in {format} since {date}; replace it")(
                card=CardName.of(card), format=fmt, date=since.isoformat()
            )
        yield _place(view, message, card, entry)


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
    limits = _legality(view).limits
    fmt = Term("format", view.format.name)
    for section in SECTIONS:
        for name, (card, count, first) in view.by_name(section).items():
            if name in limits and count > limits[name].copies:
                limit, day = limits[name]
                message = (
                    msg(
                        "V116",
                        "{count} copies of {card}; {format} restricts it to {limit}: "
                        "remove {excess}",
                    )
                    if day is None
                    else msg(
                        "V116",
                        "{count} copies of {card}; {format} restricts it to {limit} since "
                        "{date}: remove {excess}",
                    )
                )
                yield at_entry(
                    view,
                    message(
                        count=count,
                        card=CardName.of(card),
                        format=fmt,
                        limit=limit,
                        excess=count - limit,
                        date=day.isoformat() if day is not None else "",
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
    legality = _legality(view)
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        if not legality.allowed(card.name):
            printings = legality.printings(card.name) or [card]
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


def not_yet_released(view: DeckView) -> Iterator[Diagnostic]:
    """A card is legal once a printing of it in a set the format allows is released.

    Legal:   a VZ03 card checked on 2027-02-01, VZ03's release day
    Illegal: the same card checked on 2027-01-31, even when a promo printing is older
    """
    legality = _legality(view)
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        later = legality.unreleased(card.name)  # None too for a card of no allowed set: V117
        if later is not None:
            code, released = later
            message = msg("V118", "{card} is in {set}, released {date}: not yet legal in {format}")
            found = message(card=CardName.of(card), set=code, date=released.isoformat(), format=fmt)
            yield _place(view, found, card, entry)


rule(
    "V118",
    "not-yet-released",
    "format data (2.2), dated formats",
    format_rule=True,
    fix="Replace the card, or check the deck for a day on or after its set's release.",
)(not_yet_released)


def announced_change(view: DeckView) -> Iterator[Diagnostic]:
    """Warn of a change 1 to 60 days ahead that bans, restricts or rotates out a card played.

    Fine:    a ban of VZ02-010 from 2027-01-15, checked on 2027-01-15 (then V115) or 2026-11-15
    Fine:    an unban of VZ01-031 from 2027-01-15, checked on 2027-01-01
    Warning: the same ban checked on 2027-01-01: VZ02-010 is banned from 2027-01-15, in 14 days
    """
    for ahead in _legality(view).announced():  # the changes of a date together: one warning
        when = {"date": ahead.changes.date.isoformat(), "n": ahead.changes.days}
        for card, entry in _every_card(view):
            if ahead.bans(card.name):
                message = nmsg(
                    "W203",
                    "{card} is banned from {date}, in {n} day",
                    "{card} is banned from {date}, in {n} days",
                )
                yield _place(view, message(card=CardName.of(card), **when), card, entry)
                continue
            after_sets = ahead.rotates_out(card.name)
            if after_sets is not None:
                message = nmsg(
                    "W203",
                    "{card} rotates out of {format} on {date}, in {n} day: it allows {allowed}",
                    "{card} rotates out of {format} on {date}, in {n} days: it allows {allowed}",
                )
                found = message(
                    card=CardName.of(card),
                    format=Term("format", view.format.name),
                    allowed=Joined(tuple(after_sets)),
                    **when,
                )
                yield _place(view, found, card, entry)
        for section in SECTIONS:
            for name, (card, count, first) in view.by_name(section).items():
                if ahead.bans(name):
                    continue  # its ban is said above
                limit = ahead.restricts(name, count)
                if limit is not None:
                    message = nmsg(
                        "W203",
                        "{card} is restricted to {limit} from {date}, in {n} day; the deck plays {count}",
                        "{card} is restricted to {limit} from {date}, in {n} days; the deck plays {count}",
                    )
                    found = message(card=CardName.of(card), limit=limit, count=count, **when)
                    yield at_entry(view, found, first, card)


rule(
    "W203",
    "announced-change",
    "format data (2.2), dated formats",
    format_rule=True,
    severity=Severity.WARNING,
    fix="Replace the card before the change is in force, or check for the day of your event.",
)(announced_change)


def _place(view: DeckView, message: Message, card: Card, entry: Entry | None) -> Diagnostic:
    """At the card's entry, or at the hero when the card is the hero (entry None)."""
    return at_hero(view, message) if entry is None else at_entry(view, message, entry, card)
