"""Format legality, checked once for every game from the format's data (formats.yaml) and the
day: a banned card (D115), more copies of a restricted card than allowed (D116), a card in no set
the format allows (D117), a card not yet released in one (D118), and a change 1 to 60 days ahead
that would make the deck illegal (D203, a warning).

What the data means (a ban names a card, every printing; a card is released through a printing
in an allowed set; changes apply in date order, the day included) is `Legality`'s
(core/cards/formats.py); this module says it of a deck. A game reports each check under its own
code and words when its declaration maps it (`FormatCodes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from varz_deck.core.cards.formats import Legality
from varz_deck.core.cards.model import CardRecord
from varz_deck.core.decks.construction import Check, CoreCheck, core_code
from varz_deck.core.decks.declaration import CheckCode, Declaration
from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.code import Code, Severity
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, Joined, Message, Term, msg, nmsg

BANNED = CoreCheck(
    core_code(
        "D115",
        "banned-card",
        """No card the format bans; a ban covers every printing of the card.

        Legal:   a deck without the banned card
        Illegal: the banned card, or any reprint of it, in the deck
        """,
        "Replace the banned card, every printing of it.",
    ),
    {
        # card, id, format; date: the day of the change that banned it
        "banned": msg("D115", "{card} is banned in {format}; replace it"),
        "banned_since": msg("D115", "{card} is banned in {format} since {date}; replace it"),
    },
)

RESTRICTED = CoreCheck(
    core_code(
        "D116",
        "restricted-card-over-limit",
        """No more copies of a restricted card than the format allows, all printings together.

        Legal:   1 copy of a card the format restricts to 1
        Illegal: 2 copies of it (or 1 of each of two printings)
        """,
        "Cut the restricted card down to the number the format allows.",
    ),
    {
        # count, card, id, format, limit, excess; date: the day of the change that restricted it
        "over": msg(
            "D116",
            "{count} copies of {card}; {format} restricts it to {limit}: remove {excess}",
        ),
        "over_since": msg(
            "D116",
            "{count} copies of {card}; {format} restricts it to {limit} since {date}: "
            "remove {excess}",
        ),
    },
)

SETS = CoreCheck(
    core_code(
        "D117",
        "card-not-in-format-sets",
        """Every card is printed in a set the format allows (any printing of it counts).

        Legal:   a card of a set the format lists
        Illegal: a card printed only in sets the format does not list
        """,
        "Replace the card with one printed in the format's sets, or play another format.",
    ),
    {
        # card, id, sets: the card's sets, format, allowed: the format's sets
        "sets": msg("D117", "{card} is only in set {sets}; {format} allows {allowed}: replace it"),
    },
)

RELEASED = CoreCheck(
    core_code(
        "D118",
        "not-yet-released",
        """A card is legal once a printing of it in a set the format allows is released.

        Legal:   a card checked on or after its set's release day
        Illegal: the same card checked the day before
        """,
        "Replace the card, or check the deck for a day on or after its set's release.",
    ),
    {
        # card, id, set, date: its release day, format
        "released": msg("D118", "{card} is in {set}, released {date}: not yet legal in {format}"),
    },
)

ANNOUNCED = CoreCheck(
    core_code(
        "D203",
        "announced-change",
        """Warn of a change 1 to 60 days ahead that bans, restricts or rotates out a card played.

        Fine:    a ban from 2027-01-15 of a card played, checked on 2026-11-15 (61 days ahead)
        Warning: the same ban checked on 2027-01-01: the card is banned from 2027-01-15, in 14 days
        """,
        "Replace the card before the change is in force, or check for the day of your event.",
        Severity.WARNING,
    ),
    {
        # card, id, date: the change's day, n: days until it; limit, count (restricted);
        # format, allowed (rotates)
        "banned": nmsg(
            "D203",
            "{card} is banned from {date}, in {n} day",
            "{card} is banned from {date}, in {n} days",
        ),
        "restricted": nmsg(
            "D203",
            "{card} is restricted to {limit} from {date}, in {n} day; the deck plays {count}",
            "{card} is restricted to {limit} from {date}, in {n} days; the deck plays {count}",
        ),
        "rotates": nmsg(
            "D203",
            "{card} rotates out of {format} on {date}, in {n} day: it allows {allowed}",
            "{card} rotates out of {format} on {date}, in {n} days: it allows {allowed}",
        ),
    },
)


def legality(view: DeckView[Any]) -> Legality:
    """What the deck's format says of each card on the day checked."""
    return Legality(view.format, view.database, view.date)


def _found(
    view: DeckView[Any], given: CheckCode | None, core: CoreCheck, message: Message, card: CardRecord,
    mark: Mark | None, section: str,
) -> Diagnostic:  # fmt: skip
    code = given.id if given is not None else core.code.id
    return diag(code, message, mark, file=view.deck.path, section=section, card=card.id)


def banned(given: CheckCode | None) -> Check:
    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        found = legality(view)
        fmt = Term("format", view.format.name)
        for card, mark, section, _entry in view.every_card():
            key = found.database.card_key(card)
            if key not in found.banned:
                continue
            since = found.banned[key]
            variant = "banned" if since is None else "banned_since"
            message = BANNED.message(given, variant)(
                card=CardName.of(card), id=card.id, format=fmt,
                date=since.isoformat() if since else "",
            )  # fmt: skip
            yield _found(view, given, BANNED, message, card, mark, section)

    return check


def restricted(given: CheckCode | None) -> Check:
    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        found = legality(view)
        fmt = Term("format", view.format.name)
        for section in view.declaration.section_keys:
            for card, count, first in view.by_card(section).values():
                limit = found.limits.get(found.database.card_key(card))
                if limit is None or count <= limit.copies:
                    continue
                variant = "over" if limit.since is None else "over_since"
                message = RESTRICTED.message(given, variant)(
                    count=count, card=CardName.of(card), id=card.id, format=fmt,
                    limit=limit.copies, excess=count - limit.copies,
                    date=limit.since.isoformat() if limit.since else "",
                )  # fmt: skip
                yield _found(view, given, RESTRICTED, message, card, first.mark, section)

    return check


def sets(given: CheckCode | None) -> Check:
    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        allowed = view.format.sets
        if allowed is None:
            return
        found = legality(view)
        for card, mark, section, _entry in view.every_card():
            key = found.database.card_key(card)
            if found.allowed(key):
                continue
            printed = tuple(sorted({p.set for p in found.printings(key)} or {card.set}))
            message = SETS.message(given, "sets")(
                card=CardName.of(card), id=card.id, set=card.set, sets=Joined(printed),
                format=Term("format", view.format.name), allowed=Joined(tuple(allowed)),
            )  # fmt: skip
            yield _found(view, given, SETS, message, card, mark, section)

    return check


def released(given: CheckCode | None) -> Check:
    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        if view.date is None:
            return
        found = legality(view)
        for card, mark, section, _entry in view.every_card():
            later = found.unreleased(found.database.card_key(card))
            if later is None:
                continue
            code, day = later
            message = RELEASED.message(given, "released")(
                card=CardName.of(card), id=card.id, set=code, date=day.isoformat(),
                format=Term("format", view.format.name),
            )  # fmt: skip
            yield _found(view, given, RELEASED, message, card, mark, section)

    return check


def announced(given: CheckCode | None) -> Check:
    def check(view: DeckView[Any]) -> Iterator[Diagnostic]:
        found = legality(view)
        for ahead in found.announced():
            when = {"date": ahead.changes.date.isoformat(), "n": ahead.changes.days}
            counts: dict[str, int] = {}
            for section in view.declaration.section_keys:
                for card, count, _first in view.by_card(section).values():
                    counts[found.database.card_key(card)] = (
                        counts.get(found.database.card_key(card), 0) + count
                    )
            for card, mark, section, _entry in view.every_card():
                key = found.database.card_key(card)
                if ahead.bans(key):
                    message = ANNOUNCED.message(given, "banned")(
                        card=CardName.of(card), id=card.id, **when
                    )
                elif (
                    allowed := ahead.rotates_out(key)
                ) is not None:  # no copy left: before a limit
                    message = ANNOUNCED.message(given, "rotates")(
                        card=CardName.of(card), id=card.id, **when,
                        format=Term("format", view.format.name), allowed=Joined(tuple(allowed)),
                    )  # fmt: skip
                elif (limit := ahead.restricts(key, counts.get(key, 1))) is not None:
                    message = ANNOUNCED.message(given, "restricted")(
                        card=CardName.of(card), id=card.id, limit=limit, count=counts[key], **when
                    )
                else:
                    continue
                yield _found(view, given, ANNOUNCED, message, card, mark, section)

    return check


_CHECKS: tuple[tuple[str, CoreCheck, Callable[[CheckCode | None], Check]], ...] = (
    ("banned", BANNED, banned),
    ("restricted", RESTRICTED, restricted),
    ("sets", SETS, sets),
    ("released", RELEASED, released),
    ("announced", ANNOUNCED, announced),
)


def legality_checks(declaration: Declaration) -> Iterator[tuple[Code, Check]]:
    """Each format check with the code the game reports it under."""
    for field_name, core, make in _CHECKS:
        given: CheckCode | None = getattr(declaration.format_codes, field_name)
        yield core.code_for(given, declaration.rulebook), make(given)


def declared_codes() -> tuple[Code, ...]:
    """The core's own codes of the declared checks (construction and format legality): listed
    with the file and card-data codes, since every declared game shares them."""
    from varz_deck.core.decks.construction import CORE_CHECKS

    return tuple(c.code for c in (*CORE_CHECKS, *(core for _, core, _ in _CHECKS)))
