"""The cards across the database: ids, printings, names and translations (C002, C003, C101–C103),
and the sets' release days (C011)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.cards.model import normalize
from varz_deck.core.lint._base import CardFile, Cards, Entry, Release, SetReleases, unique_cards
from varz_deck.core.messages.code import Scope, Severity
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Joined, Quoted, msg
from varz_deck.core.messages.rulebook import Rulebook

IN_FILE: Rulebook[CardFile] = Rulebook(Scope.CARDS)  # run on each card file
ACROSS: Rulebook[Cards] = Rulebook(Scope.CARDS)  # run once on every card file's entries
RELEASES: Rulebook[SetReleases] = Rulebook(Scope.CARDS)  # run once on every card file's `set:`


def set_code_mismatch(view: CardFile) -> Iterator[Diagnostic]:
    """warning: a card's id does not start with the set code of its file"""
    for entry in view.entries:
        card_id = entry.id
        if entry.set_code is None or card_id is None or "-" not in card_id:
            continue
        if ("cards", entry.index, "id") in view.bad_paths or ("set", "code") in view.bad_paths:
            continue  # C001 already says what is wrong with it
        prefix = card_id.split("-", 1)[0]
        if prefix != entry.set_code:
            yield diag(
                C102,
                msg(
                    "C102",
                    "id {id} does not start with this file's set code {set}; number it "
                    "{code}-…, or move it to a file of set {other}",
                )(
                    id=Quoted(card_id),
                    set=Quoted(entry.set_code),
                    code=entry.set_code,
                    other=Quoted(prefix),
                ),
                entry.mark("id"),
                file=entry.file,
                card=card_id,
            )


IN_FILE.rule(
    "C102",
    "set-code-id-mismatch",
    "card data",
    severity=Severity.WARNING,
    fix="Move the card to the file of its set, or correct its id.",
)(set_code_mismatch)
C102 = IN_FILE.rules["C102"].info


def duplicate_ids(view: Cards) -> Iterator[Diagnostic]:
    """the same card id is used twice in the database"""
    first: dict[str, Entry] = {}
    for entry in view.entries:
        if entry.id is None:
            continue
        seen = first.setdefault(entry.id, entry)
        if seen is entry:
            continue
        yield diag(
            C002,
            msg("C002", "id {id} is used twice: also at {place} ({name}); ids must be unique")(
                id=Quoted(entry.id), place=seen.where(), name=Quoted(seen.raw.get("name", ""))
            ),
            entry.mark("id"),
            file=entry.file,
            card=entry.id,
        )


ACROSS.rule(
    "C002",
    "card-id-duplicate",
    "card data",
    fix="Give each card its own id: renumber or remove the duplicate.",
)(duplicate_ids)
C002 = ACROSS.rules["C002"].info


def later_printings(view: Cards) -> Iterator[tuple[Entry, Entry]]:
    """Each card after the first printing of its name (the game's identity), with that first."""
    identity = view.game.identity
    first_by_name: dict[str, Entry] = {}
    for entry in unique_cards(view.entries):
        assert entry.card is not None
        base = first_by_name.setdefault(identity(entry.card), entry)
        if base is not entry:
            yield entry, base


def printings_differ(view: Cards) -> Iterator[Diagnostic]:
    """printings of one name have different game fields"""
    game = view.game
    for entry, base in later_printings(view):
        assert entry.card is not None and base.card is not None
        ours, theirs = game.game_fields(entry.card), game.game_fields(base.card)
        differ = [f for f in ours if ours[f] != theirs.get(f)]
        if not differ:
            continue
        details = Joined(
            tuple(
                msg("C003", "{field} ({here} here, {there} there)")(
                    field=f,
                    here=show_field(getattr(entry.card, f)),
                    there=show_field(getattr(base.card, f)),
                )
                for f in differ
            )
        )
        place = next((f for f in differ if f in entry.raw), None)
        yield diag(
            C003,
            msg(
                "C003",
                "{id} and {other} ({place}) are printings of {name} but differ in {details}; "
                "make them the same or rename one",
            )(
                id=entry.card.id,
                other=base.card.id,
                place=base.where(),
                name=Quoted(entry.card.name),
                details=details,
            ),
            entry.mark(place) if place else entry.mark(),
            file=entry.file,
            card=entry.card.id,
        )


ACROSS.rule(
    "C003",
    "printings-differ",
    "card data",
    fix="Make the printings of the name agree on their game fields, or rename one card.",
)(printings_differ)
C003 = ACROSS.rules["C003"].info


def show_field(value: object) -> object:
    """A card field's value as C003 shows it."""
    from varz_deck.core.files.schemaexplain import show_value, value_shown

    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return msg("C003", "none") if value is None else value_shown(value)


def _names_of(entry: Entry) -> Iterator[tuple[tuple[str, ...], str, str | None]]:
    """(path, name, language) for the canonical name and every translation of a card."""
    assert entry.card is not None
    yield ("name",), entry.card.name, None
    for lang, name in entry.card.names.items():
        yield ("names", lang), name, lang


def shared_names(view: Cards) -> Iterator[Diagnostic]:
    """warning: one name (in any language) belongs to two different cards, so a deck that uses it is ambiguous (F006)"""
    owner: dict[str, tuple[Entry, tuple[str, ...], str | None]] = {}
    reported: set[tuple[str, str]] = set()
    for entry in unique_cards(view.entries):
        assert entry.card is not None
        for path, name, lang in _names_of(entry):
            key = normalize(name)
            seen, seen_path, seen_lang = owner.setdefault(key, (entry, path, lang))
            other = seen.card
            assert other is not None
            if other.name == entry.card.name or (key, entry.card.name) in reported:
                continue
            reported.add((key, entry.card.name))
            shown: object = (
                msg("C101", "{name} ({lang})")(name=Quoted(name), lang=lang)
                if lang
                else Quoted(name)
            )
            their = (
                msg("C101", "the {lang} name")(lang=seen_lang)
                if seen_lang
                else msg("C101", "the name")
            )
            mark = seen.mark(*seen_path)
            yield diag(
                C101,
                msg(
                    "C101",
                    "{name} is also {their} of {other} ({id}, {place}); a deck that lists it "
                    "cannot tell the two cards apart (F006): give one a different name",
                )(
                    name=shown,
                    their=their,
                    other=Quoted(other.name),
                    id=other.id,
                    place=f"{seen.file}:{mark.line}:{mark.column}",
                ),
                entry.mark(*path),
                file=entry.file,
                card=entry.card.id,
            )


ACROSS.rule(
    "C101",
    "card-name-shared",
    "card data",
    severity=Severity.WARNING,
    fix="Rename one of the cards; until then decks must use the cards' ids.",
)(shared_names)
C101 = ACROSS.rules["C101"].info


def translations_differ(view: Cards) -> Iterator[Diagnostic]:
    """warning: printings of one card give different translations of its name"""
    for entry, base in later_printings(view):
        assert entry.card is not None and base.card is not None
        for lang, name in entry.card.names.items():
            theirs = base.card.names.get(lang)
            if theirs is not None and theirs != name:
                yield diag(
                    C103,
                    msg(
                        "C103",
                        "{id} calls {name} {translation} in {lang}, but its printing {other} "
                        "({place}) calls it {theirs}; use one translation",
                    )(
                        id=entry.card.id,
                        name=Quoted(entry.card.name),
                        translation=Quoted(name),
                        lang=lang,
                        other=base.card.id,
                        place=base.where(),
                        theirs=Quoted(theirs),
                    ),
                    entry.mark("names", lang),
                    file=entry.file,
                    card=entry.card.id,
                )


ACROSS.rule(
    "C103",
    "printings-translated-differently",
    "card data",
    severity=Severity.WARNING,
    fix="Give every printing of the card the same translated names.",
)(translations_differ)
C103 = ACROSS.rules["C103"].info


def release_days_differ(view: SetReleases) -> Iterator[Diagnostic]:
    """card files of one set give it different release days

    Fine:    two files of set VZ03, both released: 2027-03-01 (or one of them without a day)
    Illegal: one file of set VZ03 released: 2027-02-01, another released: 2027-03-01
    """
    by_set: dict[str, list[tuple[str, Release]]] = {}
    for shown, release in view.files:
        by_set.setdefault(release.code, []).append((shown, release))
    for files in by_set.values():
        for shown, release in files:
            others = [(r.day, where) for where, r in files if r.day != release.day]
            if not others:
                continue
            day, where = min(others)
            yield diag(
                C011,
                msg(
                    "C011",
                    "set {set} is released {date} here, but {other} in {file}; give every file "
                    "of the set the same day",
                )(
                    set=Quoted(release.code),
                    date=release.day.isoformat(),
                    other=day.isoformat(),
                    file=where,
                ),
                release.mark,
                file=shown,
            )


RELEASES.rule(
    "C011",
    "set-release-days-differ",
    "dated formats",
    fix="Give the set one release day in every card file of it (or the day in one file only).",
)(release_days_differ)
C011 = RELEASES.rules["C011"].info
