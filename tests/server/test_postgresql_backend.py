"""varz_deck.server.postgresql: a kept connection is used without a `SELECT 1` while it has
nothing to read, and one the server ended is replaced before the request's query.

- in one process (a subprocess: Django is configured once per process): two requests on a live
  connection reuse it and ask PostgreSQL nothing; after `pg_terminate_backend` the next request
  gets a new connection (Django's check ran, once) and its query works; a connection left in a
  transaction is checked with Django's `SELECT 1`;
- against a live `varz-deck serve`: every server connection ended by PostgreSQL, then every
  submission is still answered 201 and stored.
"""

from __future__ import annotations

import time

import psycopg
from harness import deck_variants
from test_deadline import _passes

SCRIPT = """
import select, sys, time
from varz_deck.server.settings import configure
configure(sys.argv[1])
from django.core.management import call_command
call_command("migrate", verbosity=0)
import psycopg
from django.db import close_old_connections, connection, connections
from django.db.backends.postgresql import base as django_base
from varz_deck.server.postgresql.base import DatabaseWrapper

assert isinstance(connections["default"], DatabaseWrapper)
asked = []
checked = django_base.DatabaseWrapper.is_usable
def counting(self):
    asked.append(1)
    return checked(self)
django_base.DatabaseWrapper.is_usable = counting

def request():
    close_old_connections()  # what Django does as a request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

first = request()
assert request() == first and request() == first and asked == [], asked
with psycopg.connect(sys.argv[1], autocommit=True) as admin:
    admin.execute("SELECT pg_terminate_backend(%s)", [first])
poller = select.poll()
poller.register(connection.connection.fileno(), select.POLLIN)
give_up = time.monotonic() + 20
while not poller.poll(50) and time.monotonic() < give_up:
    pass
second = request()
assert second != first and asked == [1], (first, second, asked)
assert request() == second and asked == [1]

connection.connection.execute("BEGIN")  # left in a transaction: asked with SELECT 1
close_old_connections()
connection.close_if_health_check_failed()
assert asked == [1, 1]
print("ok")
"""


def test_a_live_connection_is_kept_without_asking_and_an_ended_one_replaced(make_database):
    _passes(SCRIPT, make_database("postgresql", "backend").url)


def test_the_server_answers_every_submission_after_postgresql_ended_its_connections(
    make_database, live_server
):
    database = make_database("postgresql", "ended")
    server = live_server(database)
    event = server.create_event("Ended Open")
    decks = iter(deck_variants("varz", 40, seed=7))
    path = f"/api/v1/events/{event['event']}/decklists"
    stored = []
    for round_ in range(3):
        for number in range(12):  # over both workers and their threads
            answer = server.post(path, json={"player": f"P{round_}-{number}", "deck": next(decks)})
            assert answer.status == 201, (round_, number, answer.status, answer.text[:300])
            stored.append(answer.json()["id"])
        with psycopg.connect(database.url, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        assert ended and all(row[0] for row in ended), ended
        time.sleep(0.2)
    listed = server.get(path, headers=event["headers"]).json()
    assert sorted(entry["id"] for entry in listed) == sorted(stored)
