"""`varz-deck lsp` reads LSP's frames from bytes an editor (or anything else) writes (issue 24,
rows 8, 9 and 13): malformed and oversized frames are skipped, the server finds the next valid
header and keeps answering, header names are case-insensitive, and a request whose params do not
fit its method gets a JSON-RPC error rather than silence.

These tests write raw bytes to the real process's stdin (no LSP client would send such frames)
and read its answers with this file's own strict frame parser.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SERVER = [sys.executable, "-m", "varz_deck", "lsp"]
TIMEOUT = 20.0
SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
_HEADER = re.compile(rb"Content-Length: ([0-9]+)\r\n(?:[A-Za-z-]+: [^\r\n]*\r\n)*\r\n")


def frame(message: dict[str, Any], header: str = "Content-Length: {n}\r\n\r\n") -> bytes:
    body = json.dumps(message).encode("utf-8")
    return header.format(n=len(body)).encode("ascii") + body


def hover(request_id: int, line: int = 0, character: int = 0) -> dict[str, Any]:
    """A hover request on a document that is not open: the server answers `null`."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "textDocument/hover",
        "params": {
            "textDocument": {"uri": "file:///nowhere/deck.yaml"},
            "position": {"line": line, "character": character},
        },
    }


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"processId": None, "rootUri": None, "capabilities": {}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


class Server:
    """The real `varz-deck lsp` process, its answers parsed from stdout by a reader thread."""

    def __init__(self) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by `close`)
        self.process = subprocess.Popen(
            SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            env={**os.environ, "VARZ_DECK_LANG": "en"}, cwd=tempfile.gettempdir(),
        )  # fmt: skip
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.all: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        buffer = b""
        while True:
            chunk = self.process.stdout.read1(65536)
            if not chunk:
                return
            buffer += chunk
            while (match := _HEADER.match(buffer)) and len(buffer) >= match.end() + int(
                match.group(1)
            ):
                end = match.end() + int(match.group(1))
                self.messages.put(json.loads(buffer[match.end() : end]))
                buffer = buffer[end:]

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, request_id: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The response to a request (other messages are kept in `all`)."""
        import time

        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no answer to request {request_id}; stderr: {self.log()}")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            self.all.append(message)
            if message.get("id") == request_id and "method" not in message:
                return message

    def start(self) -> None:
        self.send(frame(INITIALIZE))
        assert "result" in self.answer(0)
        self.send(frame(INITIALIZED))

    def stop(self) -> int:
        """shutdown, exit: the exit code (0 when the session ended as LSP says)."""
        try:
            self.send(frame({"jsonrpc": "2.0", "id": 999999, "method": "shutdown"}))
            self.answer(999999)
            self.send(frame({"jsonrpc": "2.0", "method": "exit"}))
            return self.process.wait(TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")


@pytest.fixture
def server() -> Any:
    running = Server()
    running.start()
    yield running
    running.close()


def assert_clean_end(server: Server) -> None:
    assert server.stop() == 0, server.log()
    log = server.log()
    assert "Traceback" not in log and "MemoryError" not in log, log
    assert not [m for m in server.all if m.get("method") == "window/showMessage"]


# --------------------------------------------------------------------------- row 8


def test_a_huge_content_length_is_skipped_and_the_server_keeps_serving(server: Server) -> None:
    server.send(b"Content-Length: 99999999999999\r\n\r\n{}")
    server.send(frame(hover(7)))
    assert server.answer(7)["result"] is None
    assert_clean_end(server)


def test_an_oversized_frame_streamed_in_full_is_skipped_in_bounded_memory(server: Server) -> None:
    """64 MiB + 1 announced and sent: not held (the process grows by far less), then answered."""
    from varz_deck.lsp.frames import MAX_FRAME

    def peak_kib() -> int:
        status = Path(f"/proc/{server.process.pid}/status").read_text(encoding="ascii")
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]

    if not Path("/proc/self/status").exists() and not os.environ.get("CI"):
        pytest.skip("needs /proc to read the peak memory")
    size = MAX_FRAME + 1
    before = peak_kib()
    server.send(f"Content-Length: {size}\r\n\r\n".encode())
    chunk = b"[" + b"1," * (1 << 19)
    sent = 0
    while sent < size:
        part = chunk[: size - sent]
        server.send(part)
        sent += len(part)
    server.send(frame(hover(8)))
    assert server.answer(8)["result"] is None
    assert peak_kib() - before < MAX_FRAME // 1024 // 4, "the skipped frame was held in memory"
    assert_clean_end(server)


# --------------------------------------------------------------------------- row 9

NEXT = frame(hover(5))
BROKEN = {
    "length abc": b"Content-Length: abc\r\n\r\n" + json.dumps(hover(4)).encode(),
    "length -5": b"Content-Length: -5\r\n\r\n" + json.dumps(hover(4)).encode(),
    "length 0": b"Content-Length: 0\r\n\r\n" + json.dumps(hover(4)).encode(),
    "2 bytes short": frame(hover(4), "Content-Length: {n}\r\n\r\n").replace(
        str(len(json.dumps(hover(4)))).encode(), str(len(json.dumps(hover(4))) - 2).encode(), 1
    ),
    "2 bytes long": frame(hover(4), "Content-Length: {n}\r\n\r\n").replace(
        str(len(json.dumps(hover(4)))).encode(), str(len(json.dumps(hover(4))) + 2).encode(), 1
    ),
    "no blank line": b"Content-Length: 12\r\n" + json.dumps(hover(4)).encode(),
    "not JSON": b"Content-Length: 9\r\n\r\nnot json!",
    "JSON but not JSON-RPC": frame({"hello": "world"}),  # type: ignore[dict-item]
    "a JSON list": b"Content-Length: 2\r\n\r\n[]",
    "bytes that are not UTF-8": b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
    "garbage line": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "a header line without a name": b"Content-Length: 40\r\n: oops\r\n\r\n",
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_after_a_broken_frame_the_next_valid_frame_is_answered(server: Server, kind: str) -> None:
    server.send(BROKEN[kind])
    server.send(NEXT)
    assert server.answer(5)["result"] is None
    assert_clean_end(server)


VALID_SPELLINGS = {
    "lower-case name": "content-length: {n}\r\n\r\n",
    "upper-case name": "CONTENT-LENGTH: {n}\r\n\r\n",
    "no space after the colon": "Content-Length:{n}\r\n\r\n",
    "a tab after the colon": "Content-Length:\t{n}\r\n\r\n",
    "Content-Type first": "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
    "Content-Length: {n}\r\n\r\n",
    "Content-Type after": "Content-Length: {n}\r\n"
    "content-type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
    "trailing space": "Content-Length: {n}  \r\n\r\n",
}


@pytest.mark.parametrize("kind", sorted(VALID_SPELLINGS))
def test_header_names_in_any_case_and_spacing_are_read(server: Server, kind: str) -> None:
    server.send(frame(hover(6), VALID_SPELLINGS[kind]))
    assert server.answer(6)["result"] is None
    assert_clean_end(server)


# --------------------------------------------------------------------------- row 13


def test_a_hover_at_line_minus_one_gets_an_invalid_params_error(server: Server) -> None:
    server.send(frame(hover(9, line=-1)))
    answer = server.answer(9)
    assert answer["error"]["code"] == -32602, answer
    assert "position" in answer["error"]["message"] and "-1" in answer["error"]["message"]
    server.send(frame(hover(10)))
    assert server.answer(10)["result"] is None
    assert_clean_end(server)


def test_a_notification_with_bad_params_is_logged_not_shown(server: Server) -> None:
    bad = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": "file:///x.yaml", "version": "a"}, "contentChanges": []},
    }
    server.send(frame(bad))
    server.send(frame(hover(11)))
    assert server.answer(11)["result"] is None
    assert_clean_end(server)
    assert "didChange" in server.log()


# --------------------------------------------------------------------------- fuzz (CI)

PIECES = [
    b"Content-Length: ", b"content-length:", b"CONTENT-LENGTH :", b"Content-Length: 0",
    b"Content-Length: 5", b"Content-Length: 200", b"Content-Length: 99999999999999",
    b"Content-Length: -5", b"Content-Length: abc", b"Content-Type: x", b"\r\n", b"\r\n\r\n",
    b"\n", b"\r", b"{", b"}", b'{"jsonrpc": "2.0", "id": 1', b'"', b"0", b"12", b" ", b"\xff",
    b"\x00",
]  # fmt: skip


def test_random_garbage_between_frames_never_stops_the_answers() -> None:
    """Hypothesis writes garbage (random bytes and pieces of headers and bodies) and then a valid
    request; every such request is answered (one process for all examples; bounded)."""
    running = Server()
    counter = [100]
    try:
        running.start()

        @settings(
            max_examples=25 * SCALE,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(
            st.lists(
                st.one_of(st.sampled_from(PIECES), st.binary(max_size=12)), min_size=1, max_size=10
            )
        )
        def answered_after_garbage(garbage: list[bytes]) -> None:
            counter[0] += 1
            running.send(b"".join(garbage))
            running.send(frame(hover(counter[0])))
            assert running.answer(counter[0], timeout=10)["result"] is None, garbage

        answered_after_garbage()
        assert_clean_end(running)
    finally:
        running.close()
