"""The organiser's actions on an event (lock, publish, withdraw, restore), each in its audit log."""

from __future__ import annotations

from django.db import IntegrityError
from django.utils import timezone

from varz_deck.core.messages.i18n import Quoted
from varz_deck.server.models import AuditEntry, Decklist, Event
from varz_deck.server.services.errors import PLAYER_ID_TAKEN_NOW, WITHDRAWN, Claimed, Closed
from varz_deck.server.services.store import writing
from varz_deck.server.services.times import iso_time


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


def audit_json(entry: AuditEntry, event: Event | None = None) -> dict[str, object]:
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
