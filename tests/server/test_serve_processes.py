"""`varz-deck serve` under gunicorn: an arbiter and `--workers N` gthread worker processes.

- SIGTERM stops every worker, and the server exits 0;
- a worker that dies is replaced, and the server goes on answering;
- SIGKILL of the arbiter alone: its workers exit by themselves (no orphan keeps the port);
- a second `serve` on the port of a running one, or on a port another program listens on (even
  with SO_REUSEPORT), exits 2 naming the address (issue 24 row 1: SO_REUSEPORT once let a second
  server start, and the kernel split an event's players between two databases);
- `--port 0` serves on a free port and says which;
- each worker keeps its heartbeat file in /dev/shm (memory), not on a disk-backed /tmp.
Everything on 127.0.0.1, bounded in time; the processes are found in /proc (Linux).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import HOST, LiveServer, children, deck_variants, sqlite_database

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="the processes are found in /proc (Linux)"
)

WAIT = 20.0  # seconds any change of processes may take


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def refused(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=2) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return sock.recv(64) == b""
    except OSError:
        return True


def _healthy(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection(HOST, port, timeout=2)
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False


@pytest.fixture
def two_workers(tmp_path, server_stack):
    server = LiveServer(sqlite_database(tmp_path), extra_args=["--workers", "2"]).start()
    assert server.process is not None
    until(lambda: len(children(server.process.pid)) == 2, "two workers")
    yield server
    server.stop()


def test_sigterm_stops_every_worker_and_exits_0(two_workers):
    server = two_workers
    process = server.process
    workers = children(process.pid)
    process.send_signal(signal.SIGTERM)
    assert process.wait(WAIT) == 0
    server.process = None
    until(lambda: not any(alive(pid) for pid in workers), "the workers stopped")
    assert refused(server.port)


def test_each_workers_heartbeat_file_is_in_memory(two_workers, tmp_path):
    from varz_deck.server.app import heartbeat_dir

    def beats(worker: int) -> list[str]:
        opened = [os.readlink(fd) for fd in Path(f"/proc/{worker}/fd").iterdir()]
        return [name for name in opened if "wgunicorn-" in name]

    workers = children(two_workers.process.pid)
    # a worker just forked still holds its siblings' files until gunicorn closes them
    until(lambda: all(len(beats(worker)) == 1 for worker in workers), "one heartbeat file each")
    for worker in workers:
        assert beats(worker)[0].startswith("/dev/shm/"), beats(worker)
    assert heartbeat_dir() == "/dev/shm"
    assert heartbeat_dir(str(tmp_path / "none")) is None
    (tmp_path / "file").write_bytes(b"")
    (tmp_path / "file").chmod(0o700)
    assert heartbeat_dir(str(tmp_path / "file")) is None  # writable, but not a folder
    (tmp_path / "shut").mkdir(mode=0o500)
    if os.geteuid() != 0:  # root may write anywhere
        assert heartbeat_dir(str(tmp_path / "shut")) is None
    assert heartbeat_dir(str(tmp_path)) == str(tmp_path)


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


def test_the_workers_of_a_killed_arbiter_exit_by_themselves(two_workers):
    server = two_workers
    process = server.process
    workers = children(process.pid)
    process.kill()  # the arbiter alone
    process.wait(WAIT)
    server.process = None
    until(lambda: not any(alive(pid) for pid in workers), "the orphaned workers exited")
    assert refused(server.port)


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
    server = two_workers
    event = server.create_event("First Open")
    done = _second_serve(tmp_path, server.port)
    assert done.returncode == 2, done
    assert f"cannot listen on {HOST}:{server.port}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    for _ in range(20):  # the first still answers every request, alone
        assert server.get(f"/api/v1/events/{event['event']}").status == 200


def test_a_port_another_program_listens_on_with_so_reuseport_exits_2(tmp_path, server_stack):
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


def test_port_0_serves_on_a_free_port_and_says_which(tmp_path, server_stack):
    command = [sys.executable, "-m", "varz_deck", "serve", "--host", HOST, "--port", "0"]
    process = subprocess.Popen(
        [*command, "--workers", "1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        assert port != 0
        until(lambda: _healthy(port), "the server answers on the port it named")
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(WAIT) == 0
