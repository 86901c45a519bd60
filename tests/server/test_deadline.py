"""The deadline instant (issue 24): a submission at the deadline itself is late.

SPEC §9 says players replace their list "until the deadline" and the deadline is when
"submissions close"; decided here: the deadline is the first instant that is closed. So at
`deadline - 1 µs` a player's list is stored, at `deadline` exactly it is refused with
`deadline_passed`, both by the service's own check (`closed_reason`) and by the condition of
the write transaction that stores it (the event read again, locked), on SQLite and on PostgreSQL. The clock is
Django's `timezone.now`, set to each instant (it also stamps the stored rows).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("sqlite", "postgresql")


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


SCRIPT = textwrap.dedent(
    """
    import datetime, sys
    from varz_deck.server.config import configure
    configure(sys.argv[1])
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.utils import timezone
    from varz_deck.server import service
    from varz_deck.server.models import Decklist, Version

    deadline = datetime.datetime(2031, 5, 6, 7, 8, 9, 0, tzinfo=datetime.timezone.utc)
    tick = datetime.timedelta(microseconds=1)
    event, _token = service.create_event("Instant Open", game="varz", deadline=deadline)
    event = service.get_event(event.key)
    deck = "hero: VZ01-001\\n"

    def at(instant):
        timezone.now = lambda: instant  # Django's clock: closed_reason and the stored stamps

    # the service's own check
    assert service.closed_reason(event, deadline - tick) is None
    assert service.closed_reason(event, deadline) == "deadline_passed"
    assert service.closed_reason(event, deadline + tick) == "deadline_passed"

    # a player's submission, end to end: just before is stored, at the instant is refused
    at(deadline - tick)
    decklist, version, _edit, _checked = service.submit(event, "Just In Time", deck)
    assert Decklist.objects.get(pk=decklist.pk).created_at == deadline - tick
    at(deadline)
    try:
        service.submit(event, "On The Stroke", deck)
    except service.Closed as closed:
        assert closed.code == "deadline_passed", closed.code
    else:
        raise AssertionError("a submission at the deadline instant was stored")
    try:  # a replacement by the player, the same
        service.replace_deck(decklist, deck)
    except service.Closed as closed:
        assert closed.code == "deadline_passed", closed.code
    else:
        raise AssertionError("a replacement at the deadline instant was stored")
    assert Decklist.objects.count() == 1 and Version.objects.count() == 1

    print("ok")
    """
)


@pytest.mark.parametrize("kind", KINDS)
def test_a_submission_at_the_deadline_instant_is_late(kind, make_database):
    _passes(SCRIPT, make_database(kind, "deadline").url)
