"""The ASGI application uvicorn serves: Django behind the live check's limits
(security.LiveCheckGuard) and the body limit (security.BodyLimit).

`application(url)` configures Django for the database URL first; settings.configure must have run
before Django's handler is built.

Django runs as a WSGI application on a fixed pool of threads (`WSGIBridge`), not through its
ASGIHandler: the ASGIHandler runs each request's synchronous code in a thread of its own, so every
request opened a new database connection (on PostgreSQL they piled up past max_connections under
load and requests failed with 503; on SQLite each request reopened the file), and the hops between
the event loop and the threads cost more than the request itself (8 ms of CPU for GET /healthz,
against 1.3 ms here). Every view of this server is synchronous, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from varz_deck.server.security import (
    ASGIApp,
    BodyLimit,
    LiveCheckGuard,
    Message_,
    Receive,
    Scope,
    Send,
)
from varz_deck.server.workers import Shares

THREADS = 2  # requests Django works on at once in each worker process; more wait in the event loop

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def application(url: str) -> ASGIApp:
    from django.core.handlers.wsgi import WSGIHandler

    from varz_deck.server.settings import configure

    configure(url)
    return LiveCheckGuard(BodyLimit(WSGIBridge(WSGIHandler())))


class WSGIBridge:
    """ASGI to WSGI: the whole body is read first (BodyLimit in front keeps it under 1 MiB), then
    the WSGI application runs on one of THREADS threads (each keeps its database connection), and
    its answer is sent. A client that leaves before its body is complete never reaches Django:
    nothing of its request is written."""

    def __init__(self, app: WSGIApp, threads: int = THREADS) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="varz-deck-request")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # uvicorn runs with lifespan="off"; websockets are not served
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        environ = wsgi_environ(scope, bytes(body))
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.executor, self._run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    def _run(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        started: dict[str, Any] = {}
        written: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [
                (name.lower().encode("latin-1"), value.strip().encode("latin-1"))
                for name, value in headers
            ]
            return written.append

        result = self.app(environ, start_response)
        try:
            written.extend(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # Django's request_finished: old database connections are closed
        return started["status"], started["headers"], b"".join(written)


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """PEP 3333's environ for an ASGI HTTP scope (its path as latin-1 of the UTF-8 bytes)."""
    server = scope.get("server") or ("127.0.0.1", 80)
    client = scope.get("client") or ("", 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", ()):
        if b"_" in raw_name:
            continue  # X_Edit_Token must not pass for X-Edit-Token (as Django's runserver)
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_LENGTH":
            continue  # the body read, not what the client claimed
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        joiner = "; " if key == "HTTP_COOKIE" else ","
        environ[key] = f"{environ[key]}{joiner}{value}" if key in environ else value
    return environ


class Rebalance:
    """ASGI, in each of several workers: the kernel spreads the kept-alive connections over the
    workers by a hash, not by load (50 connections came as 28 and 22, and the 28 waited a quarter
    longer). A worker holding more than its share (the workers' total, divided evenly, rounded
    up) answers with `Connection: close`; the client opens a new connection, which the kernel may
    give to another worker, until each holds its share. The answer is otherwise unchanged, and
    every HTTP/1.1 client reconnects (RFC 9112, 9.6)."""

    def __init__(self, app: ASGIApp, shares: Shares, slot: int) -> None:
        self.app = app
        self.shares = shares
        self.slot = slot
        self.open_connections: Callable[[], int] = lambda: 0  # set once uvicorn's server exists
        self.closing = 0  # connections asked to close that may not have closed yet

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        mine = self.open_connections()
        self.shares.set(self.slot, mine)
        counts = self.shares.counts()
        share = -(-sum(counts) // len(counts))
        if mine - self.closing <= share:
            await self.app(scope, receive, send)
            return

        async def closing(message: Message_) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"connection", b"close")]
                message = {**message, "headers": headers}
            await send(message)

        self.closing += 1
        try:
            await self.app(scope, receive, closing)
        finally:
            self.closing -= 1
