"""What the API and the pages share: events, submissions, versions, exports (SPEC §9).

Every write goes through here (the pages never write through the ORM themselves). A deck is
checked exactly as `check` checks it (varz_deck.games, the same readers, limits and rules) and
registered as `register` registers it (the game's Registrar: the canonical list and its hash).
Errors are `ServiceError`s carrying the HTTP status, a stable code and a translatable message.

URLs the pages and the API agree on: `submit_path`, `dashboard_path`, `organiser_path`,
`decklist_path` (the private link), `public_path`, `roster_path` (a player's personal link).
Times: the database keeps UTC; the API gives them with the event's offset (`iso_time`), the pages
and `event list` as `shown_time` does.
"""

from __future__ import annotations

import datetime
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from varz_deck.core.messages.i18n import LANGUAGES, Message, Quoted, Term, msg, nmsg
from varz_deck.server import tokens
from varz_deck.server.models import AuditEntry, Decklist, Event, RosterEntry, Version
from varz_deck.server.roster import RosterError

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.game import Game
    from varz_deck.core.registration.diff import DeckDiff
    from varz_deck.core.registration.register import Registration
    from varz_deck.games.library import CardLibrary

PLAYER_LIMIT = 200  # characters of a player's name
NAME_LIMIT = 200  # characters of an event's name
DECK_NAME = "<deck>"  # how a submitted deck is named in its diagnostics (like `<stdin>`)
SESSION_KEY = "varzdeck_organiser"  # the session's list of event keys it is signed in for


# --- Errors ---------------------------------------------------------------------------------


class ServiceError(Exception):
    """A request that cannot be done: its HTTP status, a stable code, a translatable message."""

    status = 400
    code = "bad_request"

    def __init__(self, message: Message, code: str | None = None) -> None:
        super().__init__(message.render("en"))
        self.message = message
        if code is not None:
            self.code = code


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class Closed(ServiceError):
    status, code = 409, "closed"  # "deadline_passed", "locked" or "withdrawn"


class Invalid(ServiceError):
    status, code = 422, "invalid"


class Claimed(ServiceError):
    """A player id this submission may not take (409): "player_id_rostered" (a rostered
    player's id, taken only through their personal link or by the organiser) or
    "player_id_taken" (the id already has a list: its private link replaces it)."""

    status, code = 409, "player_id_taken"


class Oversized(ServiceError):
    """A list far over its game's section sizes (413 `deck_too_large`)."""

    status, code = 413, "deck_too_large"


NO_EVENT = msg("serve", "there is no such event")
NO_DECKLIST = msg("serve", "there is no such decklist")
NO_TOKEN = msg("serve", "this needs the organiser token: send Authorization: Bearer TOKEN")
WRONG_TOKEN = msg("serve", "this token is not the organiser token of this event")
DEADLINE_PASSED = msg("serve", "the deadline has passed; submissions are closed")
LOCKED = msg("serve", "the organiser has locked this event; submissions are closed")
NO_PLAYER = msg("serve", "the player's name is missing")
LONG_PLAYER = msg("serve", "the player's name is over {limit} characters")
NOT_PUBLISHED = msg("serve", "the lists of this event are not published")
WITHDRAWN = msg(
    "serve", "the organiser has withdrawn this list; it cannot be replaced unless restored"
)
OTHER_GAME = msg("F010", "this list is for {game}; this event is for {mine}")
PLAYER_ID_ROSTERED = msg(
    "serve",
    "player id {player_id} is on this event's roster: submit your list through your personal "
    "link (the organiser sent it to you), or ask the organiser",
)
PLAYER_ID_TAKEN = msg(
    "serve",
    "player id {player_id} already has a list in this event: open the private link you got when "
    "you submitted it to see or replace it, or ask the organiser",
)
PLAYER_ID_TAKEN_NOW = msg(
    "serve",
    "player id {player_id} has another list in this event now: withdraw that list first, then "
    "restore this one",
)
DECK_TOO_LARGE = msg(
    "serve",
    "the {section} section has {n:,} cards, far over the {size} it needs; a list takes at most "
    "{most} ({factor} × {size}): remove cards (F003 marks a card listed on more than one line)",
)
UNKNOWN_LANG = msg("serve", "unknown language {lang}; choose en, ja or zh")


# --- Paths the pages and the API agree on ----------------------------------------------------


def submit_path(event: Event) -> str:
    return f"/events/{event.key}/submit"


def dashboard_path(event: Event) -> str:
    return f"/events/{event.key}/dashboard"


def public_path(event: Event) -> str:
    return f"/events/{event.key}/public"


def decklist_path(decklist: Decklist, edit_token: str) -> str:
    """The player's private link (the token is the secret: show it to them only)."""
    return f"/decklists/{decklist.pk}/{edit_token}"


def organiser_path(token: str) -> str:
    return f"/o/{token}"


# --- Card databases ------------------------------------------------------------------------

_LIBRARY: CardLibrary | None = None
_DATABASES: dict[str, CardDatabase] = {}
_LOCK = threading.Lock()


def _library(cards: Path | None) -> CardLibrary:
    from varz_deck.games import open_database
    from varz_deck.games.library import CardLibrary

    return CardLibrary(open_database, cards)


def use_cards(cards: Path | None) -> None:
    """The card database `serve --cards DIR` (or $VARZ_DECK_CARDS) names, opened now (its
    DatabaseError or OSError when it cannot be): events of its game use it, the others the
    bundled database of their game."""
    global _LIBRARY
    library = _library(cards)
    if cards is not None:
        library.open(cards)
    _LIBRARY = library
    _DATABASES.clear()
    _FINGERPRINTS.clear()
    _registration.cache_clear()
    _figures.cache_clear()


def database_for(game: str) -> CardDatabase:
    """The card database of a game (loaded once per process). DatabaseError when invalid."""
    global _LIBRARY
    found = _DATABASES.get(game)
    if found is not None:
        return found
    with _LOCK:
        if game not in _DATABASES:
            library = _LIBRARY = _LIBRARY or _library(None)
            named = library.open(library.cards) if library.cards is not None else None
            _DATABASES[game] = (
                named if named is not None and named.game == game else library.bundled(game)
            )
        return _DATABASES[game]


_FINGERPRINTS: dict[str, str] = {}


def cards_fingerprint(game: str) -> str:
    """What a verdict of this game depends on besides the deck: varz-deck's version and the card
    database's cards (every printing, in order, without its file and line) and formats
    (`CardDatabase.fingerprint`: read from the card index, not from every card)."""
    found = _FINGERPRINTS.get(game)
    if found is None:
        found = _FINGERPRINTS[game] = database_for(game).fingerprint()
    return found


def verdict_fingerprint(event: Event) -> str:
    """What a verdict of a list of this event depends on besides the deck: the card data (and
    varz-deck, `cards_fingerprint`) and the event's date (the formats' dated changes)."""
    import hashlib

    text = f"{cards_fingerprint(event.game)} {check_date(event).isoformat()}"
    return hashlib.sha256(text.encode()).hexdigest()


_VERDICT_FIELDS = ("deck_hash", "legal", "lead", "format", "diagnostics", "cards", "changed_at")


def recheck_current() -> int:
    """Check every current list again whose verdict is of other card data (or another
    varz-deck, or another date of its event) than this server's, and keep the current verdict:
    the API, the pages and the CSV then give one verdict; a verdict that became other than the
    one given at submission is stamped (`changed_at`). How many lists were checked again. Run
    as `serve` starts."""
    changed = 0
    now = timezone.now()
    for event in Event.objects.order_by("id").iterator():
        try:
            fingerprint = verdict_fingerprint(event)
        except Exception:  # a game this version lacks: its requests say so
            continue
        current = Decklist.objects.filter(event=event, current__isnull=False)
        stale = (
            Version.objects.filter(pk__in=current.values("current_id"))
            .exclude(cards=fingerprint)
            .select_related("decklist")
        )
        again = []
        for version in stale.iterator():
            version.decklist.event = event
            checked = check_deck(event, version.deck, version.decklist.player)
            fresh = _new_version(version.decklist, version.number, version.deck, checked, False)
            before = (version.legal, codes_of(version.diagnostics))
            for name in _VERDICT_FIELDS:
                if name != "changed_at":
                    setattr(version, name, getattr(fresh, name))
            after = (version.legal, codes_of(version.diagnostics))
            if after == (version.submitted_legal, list(version.submitted_errors or [])):
                version.changed_at = None
            elif after != before or version.changed_at is None:
                version.changed_at = now
            again.append(version)
        with writing():
            Version.objects.bulk_update(again, _VERDICT_FIELDS, batch_size=500)
        changed += len(again)
    if changed:
        _registration.cache_clear()
    _figures.cache_clear()
    return changed


# --- Times -----------------------------------------------------------------------------------

UTC = datetime.timezone.utc


@lru_cache(maxsize=256)
def zone(name: str) -> datetime.tzinfo:
    """The IANA zone of this name; UTC for a name this machine's tz data lacks (an event
    stored by a machine with other tz data: its times are still right, in UTC)."""
    try:
        return ZoneInfo(name)
    except Exception:  # ZoneInfoNotFoundError, or a name that is no zone's key
        return UTC


def local_time(event: Event, moment: datetime.datetime) -> datetime.datetime:
    """A stored time (UTC) in the event's zone."""
    return moment.astimezone(zone(event.timezone))


def iso_time(event: Event, moment: datetime.datetime | None) -> str | None:
    """ISO 8601 with the event's offset at that moment, as the API gives times."""
    return local_time(event, moment).isoformat() if moment is not None else None


def offset_text(moment: datetime.datetime) -> str:
    """`UTC+09:00`, `UTC-04:00`, `UTC+05:45`, `UTC+00:00`."""
    offset = moment.utcoffset() or datetime.timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


def shown_time(event: Event, moment: datetime.datetime) -> str:
    """A time as every page and `event list` show it, in the event's zone with its offset:
    `2027-01-15 09:30 (UTC+09:00, Asia/Tokyo)`."""
    here = local_time(event, moment)
    return f"{here:%Y-%m-%d %H:%M} ({offset_text(here)}, {event.timezone})"


def check_date(event: Event) -> datetime.date:
    """The date a list of this event is checked as of (SPEC §12: the formats' dated changes).
    The one place the event's date reaches the check (`check_deck`)."""
    return event.date if isinstance(event.date, datetime.date) else timezone.now().date()


# --- Events ----------------------------------------------------------------------------------


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction: `transaction.atomic()`. On SQLite it begins IMMEDIATE (settings.py),
    so a writer takes the lock when it starts and two writers never deadlock upgrading a read
    lock; the busy timeout makes the next one wait."""
    with transaction.atomic():
        yield


def create_event(
    name: str,
    *,
    game: str,
    format: str = "",
    deadline: datetime.datetime | None = None,
    requires_lists: bool = True,
    date: datetime.date | None = None,
    tz: str = "UTC",
) -> tuple[Event, str]:
    """A new event and its organiser token (shown once: only its hash is kept). Its date
    defaults to the deadline's date in its zone, else today there."""
    token = tokens.new_token()
    if date is None:
        date = (deadline or timezone.now()).astimezone(zone(tz)).date()
    with writing():
        event = Event.objects.create(
            key=_free_key(),
            name=" ".join(name.split())[:NAME_LIMIT],
            game=game,
            format=format,
            deadline=deadline,
            date=date,
            timezone=tz,
            requires_lists=requires_lists,
            organiser_token_hash=tokens.token_hash(token),
        )
    return event, token


def _free_key() -> str:
    while True:
        key = tokens.new_event_key()
        if not Event.objects.filter(key=key).exists():
            return key


def list_events() -> list[Event]:
    return list(Event.objects.order_by("id"))


def decklist_counts() -> dict[int, int]:
    """Event primary key -> how many lists it has."""
    from django.db.models import Count

    lists = Decklist.objects.filter(withdrawn_at__isnull=True)
    rows = lists.values("event_id").annotate(n=Count("id")).order_by()
    return {row["event_id"]: row["n"] for row in rows}


def get_event(key: str) -> Event:
    """The event with this public id; NotFound otherwise."""
    key = str(key)
    if not (0 < len(key) <= 32 and key.isascii() and key.isalnum()):
        raise NotFound(NO_EVENT)  # never sent to the database (PostgreSQL refuses a NUL)
    found = Event.objects.filter(key=key).first()
    if found is None:
        raise NotFound(NO_EVENT)
    return found


_RECENT: dict[str, tuple[float, Event]] = {}
RECENT_SECONDS = 1.0


def recent_event(key: str) -> Event:
    """The event as this process read it at most a second ago, if it was open then; NotFound as
    `get_event`. For the live check and a submission's first look only: an event's game, format
    and deadline never change, and `submit` checks the lock and the deadline again
    as it writes (a closed event is read again: it may have been unlocked since)."""
    now = time.monotonic()
    seen = _RECENT.get(key)
    if seen is not None and now - seen[0] < RECENT_SECONDS and closed_reason(seen[1]) is None:
        return seen[1]
    event = get_event(key)
    if len(_RECENT) >= 1024:
        _RECENT.clear()
    _RECENT[key] = (now, event)
    return event


def organiser_event(key: str, token: str | None) -> Event:
    """The event, when the token is its organiser token: 404 unknown event, 401 no token, 403 a
    token of another event (or none at all)."""
    event = get_event(key)
    if not token:
        raise Unauthorized(NO_TOKEN)
    if not tokens.matches(token, event.organiser_token_hash):
        raise Forbidden(WRONG_TOKEN)
    return event


def event_for_token(token: str) -> Event | None:
    """The event whose organiser token this is (`/o/TOKEN`), or None."""
    if not token or len(token) > 200:
        return None
    found = Event.objects.filter(organiser_token_hash=tokens.token_hash(token)).first()
    if found is None or not tokens.matches(token, found.organiser_token_hash):
        return None
    return found


def sign_in(session: Any, event: Event) -> None:
    """Remember in a browser session that it is the organiser of this event."""
    keys = list(session.get(SESSION_KEY, []))
    if event.key not in keys:
        keys.append(event.key)
    session.cycle_key()  # a new session id at sign-in: no fixation
    session[SESSION_KEY] = keys


def signed_in(session: Any, event: Event) -> bool:
    """Whether a browser session signed in as this event's organiser."""
    return event.key in session.get(SESSION_KEY, [])


def closed_reason(event: Event, now: datetime.datetime | None = None) -> str | None:
    """Why players cannot submit now ("locked", "deadline_passed"), or None while open."""
    if event.locked:
        return "locked"
    if event.deadline is not None and (now or timezone.now()) >= event.deadline:
        return "deadline_passed"
    return None


def ensure_open(event: Event) -> None:
    """Closed (409) when players can no longer submit or replace lists."""
    reason = closed_reason(event)
    if reason == "locked":
        raise Closed(LOCKED, "locked")
    if reason == "deadline_passed":
        raise Closed(DEADLINE_PASSED, "deadline_passed")


def event_state(event: Event) -> dict[str, Any]:
    """The event as the API shows it (anyone may see this)."""
    return {
        "event": event.key,
        "name": event.name,
        "game": event.game,
        "format": event.format or None,
        "deadline": iso_time(event, event.deadline),
        "date": check_date(event).isoformat(),
        "timezone": event.timezone,
        "requires_lists": event.requires_lists,
        "locked": event.locked,
        "published": event.published,
        "open": closed_reason(event) is None,
        "submit_url": submit_path(event),
    }


def record(
    event: Event, action: str, *, decklist: Decklist | None = None, detail: str = ""
) -> None:
    """Keep an organiser's action in the event's audit log (call it inside the action's write
    transaction, so the log and the change are stored together or not at all)."""
    AuditEntry.objects.create(
        event=event, action=action, at=timezone.now(), decklist=decklist, detail=detail[:200]
    )


def audit_log(event: Event) -> list[AuditEntry]:
    """Every organiser action on the event, oldest first."""
    return list(AuditEntry.objects.filter(event=event).order_by("at", "id"))


def audit_json(entry: AuditEntry, event: Event | None = None) -> dict[str, Any]:
    return {
        "action": entry.action,
        "at": iso_time(event or entry.event, entry.at),
        "decklist": entry.decklist_id,
        "detail": entry.detail,
    }


def set_locked(event: Event, locked: bool) -> Event:
    with writing():
        Event.objects.filter(pk=event.pk).update(locked=locked)
        record(event, "lock" if locked else "unlock")
    event.refresh_from_db()
    return event


def publish(event: Event) -> Event:
    return _set_published(event, True)


def unpublish(event: Event) -> Event:
    """The public lists are gone again (404) until the next publish."""
    return _set_published(event, False)


def _set_published(event: Event, published: bool) -> Event:
    """Publish or unpublish; once is enough: doing it again changes nothing and logs nothing."""
    with writing():
        changed = Event.objects.filter(pk=event.pk, published=not published).update(
            published=published
        )
        if changed:
            record(event, "publish" if published else "unpublish")
    event.refresh_from_db()
    return event


def withdraw(decklist: Decklist) -> Decklist:
    """The organiser withdraws a list: kept, with its versions, but out of the CSV, the sheets,
    the metagame, the public lists and the judge's look-up. A withdrawn list stays as it was."""
    return _set_withdrawn(decklist, True)


def restore(decklist: Decklist) -> Decklist:
    """A withdrawn list back in the event (a list not withdrawn stays as it is)."""
    return _set_withdrawn(decklist, False)


def _set_withdrawn(decklist: Decklist, withdrawn: bool) -> Decklist:
    """Claimed (409) for a list whose player id another list took while it was withdrawn."""
    try:
        with writing():
            lists = Decklist.objects.filter(pk=decklist.pk, withdrawn_at__isnull=withdrawn)
            if lists.update(withdrawn_at=timezone.now() if withdrawn else None):
                record(decklist.event, "withdraw" if withdrawn else "restore", decklist=decklist)
    except IntegrityError:  # the database's one list per player id
        raise Claimed(PLAYER_ID_TAKEN_NOW(player_id=Quoted(decklist.player_id))) from None
    decklist.refresh_from_db(fields=["withdrawn_at"])
    return decklist


def ensure_not_withdrawn(decklist: Decklist) -> None:
    """Closed (409 `withdrawn`) for a list the organiser has withdrawn."""
    if decklist.withdrawn_at is not None:
        raise Closed(WITHDRAWN, "withdrawn")


# --- Checking a deck ------------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """A deck text checked for an event: the check's report and the registration (hash)."""

    report: DeckReport
    registration: Registration

    @property
    def legal(self) -> bool:
        return self.report.legal

    @property
    def deck_hash(self) -> str | None:
        return self.registration.deck_hash

    @property
    def lead(self) -> str:
        card = self.report.lead_card
        return str(getattr(card, "name", "") or "") if card is not None else ""

    def diagnostics(self, lang: str = "en") -> list[dict[str, Any]]:
        """As `check --output json` (with `message_localized` when lang is not English)."""
        return list(self.report.to_json(lang)["diagnostics"])


def language(lang: str | None) -> str:
    """en, ja or zh (None: English); Invalid for anything else."""
    if lang is None or lang == "":
        return "en"
    if lang not in LANGUAGES:
        raise Invalid(UNKNOWN_LANG(lang=lang))
    return lang


def check_deck(event: Event, text: str, player: str = "") -> Checked:
    """Check a deck text for an event, as `check` would check a file holding it (or the deck code
    it is) under the event's format, as of the event's date (`check_date`); register it as
    `register` would (its hash)."""
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import check_decks, detect_game, game_keys, get_game

    database = database_for(event.game)
    registrar = get_game(database.game).registrar
    format_key = event.format or None
    word = text.strip()
    is_code = (
        bool(word)
        and not any(ch.isspace() for ch in word)
        and len(word) <= 4096
        and any(get_game(k).registrar.is_code(word) for k in (database.game, *game_keys()))
    )
    source = DeckSource(word, argument=word) if is_code else DeckSource.from_text(DECK_NAME, text)
    owner = detect_game(source, database.game)
    day = check_date(event)
    reg = registrar.register(
        source, database, player=player, event=event.name, format_key=format_key, date=day
    )
    if owner is None or owner == database.game:
        report = reg.report  # the same reader and rules as check_deck
    else:  # another game's deck: one F010, as `check --cards` gives it, in the server's words
        from varz_deck.core.messages.diagnostics import diag

        report = check_decks([source], database, format_key, date=day)[0]
        wording = OTHER_GAME(game=get_game(owner).name, mine=get_game(database.game).name)
        report = replace(report, diagnostics=(diag("F010", wording, file=source.name),))
        reg = replace(reg, report=report, canonical=None, deck_hash=None)
    return Checked(report, reg)


# --- Submissions -----------------------------------------------------------------------------


def storable(text: str) -> str:
    """Text every database can keep: a NUL (PostgreSQL refuses it) or a lone surrogate (not
    UTF-8) becomes U+FFFD; anything else is kept exactly."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


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
        # one replacement of a list at a time (PostgreSQL: a row lock; SQLite's IMMEDIATE
        # transactions already run one at a time), so each gets the next number; and not of a
        # list withdrawn since it was read
        locked = Decklist.objects.select_for_update().filter(pk=decklist.pk).first()
        if locked is not None:
            ensure_not_withdrawn(locked)
        _append(decklist, version, by_organiser)
    return version, checked


def _append(decklist: Decklist, version: Version, by_organiser: bool) -> None:
    """Store a version as the list's next and current one (in a write transaction that holds
    the list's row): audited when the organiser made it, else only while the event is open."""
    last = Version.objects.filter(decklist=decklist).aggregate(n=Max("number"))["n"] or 0
    version.number = last + 1
    _add_version(decklist, version)
    if by_organiser:
        record(decklist.event, "replace", decklist=decklist, detail=f"version {version.number}")
    else:
        still_open(decklist.event)


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
    return Version(
        decklist=decklist,
        number=number,
        deck=text,
        deck_hash=checked.deck_hash,
        legal=checked.legal,
        lead=checked.lead[:200],
        format=str(checked.report.format or "")[:64],
        diagnostics=checked.diagnostics("en"),
        by_organiser=by_organiser,
        cards=verdict_fingerprint(decklist.event),
        submitted_legal=checked.legal,
        submitted_errors=codes_of(checked.diagnostics("en")),
    )


def _add_version(decklist: Decklist, version: Version) -> None:
    """Store the version, stamped now, as its list's current one (in a write transaction)."""
    version.decklist = decklist  # its id, now that the list has one
    version.submitted_at = timezone.now()
    version.save(force_insert=True)
    decklist.current = version
    decklist.save(update_fields=["current"])


def _decklist_id(value: object) -> int | None:
    text = str(value)
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return int(text)


def get_decklist(
    decklist_id: object, *, edit_token: str | None = None, organiser_token: str | None = None
) -> tuple[Decklist, bool]:
    """The list, for its player (edit token) or its event's organiser; (list, is_organiser).
    NotFound for anyone else, so a list's existence is not revealed."""
    number = _decklist_id(decklist_id)
    found = (
        Decklist.objects.select_related("event", "current").filter(pk=number).first()
        if number is not None
        else None
    )
    if found is None:
        raise NotFound(NO_DECKLIST)
    if organiser_token and tokens.matches(organiser_token, found.event.organiser_token_hash):
        return found, True
    if edit_token and tokens.matches(edit_token, found.edit_token_hash):
        return found, False
    raise NotFound(NO_DECKLIST)


def decklist_in_session(decklist_id: object, session: Any) -> Decklist | None:
    """The list when the browser session is signed in as its event's organiser."""
    number = _decklist_id(decklist_id)
    if number is None:
        return None
    found = Decklist.objects.select_related("event", "current").filter(pk=number).first()
    if found is None or not signed_in(session, found.event):
        return None
    return found


def versions(decklist: Decklist) -> list[Version]:
    """Every version of a list, oldest first."""
    return list(Version.objects.filter(decklist=decklist).order_by("number"))


def version_json(version: Version, event: Event) -> dict[str, Any]:
    return {
        "version": version.number,
        "submitted_at": iso_time(event, version.submitted_at),
        "deck_hash": version.deck_hash,
        "legal": version.legal,
        "by_organiser": version.by_organiser,
    }


def decklist_json(decklist: Decklist, lang: str = "en") -> dict[str, Any]:
    """A list with its current deck and diagnostics, and every version (player or organiser)."""
    current = decklist.current
    every = versions(decklist)
    if current is None:  # only while the first version is being written
        current = every[-1] if every else None
    diagnostics: list[dict[str, Any]] = []
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


# --- The organiser's views --------------------------------------------------------------------


def current_versions(event: Event) -> list[tuple[Decklist, Version]]:
    """Every list of the event (not withdrawn) with its current version, in order of first
    submission."""
    lists = Decklist.objects.filter(
        event=event, current__isnull=False, withdrawn_at__isnull=True
    ).select_related("current")
    return [(d, d.current) for d in lists.order_by("id")]


CurrentList = tuple[int, str, datetime.datetime, bool, str | None, Any, str, int]


def current_lists(event: Event, *, withdrawn: bool | None = False) -> list[CurrentList]:
    """Every list of the event with a current version (not withdrawn; `withdrawn=True`: the
    withdrawn ones instead, None: both), in order of first submission, as plain values: (id,
    player, submitted_at, legal, deck_hash, diagnostics, lead, number of versions).

    Two queries and no model objects or deck texts: the organiser's list of 1,000 players (the API,
    the dashboard and the metagame all read it) is asked for often on the day, and building 2,000
    model instances took most of its time."""
    counts = Counter(
        Version.objects.filter(decklist__event=event).values_list("decklist_id", flat=True)
    )
    chosen = Decklist.objects.filter(event=event, current__isnull=False)
    if withdrawn is not None:
        chosen = chosen.filter(withdrawn_at__isnull=not withdrawn)
    lists = chosen.order_by("id").values_list(
        "id",
        "player",
        "current__submitted_at",
        "current__legal",
        "current__deck_hash",
        "current__diagnostics",
        "current__lead",
    )
    return [(*row, counts[row[0]]) for row in lists]


def codes_of(diagnostics: Any, errors: bool = True) -> list[str]:
    """The error (or other) codes of a version's stored diagnostics, each once, in order."""
    if not isinstance(diagnostics, list):
        return []
    return list(
        dict.fromkeys(
            str(d.get("code", ""))
            for d in diagnostics
            if isinstance(d, dict) and (d.get("severity") == "error") == errors
        )
    )


def changed_lists(event: Event) -> dict[int, tuple[datetime.datetime, bool | None]]:
    """List id -> (when its current verdict became other than the one given at submission,
    whether it was legal at submission), for the lists whose verdict changed."""
    rows = Decklist.objects.filter(event=event, current__changed_at__isnull=False).values_list(
        "id", "current__changed_at", "current__submitted_legal"
    )
    return {pk: (at, legal) for pk, at, legal in rows}


def withdrawn_times(event: Event) -> dict[int, datetime.datetime]:
    """The event's withdrawn lists: id -> when each was withdrawn."""
    rows = Decklist.objects.filter(event=event, withdrawn_at__isnull=False)
    return dict(rows.values_list("id", "withdrawn_at"))


def decklist_rows(event: Event) -> list[dict[str, Any]]:
    """The organiser's table, withdrawn lists too: `[{"id", "player", "submitted_at", "legal",
    "deck_hash", "errors", "warnings", "versions", "lead", "changed_since_submitted",
    "withdrawn", "withdrawn_at"}]`."""
    changed = changed_lists(event)
    gone = withdrawn_times(event)
    every = current_lists(event, withdrawn=None)
    return [
        {
            "id": pk,
            "player": player,
            "submitted_at": iso_time(event, submitted_at),
            "legal": legal,
            "deck_hash": deck_hash,
            "errors": codes_of(found),
            "warnings": codes_of(found, errors=False),
            "versions": versions,
            "lead": lead,
            "changed_since_submitted": pk in changed,
            "withdrawn": pk in gone,
            "withdrawn_at": iso_time(event, gone.get(pk)),
        }
        for pk, player, submitted_at, legal, deck_hash, found, lead, versions in every
    ]


@lru_cache(maxsize=4096)
def _registration(version_id: int, game: str, format_key: str, event_name: str) -> Registration:
    version = Version.objects.select_related("decklist__event").get(pk=version_id)
    return check_deck(version.decklist.event, version.deck, version.decklist.player).registration


REPORT_GAMES = 20_000  # `varz-deck report`'s default, so a page and the command agree
REPORT_SEED = 1


def figures_page(decklist: Decklist, lang: str) -> str:
    """`varz-deck report`'s page of the list's current version, as of its event's date, with
    the command's games and seed (the same figures). Computed once per version and language in
    each process: a version never changes once stored."""
    version = decklist.current
    event = decklist.event
    return _figures(version.pk, event.game, check_date(event).isoformat(), lang)


@lru_cache(maxsize=512)
def _figures(version_id: int, game: str, date: str, lang: str) -> str:
    from varz_deck.core.analysis.analyse import analyse
    from varz_deck.core.analysis.glossary import entries
    from varz_deck.core.analysis.htmlreport import render
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import get_game

    version = Version.objects.select_related("decklist").get(pk=version_id)
    database = database_for(game)
    the_game = get_game(database.game)
    source = DeckSource(f"list {version.decklist_id}", version.deck)
    analysis = analyse(
        the_game,
        source,
        database,
        date=datetime.date.fromisoformat(date),
        seed=REPORT_SEED,
        games=REPORT_GAMES,
    )
    return render(analysis, entries(the_game), lang)


def registrations(
    event: Event, lists: list[tuple[Decklist, Version]] | None = None
) -> list[Registration]:
    """Each player's current list registered as `register` does (cached per version)."""
    out = []
    date = check_date(event).isoformat()
    for decklist, version in current_versions(event) if lists is None else lists:
        reg = _registration(version.pk, event.game, event.format, event.name)
        out.append(
            replace(reg, path=str(decklist.pk), player=decklist.player, event=event.name, date=date)
        )
    return out


TIME_COLUMNS = ("submitted_at", "changed_at")


def export_csv(event: Event) -> str:
    """`register --output csv` of every current list: one row per player, formula-safe cells;
    the path column holds the decklist id. Then the list's first submission and its current
    version's time (`TIME_COLUMNS`), ISO 8601 to the second with the event's offset then."""
    import csv
    import io

    from varz_deck.core.registration.render import render_csv
    from varz_deck.games import get_game

    layout = get_game(database_for(event.game).game).registrar.layout
    lists = current_versions(event)
    rows = csv.reader(io.StringIO(render_csv(registrations(event, lists), layout)))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*next(rows), *TIME_COLUMNS])
    for row, (decklist, version) in zip(rows, lists, strict=True):
        times = (decklist.created_at, version.submitted_at)
        writer.writerow([*row, *(local_time(event, t).isoformat("T", "seconds") for t in times)])
    return buffer.getvalue()


def sheets_document(event: Event, lang: str = "en") -> str:
    """Every player's `register` sheet in one printable HTML document, a page each, with the QR
    code of its deck code (a judge's phone scans it into the judge's page)."""
    from varz_deck.core.registration.sheet import render_sheets
    from varz_deck.games import get_game
    from varz_deck.server.qr import qr_svg

    registrar = get_game(database_for(event.game).game).registrar
    parts = replace(registrar.sheet_parts, qr=partial(qr_svg, lang=lang))
    return render_sheets(registrations(event), parts, lang)


@dataclass(frozen=True)
class MetagameRow:
    lead: str  # the lead card's name; "" when the list names none
    lists: int
    legal: int
    share: float  # of every list, 0..1


def metagame(event: Event) -> list[MetagameRow]:
    """How many lists play each lead card, most played first, then by name."""
    return metagame_of([(row[6], row[3]) for row in current_lists(event)])


def metagame_of(rows: Sequence[tuple[str, bool]]) -> list[MetagameRow]:
    """The metagame of (lead, legal) pairs, one per list."""
    total = len(rows)
    by_lead = Counter(lead for lead, _ in rows)
    legal = Counter(lead for lead, ok in rows if ok)
    return [
        MetagameRow(lead, n, legal[lead], n / total if total else 0.0)
        for lead, n in sorted(by_lead.items(), key=lambda item: (-item[1], item[0]))
    ]


def game_of(event: Event) -> Game:
    """The game an event is of (KeyError for one this version lacks)."""
    from varz_deck.games import get_game

    return get_game(event.game)


def public_lists(event: Event) -> list[dict[str, Any]]:
    """Every player's canonical list, once published (NotFound before)."""
    if not event.published:
        raise NotFound(NOT_PUBLISHED)
    from varz_deck.core.registration.render import canonical_json

    return [
        {
            "id": int(reg.path),
            "player": reg.player,
            "legal": reg.legal,
            "deck_hash": reg.deck_hash,
            "cards": canonical_json(reg.canonical) if reg.canonical else None,
        }
        for reg in registrations(event)
    ]


# --- The judge's page ---------------------------------------------------------------------------


def find_lists(event: Event, query: str) -> list[tuple[Decklist, Version]]:
    """The lists a judge means: a deck hash (any version's) or a deck code (a scanned sheet:
    the hash of the list it encodes), else players whose name contains the text
    (case-insensitive)."""
    from varz_deck.core.registration.canonical import normalize_hash

    wanted = normalize_hash(query.strip()) or _code_hash(event, query.strip())
    pairs = current_versions(event)
    if wanted is not None:
        ids = set(
            Version.objects.filter(decklist__event=event, deck_hash=wanted).values_list(
                "decklist_id", flat=True
            )
        )
        return [(d, v) for d, v in pairs if d.pk in ids]
    needle = " ".join(query.split()).casefold()
    return [(d, v) for d, v in pairs if needle and needle in d.player.casefold()]


def _code_hash(event: Event, word: str) -> str | None:
    """The deck hash of the list a deck code of the event's game encodes; None for any other
    text."""
    from varz_deck.games import get_game

    if not word or len(word) > 4096 or any(ch.isspace() for ch in word):
        return None
    if not get_game(database_for(event.game).game).registrar.is_code(word):
        return None
    return check_deck(event, word).deck_hash


def compare(
    event: Event, version: Version, presented: str
) -> tuple[DeckDiff | None, Registration, Registration]:
    """The registered list against a presented one, card by card (`diff`); None when either
    cannot be compared (unreadable: see the registrations' diagnostics)."""
    from varz_deck.core.registration.diff import diff_decks

    before = check_deck(event, version.deck, version.decklist.player).registration
    after = check_deck(event, presented).registration
    if before.canonical is None or after.canonical is None:
        return None, before, after
    return diff_decks(before.canonical, after.canonical), before, after


# --- The roster (SPEC §9 "Roster") ----------------------------------------------------------

LONG_PLAYER_ID = msg("serve", "the player id is over {limit} characters")
BAD_PLAYER_ID = msg("serve", "the player id holds a control character")
ROSTER_NOT_STORED = msg("serve", "nothing was stored: {problem}")
ROSTER_NOT_STORED_MORE = nmsg(
    "serve",
    "nothing was stored: {problem} (and {n} more problem)",
    "nothing was stored: {problem} (and {n} more problems)",
)
ROSTER_TOO_LARGE = msg("serve", "the roster is over {limit:,} bytes; upload at most {limit:,}")
ROSTER_TYPE = msg("serve", "send the roster as text/csv, UTF-8, with the header name,player_id")


class RosterInvalid(Invalid):
    """An upload refused whole (422): every problem with its line (RosterError's)."""

    code = "invalid_roster"

    def __init__(self, error: RosterError) -> None:
        first, more = error.problems[0].message, len(error.problems) - 1
        message = (
            ROSTER_NOT_STORED_MORE(problem=first, n=more)
            if more
            else ROSTER_NOT_STORED(problem=first)
        )
        super().__init__(message)
        self.problems = error.problems


class TooLarge(ServiceError):
    status, code = 413, "too_large"


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


def roster_path(token: str) -> str:
    """A rostered player's personal link (the token is the secret: the organiser sends it)."""
    return f"/p/{token}"


def _roster_key() -> str:
    from django.conf import settings

    return str(settings.SECRET_KEY)


def roster_link(event: Event, entry: RosterEntry) -> str:
    """The absolute personal link of an entry, rebuilt from the server's key and its salt."""
    from varz_deck.server import hosts

    return hosts.link(roster_path(tokens.roster_token(_roster_key(), event.key, entry.salt)))


@dataclass(frozen=True)
class RosterUpload:
    """What an upload did: players in the file, new ones, known ones changed, known ones absent."""

    players: int
    new: int
    updated: int
    not_in_file: int

    @property
    def detail(self) -> str:
        """The audit log's line, e.g. `12 players (3 new, 1 not in this file)`."""
        noun = "player" if self.players == 1 else "players"
        absent = f", {self.not_in_file} not in this file" if self.not_in_file else ""
        return f"{self.players} {noun} ({self.new} new{absent})"


def upload_roster(event: Event, data: bytes) -> RosterUpload:
    """Store an uploaded roster (roster.read_roster): a known player id gets the file's name and
    email, a new one an entry and a personal link; entries missing from the file are kept (the
    answer counts them). RosterInvalid (nothing stored) when any line is wrong."""
    from varz_deck.server.config import BODY_LIMIT
    from varz_deck.server.roster import read_roster

    if len(data) > BODY_LIMIT:
        raise TooLarge(ROSTER_TOO_LARGE(limit=BODY_LIMIT))
    try:
        players = read_roster(data)
    except RosterError as error:
        raise RosterInvalid(error) from None
    key = _roster_key()
    with writing():
        Event.objects.select_for_update().filter(pk=event.pk).first()  # one upload at a time
        known = {e.player_id: e for e in RosterEntry.objects.filter(event=event)}
        new, changed = [], []
        for player in players:
            entry = known.get(player.player_id)
            if entry is None:
                salt = tokens.new_salt()
                link_hash = tokens.token_hash(tokens.roster_token(key, event.key, salt))
                new.append(
                    RosterEntry(
                        event=event,
                        name=player.name,
                        player_id=player.player_id,
                        email=player.email,
                        salt=salt,
                        token_hash=link_hash,
                    )
                )
            elif (entry.name, entry.email) != (player.name, player.email):
                entry.name, entry.email = player.name, player.email
                changed.append(entry)
        RosterEntry.objects.bulk_create(new, batch_size=500)
        RosterEntry.objects.bulk_update(changed, ["name", "email"], batch_size=500)
        in_file = {player.player_id for player in players}
        done = RosterUpload(
            len(players), len(new), len(changed), sum(1 for p in known if p not in in_file)
        )
        record(event, "roster", detail=done.detail)
    return done


def roster_entry_for_token(token: str) -> RosterEntry | None:
    """The roster entry whose personal link this token is (`/p/TOKEN`), with its event; or None."""
    if not token or len(token) > 200:
        return None
    found = (
        RosterEntry.objects.select_related("event")
        .filter(token_hash=tokens.token_hash(token))
        .first()
    )
    if found is None or not tokens.matches(token, found.token_hash):
        return None
    return found


def counted_lists(event: Event) -> list[tuple[int, str, str, bool, datetime.datetime, str]]:
    """(id, player, player_id, legal, submitted_at, claimed_player_id) of every list of the event
    that counts for the roster (each with a current version, not withdrawn: a withdrawn list's
    player is missing again), in order of first submission."""
    lists = Decklist.objects.filter(
        event=event, current__isnull=False, withdrawn_at__isnull=True
    ).order_by("id")
    fields = ("id", "player", "player_id", "current__legal", "current__submitted_at")
    return list(lists.values_list(*fields, "claimed_player_id"))


def entry_list(entry: RosterEntry) -> Decklist | None:
    """The list a rostered player's link shows and replaces: the list (not withdrawn) of their
    player id that their link or the organiser made; never one a stranger named the id on."""
    found = Decklist.objects.select_related("event", "current").filter(
        event_id=entry.event_id,
        player_id=entry.player_id,
        player_id_confirmed=True,
        withdrawn_at__isnull=True,
        current__isnull=False,
    )
    return found.first()


@dataclass(frozen=True)
class RosterRow:
    """A rostered player (`on_roster`) or a list whose player id no entry has. `status`:
    "missing" (no list), "legal" or "illegal" (the player's list). `claimed`: the id a list not
    on the roster named before the rostered player's own link took it ("" for any other)."""

    name: str
    player_id: str
    email: str
    link: str | None
    status: str
    list: int | None
    submitted_at: datetime.datetime | None
    on_roster: bool
    claimed: str = ""

    def to_json(self, event: Event) -> dict[str, Any]:
        return {
            "name": self.name,
            "player_id": self.player_id or None,
            "email": self.email or None,
            "link": self.link,
            "status": self.status,
            "list": self.list,
            "submitted_at": iso_time(event, self.submitted_at),
            "on_roster": self.on_roster,
            "claimed_player_id": self.claimed or None,
        }


def roster_rows(event: Event, *, links: bool = True) -> list[RosterRow]:
    """Every rostered player in upload order with their status, then every list not on the
    roster (none when the event has no roster). `links=False`: no link built (None)."""
    entries = list(RosterEntry.objects.filter(event=event).order_by("id"))
    if not entries:
        return []
    lists = counted_lists(event)
    newest = {row[2]: row for row in lists if row[2]}  # one list (not withdrawn) per id
    rows = []
    for entry in entries:
        found = newest.get(entry.player_id)
        status = "missing" if found is None else "legal" if found[3] else "illegal"
        rows.append(
            RosterRow(
                entry.name,
                entry.player_id,
                entry.email,
                roster_link(event, entry) if links else None,
                status,
                found[0] if found else None,
                found[4] if found else None,
                True,
            )
        )
    rostered = {entry.player_id for entry in entries}
    for pk, player, player_id, legal, at, claimed in lists:
        if player_id not in rostered:
            state = "legal" if legal else "illegal"
            rows.append(RosterRow(player, player_id, "", None, state, pk, at, False, claimed))
    return rows


def roster_csv(event: Event) -> str:
    """The personal links for a mail merge: `name,player_id,email,link`, formula-safe cells."""
    from varz_deck.server.roster import links_csv

    return links_csv(
        (row.name, row.player_id, row.email, row.link or "")
        for row in roster_rows(event)
        if row.on_roster
    )
