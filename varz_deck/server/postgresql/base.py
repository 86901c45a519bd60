"""Django's PostgreSQL backend, whose check of a kept connection asks the server nothing while the
connection has nothing to read.

Django checks a kept connection before each request's first query (CONN_HEALTH_CHECKS) by sending
`SELECT 1`: a round trip to PostgreSQL on every request, a tenth of a submission's CPU on both
sides. Between requests a live connection has nothing to read: a server that ends it (a restart,
`pg_terminate_backend`, its process killed) sends a last message or closes it, and either makes
its socket readable. So a connection idle, in no transaction and with nothing to read, is used as
it is; any other gets Django's `SELECT 1`, which tells whether it still works, and a broken one is
replaced before the request's query.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status == pq.TransactionStatus.IDLE and _quiet(
            connection.fileno()
        ):
            return True
        return bool(super().is_usable())


def _quiet(fd: int) -> bool:
    """Whether the socket has nothing to read and no error or hang-up (without waiting)."""
    try:
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(fd, select.POLLIN | select.POLLPRI)
            return not poller.poll(0)
        readable, _, failed = select.select([fd], [], [fd], 0)
        return not readable and not failed
    except (OSError, ValueError):
        return False
