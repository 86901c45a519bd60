"""What formats.yaml names: cards and sets the database has (C005, C104), its limits and dated
changes (C008-C010, C012, C013 and C105, docs/guides/card-data.md). A card id names every printing of its card,
in the undated lists and in the changes alike (docs/guides/card-data.md, "Ban lists and release
dates")."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterator
from typing import TypeGuard

from varz_deck.core.cards.model import normalize
from varz_deck.core.cards.suggest import NameIndex
from varz_deck.core.dates import parse_date
from varz_deck.core.files.strictyaml import Document
from varz_deck.core.lint._base import FormatsFile
from varz_deck.core.messages.code import Scope, Severity
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import Joined, Message, Quoted, msg
from varz_deck.core.messages.rulebook import Rulebook

FORMATS: Rulebook[FormatsFile] = Rulebook(Scope.CARDS)


def specs(doc: Document) -> Iterator[tuple[str, dict[str, object]]]:
    """Each format of formats.yaml that is a mapping: its key and its fields."""
    formats = doc.data.get("formats") if isinstance(doc.data, dict) else None
    for key, spec in formats.items() if isinstance(formats, dict) else ():
        if isinstance(spec, dict):
            yield key, spec


def named(doc: Document, key: str, spec: dict[str, object]) -> list[tuple[str, str, Mark | None]]:
    """(verb, card id, place) for every card a format bans or restricts."""
    base = ("formats", key)
    named: list[tuple[str, str, Mark | None]] = []
    banned = spec.get("banned")
    for j, card_id in enumerate(banned if isinstance(banned, list) else []):
        if isinstance(card_id, str):
            named.append(("bans", card_id, doc.mark((*base, "banned", j))))
    restricted = spec.get("restricted")
    for card_id in restricted if isinstance(restricted, dict) else {}:
        named.append(("restricts", card_id, doc.key_mark((*base, "restricted", card_id))))
    return named


def names_unknown(view: FormatsFile) -> Iterator[Diagnostic]:
    """formats.yaml names an unknown card or set"""
    ids = view.ids
    for key, spec in specs(view.doc):
        sets = spec.get("sets")
        for j, code in enumerate(sets if isinstance(sets, list) else []):
            if isinstance(code, str) and code not in view.known_sets:
                close = difflib.get_close_matches(code, sorted(view.known_sets), n=1)
                problem = msg("C005", "format {format} names set {set}, which no card file has")(
                    format=Quoted(key), set=Quoted(code)
                )
                yield diag(
                    C005,
                    _hint("C005", problem, close),
                    view.doc.mark(("formats", key, "sets", j)),
                    file=view.shown,
                )
        for verb, card_id, mark in named(view.doc, key, spec):
            if card_id in ids:
                continue
            close = difflib.get_close_matches(card_id, list(ids), n=1)
            missing = (
                msg("C005", "format {format} bans card {card}, which does not exist")
                if verb == "bans"
                else msg("C005", "format {format} restricts card {card}, which does not exist")
            )
            yield diag(
                C005,
                _hint("C005", missing(format=Quoted(key), card=Quoted(card_id)), close),
                mark,
                file=view.shown,
                card=card_id,
            )


FORMATS.rule(
    "C005",
    "format-names-unknown",
    "2.2",
    fix="Correct the card or set name in formats.yaml, or add it to the database.",
)(names_unknown)
C005 = FORMATS.rules["C005"].info


_DID_YOU_MEAN = {
    "C005": msg("C005", "{problem}; did you mean {close}?"),
    "C009": msg("C009", "{problem}; did you mean {close}?"),
}


def _hint(code: str, problem: Message, close: list[str]) -> Message:
    """A C005 or C009 problem, and '; did you mean 'X'?' when there is a close match."""
    if not close:
        return problem
    return _DID_YOU_MEAN[code](problem=problem, close=Quoted(close[0]))


def entry_without_effect(view: FormatsFile) -> Iterator[Diagnostic]:
    """warning: a format bans or restricts a card none of whose printings is in its sets"""
    for key, spec in specs(view.doc):
        sets = spec.get("sets")
        if not isinstance(sets, list):
            continue
        legal_sets = {s for s in sets if isinstance(s, str)}
        for verb, card_id, mark in named(view.doc, key, spec):
            name = view.ids.get(card_id)
            if name is None:
                continue
            if view.sets_of_name.get(name, set()) & legal_sets:
                continue
            message = (
                msg(
                    "C104",
                    "format {format} bans {id} ({name}), but no printing of it is "
                    "in a set the format allows, so this has no effect; remove it "
                    "or add the set",
                )
                if verb == "bans"
                else msg(
                    "C104",
                    "format {format} restricts {id} ({name}), but no printing of "
                    "it is in a set the format allows, so this has no effect; "
                    "remove it or add the set",
                )
            )
            yield diag(
                C104,
                message(format=Quoted(key), id=card_id, name=Quoted(name)),
                mark,
                file=view.shown,
                card=card_id,
            )


FORMATS.rule(
    "C104",
    "format-entry-without-effect",
    "2.2",
    severity=Severity.WARNING,
    fix="Drop the entry from the format, or add a set the card is printed in.",
)(entry_without_effect)
C104 = FORMATS.rules["C104"].info


def _changes(spec: dict[str, object]) -> Iterator[tuple[int, dict[str, object]]]:
    changes = spec.get("changes")
    for i, change in enumerate(changes if isinstance(changes, list) else []):
        if isinstance(change, dict):
            yield i, change


def _day(change: dict[str, object]) -> dt.date | None:
    written = change.get("date")
    return parse_date(written) if isinstance(written, str) else None


_DATE_FORM = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # the schema's form (else C001)


def change_date_invalid(view: FormatsFile) -> Iterator[Diagnostic]:
    """a format's change is dated with no calendar day

    Fine:    date: 2027-02-28
    Illegal: date: 2027-02-30
    """
    for key, spec in specs(view.doc):
        for i, change in _changes(spec):
            written = change.get("date")
            if (
                isinstance(written, str)
                and _DATE_FORM.fullmatch(written)
                and not parse_date(written)
            ):
                message = msg("C008", "format {format} has a change dated {date}, no such day")
                yield diag(
                    C008,
                    message(format=Quoted(key), date=Quoted(written)),
                    view.doc.mark(("formats", key, "changes", i, "date")),
                    file=view.shown,
                )


FORMATS.rule(
    "C008",
    "change-date-invalid",
    "dated formats",
    fix="Write the change's date as a real day, YYYY-MM-DD.",
)(change_date_invalid)
C008 = FORMATS.rules["C008"].info


def changes_out_of_order(view: FormatsFile) -> Iterator[Diagnostic]:
    """warning: a format's change is dated before the change written above it

    Fine:    2027-01-15, then 2027-02-01
    Warning: 2027-02-01, then 2027-01-15 (applied in date order all the same)
    """
    for key, spec in specs(view.doc):
        latest: dt.date | None = None
        for i, change in _changes(spec):
            day = _day(change)
            if day is None:
                continue
            if latest is not None and day < latest:
                message = msg(
                    "C105",
                    "format {format}: the change of {date} comes after that of {before}; "
                    "write the changes in date order",
                )
                yield diag(
                    C105,
                    message(format=Quoted(key), date=day.isoformat(), before=latest.isoformat()),
                    view.doc.mark(("formats", key, "changes", i, "date")),
                    file=view.shown,
                )
            latest = day if latest is None else max(latest, day)


FORMATS.rule(
    "C105",
    "changes-out-of-order",
    "dated formats",
    severity=Severity.WARNING,
    fix="Order the format's changes by date.",
)(changes_out_of_order)
C105 = FORMATS.rules["C105"].info


def _change_cards(
    view: FormatsFile, key: str, i: int, change: dict[str, object]
) -> Iterator[tuple[str, str, Mark | None]]:
    """(list, card id, place) for every card a change names."""
    base = ("formats", key, "changes", i)
    for field in ("banned", "unbanned", "unrestricted"):
        listed = change.get(field)
        for j, card_id in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(card_id, str):
                yield field, card_id, view.doc.mark((*base, field, j))
    restricted = change.get("restricted")
    for card_id in restricted if isinstance(restricted, dict) else {}:
        yield "restricted", card_id, view.doc.key_mark((*base, "restricted", card_id))


def change_names_unknown(view: FormatsFile) -> Iterator[Diagnostic]:
    """a format's change names a card or set the database does not have

    Fine:    banned: [VZ02-010] when VZ02-010 exists
    Illegal: banned: [VZ02-01O] (did you mean VZ02-010?)
    """
    known_sets = view.known_sets
    ids = view.ids
    index: NameIndex | None = None
    for key, spec in specs(view.doc):
        for i, change in _changes(spec):
            parsed = _day(change)
            day = parsed.isoformat() if parsed else Quoted(str(change.get("date")))
            sets = change.get("sets")
            for j, code in enumerate(sets if isinstance(sets, list) else []):
                if isinstance(code, str) and code not in known_sets:
                    close = difflib.get_close_matches(code, sorted(known_sets), n=1)
                    problem = msg(
                        "C009",
                        "format {format}: the change of {date} names set {set}, "
                        "which no card file has",
                    )(format=Quoted(key), date=day, set=Quoted(code))
                    yield diag(
                        C009,
                        _hint("C009", problem, close),
                        view.doc.mark(("formats", key, "changes", i, "sets", j)),
                        file=view.shown,
                    )
            for _field, card_id, mark in _change_cards(view, key, i, change):
                if card_id in ids:
                    continue
                if index is None:
                    index = NameIndex({normalize(i): i for i in ids})
                close = index.close(normalize(card_id), 1)
                problem = msg(
                    "C009",
                    "format {format}: the change of {date} names card {card}, which does not exist",
                )(format=Quoted(key), date=day, card=Quoted(card_id))
                yield diag(C009, _hint("C009", problem, close), mark, file=view.shown, card=card_id)


FORMATS.rule(
    "C009",
    "change-names-unknown",
    "dated formats",
    fix="Correct the card id or set code in the change, or add it to the database.",
)(change_names_unknown)
C009 = FORMATS.rules["C009"].info


def banned_and_unbanned(view: FormatsFile) -> Iterator[Diagnostic]:
    """a format's changes both ban and unban a card on one date

    Fine:    banned: [VZ02-010] on 2027-01-15, unbanned: [VZ02-010] on 2027-04-01
    Illegal: banned: [VZ02-010] and unbanned: [VZ02-010] on 2027-01-15
    """
    for key, spec in specs(view.doc):
        banned: dict[tuple[dt.date, str], str] = {}  # (date, card) -> the first id banning it
        unbanned: list[tuple[dt.date, str, Mark | None]] = []
        for i, change in _changes(spec):
            day = _day(change)
            if day is None:
                continue
            for field, card_id, mark in _change_cards(view, key, i, change):
                if field == "banned":
                    banned.setdefault((day, view.card(card_id)), card_id)
                elif field == "unbanned":
                    unbanned.append((day, card_id, mark))
        for day, card_id, mark in unbanned:
            other = banned.get((day, view.card(card_id)))
            if other is None:
                continue
            message = (
                msg("C010", "format {format} both bans and unbans {card} on {date}; keep one")
                if other == card_id
                else msg(
                    "C010",
                    "format {format} bans {other} and unbans {card}, a printing of the same "
                    "card, on {date}; keep one",
                )
            )
            yield diag(
                C010,
                message(
                    format=Quoted(key),
                    card=Quoted(card_id),
                    other=Quoted(other),
                    date=day.isoformat(),
                ),
                mark,
                file=view.shown,
                card=card_id,
            )


FORMATS.rule(
    "C010",
    "banned-and-unbanned",
    "dated formats",
    fix="Keep the ban or the unban of that date, not both.",
)(banned_and_unbanned)
C010 = FORMATS.rules["C010"].info


_TWO_LIMITS = msg(
    "C012",
    "format {format} restricts {card} to {limit} and its printing {other} to {other_limit}; "
    "give the card one limit",
)
_TWO_LIMITS_ON = msg(
    "C012",
    "format {format} restricts {card} to {limit} on {date}, and {other} to {other_limit}; "
    "they are one card: give it one limit",
)
_LIMIT_LIFTED = msg(
    "C012",
    "format {format} both restricts and unrestricts one card on {date} ({other}, {card}); keep one",
)


def restrictions_conflict(view: FormatsFile) -> Iterator[Diagnostic]:
    """a format gives one card two limits, or restricts and unrestricts it on one date

    Fine:    restricted: {VZ01-010: 2, VZ02-063: 2} (two printings of one card, one limit)
    Illegal: restricted: {VZ01-010: 1, VZ02-063: 3}, the same card restricted to 1 and to 3
    """
    for key, spec in specs(view.doc):
        undated = spec.get("restricted")
        seen: dict[str, tuple[str, int]] = {}  # card -> its first id and limit
        for card_id, limit in undated.items() if isinstance(undated, dict) else ():
            if not _whole(limit):
                continue  # C001 says what it must be
            first = seen.setdefault(view.card(card_id), (card_id, limit))
            if first[1] != limit:
                found = _TWO_LIMITS(
                    format=Quoted(key),
                    card=Quoted(card_id),
                    limit=limit,
                    other=Quoted(first[0]),
                    other_limit=first[1],
                )
                mark = view.doc.key_mark(("formats", key, "restricted", card_id))
                yield diag(C012, found, mark, file=view.shown, card=card_id)
        yield from _dated_restrictions(view, key, spec)


def _whole(limit: object) -> TypeGuard[int]:
    return isinstance(limit, int) and not isinstance(limit, bool)


def _dated_restrictions(
    view: FormatsFile, key: str, spec: dict[str, object]
) -> Iterator[Diagnostic]:
    """C012 for the changes of one date, each entry against those written before it."""
    limits: dict[tuple[dt.date, str], tuple[str, int]] = {}  # (date, card) -> first id, limit
    lifted: dict[tuple[dt.date, str], str] = {}  # (date, card) -> the first id unrestricting it
    for i, change in _changes(spec):
        day = _day(change)
        if day is None:
            continue
        restricted = change.get("restricted")
        for field, card_id, mark in _change_cards(view, key, i, change):
            at = (day, view.card(card_id))
            found: Message | None = None
            if field == "unrestricted":
                lifted.setdefault(at, card_id)
                if at in limits:
                    found = _LIMIT_LIFTED(
                        format=Quoted(key),
                        date=day.isoformat(),
                        other=Quoted(limits[at][0]),
                        card=Quoted(card_id),
                    )
            elif field == "restricted":
                assert isinstance(restricted, dict)
                limit = restricted[card_id]
                if not _whole(limit):
                    continue  # C001 says what it must be
                first = limits.setdefault(at, (card_id, limit))
                if at in lifted:
                    found = _LIMIT_LIFTED(
                        format=Quoted(key),
                        date=day.isoformat(),
                        other=Quoted(lifted[at]),
                        card=Quoted(card_id),
                    )
                elif first[1] != limit:
                    found = _TWO_LIMITS_ON(
                        format=Quoted(key),
                        card=Quoted(card_id),
                        limit=limit,
                        date=day.isoformat(),
                        other=Quoted(first[0]),
                        other_limit=first[1],
                    )
            if found is not None:
                yield diag(C012, found, mark, file=view.shown, card=card_id)


FORMATS.rule(
    "C012",
    "restrictions-conflict",
    "dated formats",
    fix="Restrict each card once, to one limit, in the undated list and on each date.",
)(restrictions_conflict)
C012 = FORMATS.rules["C012"].info


def sets_conflict(view: FormatsFile) -> Iterator[Diagnostic]:
    """two changes of one date give a format different legal sets

    Fine:    one change of 2027-03-01 with sets: [VZ02, VZ03]
    Illegal: two changes of 2027-03-01, one with sets: [VZ02, VZ03], the other sets: [VZ03]
    """
    for key, spec in specs(view.doc):
        first: dict[dt.date, list[str]] = {}  # date -> the first list of sets given for it
        for i, change in _changes(spec):
            day, sets = _day(change), change.get("sets")
            if day is None or not isinstance(sets, list):
                continue
            given = [s for s in sets if isinstance(s, str)]
            seen = first.setdefault(day, given)
            if set(seen) != set(given):
                message = msg(
                    "C013",
                    "format {format} has two changes on {date} that give different sets: "
                    "[{sets}] here, [{other}] above; give the date one list",
                )
                yield diag(
                    C013,
                    message(
                        format=Quoted(key),
                        date=day.isoformat(),
                        sets=Joined(tuple(given)),
                        other=Joined(tuple(seen)),
                    ),
                    view.doc.key_mark(("formats", key, "changes", i, "sets")),
                    file=view.shown,
                )


FORMATS.rule(
    "C013",
    "change-sets-conflict",
    "dated formats",
    fix="Give each date's legal sets in one change.",
)(sets_conflict)
C013 = FORMATS.rules["C013"].info
