"""Several server processes on one listening socket (POSIX), so a request uses every core.

The parent binds the socket, configures Django and loads the card databases, then forks the
workers (they share those pages) and only supervises them:
- SIGTERM, SIGINT (Ctrl+C) or SIGHUP stop every worker gracefully (uvicorn finishes the requests
  in flight), then the parent returns;
- a worker that dies (a crash, a signal) is started again; one that exits by itself as it starts
  (it cannot start) stops the server;
- a worker whose parent dies, even by SIGKILL, exits at once (it watches a pipe only the parent
  holds open), so no orphan keeps the port or answers for a server that is gone.

The workers run in a process group of their own: Ctrl+C reaches the parent only, which stops each
worker once (a second signal would make uvicorn drop the requests in flight).
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from varz_deck.core.i18n import Message, msg

CAN_FORK = hasattr(os, "fork") and sys.platform != "win32"
# Linux spreads the connections of SO_REUSEPORT sockets evenly; elsewhere (macOS, the BSDs) one of
# them may get them all, so the workers share the parent's listening socket there
SPREADS_PORT = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
GRACE = 5  # seconds uvicorn gives the requests in flight
QUICK_DEATH = 2.0  # a worker that dies this soon after its start did not start
STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP) if CAN_FORK else ()

WORKER_FAILED = msg("serve", "a server process exited at start ({status}); see the lines above")


class Stopped(Exception):
    """A stop signal reached the supervising parent."""


def default_workers() -> int:
    """One process per core, at most 4; 1 where processes cannot be forked."""
    if not CAN_FORK:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cores or 1))


def listen(host: str, port: int, *, share: bool = False) -> socket.socket:
    """A listening socket on the address (OSError when it cannot be used). `share`: the port is
    shared with the other workers' sockets (SO_REUSEPORT): the kernel spreads the connections
    evenly over them, where on one shared socket the first worker to wake takes a whole burst.
    Without `share` the address is also claimed (`_claim`): `release` it."""
    sock = _bound(host, port, share)
    try:
        if not share:
            _claim(sock)
        sock.listen(2048)
    except OSError:
        release(sock)
        raise
    return sock


def reserve(host: str, port: int) -> socket.socket:
    """The address bound but not listened on (no connection waits on it): the port stays this
    server's while its workers listen on it with `listen(..., share=True)`; `release` it.

    SO_REUSEPORT lets any process of the same user bind the port too, and a second server would
    then get half of the connections. So the address is claimed (`_claim`: no other varz-deck
    serve has it, even one still starting), and a plain bind (SO_REUSEADDR only, as any program
    binds) must succeed: it fails while another program's sockets listen there."""
    sock = _bound(host, port, True)
    try:
        _claim(sock)
        _bound(host, sock.getsockname()[1], False).close()
    except OSError:
        release(sock)
        raise
    return sock


_CLAIMS: dict[int, socket.socket] = {}  # a server's socket (its fd) -> the claim of its address


def _claim(sock: socket.socket) -> None:
    """Claim the socket's address for this server (Linux): a Unix socket bound to a name made of
    the address, in the abstract namespace, so the kernel drops it when the process ends, however
    it ends (its forked workers hold it too). OSError EADDRINUSE when another server holds it."""
    if not sys.platform.startswith("linux"):
        return  # there the workers share one socket: the port itself is the claim
    address, port = sock.getsockname()[:2]
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        claim.bind(f"\0varz-deck serve {address} {port}".encode())
    except OSError:
        claim.close()
        raise OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE)) from None
    _CLAIMS[sock.fileno()] = claim


def release(sock: socket.socket) -> None:
    """Close a socket of `listen` or `reserve`, and give its address's claim up."""
    claim = _CLAIMS.pop(sock.fileno(), None)
    if claim is not None:
        claim.close()
    sock.close()


def _bound(host: str, port: int, share: bool) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if share:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def supervise(
    workers: int, serve: Callable[[int], None], before_fork: Callable[[int], None]
) -> Message | None:
    """Run `serve(slot)` in `workers` forked processes (slots 0 … workers - 1; a worker started
    again takes the slot of the one it replaces) until a stop signal; None when stopped, or why a
    worker could not start. `before_fork(slot)` runs in the parent before each fork (close what a
    child must not share, such as database connections)."""
    watch_read, watch_write = os.pipe()
    children: dict[int, tuple[float, int]] = {}  # pid: when it started, its slot

    def spawn(slot: int) -> None:
        before_fork(slot)
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                os.close(watch_write)
                os.setpgid(0, 0)
                for number in STOPPING:
                    signal.signal(number, signal.SIG_DFL)
                threading.Thread(target=_exit_with_parent, args=(watch_read,), daemon=True).start()
                serve(slot)
                status = 0
            except BaseException:  # a worker must never return into the CLI
                import traceback

                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(status)
        children[pid] = (time.monotonic(), slot)

    def stop(number: int, frame: object) -> None:
        raise Stopped

    previous = {number: signal.signal(number, stop) for number in STOPPING}
    failed: Message | None = None
    try:
        for slot in range(workers):
            spawn(slot)
        while True:
            pid, status = os.wait()
            child = children.pop(pid, None)
            if child is None:
                continue
            started, slot = child
            quick = time.monotonic() - started < QUICK_DEATH
            if quick and not os.WIFSIGNALED(status):  # it exited by itself: it cannot start
                failed = WORKER_FAILED(status=_describe(status))
                break
            if quick:  # killed from outside just after its start: not in a tight loop
                time.sleep(QUICK_DEATH)
            spawn(slot)
    except Stopped:
        pass
    finally:
        for number in previous:
            signal.signal(number, signal.SIG_IGN)  # one stop is enough; the rest are waited for
        _stop_all(children)
        for number, handler in previous.items():
            signal.signal(number, handler)
        os.close(watch_read)
        os.close(watch_write)
    return failed


def _stop_all(children: dict[int, tuple[float, int]]) -> None:
    """SIGTERM to every worker, SIGKILL to those still there after the grace period."""
    for pid in children:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE + 2.0
    while children and time.monotonic() < deadline:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.02)
        else:
            children.pop(pid, None)
    for pid in children:
        _signal(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, number)


def _exit_with_parent(watch: int) -> None:
    """Block until the parent is gone (its end of the pipe closes), then exit at once."""
    while True:
        try:
            if not os.read(watch, 1):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    os._exit(1)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


class Shares:
    """How many connections each worker holds, in memory all the workers share (anonymous shared
    memory made before they are forked; one 8-byte slot each, written only by its worker)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._memory = mmap.mmap(-1, 8 * workers)  # MAP_SHARED: the forked workers see one page
        self._layout = struct.Struct(f"{workers}q")

    def set(self, slot: int, count: int) -> None:
        struct.pack_into("q", self._memory, 8 * slot, count)

    def counts(self) -> list[int]:
        return list(self._layout.unpack_from(self._memory, 0))


_LOCK_FILES: dict[tuple[int, str], int] = {}  # (process, database file): its open lock file


@contextmanager
def writer_lock(database: str) -> Iterator[None]:
    """An exclusive flock of `<database>-writer`, held while one process of the server writes to
    a SQLite database (POSIX; nothing elsewhere, nor for an in-memory database). The database
    file's own locks are SQLite's: never touch them. The file is opened once per process: an
    flock belongs to an open file, and a forked worker must not share its parent's."""
    try:
        import fcntl
    except ImportError:  # Windows: one process serves
        yield
        return
    if database == ":memory:" or "mode=memory" in database:
        yield
        return
    key = (os.getpid(), database)
    handle = _LOCK_FILES.get(key)
    if handle is None:
        handle = os.open(f"{database}-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        _LOCK_FILES[key] = handle
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
