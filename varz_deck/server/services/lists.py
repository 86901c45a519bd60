"""Players' lists and their versions: submitting, replacing, reading them back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError
from django.db.models import Max
from django.utils import timezone

from varz_deck.core.messages.i18n import Quoted, Term
from varz_deck.server import tokens
from varz_deck.server.models import Decklist, Event, RosterEntry, Version
from varz_deck.server.services.audit import ensure_not_withdrawn, record
from varz_deck.server.services.carddata import game_of, verdict_fingerprint
from varz_deck.server.services.checking import Checked, check_deck, codes_of
from varz_deck.server.services.errors import (
    BAD_PLAYER_ID,
    DECK_TOO_LARGE,
    LONG_PLAYER,
    LONG_PLAYER_ID,
    NO_DECKLIST,
    NO_PLAYER,
    PLAYER_ID_ROSTERED,
    PLAYER_ID_TAKEN,
    Claimed,
    Invalid,
    NotFound,
    Oversized,
)
from varz_deck.server.services.events import ensure_open, recent_event_by_id, signed_in
from varz_deck.server.services.store import one_or_none, storable, writing
from varz_deck.server.services.times import iso_time

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

PLAYER_LIMIT = 200  # characters of a player's name


def clean_player(player: str | None) -> str:
    """The player's name with whitespace runs made one space; Invalid when empty or too long."""
    name = " ".join(storable(player or "").split())
    if not name:
        raise Invalid(NO_PLAYER)
    if len(name) > PLAYER_LIMIT:
        raise Invalid(LONG_PLAYER(limit=PLAYER_LIMIT))
    return name


def submit(
    event: Event,
    player: str | None,
    text: str,
    *,
    by_organiser: bool = False,
    player_id: str | None = None,
) -> tuple[Decklist, Version, str, Checked]:
    """Store a new list (legal or not) and its first version; the player's edit token (shown
    once). Closed (409) after the deadline or lock unless the organiser submits it; Oversized
    (413) far over the game's section sizes. A player id ties the list to the roster entry of
    that id (`roster_rows`) and names one list: a player may not name a rostered id or one that
    has a list (Claimed); the organiser's list for an id that has one replaces it (a new
    version; the token is then "": the player keeps theirs)."""
    name = clean_player(player)
    pid = clean_player_id(player_id)
    text = storable(text)
    if not by_organiser:
        ensure_open(event)
    checked = check_deck(event, text, name)
    ensure_sane_size(event, checked)
    return _store(event, name, pid, text, checked, ORGANISER if by_organiser else ANYONE)


def submit_for_entry(entry: RosterEntry, text: str) -> tuple[Decklist, Version, str, Checked]:
    """A list sent from a rostered player's personal link: their first list (with its edit
    token), else a new version of their list (token ""). Never a list someone else made."""
    event = entry.event
    text = storable(text)
    ensure_open(event)
    checked = check_deck(event, text, entry.name)
    ensure_sane_size(event, checked)
    return _store(event, entry.name, entry.player_id, text, checked, LINK)


ANYONE, LINK, ORGANISER = "anyone", "link", "organiser"  # who gives a list's player id


def _store(
    event: Event, name: str, pid: str, text: str, checked: Checked, by: str
) -> tuple[Decklist, Version, str, Checked]:
    """Store a checked list for its player id (`_store_once`). Two submissions at the same
    moment may both find no list for the id; the database's unique index lets one store it, and
    the other, tried again, finds it: the player is refused (Claimed), the personal link and the
    organiser give a new version of it. Refused, never a server error, if it happens twice."""
    for _attempt in range(2):
        try:
            return _store_once(event, name, pid, text, checked, by)
        except IntegrityError:  # one list per player id (models.Decklist): another came first
            continue
    raise Claimed(PLAYER_ID_TAKEN(player_id=Quoted(pid)))


def _store_once(
    event: Event, name: str, pid: str, text: str, checked: Checked, by: str
) -> tuple[Decklist, Version, str, Checked]:
    by_organiser = by == ORGANISER
    with writing():
        holder = _holder(event, pid) if pid else None
        rostered = bool(pid) and RosterEntry.objects.filter(event=event, player_id=pid).exists()
        if by == ANYONE and rostered:
            raise Claimed(PLAYER_ID_ROSTERED(player_id=Quoted(pid)), "player_id_rostered")
        if by == ANYONE and holder is not None:
            raise Claimed(PLAYER_ID_TAKEN(player_id=Quoted(pid)))
        if holder is not None and (holder.player_id_confirmed or not rostered):
            version = _new_version(holder, 0, text, checked, by_organiser)
            _append(holder, version, by_organiser)
            if not by_organiser:
                still_open(event)
            return holder, version, "", checked
        if holder is not None:  # a list that named a rostered id without its link: it lets go
            holder.player_id, holder.claimed_player_id = "", pid
            holder.save(update_fields=["player_id", "claimed_player_id"])
        token = tokens.new_token()
        decklist = Decklist(
            event=event,
            player=name,
            player_id=pid,
            player_id_confirmed=bool(pid) and by != ANYONE,
            edit_token_hash=tokens.token_hash(token),
        )
        version = _new_version(decklist, 1, text, checked, by_organiser)
        decklist.save()
        _add_version(decklist, version)
        if by_organiser:
            record(event, "submit", decklist=decklist)
        else:
            still_open(event)
    return decklist, version, token, checked


def _holder(event: Event, pid: str) -> Decklist | None:
    """The event's list (not withdrawn) of a player id, locked for this write transaction."""
    found = Decklist.objects.select_for_update(of=("self",)).filter(
        event=event, player_id=pid, withdrawn_at__isnull=True
    )
    return found.select_related("event").first()


def still_open(event: Event) -> None:
    """Closed, rolling back the write transaction it is called in, when the event no longer takes
    players' lists: the deadline or a lock may have come since the list was checked. Called last,
    so the event's row is locked (against a lock being stored at the same moment) only for the
    commit, not while the list's rows are written: submissions to one event queue on it."""
    ensure_open(Event.objects.select_for_update().only("locked", "deadline").get(pk=event.pk))


def replace_deck(
    decklist: Decklist, text: str, *, by_organiser: bool = False
) -> tuple[Version, Checked]:
    """A new version of a list (the old ones are kept). Closed (409) for a player after the
    deadline or lock; the organiser may always fix a list. Oversized (413) far over the game's
    section sizes."""
    event = decklist.event
    text = storable(text)
    ensure_not_withdrawn(decklist)
    if not by_organiser:
        ensure_open(event)
    checked = check_deck(event, text, decklist.player)
    ensure_sane_size(event, checked)
    version = _new_version(decklist, 0, text, checked, by_organiser)  # numbered when stored
    with writing():
        locked = _locked(decklist, with_event=not by_organiser)
        if locked is None:  # gone since it was read
            raise NotFound(NO_DECKLIST)
        ensure_not_withdrawn(locked)
        if not by_organiser:
            ensure_open(locked.event)
        last = locked.current.number if locked.current is not None else None
        _append(decklist, version, by_organiser, last)
    return version, checked


def _locked(decklist: Decklist, *, with_event: bool) -> Decklist | None:
    """The list's row locked for this write transaction, with its current version's number (the
    last one) and, `with_event`, its event's row locked and read again (against a lock or a
    deadline stored since it was read). Replacements of one list run one at a time (PostgreSQL:
    the row lock; SQLite's IMMEDIATE transactions already do), so each gets the next number."""
    of: tuple[str, ...]
    fields: tuple[str, ...]
    if with_event:
        of, fields = ("self", "event"), ("event__locked", "event__deadline")
    else:
        of, fields = ("self",), ()
    found = Decklist.objects.select_for_update(of=of).select_related(*of[1:], "current")
    return one_or_none(
        found.only("withdrawn_at", "current__number", *fields).filter(pk=decklist.pk)
    )


def _append(
    decklist: Decklist, version: Version, by_organiser: bool, last: int | None = None
) -> None:
    """Store a version as the list's next and current one (in a write transaction that holds
    the list's row; a player's also holds the event's, read open), audited when the organiser
    made it. `last`: the number of the list's last version, read with the row's lock (else read
    here)."""
    if last is None:
        last = Version.objects.filter(decklist=decklist).aggregate(n=Max("number"))["n"] or 0
    version.number = last + 1
    _add_version(decklist, version)
    if by_organiser:
        record(decklist.event, "replace", decklist=decklist, detail=f"version {version.number}")


def ensure_sane_size(event: Event, checked: Checked) -> None:
    """Oversized (413) when a section of the list holds more than SIZE_FACTOR × its size, as
    `sim` and `tune` refuse it (the game's `section_sizes`; a game that names none has no such
    limit): a list of thousands of cards would be stored, and shown, whole."""
    from varz_deck.core.analysis.tuning import SIZE_FACTOR

    canonical = checked.registration.canonical
    if canonical is None:
        return
    sizes = getattr(game_of(event), "section_sizes", None) or {}
    for section, size in sizes.items():
        n = sum(card.count for card in canonical.sections.get(section, ()))
        most = SIZE_FACTOR * size
        if n > most:
            shown = Term("section", section)
            message = DECK_TOO_LARGE(section=shown, n=n, size=size, most=most, factor=SIZE_FACTOR)
            raise Oversized(message)


def _new_version(
    decklist: Decklist, number: int, text: str, checked: Checked, by_organiser: bool
) -> Version:
    """A version of a list, made before the write transaction (which stores it)."""
    diagnostics = checked.diagnostics("en")
    return Version(
        decklist=decklist,
        number=number,
        deck=text,
        deck_hash=checked.deck_hash,
        legal=checked.legal,
        lead=checked.lead[:200],
        format=str(checked.report.format or "")[:64],
        diagnostics=diagnostics,
        by_organiser=by_organiser,
        cards=verdict_fingerprint(decklist.event),
        submitted_legal=checked.legal,
        submitted_errors=codes_of(diagnostics),
    )


def _add_version(decklist: Decklist, version: Version) -> None:
    """Store the version, stamped now, as its list's current one (in a write transaction)."""
    version.decklist = decklist  # its id, now that the list has one
    version.submitted_at = timezone.now()
    version.save(force_insert=True)
    decklist.current = version
    Decklist.objects.filter(pk=decklist.pk).update(current=version)


def _decklist_id(value: object) -> int | None:
    text = str(value)
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return int(text)


def get_decklist(
    decklist_id: object,
    *,
    edit_token: str | None = None,
    organiser_token: str | None = None,
    current: bool = True,
) -> tuple[Decklist, bool]:
    """The list, for its player (edit token) or its event's organiser; (list, is_organiser).
    NotFound for anyone else, so a list's existence is not revealed. `current`: its event and
    current version read with it; else the event as this process read it last (`recent_event`),
    for a replacement, which makes a new version and reads the event again as it writes."""
    number = _decklist_id(decklist_id)
    found = None
    if number is not None and current:
        found = one_or_none(Decklist.objects.select_related("event", "current").filter(pk=number))
    elif number is not None:
        found = one_or_none(Decklist.objects.filter(pk=number))
        if found is not None:
            found.event = recent_event_by_id(found.event_id)
    if found is None:
        raise NotFound(NO_DECKLIST)
    if organiser_token and tokens.matches(organiser_token, found.event.organiser_token_hash):
        return found, True
    if edit_token and tokens.matches(edit_token, found.edit_token_hash):
        return found, False
    raise NotFound(NO_DECKLIST)


def decklist_in_session(decklist_id: object, session: SessionBase) -> Decklist | None:
    """The list when the browser session is signed in as its event's organiser."""
    number = _decklist_id(decklist_id)
    if number is None:
        return None
    found = one_or_none(Decklist.objects.select_related("event", "current").filter(pk=number))
    if found is None or not signed_in(session, found.event):
        return None
    return found


def versions(decklist: Decklist) -> list[Version]:
    """Every version of a list, oldest first."""
    return list(Version.objects.filter(decklist=decklist).order_by("number"))


def version_json(version: Version, event: Event) -> dict[str, object]:
    return {
        "version": version.number,
        "submitted_at": iso_time(event, version.submitted_at),
        "deck_hash": version.deck_hash,
        "legal": version.legal,
        "by_organiser": version.by_organiser,
    }


def decklist_json(decklist: Decklist, lang: str = "en") -> dict[str, object]:
    """A list with its current deck and diagnostics, and every version (player or organiser)."""
    current = decklist.current
    every = versions(decklist)
    if current is None:  # only while the first version is being written
        current = every[-1] if every else None
    diagnostics: list[dict[str, object]] = []
    legal, deck_hash = (current.legal, current.deck_hash) if current else (False, None)
    if current is not None and lang == "en":
        diagnostics = list(current.diagnostics)
    elif current is not None:  # the messages in the language: the verdict of the same check
        checked = check_deck(decklist.event, current.deck, decklist.player)
        diagnostics = checked.diagnostics(lang)
        legal, deck_hash = checked.legal, checked.deck_hash
    return {
        "id": decklist.pk,
        "event": decklist.event.key,
        "player": decklist.player,
        "deck": current.deck if current else "",
        "submitted_at": iso_time(decklist.event, current.submitted_at) if current else None,
        "legal": legal,
        "deck_hash": deck_hash,
        "diagnostics": diagnostics,
        "versions": [version_json(v, decklist.event) for v in every],
        "changed_since_submitted": current is not None and current.changed_at is not None,
        "changed_at": iso_time(decklist.event, current.changed_at) if current else None,
        "withdrawn": decklist.withdrawn_at is not None,
        "withdrawn_at": iso_time(decklist.event, decklist.withdrawn_at),
    }


def clean_player_id(player_id: str | None) -> str:
    """A list's player id, its spaces made one ("" for none); Invalid when it cannot be one."""
    from varz_deck.server import roster

    found = roster.words(storable(player_id or ""))
    problem = roster.id_problem(found)
    if problem == "long":
        raise Invalid(LONG_PLAYER_ID(limit=roster.ID_LIMIT))
    if problem == "control":
        raise Invalid(BAD_PLAYER_ID)
    return found
