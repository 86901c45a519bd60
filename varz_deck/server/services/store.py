"""Writing to the database: one write transaction (`writing`), one row by its key (`one_or_none`),
text every database can keep."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.db import models, transaction

M = TypeVar("M", bound=models.Model)


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction: `transaction.atomic()`. On SQLite it begins IMMEDIATE (settings.py),
    so a writer takes the lock when it starts and two writers never deadlock upgrading a read
    lock; the busy timeout makes the next one wait."""
    with transaction.atomic():
        yield


def one_or_none(found: models.QuerySet[M]) -> M | None:
    """The one row a query on a unique key finds, or None: `get()`, which (unlike `first()`)
    adds no ORDER BY to compile and run."""
    try:
        return found.get()
    except found.model.DoesNotExist:
        return None


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
