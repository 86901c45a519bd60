"""`serve --workers N`: N processes on one port, supervised by the process that started them.

- the connections are spread over the workers (each one answers submissions);
- SIGTERM stops every worker, and the server exits 0;
- a worker that dies is replaced, and the server goes on answering;
- SIGKILL of the supervising process takes every worker with it (no orphan keeps the port);
- on SQLite the workers' write transactions take turns on one lock file (`<database>-writer`).
Everything on 127.0.0.1, bounded in time.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import HOST, LiveServer, deck_variants, sqlite_database

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
    reason="workers are forked (POSIX); their processes are found in /proc (Linux)",
)

WAIT = 15.0  # seconds any change of processes may take


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def refused(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=2) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return sock.recv(64) == b""
    except OSError:
        return True


@pytest.fixture
def two_workers(tmp_path):
    server = LiveServer(sqlite_database(tmp_path), extra_args=["--workers", "2"]).start()
    assert server.process is not None
    until(lambda: len(children(server.process.pid)) == 2, "two workers")
    yield server
    server.stop()


def test_every_worker_answers_submissions(two_workers):
    server = two_workers
    workers = children(server.process.pid)
    before = {pid: cpu_ticks(pid) for pid in workers}
    event = server.create_event("Spread Open")
    clients = [server.client() for _ in range(16)]
    try:
        for number, deck in enumerate(deck_variants("varz", 64, seed=3)):
            answer = clients[number % len(clients)].post(
                f"/api/v1/events/{event['event']}/decklists",
                json={"player": f"P{number}", "deck": deck},
            )
            assert answer.status == 201, answer
    finally:
        for client in clients:
            client.close()
    busy = {pid for pid in workers if cpu_ticks(pid) - before[pid] >= 5}  # 50 ms of CPU
    assert busy == workers
    listed = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert len(listed.json()) == 64


def test_sigterm_stops_every_worker_and_exits_0(two_workers):
    server = two_workers
    process = server.process
    workers = children(process.pid)
    process.send_signal(signal.SIGTERM)
    assert process.wait(WAIT) == 0
    server.process = None
    until(lambda: not any(alive(pid) for pid in workers), "the workers stopped")
    assert refused(server.port)


def test_a_worker_that_dies_is_replaced(two_workers):
    server = two_workers
    parent = server.process.pid
    first, second = sorted(children(parent))
    os.kill(first, signal.SIGKILL)
    until(lambda: len(children(parent) - {first}) == 2, "a new worker")
    assert second in children(parent)
    event = server.create_event("Replaced Open")
    for number in range(8):  # whichever worker gets the connection answers
        answer = server.post(
            f"/api/v1/events/{event['event']}/decklists",
            json={"player": f"P{number}", "deck": deck_variants("varz", 1, seed=number)[0]},
        )
        assert answer.status == 201, answer


def test_sigkill_of_the_parent_takes_every_worker_with_it(two_workers):
    server = two_workers
    workers = children(server.process.pid)
    server.kill()
    until(lambda: not any(alive(pid) for pid in workers), "the orphaned workers exited")
    assert refused(server.port)


def test_one_worker_serves_in_one_process(tmp_path):
    server = LiveServer(sqlite_database(tmp_path), extra_args=["--workers", "1"]).start()
    try:
        assert children(server.process.pid) == set()
        assert server.get("/healthz").status == 200
    finally:
        server.stop()


def test_sqlite_writers_of_two_processes_take_turns(tmp_path):
    """A process holding the writer lock makes another one wait until it lets go."""
    from varz_deck.server.workers import writer_lock

    database = str(tmp_path / "db.sqlite3")
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the other server process: hold the lock for 0.5 s
        status = 1
        try:
            with writer_lock(database):
                os.write(ready_write, b"x")
                time.sleep(0.5)
                Path(database + ".released").write_text(str(time.monotonic()))
            status = 0
        finally:
            os._exit(status)
    os.close(ready_write)
    assert os.read(ready_read, 1) == b"x"
    with writer_lock(database):
        entered = time.monotonic()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert entered >= float(Path(database + ".released").read_text())
    assert Path(database + "-writer").exists()


def test_where_the_kernel_does_not_spread_a_port_the_workers_share_one_socket(tmp_path):
    """macOS and the BSDs: the workers accept on the parent's listening socket."""
    command = [
        sys.executable,
        "-c",
        "import sys; import varz_deck.server.workers as w; w.SPREADS_PORT = False; "
        "from varz_deck.cli.main import main; sys.argv[0] = 'varz-deck'; sys.exit(main())",
    ]
    server = LiveServer(
        sqlite_database(tmp_path), extra_args=["--workers", "2"], command=command
    ).start()
    try:
        until(lambda: len(children(server.process.pid)) == 2, "two workers")
        event = server.create_event("Shared Open")
        for number, deck in enumerate(deck_variants("varz", 6, seed=5)):
            answer = server.post(
                f"/api/v1/events/{event['event']}/decklists",
                json={"player": f"P{number}", "deck": deck},
            )
            assert answer.status == 201, answer
    finally:
        server.stop()
    assert refused(server.port)


# --- connections spread by load, not only by the kernel's hash --------------------------------


def rebalance_answer(mine: int, others: list[int], closing: int = 0) -> list[tuple[bytes, bytes]]:
    """The headers a worker holding `mine` connections answers with, the others holding theirs."""
    import asyncio

    from varz_deck.server.asgi import Rebalance
    from varz_deck.server.workers import Shares

    shares = Shares(1 + len(others))
    for slot, count in enumerate(others, start=1):
        shares.set(slot, count)
    sent: list[dict] = []

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        await send({"type": "http.response.start", "status": 201, "headers": [(b"x", b"1")]})
        await send({"type": "http.response.body", "body": b"{}"})

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    balancer = Rebalance(app, shares, 0)
    balancer.open_connections = lambda: mine
    balancer.closing = closing
    asyncio.run(balancer({"type": "http"}, None, send))  # type: ignore[arg-type]
    assert shares.counts()[0] == mine and balancer.closing == closing
    assert sent[1] == {"type": "http.response.body", "body": b"{}"}
    return list(sent[0]["headers"])


def test_a_worker_over_its_share_asks_for_a_new_connection():
    assert rebalance_answer(28, [22]) == [(b"x", b"1"), (b"connection", b"close")]
    assert rebalance_answer(26, [24]) == [(b"x", b"1"), (b"connection", b"close")]
    assert rebalance_answer(5, [3, 3]) == [(b"x", b"1"), (b"connection", b"close")]


def test_a_worker_within_its_share_keeps_the_connection():
    assert rebalance_answer(25, [25]) == [(b"x", b"1")]
    assert rebalance_answer(22, [28]) == [(b"x", b"1")]
    assert rebalance_answer(26, [25]) == [(b"x", b"1")]  # 51 over two: a share is 26
    assert rebalance_answer(1, [0]) == [(b"x", b"1")]


def test_connections_already_asked_to_close_are_not_asked_twice():
    """Answers in flight on other connections already make up the excess: no overshoot."""
    assert rebalance_answer(28, [22], closing=3) == [(b"x", b"1")]
    assert rebalance_answer(28, [22], closing=2) == [(b"x", b"1"), (b"connection", b"close")]


def established(pid: int, port: int) -> int:
    """Connections to `port` the process holds (Linux /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                count += 1
    return count


def test_the_workers_end_up_holding_as_many_connections_each(two_workers):
    server = two_workers
    workers = sorted(children(server.process.pid))
    clients = [server.client() for _ in range(64)]  # http.client reconnects when asked to
    try:
        for _round in range(4):
            for client in clients:
                assert client.get("/healthz").status == 200
        held = [established(pid, server.port) for pid in workers]
        # the kernel's hash alone leaves them this close about one time in three
        assert sum(held) >= 60 and max(held) - min(held) <= 2, held
    finally:
        for client in clients:
            client.close()


def test_a_worker_that_cannot_start_stops_the_server_with_exit_2(tmp_path):
    """Every worker fails as it starts (here: its server cannot be built): the supervisor does not
    start them again and again; it says why and `serve` exits 2, the worker's traceback above and
    none of its own."""
    program = (
        "import sys; import varz_deck.server.app as app\n"
        "def broken(asgi_app, sock):\n"
        "    raise RuntimeError('no server today')\n"
        "app.serve = broken\n"
        "from varz_deck.cli.main import main; sys.argv[0] = 'varz-deck'; sys.exit(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "serve", "--port", "0", "--workers", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done
    assert "RuntimeError: no server today" in done.stderr  # the worker's own account
    assert "a server process exited at start (exit code 1)" in done.stderr
    # none of the CLI's own: its last line is its message (a second worker's traceback may come
    # cut short by the stop, so the worker tracebacks are not counted)
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("varz-deck: a server process exited at start"), lines[-3:]
    assert "internal error" not in done.stderr and "cli/main.py" not in done.stderr


# --- one server per address (issue 24 row 1) ---------------------------------------------------


def _second_serve(folder: Path, port: int) -> subprocess.CompletedProcess[str]:
    """`varz-deck serve --port PORT --workers 2` on another database; it must exit by itself."""
    command = [sys.executable, "-m", "varz_deck", "serve", "--host", HOST, "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--workers", "2", "--database", str(folder / "second.sqlite3")],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        pytest.fail(f"a second server started on port {port} and served: {err[-2000:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_a_second_server_on_the_same_port_exits_2_naming_the_address(two_workers, tmp_path):
    """Both used SO_REUSEPORT, so the second started too and the kernel split the requests
    between the two (half the GETs of an event were 404)."""
    server = two_workers
    event = server.create_event("First Open")
    done = _second_serve(tmp_path, server.port)
    assert done.returncode == 2, done
    assert f"{HOST}:{server.port}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    for _ in range(20):  # the first still answers every request, alone
        assert server.get(f"/api/v1/events/{event['event']}").status == 200


def test_a_server_starting_on_an_address_another_has_reserved_exits_2(tmp_path):
    """The first server's window between reserving its address and its workers listening: its
    reservation alone must stop a second server."""
    from varz_deck.server import workers

    if not workers.SPREADS_PORT:
        pytest.skip("the address is reserved only where the workers listen with SO_REUSEPORT")
    held = workers.reserve(HOST, 0)
    try:
        port = held.getsockname()[1]
        done = _second_serve(tmp_path, port)
    finally:
        workers.release(held)
    assert done.returncode == 2, done
    assert f"{HOST}:{port}" in done.stderr, done.stderr


def test_a_server_on_a_port_another_program_listens_on_with_so_reuseport_exits_2(tmp_path):
    """Another program (not a varz-deck) listening with SO_REUSEPORT: its port is not shared."""
    if not hasattr(socket, "SO_REUSEPORT"):
        pytest.skip("no SO_REUSEPORT here")
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind((HOST, 0))
        other.listen()
        port = other.getsockname()[1]
        done = _second_serve(tmp_path, port)
    assert done.returncode == 2, done
    assert f"{HOST}:{port}" in done.stderr, done.stderr
