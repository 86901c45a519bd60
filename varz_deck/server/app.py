"""Starting the server: configure Django, bring the database up to date, serve with gunicorn.

`prepare(url)` is shared with `varz-deck event`: it configures Django for the database URL,
refuses a database that a newer varz-deck has migrated (its migrations are unknown here, and this
version would misread its tables), applies this version's migrations, and loads the key sessions
are signed with: one process at a time (`migration_lock`), so two started together on a new
database do not both create its tables. Problems are `StartError`s with a message the command
line prints (exit 2).
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck.core.messages.i18n import Message, msg, nmsg
from varz_deck.server import hosts
from varz_deck.server.config import (
    THREADS,
    DatabaseURLError,
    SettingError,
    configure,
    shown_database,
)

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication
    from django.db.backends.base.base import BaseDatabaseWrapper

    from varz_deck.server.security import WholeBodies


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
    except (DatabaseURLError, SettingError) as err:
        raise StartError(err.message) from None
    from django.db import DatabaseError, connection

    try:
        with migration_lock(connection):
            _migrate(connection, shown)
            load_secret_key()
    except DatabaseError as err:
        raise StartError(CANNOT_OPEN(database=shown, error=_reason(err))) from None
    except OSError as err:  # the SQLite lock file cannot be opened
        raise StartError(CANNOT_OPEN(database=shown, error=_reason(err))) from None


def _migrate(connection: BaseDatabaseWrapper, shown: str) -> None:
    """Apply this version's migrations (StartError for a database a newer version migrated);
    read under the lock, so what another process applied meanwhile is seen as applied."""
    from django.db.migrations.executor import MigrationExecutor

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


# the advisory lock's key on PostgreSQL: any number, the same in every varz-deck
MIGRATION_LOCK = zlib.crc32(b"varz-deck migrate")


@contextmanager
def migration_lock(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Hold the database's migration lock: PostgreSQL's session advisory lock MIGRATION_LOCK
    (every process on any machine), or an exclusive lock on the file `NAME.migrate-lock` beside
    a SQLite database (every process on this machine). The next process waits for it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK])
        return
    with _file_lock(Path(str(connection.settings_dict["NAME"]) + ".migrate-lock")):
        yield


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on a file (flock; on Windows, which has none, no lock)."""
    try:
        import fcntl
    except ImportError:  # Windows: `event` commands only (serve does not run there)
        yield
        return
    with path.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def _reason(err: Exception) -> str:
    text = " ".join(str(err).split())
    return text[:300] or type(err).__name__


def load_secret_key() -> None:
    """Sign sessions and CSRF tokens with the database's own key (made on first start), unless
    the settings were given one (VARZ_DECK_SECRET_KEY)."""
    from django.conf import settings

    from varz_deck.server.models import ServerSecret

    if getattr(settings, "VARZ_DECK_KEY_GIVEN", False):
        return
    found = ServerSecret.objects.order_by("id").first()
    if found is None:
        ServerSecret.objects.create(key=secrets.token_urlsafe(48))
        found = ServerSecret.objects.order_by("id").first()
    assert found is not None
    settings.SECRET_KEY = found.key


def load_cards(cards: Path | None) -> None:
    """Use `--cards DIR` for the events of its game (loaded now: a bad folder stops the start)."""
    from varz_deck.core.lint.database import DatabaseError
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
NOT_HERE = msg(
    "serve",
    "varz-deck serve runs on Linux, macOS and the BSDs (gunicorn does not run on Windows); "
    "on Windows, run it in WSL",
)
WORKER_FAILED = msg("serve", "a server process exited at start ({status}); see the lines above")
GRACE = 5  # seconds a stopping worker gives the requests in flight (gunicorn's graceful timeout)
CAN_SERVE = sys.platform != "win32"


def default_workers() -> int:
    """One process per core, at most 4 (bench_serve.py measured 2 on 2 cores as the best)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cores or 1))


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here (SO_REUSEADDR, never SO_REUSEPORT) before anything starts:
    an address another program or another `serve` listens on, or one that is not this machine's,
    is a StartError naming it (gunicorn's own bind would retry five times, then exit 1)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise StartError(CANNOT_LISTEN(host=host, port=port, error=_os_error(err))) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        raise StartError(CANNOT_LISTEN(host=host, port=port, error=_os_error(err))) from None
    return sock


def _os_error(err: OSError) -> str:
    return err.strerror or str(err)


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
    """Prepare the database, then serve until stopped: gunicorn's arbiter in this process, with
    `processes` workers of THREADS threads each. Links are built from `public_url`, else from
    the address listened on (hosts.py)."""
    import logging

    from varz_deck.server import service

    if not CAN_SERVE:
        raise StartError(NOT_HERE())
    logging.getLogger("django.request").setLevel(logging.ERROR)  # no line for each 4xx answer
    prepare(url)
    sock = listen(host, port)
    try:
        load_cards(cards)
        rechecked = service.recheck_current()  # the card data changed: the verdicts follow
        warm_up()
        shown = f"[{host}]" if ":" in host else host
        chosen_port = sock.getsockname()[1]  # port 0: the one got
        chosen = hosts.policy(host, chosen_port, public_url)
        hosts.use(chosen)  # before the fork: every worker has it
        said = SERVING(host=shown, port=chosen_port, database=shown_database(url)).render(lang)
        links = LINKS(url=chosen.public_url).render(lang)
        if rechecked:
            again = RECHECKED(n=rechecked).render(lang)
            sys.stderr.write(f"varz-deck: {again}\n")
        sys.stderr.write(f"varz-deck: {said}\nvarz-deck: {links}\n")
        sys.stderr.flush()
        serve(application(), sock, processes)
    finally:
        sock.close()


def application(django_app: WSGIApplication | None = None) -> WholeBodies:
    """Django's WSGI application (a new one unless given), behind the guard that gives it whole
    bodies only."""
    from django.core.handlers.wsgi import WSGIHandler

    from varz_deck.server.security import WholeBodies

    return WholeBodies(django_app if django_app is not None else WSGIHandler())


def close_databases() -> None:
    """Close this process's database connections and connection pools: a forked worker must
    open its own (a connection shared by two processes mixes their conversations)."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        close_pool = getattr(connection, "close_pool", None)  # PostgreSQL's psycopg pool
        if close_pool is not None:
            close_pool()


def heartbeat_dir(shm: str = "/dev/shm") -> str | None:
    """Where gunicorn's workers keep their heartbeat file: in memory (`shm`) where the machine
    has it, as gunicorn's documentation of `--worker-tmp-dir` advises (on a disk-backed /tmp each
    beat writes the disk's inode and can stall a worker); else gunicorn's default."""
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def serve(app: WSGIApplication, sock: socket.socket, processes: int) -> None:
    """Serve on the listening socket with gunicorn (gthread workers) until a stop signal:
    SIGTERM finishes the requests in flight (GRACE seconds), SIGINT (Ctrl+C) stops at once.
    A worker that dies is started again; gunicorn's workers exit when the arbiter dies."""
    from gunicorn.app.base import BaseApplication

    options = {
        "bind": [f"fd://{os.dup(sock.fileno())}"],  # gunicorn closes the fd it is given
        "worker_class": "gthread",
        "workers": processes,
        "threads": THREADS,
        "graceful_timeout": GRACE,
        "timeout": 60,
        "keepalive": 5,
        "loglevel": "warning",
        "accesslog": None,
        "errorlog": "-",
        "proc_name": "varz-deck serve",
        "pre_fork": lambda _arbiter, _worker: close_databases(),
        "preload_app": True,
    }
    beats = heartbeat_dir()
    if beats is not None:
        options["worker_tmp_dir"] = beats

    class Server(BaseApplication):
        """gunicorn's documented custom application: this configuration, this WSGI app."""

        def load_config(self) -> None:
            for name, value in options.items():
                self.cfg.set(name, value)

        def load(self) -> WSGIApplication:
            return app

    close_databases()
    try:
        Server().run()
    except SystemExit as stop:
        if stop.code not in (0, None):
            status = f"exit code {stop.code}"
            raise StartError(WORKER_FAILED(status=status)) from None


NOT_MIGRATED = msg(
    "serve",
    "the database {database} is not ready ({error}); run varz-deck manage migrate first",
)


def start_wsgi() -> None:
    """What `wsgi.py` does once Django is set up from the settings module: the database's key,
    the public URL's hosts, the card data of $VARZ_DECK_CARDS (StartError when unusable)."""
    from django.conf import settings
    from django.db import DatabaseError

    url = str(settings.VARZ_DECK_PUBLIC_URL)
    if url:
        names = frozenset(name for name in settings.ALLOWED_HOSTS if name != "*")
        hosts.use(hosts.Hosts(url, names))
    try:
        load_secret_key()
    except DatabaseError as err:
        shown = str(settings.DATABASES["default"]["NAME"])
        raise StartError(NOT_MIGRATED(database=shown, error=_reason(err))) from None
    cards = str(settings.VARZ_DECK_CARDS)
    load_cards(Path(cards) if cards else None)
