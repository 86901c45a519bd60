"""statements.py against the ORM it stands in for, on SQLite and on PostgreSQL.

Each case runs in a subprocess (Django is configured once per process, for one database):
- `event(key=…)` / `event(pk=…)` give the instance `Event.objects.get` gives, every field equal
  and of the same type (a deadline with its time zone, booleans as bool), None for an unknown key;
- `add(instance)` stores the row `instance.save()` stores (every field read back through the ORM
  equal, the JSON diagnostics and a non-ASCII deck exactly), sets the primary key, stamps
  `auto_now_add`, and the instance is no longer "adding";
- `set_current` points the list at the version, and nothing else changes;
- `store_new` stores the rows `add` and `set_current` store, the version stamped as the list
  is created, on an open event (its deadline later, or none); on a locked event or one past its
  deadline nothing at all, unless the organiser adds the list.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from harness import ROOT

KINDS = ("sqlite", "postgresql")

SCRIPT = textwrap.dedent(
    """
    import datetime, sys
    from varz_deck.server.settings import configure
    configure(sys.argv[1])
    import django
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.db import transaction
    from varz_deck.server import statements
    from varz_deck.server.models import Decklist, Event, Version

    def fields(instance):
        return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}

    def same(a, b, skip=()):
        for name, value in fields(a).items():
            if name in skip:
                continue
            other = getattr(b, name)
            assert value == other and type(value) is type(other), (name, value, other)

    deadline = datetime.datetime(2031, 5, 6, 7, 8, 9, 123456, tzinfo=datetime.timezone.utc)
    made = Event.objects.create(key="k1", name="Ōsaka Open", game="varz", format="standard",
                                deadline=deadline, requires_lists=False, locked=True,
                                organiser_token_hash="h" * 64)
    Event.objects.create(key="k2", name="Plain", game="azuki", organiser_token_hash="g" * 64)
    for lookup in ({"key": "k1"}, {"pk": made.pk}):
        found = statements.event(**lookup)
        same(found, Event.objects.get(pk=made.pk))
        assert not found._state.adding and found._state.db == "default"
    plain = statements.event(key="k2")
    same(plain, Event.objects.get(key="k2"))
    assert plain.deadline is None and plain.requires_lists is True and plain.locked is False
    assert statements.event(key="nope") is None

    diagnostics = [{"code": "V102", "severity": "error", "message": "29 spells; 「忍」"}]
    with transaction.atomic():
        ours = statements.add(Decklist(event=made, player="Zoë 選手", edit_token_hash="t" * 64))
    assert isinstance(ours.pk, int) and not ours._state.adding and ours.created_at is not None
    theirs = Decklist.objects.create(event=made, player="Zoë 選手", edit_token_hash="t" * 64)
    same(Decklist.objects.get(pk=ours.pk), Decklist.objects.get(pk=theirs.pk), ("id", "created_at"))
    stamp = datetime.datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=datetime.timezone.utc)
    values = dict(number=1, deck="hero: 鬼\\n", submitted_at=stamp, deck_hash="a" * 64,
                  legal=False, lead="鬼", format="standard", diagnostics=diagnostics,
                  by_organiser=True)
    with transaction.atomic():
        version = statements.add(Version(decklist=ours, **values))
        statements.set_current(ours.pk, version.pk)
    twin = Version.objects.create(decklist=theirs, **values)
    same(Version.objects.get(pk=version.pk), Version.objects.get(pk=twin.pk), ("id", "decklist_id"))
    stored = Version.objects.get(pk=version.pk)
    assert stored.diagnostics == diagnostics and stored.submitted_at == stamp
    assert Decklist.objects.get(pk=ours.pk).current_id == version.pk
    assert Decklist.objects.get(pk=theirs.pk).current_id is None

    from django.utils import timezone
    from varz_deck.server.service import writing

    def new(event, player, only_while_open):
        listed = Decklist(event=event, player=player, edit_token_hash="t" * 64)
        version = Version(decklist=listed, **{**values, "submitted_at": None})
        with writing(one_statement=True):
            done = statements.store_new(listed, version, only_while_open=only_while_open)
        return done, listed, version

    hour = datetime.timedelta(hours=1)
    later = Event.objects.create(key="k3", name="Open", game="varz", organiser_token_hash="o" * 64,
                                 deadline=timezone.now() + hour)
    done, listed, version = new(later, "Zoë 選手", True)
    assert done and not listed._state.adding and not version._state.adding
    kept = Decklist.objects.get(pk=listed.pk)
    same(kept, Decklist.objects.get(pk=ours.pk), ("id", "created_at", "event_id", "current_id"))
    assert kept.event_id == later.pk and kept.current_id == version.pk
    again = Version.objects.get(pk=version.pk)
    same(again, Version.objects.get(pk=twin.pk), ("id", "decklist_id", "submitted_at"))
    assert again.decklist_id == listed.pk == version.decklist_id and listed.current is version
    assert again.submitted_at == kept.created_at == version.submitted_at
    assert new(plain, "No deadline", True)[0]
    past = Event.objects.create(key="k4", name="Past", game="varz", organiser_token_hash="p" * 64,
                                deadline=timezone.now() - datetime.timedelta(seconds=1))
    counts = (Decklist.objects.count(), Version.objects.count())
    for closed in (made, past):  # locked; its deadline passed
        done, listed, version = new(closed, "Late", True)
        assert not done and listed.pk is None and version.pk is None, closed
    assert (Decklist.objects.count(), Version.objects.count()) == counts
    for closed in (made, past):  # an organiser may always add a list
        assert new(closed, "By the organiser", False)[0]
    assert (Decklist.objects.count(), Version.objects.count()) == (counts[0] + 2, counts[1] + 2)
    print("ok")
    """
)


@pytest.mark.parametrize("kind", KINDS)
def test_statements_do_what_the_orm_does(kind, make_database):
    _passes(SCRIPT, make_database(kind, "statements").url)


def _passes(script: str, url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", script, url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


RECENT = textwrap.dedent(
    """
    import sys
    from varz_deck.server.settings import configure
    configure(sys.argv[1])
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from varz_deck.server import service
    from varz_deck.server.models import Decklist

    event, _token = service.create_event("Recent", game="varz")
    with CaptureQueriesContext(connection) as queries:
        first = service.recent_event(event.key)
        assert service.recent_event(event.key) is first
    assert len(queries) == 1 and not first.locked

    service.set_locked(service.get_event(event.key), True)
    stale = service.recent_event(event.key)  # read before the lock, less than a second ago
    assert stale is first and not stale.locked
    try:
        service.submit(stale, "Late", "hero: x\\n")
    except service.Closed as closed:
        assert closed.code == "locked", closed.code
    else:
        raise AssertionError("stored on a locked event")
    assert not Decklist.objects.exists()

    service.RECENT_SECONDS = 0.0
    assert service.recent_event(event.key).locked  # read again: locked now
    service.RECENT_SECONDS = 60.0
    with CaptureQueriesContext(connection) as queries:
        assert service.recent_event(event.key).locked  # a closed event is always read again
    assert len(queries) == 1
    service.set_locked(service.get_event(event.key), False)
    assert not service.recent_event(event.key).locked
    service.submit(service.recent_event(event.key), "In time", "hero: x\\n")
    assert Decklist.objects.count() == 1
    print("ok")
    """
)


def test_a_recent_event_is_read_again_when_stale_or_closed_and_the_write_checks_the_lock(
    make_database,
):
    _passes(RECENT, make_database("sqlite", "recent").url)
