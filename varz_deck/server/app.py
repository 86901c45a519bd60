"""Starting the server: configure Django, bring the database up to date, serve with uvicorn.

`prepare(url)` is shared with `varz-deck event`: it configures Django for the database URL,
refuses a database that a newer varz-deck has migrated (its migrations are unknown here, and this
version would misread its tables), applies this version's migrations, and loads the key sessions
are signed with. Problems are `StartError`s with a message the command line prints (exit 2).
"""

from __future__ import annotations

import secrets
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.core.i18n import Message, msg, nmsg
from varz_deck.server import hosts, workers
from varz_deck.server.settings import DatabaseURLError, configure, shown_database

if TYPE_CHECKING:
    from varz_deck.server.security import ASGIApp


class StartError(Exception):
    """The server cannot start (or an `event` command cannot run) on this database."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render("en"))
        self.message = message


NEWER = msg(
    "serve",
    "the database {database} was written by a newer varz-deck (migrations {names} are unknown "
    "to varz-deck {version}); upgrade varz-deck, or give another --database",
)
CANNOT_OPEN = msg("serve", "cannot open the database {database}: {error}")
BAD_CARDS = msg("serve", "cannot load the card database {folder}: {error}")


def prepare(url: str) -> None:
    """Configure Django for the database and migrate it; StartError when it cannot be used."""
    try:
        configure(url)
        shown = shown_database(url)
    except DatabaseURLError as err:
        raise StartError(err.message) from None
    from django.db import DatabaseError, connection
    from django.db.migrations.executor import MigrationExecutor

    try:
        executor = MigrationExecutor(connection)
        loader = executor.loader
        unknown = sorted(
            f"{app}.{name}"
            for app, name in loader.applied_migrations
            if app in loader.migrated_apps and (app, name) not in loader.disk_migrations
        )
        if unknown:
            from varz_deck import __version__

            raise StartError(NEWER(database=shown, names=", ".join(unknown), version=__version__))
        if executor.migration_plan(loader.graph.leaf_nodes()):  # anything to apply
            from django.core.management import call_command

            call_command("migrate", interactive=False, verbosity=0)
        load_secret_key()
    except DatabaseError as err:
        raise StartError(CANNOT_OPEN(database=shown, error=_reason(err))) from None


def _reason(err: Exception) -> str:
    text = " ".join(str(err).split())
    return text[:300] or type(err).__name__


def load_secret_key() -> None:
    """Sign sessions and CSRF tokens with the database's own key (made on first start)."""
    from django.conf import settings

    from varz_deck.server.models import ServerSecret

    found = ServerSecret.objects.order_by("id").first()
    if found is None:
        ServerSecret.objects.create(key=secrets.token_urlsafe(48))
        found = ServerSecret.objects.order_by("id").first()
    assert found is not None
    settings.SECRET_KEY = found.key


def load_cards(cards: Path | None) -> None:
    """Use `--cards DIR` for the events of its game (loaded now: a bad folder stops the start)."""
    from varz_deck.core.database import DatabaseError
    from varz_deck.server import service

    try:
        service.use_cards(cards)
    except DatabaseError as err:
        first = err.diagnostics[0] if err.diagnostics else None
        error = f"{first.code} {first.message}" if first is not None else _reason(err)
        raise StartError(BAD_CARDS(folder=str(cards), error=error)) from None
    except OSError as err:
        raise StartError(BAD_CARDS(folder=str(cards), error=_reason(err))) from None


def warm_up() -> None:
    """Do now what the first requests would otherwise do, once in every worker: import the URLs
    (Django's handlers, django-ninja and the API's schemas, the pages: 0.7 s), load the card
    database of every event's game and check an empty deck of it (its reader, rules and
    registrar: 0.1 s). Done before the workers are forked, they all start warm."""
    from django.urls import get_resolver

    from varz_deck.server import service
    from varz_deck.server.models import Event

    get_resolver().url_patterns  # noqa: B018 (imports the URLconf)
    for game in sorted(set(Event.objects.values_list("game", flat=True))):
        try:
            service.check_deck(Event(key="warm-up", name="warm-up", game=game), "")
        except Exception:  # an event of a game this version lacks: its requests will say
            continue


CANNOT_LISTEN = msg("serve", "cannot listen on {host}:{port}: {error}")


def listen(host: str, port: int, processes: int) -> socket.socket:
    """The listening socket, or (several workers on Linux) the address reserved for the workers'
    own sockets; bound before anything starts: an address that cannot be listened on (taken, not
    this machine's) is a StartError, not uvicorn's log line and exit 1."""
    try:
        if processes > 1 and workers.SPREADS_PORT:
            return workers.reserve(host, port)
        return workers.listen(host, port)
    except OSError as err:
        error = err.strerror or str(err)
        raise StartError(CANNOT_LISTEN(host=host, port=port, error=error)) from None


SERVING = msg("serve", "serving on http://{host}:{port}/ (database {database}); Ctrl+C stops it")


LINKS = msg("serve", "links point to {url} (--public-url to change it)")
RECHECKED = nmsg(
    "serve",
    "{n} list was checked again: the card data changed since it was checked",
    "{n} lists were checked again: the card data changed since they were checked",
)


def run(
    url: str,
    host: str,
    port: int,
    cards: Path | None,
    lang: str = "en",
    processes: int = 1,
    *,
    public_url: str | None = None,
) -> None:
    """Prepare the database, then serve until interrupted, on `processes` processes (one where
    processes cannot be forked). Links are built from `public_url`, else from the address
    listened on (hosts.py)."""
    import logging

    from django.db import connections

    from varz_deck.server import asgi, service

    logging.getLogger("django.request").setLevel(logging.ERROR)  # no line for each 4xx answer
    prepare(url)
    if not workers.CAN_FORK:
        processes = 1
    sock = listen(host, port, processes)
    try:
        load_cards(cards)
        rechecked = service.recheck_current()  # the card data changed: the verdicts follow
        warm_up()
        shown = f"[{host}]" if ":" in host else host
        chosen = hosts.policy(host, sock.getsockname()[1], public_url)  # port 0: the one got
        hosts.use(chosen)
        said = SERVING(host=shown, port=port, database=shown_database(url)).render(lang)
        links = LINKS(url=chosen.public_url).render(lang)
        if rechecked:
            again = RECHECKED(n=rechecked).render(lang)
            sys.stderr.write(f"varz-deck: {again}\n")
        sys.stderr.write(f"varz-deck: {said}\nvarz-deck: {links}\n")
        sys.stderr.flush()
        app = asgi.application(url)  # built once: the workers inherit it
        if processes == 1:
            serve(app, sock)
            return
        address = sock.getsockname()[:2]  # the port chosen when 0 was asked
        shares = workers.Shares(processes)

        def worker(slot: int) -> None:
            balanced = asgi.Rebalance(app, shares, slot)
            if not workers.SPREADS_PORT:
                serve(balanced, sock)  # the parent's listening socket, shared
                return
            sock.close()  # the parent's reservation; this worker listens on a socket of its own
            serve(balanced, workers.listen(address[0], address[1], share=True))

        def before_fork(slot: int) -> None:
            connections.close_all()  # each worker opens its own
            shares.set(slot, 0)

        failed = workers.supervise(processes, worker, before_fork)
        if failed is not None:
            raise StartError(failed)
    finally:
        workers.release(sock)


def serve(app: ASGIApp, sock: socket.socket) -> None:
    """Serve on the listening socket until a stop signal (uvicorn, in this process)."""
    import uvicorn

    from varz_deck.server import asgi

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        proxy_headers=True,
        server_header=False,
        timeout_graceful_shutdown=workers.GRACE,
    )
    server = uvicorn.Server(config)
    if isinstance(app, asgi.Rebalance):
        app.open_connections = lambda: len(server.server_state.connections)
    server.run(sockets=[sock])
