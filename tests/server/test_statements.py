"""statements.py against the ORM it stands in for, on SQLite and on PostgreSQL.

Each case runs in a subprocess (Django is configured once per process, for one database):
- `event(key=…)` / `event(pk=…)` give the instance `Event.objects.get` gives, every field equal
  and of the same type (a deadline with its time zone, booleans as bool), None for an unknown key;
- `add(instance)` stores the row `instance.save()` stores (every field read back through the ORM
  equal, the JSON diagnostics and a non-ASCII deck exactly), sets the primary key, stamps
  `auto_now_add`, and the instance is no longer "adding";
- `set_current` points the list at the version, and nothing else changes.
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
    print("ok")
    """
)


@pytest.mark.parametrize("kind", KINDS)
def test_statements_do_what_the_orm_does(kind, make_database):
    database = make_database(kind, "statements")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, database.url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
