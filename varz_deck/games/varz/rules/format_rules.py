"""Format data: bans, restrictions, legal sets (rulebook 2.2; the lists live in formats.yaml)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping

from varz_deck.core.cards.formats import announced, unreleased
from varz_deck.core.cards.model import Format
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


def banned_card(view: DeckView) -> Iterator[Diagnostic]:
    """No card the format bans; a ban covers every printing of the card.

    Legal:   a deck without VZ01-031 in Standard
    Illegal: VZ01-031 (or any reprint of it) in Standard
    """
    cards = view.database.cards
    banned = _since({i: view.format.banned_on.get(i) for i in view.format.banned}, cards)
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        if card.name not in banned:
            continue
        since = banned[card.name]
        if since is None:
            message = msg("V115", "{card} is banned in {format}; replace it")(
                card=CardName.of(card), format=fmt
            )
        else:
            message = msg("V115", "{card} is banned in {format} since {date}; replace it")(
                card=CardName.of(card), format=fmt, date=since.isoformat()
            )
        yield _place(view, message, card, entry)


def _since(
    dated: Mapping[str, dt.date | None], cards: Mapping[str, Card]
) -> dict[str, dt.date | None]:
    """Card name -> the day of the change that banned or restricted it, from card id -> day
    (None: an undated list names it, which then stands for every printing)."""
    out: dict[str, dt.date | None] = {}
    for card_id, day in dated.items():
        if card_id not in cards:
            continue
        name = cards[card_id].name
        known = out.get(name, day)
        out[name] = None if known is None or day is None else min(known, day)
    return out


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
    limits = _limits(view.format, cards)
    restricted = view.format.restricted
    since = _since({i: view.format.restricted_on.get(i) for i in restricted}, cards)
    fmt = Term("format", view.format.name)
    for section in SECTIONS:
        for name, (card, count, first) in view.by_name(section).items():
            if name in limits and count > limits[name]:
                limit = limits[name]
                day = since.get(name)
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


def _limits(fmt: Format, cards: Mapping[str, Card]) -> dict[str, int]:
    """Card name -> the copies a format allows of it."""
    return {cards[i].name: n for i, n in fmt.restricted.items() if i in cards}


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


def not_yet_released(view: DeckView) -> Iterator[Diagnostic]:
    """A card is legal once a set of one of its printings is released.

    Legal:   a VZ03 card checked on 2027-02-01, VZ03's release day
    Illegal: the same card checked on 2027-01-31
    """
    day = view.date
    if day is None:
        return
    allowed = view.format.sets
    fmt = Term("format", view.format.name)
    for card, entry in _every_card(view):
        sets = [p.set for p in view.database.printings.get(card.name, [card])]
        if allowed is not None and not set(sets) & set(allowed):
            continue  # V117 says it
        later = unreleased(view.format, sets, day)
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
    day = view.date
    if day is None:
        return
    cards = view.database.cards
    for ahead in announced(view.format, day):
        when = {"date": ahead.change.date.isoformat(), "n": ahead.days}
        banned_before = {cards[i].name for i in ahead.before.banned if i in cards}
        banned_after = {cards[i].name for i in ahead.after.banned if i in cards}
        before_sets, after_sets = ahead.before.sets, ahead.after.sets
        for card, entry in _every_card(view):
            if card.name in banned_after and card.name not in banned_before:
                message = nmsg(
                    "W203",
                    "{card} is banned from {date}, in {n} day",
                    "{card} is banned from {date}, in {n} days",
                )
                yield _place(view, message(card=CardName.of(card), **when), card, entry)
            elif after_sets is not None and ahead.change.sets is not None:
                sets = {p.set for p in view.database.printings.get(card.name, [card])}
                if not sets & set(after_sets) and (before_sets is None or sets & set(before_sets)):
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
        limits_before, limits_after = _limits(ahead.before, cards), _limits(ahead.after, cards)
        for section in SECTIONS:
            for name, (card, count, first) in view.by_name(section).items():
                if name in banned_after and name not in banned_before:
                    continue  # its ban is said above
                limit = limits_after.get(name)
                was = limits_before.get(name)
                if limit is not None and count > limit and (was is None or count <= was):
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
