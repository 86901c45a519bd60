"""The roster: uploading it, the players' personal links, each player's status."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from varz_deck.server import tokens
from varz_deck.server.models import Decklist, Event, RosterEntry
from varz_deck.server.roster import RosterError
from varz_deck.server.services.audit import record
from varz_deck.server.services.errors import ROSTER_TOO_LARGE, RosterInvalid, TooLarge
from varz_deck.server.services.paths import roster_path
from varz_deck.server.services.store import writing
from varz_deck.server.services.times import iso_time


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

    def to_json(self, event: Event) -> dict[str, object]:
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
