"""The submission path's statements, compiled once instead of on every request.

A submission is the one request a server answers hundreds of times a minute, and Django's ORM
compiles each query anew: on this path that compiling cost four times the SQL it produced (0.9 ms
of CPU to find an event by its id, against 0.06 ms to run the query). So the path's statements are
made here once per process from the models' own metadata and the ORM's own compiler, then run
through Django's connection (inside its transactions, with its value adapters):
- `event(key=…)` / `event(pk=…)`: one event, its values converted as the ORM's compiler
  converts them and the instance built by `Model.from_db`, as the ORM builds it;
- `add(instance)`: the INSERT `instance.save()` makes for a new row (each field's `pre_save`
  and `get_db_prep_save`, so `auto_now_add` and JSON work as there), its primary key set;
- `set_current(decklist_id, version_id)`: point a list at its newest version;
- `store_new(decklist, version, only_while_open=…)`: a new list and its first version, only
  while the event takes submissions: one statement on PostgreSQL (a round trip to the server
  costs more than the statement: five of them, BEGIN to COMMIT, took 2.7 ms of CPU here and in
  PostgreSQL, the one statement 1.1 ms), a conditional INSERT and two more on SQLite.
Everything else in the server uses the ORM.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import connection, models

from varz_deck.server.models import Decklist, Event, Version

M = TypeVar("M", bound=models.Model)


def event(**lookup: object) -> Event | None:
    """The event with this key or pk (exactly one lookup), or None."""
    ((name, value),) = lookup.items()
    fields, converters = _event_columns(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(_event_sql(connection.vendor, name), [value])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, column, convert in converters:
        for converter in convert:
            values[index] = converter(values[index], column, connection)
    return Event.from_db(connection.alias, [field.attname for field in fields], values)


@cache
def _event_columns(
    vendor: str,
) -> tuple[tuple[Any, ...], tuple[tuple[int, Any, tuple[Any, ...]], ...]]:
    """Event's columns, and the converters of those whose values need one (as the ORM's
    compiler finds them: the backend's, then the field's)."""
    fields = tuple(Event._meta.concrete_fields)
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(Event._meta.db_table)
        found = (*connection.ops.get_db_converters(column), *field.get_db_converters(connection))
        if found:
            converters.append((index, column, tuple(found)))
    return fields, tuple(converters)


@cache
def _event_sql(vendor: str, name: str) -> str:
    quote = connection.ops.quote_name
    meta = Event._meta
    columns = ", ".join(quote(field.column) for field in _event_columns(vendor)[0])
    field = meta.pk if name == "pk" else meta.get_field(name)
    assert field is not None
    where = quote(field.column)
    return f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {where} = %s"


def add(instance: M) -> M:
    """INSERT a new row as `instance.save()` would (this server's models have no signals); the
    instance, its primary key set."""
    _fields, sql = _insert(instance._meta.label, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(instance))
        if connection.features.can_return_columns_from_insert:
            row = cursor.fetchone()
            assert row is not None
            _saved(instance, row[0])
        else:
            _saved(instance, cursor.lastrowid)
    return instance


def _values(instance: models.Model, skip: str = "") -> list[Any]:
    """The values of a new row as `save()` makes them (each field's `pre_save`, which stamps
    `auto_now_add`, and `get_db_prep_save`), without the primary key and the field `skip`."""
    fields, _sql = _insert(instance._meta.label, connection.vendor)
    return [
        field.get_db_prep_save(field.pre_save(instance, True), connection)
        for field in fields
        if field.name != skip
    ]


def _saved(instance: M, pk: Any) -> M:
    """The instance as the ORM leaves one it has just inserted."""
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


@cache
def _insert(label: str, vendor: str) -> tuple[tuple[Any, ...], str]:
    """The fields a new row of the model (by label) is given, and its INSERT."""
    from django.apps import apps

    meta = apps.get_model(label)._meta
    assert meta.pk is not None
    fields = tuple(field for field in meta.concrete_fields if not field.primary_key)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return fields, sql


def set_current(decklist_id: int, version_id: int) -> None:
    """Point a decklist at its newest version."""
    with connection.cursor() as cursor:
        cursor.execute(_set_current_sql(connection.vendor), [version_id, decklist_id])


@cache
def _set_current_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = Decklist._meta
    assert meta.pk is not None
    current = quote(meta.get_field("current").column)
    return f"UPDATE {quote(meta.db_table)} SET {current} = %s WHERE {quote(meta.pk.column)} = %s"


def store_new(decklist: Decklist, version: Version, *, only_while_open: bool) -> bool:
    """Store a new list and its first version, submitted as the list is created, the list
    pointing at it, as `add` and `set_current` would. `only_while_open`: only if the event then
    takes submissions (not locked, its deadline later); False, and nothing stored, if not.

    PostgreSQL: one statement, atomic without a transaction around it (both ids are drawn from
    their sequences first; the two rows' foreign keys to each other are checked at its end).
    SQLite: three statements, in the caller's write transaction."""
    values = _values(decklist, skip="current")  # created_at is stamped here (auto_now_add)
    version.submitted_at = decklist.created_at
    where: list[Any] = []
    if only_while_open:
        deadline = Event._meta.get_field("deadline")
        where = [decklist.event_id, deadline.get_db_prep_value(decklist.created_at, connection)]
    if connection.vendor == "postgresql":
        sql = _store_new_sql(connection.vendor, only_while_open)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*where, *values, *_values(version, skip="decklist")])
            row = cursor.fetchone()
        if row is None:
            return False
        version.decklist = _saved(decklist, row[0])  # its id, now that the list has one
        decklist.current = _saved(version, row[1])
        return True
    with connection.cursor() as cursor:
        cursor.execute(_store_new_sql(connection.vendor, only_while_open), [*values, *where])
        if connection.features.can_return_columns_from_insert:
            row = cursor.fetchone()
        else:  # SQLite before 3.35
            row = (cursor.lastrowid,) if cursor.rowcount == 1 else None
    if row is None:
        return False
    version.decklist = _saved(decklist, row[0])
    add(version)
    set_current(decklist.pk, version.pk)
    decklist.current = version
    return True


@cache
def _store_new_sql(vendor: str, only_open: bool) -> str:
    quote = connection.ops.quote_name
    event, decklist, version = Event._meta, Decklist._meta, Version._meta
    assert decklist.pk is not None and version.pk is not None

    def columns(*fields: Any) -> str:
        return ", ".join(quote(field.column) for field in fields)

    def marks(fields: list[Any]) -> str:
        return ", ".join(["%s"] * len(fields))

    deadline, locked = event.get_field("deadline").column, event.get_field("locked").column
    is_open = (
        f"EXISTS (SELECT 1 FROM {quote(event.db_table)} WHERE {columns(event.pk)} = %s"
        f" AND NOT {quote(locked)} AND ({quote(deadline)} IS NULL OR {quote(deadline)} > %s))"
    )
    where = f" WHERE {is_open}" if only_open else ""
    current, owner = decklist.get_field("current"), version.get_field("decklist")
    kept = [field for field in _insert(decklist.label, vendor)[0] if field is not current]
    if vendor != "postgresql":
        sql = f"INSERT INTO {quote(decklist.db_table)} ({columns(*kept)}) SELECT {marks(kept)}"
        if connection.features.can_return_columns_from_insert:
            return f"{sql}{where} RETURNING {columns(decklist.pk)}"
        return f"{sql}{where}"
    others = [field for field in _insert(version.label, vendor)[0] if field is not owner]
    with connection.cursor() as cursor:
        sequences = []
        for meta in (decklist, version):
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [meta.db_table, meta.pk.column])
            sequences.append(cursor.fetchone()[0])
    ids = f"SELECT nextval('{sequences[0]}') AS list, nextval('{sequences[1]}') AS version{where}"
    new_list = (
        f"INSERT INTO {quote(decklist.db_table)} ({columns(decklist.pk, *kept, current)})"
        f" SELECT list, {marks(kept)}, version FROM ids"
    )
    new_version = (
        f"INSERT INTO {quote(version.db_table)} ({columns(version.pk, owner, *others)})"
        f" SELECT version, list, {marks(others)} FROM ids"
    )
    return f"WITH ids AS ({ids}), l AS ({new_list}), v AS ({new_version}) SELECT * FROM ids"
