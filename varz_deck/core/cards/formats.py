"""A database's formats from its formats.yaml: what every game's format has, and the game's own
fields (`Game.format_fields`) kept in `Format.extra` for the game to read; their dated changes and
the sets' release days (docs/guides/card-data.md), and what they mean for a deck on a day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic, NamedTuple

from varz_deck.core.cards.model import CardT, Format, FormatChange
from varz_deck.core.dates import parse_date

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase

ANNOUNCED_DAYS = 60  # W203: how far ahead a dated change is announced (day 60 included)


def read_formats(
    data: Mapping[str, object], format_fields: Mapping[str, object]
) -> dict[str, Format]:
    """The formats of a formats.yaml document its schema accepted; `format_fields` names the
    game's own fields (kept in `Format.extra`)."""
    own = tuple(format_fields)
    out: dict[str, Format] = {}
    specs = data.get("formats")
    for key, spec in specs.items() if isinstance(specs, dict) else ():
        if not isinstance(spec, dict):
            continue
        sets, banned, restricted = spec.get("sets"), spec.get("banned"), spec.get("restricted")
        out[key] = Format(
            key=key,
            name=str(spec.get("name", key)),
            sets=tuple(sets) if isinstance(sets, list) else None,
            banned=tuple(banned) if isinstance(banned, list) else (),
            restricted=dict(restricted) if isinstance(restricted, dict) else {},
            extra={name: spec[name] for name in own if name in spec},
            changes=tuple(read_changes(spec.get("changes"))),
        )
    return out


def read_changes(changes: object) -> Iterator[FormatChange]:
    """A format's `changes:` (a change whose date is no calendar day is left out: `cards lint`
    reports it)."""
    for change in changes if isinstance(changes, list) else ():
        if not isinstance(change, dict):
            continue
        day = parse_date(str(change.get("date", "")))
        if day is None:
            continue
        sets = change.get("sets")
        yield FormatChange(
            date=day,
            banned=_ids(change.get("banned")),
            unbanned=_ids(change.get("unbanned")),
            restricted=dict(change.get("restricted") or {}),
            unrestricted=_ids(change.get("unrestricted")),
            sets=tuple(sets) if isinstance(sets, list) else None,
        )


def _ids(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else ()


def set_release(card_file: object) -> tuple[str, dt.date] | None:
    """(set code, release day) of a card file's `set:` block that has both."""
    block = card_file.get("set") if isinstance(card_file, dict) else None
    if not isinstance(block, dict) or not isinstance(block.get("code"), str):
        return None
    day = parse_date(str(block.get("released", "")))
    return (block["code"], day) if day is not None else None


def with_releases(
    formats: Mapping[str, Format], released: Mapping[str, dt.date]
) -> dict[str, Format]:
    """Every format knowing the sets' release days."""
    return {key: replace(fmt, released=dict(released)) for key, fmt in formats.items()}


def unreleased(fmt: Format, sets: Iterable[str], day: dt.date) -> tuple[str, dt.date] | None:
    """None when some set of a card's printings is released on or before `day` (a set without a
    release day always is); else the (set, day) released first (V118)."""
    later: list[tuple[dt.date, str]] = []
    for code in sets:
        released = fmt.released.get(code)
        if released is None or released <= day:
            return None
        later.append((released, code))
    if not later:
        return None
    first_day, first_set = min(later)
    return first_set, first_day


CardKey = Callable[[str], "str | None"]  # a card id of a format's lists -> the card it names


def card_keys(database: CardDatabase) -> CardKey:
    """The card (the database's `card_key`: a name, or an id where each id is its own card) that
    an id of a format's lists names: the id of one of its printings or any other id printed on
    one (`id_keys`, such as aliases), written exactly; None for an id that names no card."""
    found: dict[str, str | None] = {}

    def key(card_id: str) -> str | None:
        if card_id not in found:
            card = database.by_id(card_id)
            known = card is not None and card_id in database.id_keys(card)
            found[card_id] = database.card_key(card) if known else None
        return found[card_id]

    return key


class Limit(NamedTuple):
    copies: int
    since: dt.date | None  # the day of the change that restricted the card (None: undated)


class Legality(Generic[CardT]):
    """What a format in force on a day says of each card, every printing of it together: banned
    (since when), its copy limit (since when), whether it is in the format's sets and released
    through a printing in one of them, and the changes announced ahead. A card is its
    database's `card_key`; a day of None takes the format as given and nothing is unreleased or
    announced. Every game's format rules and the tuners read this one meaning (docs/guides/card-data.md, "Ban lists and release dates")."""

    def __init__(
        self,
        fmt: Format,
        database: CardDatabase[CardT],
        day: dt.date | None,
        key: CardKey | None = None,
    ) -> None:
        self.database = database
        self.key = key or card_keys(database)
        self.day = day
        self.format = fmt if day is None else fmt.on(day, self.key)
        self.banned: dict[str, dt.date | None] = {}  # card -> the day it was banned (None: undated)
        for card_id in self.format.banned:
            named = self.key(card_id)
            if named is not None:
                since = self.format.banned_on.get(card_id)
                known = self.banned.get(named, since)
                self.banned[named] = None if known is None or since is None else min(known, since)
        self.limits: dict[str, Limit] = {}  # card -> the copies allowed (the lowest one given)
        for card_id, copies in self.format.restricted.items():
            named = self.key(card_id)
            if named is not None:
                limit = Limit(copies, self.format.restricted_on.get(card_id))
                if named not in self.limits or copies < self.limits[named].copies:
                    self.limits[named] = limit

    def printings(self, card: str) -> list[CardT]:
        """Every printing of a card, in the database's order."""
        return list(self.database.printings.get(card) or ())

    def allowed(self, card: str) -> list[CardT]:
        """The printings of a card in a set the format allows (all of them without `sets`)."""
        sets = self.format.sets
        printings = self.printings(card)
        if sets is None:
            return printings
        allowed = set(sets)
        return [p for p in printings if p.set in allowed]

    def unreleased(self, card: str) -> tuple[str, dt.date] | None:
        """The (set, day) a card is first released in among the sets the format allows when none
        of them is released on the day; None when one is, or when none is allowed (a printing
        in another set never makes a card released)."""
        if self.day is None:
            return None
        return unreleased(self.format, [p.set for p in self.allowed(card)], self.day)

    def playable(self, card: str) -> CardT | None:
        """The first printing of a card a deck may play on the day (in an allowed set, released,
        the card not banned), or None."""
        if card in self.banned:
            return None
        for printing in self.allowed(card):
            released = self.format.released.get(printing.set)
            if self.day is None or released is None or released <= self.day:
                return printing
        return None

    def candidates(self, types: Collection[str] | None = None) -> Iterator[tuple[str, CardT]]:
        """(card, its `playable` printing) of every card a deck may play on the day that has a
        printing of one of `types` (None: any), in the database's order. Only the cards with a
        printing in a set the format allows are read (`CardDatabase.keys_in`)."""
        for card in self.database.keys_in(self.format.sets, types):
            printing = self.playable(card)
            if printing is not None:
                yield card, printing

    def announced(self) -> Iterator[Ahead[CardT]]:
        """The changes 1 to `ANNOUNCED_DAYS` days after the day (both included), those of one
        date together, in date order."""
        if self.day is None:
            return
        for ahead in announced(self.format, self.day):
            before = Legality(ahead.before, self.database, None, self.key)
            after = Legality(ahead.after, self.database, None, self.key)
            yield Ahead(ahead, before, after)


@dataclass(frozen=True)
class Announced:
    """The changes of one date `ANNOUNCED_DAYS` or fewer days after the day, together."""

    date: dt.date
    days: int  # from the day checked to the changes' date
    before: Format  # the format the day before the date
    after: Format  # the format on the date


def announced(
    fmt: Format, day: dt.date, window: int = ANNOUNCED_DAYS, key: CardKey | None = None
) -> Iterator[Announced]:
    """The dates of changes 1 to `window` days after `day` (both included), in date order: one
    for all the changes of a date."""
    base = fmt.written or fmt
    for date in sorted({change.date for change in base.changes}):
        days = (date - day).days
        if 1 <= days <= window:
            before = base.on(date - dt.timedelta(days=1), key)
            yield Announced(date, days, before, base.on(date, key))


@dataclass(frozen=True)
class Ahead(Generic[CardT]):
    """The changes of one date ahead, and what they do to a card: each says it once."""

    changes: Announced
    before: Legality[CardT]
    after: Legality[CardT]

    def bans(self, card: str) -> bool:
        """Whether the changes ban the card."""
        return card in self.after.banned and card not in self.before.banned

    def restricts(self, card: str, count: int) -> int | None:
        """The card's new limit when it is below `count` and the one before was not; else None."""
        limit, was = self.after.limits.get(card), self.before.limits.get(card)
        if limit is not None and count > limit.copies and (was is None or count <= was.copies):
            return limit.copies
        return None

    def rotates_out(self, card: str) -> tuple[str, ...] | None:
        """The sets allowed from the date when the changes leave no set of the card allowed
        that was before (only a change of the sets can); else None."""
        if self.after.allowed(card) or not self.before.allowed(card):
            return None
        return self.after.format.sets
