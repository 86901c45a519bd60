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
- `set_current(decklist_id, version_id)`: the one UPDATE of a submission.
Everything else in the server uses the ORM.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import connection, models

from varz_deck.server.models import Decklist, Event

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
    fields, sql = _insert(instance._meta.label, connection.vendor)
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            row = cursor.fetchone()
            assert row is not None
            instance.pk = row[0]
        else:
            instance.pk = cursor.lastrowid
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
