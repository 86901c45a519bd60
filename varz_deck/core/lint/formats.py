"""What formats.yaml names: cards and sets the database has (C005, C104)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from varz_deck.core.code import Scope, Severity
from varz_deck.core.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.i18n import Message, Quoted, msg
from varz_deck.core.lint._base import FormatsFile
from varz_deck.core.rulebook import Rulebook
from varz_deck.core.strictyaml import Document

FORMATS: Rulebook[FormatsFile] = Rulebook(Scope.CARDS)


def specs(doc: Document) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each format of formats.yaml that is a mapping: its key and its fields."""
    formats = doc.data.get("formats") if isinstance(doc.data, dict) else None
    for key, spec in formats.items() if isinstance(formats, dict) else ():
        if isinstance(spec, dict):
            yield key, spec


def named(doc: Document, key: str, spec: dict[str, Any]) -> list[tuple[str, str, Mark | None]]:
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
                    _format_hint(problem, close),
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
                _format_hint(missing(format=Quoted(key), card=Quoted(card_id)), close),
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


def _format_hint(problem: Message, close: list[str]) -> Message:
    """A C005 problem, and '; did you mean 'X'?' when there is a close match."""
    if not close:
        return problem
    return msg("C005", "{problem}; did you mean {close}?")(problem=problem, close=Quoted(close[0]))


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
