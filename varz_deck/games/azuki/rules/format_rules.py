"""What the format bans (rules page, "Deck building"), and its dated changes and the sets'
release days (SPEC §12)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.cards.formats import Legality
from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, msg, nmsg
from varz_deck.games.azuki.cards import AzukiCard
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules._book import rule


def card_banned(view: AzukiView) -> Iterator[Diagnostic]:
    """No card the format bans (Standard: Rushfire Gate).

    Legal:   gate: Ragefire Gate
    Illegal: gate: Rushfire Gate
    """
    banned = _legality(view).banned
    if not banned:
        return
    for card, place, section in _every_card(view):
        if card.id not in banned:
            continue
        day = banned[card.id]
        message = (
            msg("A107", "{card} ({id}) is banned in {format}")
            if day is None
            else msg("A107", "{card} ({id}) is banned in {format} since {date}")
        )
        found = message(
            card=CardName.of(card),
            id=card.id,
            format=view.format.name,
            date=day.isoformat() if day is not None else "",
        )
        yield diag("A107", found, place, file=view.deck.path, section=section, card=card.id)


def _legality(view: AzukiView) -> Legality:
    """The format on the day, by card: an Azuki card is its id (its aliases name it too)."""
    return Legality(view.format, view.database, view.date)


def _every_card(view: AzukiView) -> Iterator[tuple[AzukiCard, Mark | None, str]]:
    """Each card of the deck with its place: the picks, then every entry of main and ikz."""
    for slot_key in ("leader", "gate"):
        card = view.picked.get(slot_key)
        if card is not None:
            yield card, view.deck.picks[slot_key].mark, slot_key
    for section in ("main", "ikz"):
        for slot in view.slots[section]:
            if slot.card is not None:
                yield slot.card, slot.entry.mark, section


rule(
    "A107",
    "card-banned",
    "Deck building",
    format_rule=True,
    fix="Remove the banned card from the deck.",
)(card_banned)


def card_not_yet_released(view: AzukiView) -> Iterator[Diagnostic]:
    """A card is legal once its set is released.

    Legal:   an AZK02 card checked on AZK02's release day
    Illegal: the same card checked the day before
    """
    legality = _legality(view)
    for card, place, section in _every_card(view):
        later = legality.unreleased(card.id)
        if later is not None:
            code, released = later
            message = msg("A108", "{card} ({id}) is in {set}, released {date}: not yet legal")
            found = message(card=CardName.of(card), id=card.id, set=code, date=released.isoformat())
            yield diag("A108", found, place, file=view.deck.path, section=section, card=card.id)


rule(
    "A108",
    "card-not-yet-released",
    "dated formats",
    format_rule=True,
    fix="Play a printing already released on the day checked, or check the deck for a later day.",
)(card_not_yet_released)


def announced_ban(view: AzukiView) -> Iterator[Diagnostic]:
    """Warn of a ban 1 to 60 days ahead of a card the deck plays.

    Fine:    a ban from 2027-01-15 of a card the deck plays, checked on 2026-11-15
    Warning: the same ban checked on 2027-01-01 (in 14 days)
    """
    for ahead in _legality(view).announced():  # the changes of a date together: one warning
        for card, place, section in _every_card(view):
            if ahead.bans(card.id):
                message = nmsg(
                    "A201",
                    "{card} ({id}) is banned from {date}, in {n} day",
                    "{card} ({id}) is banned from {date}, in {n} days",
                )
                found = message(
                    card=CardName.of(card),
                    id=card.id,
                    date=ahead.changes.date.isoformat(),
                    n=ahead.changes.days,
                )
                yield diag("A201", found, place, file=view.deck.path, section=section, card=card.id)


rule(
    "A201",
    "announced-ban",
    "dated formats",
    format_rule=True,
    severity=Severity.WARNING,
    fix="Replace the card before its ban is in force, or check for the day of your event.",
)(announced_ban)
