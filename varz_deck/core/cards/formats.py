"""A database's formats from its formats.yaml: what every game's format has, and the game's own
fields (`Game.format_fields`) kept in `Format.extra` for the game to read; their dated changes and
the sets' release days (SPEC §12), and what they mean for a deck on a day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from varz_deck.core.cards.model import Format, FormatChange
from varz_deck.core.dates import parse_date

ANNOUNCED_DAYS = 60  # W203: how far ahead a dated change is announced (day 60 included)


def read_formats(data: Mapping[str, Any], format_fields: Mapping[str, Any]) -> dict[str, Format]:
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


def read_changes(changes: Any) -> Iterator[FormatChange]:
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


def _ids(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else ()


def set_release(card_file: Any) -> tuple[str, dt.date] | None:
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


@dataclass(frozen=True)
class Announced:
    """A dated change in force within `ANNOUNCED_DAYS` after the day, and what it does."""

    change: FormatChange
    days: int  # from the day checked to the change's date
    before: Format  # the format the day before the change
    after: Format  # the format on the change's date


def announced(fmt: Format, day: dt.date, window: int = ANNOUNCED_DAYS) -> Iterator[Announced]:
    """The changes dated 1 to `window` days after `day` (both included), in date order."""
    for change in sorted(fmt.changes, key=lambda c: c.date):
        days = (change.date - day).days
        if 1 <= days <= window:
            before = fmt.on(change.date - dt.timedelta(days=1))
            yield Announced(change, days, before, fmt.on(change.date))
