"""Request bodies under gunicorn (security.WholeBodies): a chunked submission is read whole (Django
alone would read a body without Content-Length as empty), and a body cut short by a client that
closes its side (FIN, not a reset: gunicorn then hands the half on as if it were the whole) is
never acted on. On 127.0.0.1, bounded."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import pytest
from harness import HOST, LiveServer, deck_variants


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "bodies"))


@pytest.fixture(scope="module")
def event(site: LiveServer) -> dict[str, Any]:
    return site.create_event("Bodies Open")


def _players(site: LiveServer, event: dict[str, Any]) -> list[str]:
    answer = site.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert answer.status == 200, answer
    return sorted(row["player"] for row in answer.json())


def _exchange(port: int, raw: bytes, *, close_sending: bool = False) -> bytes:
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(raw)
        if close_sending:
            sock.shutdown(socket.SHUT_WR)  # FIN: the client sends nothing more
        answer = b""
        while b"\r\n\r\n" not in answer:
            part = sock.recv(65536)
            if not part:
                break
            answer += part
        return answer


def test_a_chunked_submission_is_read_whole_and_stored(site, event):
    body = json.dumps({"player": "Chunked", "deck": deck_variants("varz", 1, seed=5)[0]}).encode()
    head = (
        f"POST /api/v1/events/{event['event']}/decklists HTTP/1.1\r\nHost: {HOST}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    chunks = [body[i : i + 100] for i in range(0, len(body), 100)]
    raw = head + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
    answer = _exchange(site.port, raw)
    assert answer.startswith(b"HTTP/1.1 201"), answer[:300]
    assert "Chunked" in _players(site, event)


def test_a_body_cut_short_by_the_client_is_not_acted_on(site, event):
    whole = json.dumps({"player": "Half", "deck": deck_variants("varz", 1, seed=6)[0]}).encode()
    padded = whole + b" " * (len(whole) + 16)  # its first half is itself a whole submission
    head = (
        f"POST /api/v1/events/{event['event']}/decklists HTTP/1.1\r\nHost: {HOST}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(padded)}\r\n\r\n"
    ).encode()
    answer = _exchange(site.port, head + padded[: len(padded) // 2], close_sending=True)
    assert not answer.startswith(b"HTTP/1.1 201"), answer[:300]
    assert "Half" not in _players(site, event)
    assert site.get("/healthz").status == 200


# --- WholeBodies in-process (WSGI, no server) ---------------------------------------------------


class _Stream:
    """A wsgi.input: `data`, then the end (or `fails` once it is read to its end)."""

    def __init__(self, data: bytes, *, fails: bool = False) -> None:
        self.data, self.fails, self.read_bytes = data, fails, 0

    def read(self, size: int) -> bytes:
        part = self.data[self.read_bytes : self.read_bytes + size]
        self.read_bytes += len(part)
        if not part and self.fails:
            raise OSError("the client left")
        return part


def _call(environ: dict[str, Any], limit: int = 10) -> tuple[list[Any], list[dict[str, Any]]]:
    from varz_deck.server.security import WholeBodies

    seen: list[dict[str, Any]] = []
    started: list[Any] = []

    def app(env: dict[str, Any], start: Any) -> list[bytes]:
        given = env["wsgi.input"]  # the body read whole, or the stream left unread
        seen.append(dict(env, body=given.getvalue() if hasattr(given, "getvalue") else None))
        return [b"app"]

    answer = WholeBodies(app, limit)(environ, lambda status, headers: started.append(status))
    return [started, list(answer)], seen


def test_whole_bodies_reads_the_body_its_length_names():
    stream = _Stream(b"0123456789abc")
    (started, answer), seen = _call({"CONTENT_LENGTH": "4", "wsgi.input": stream})
    assert (started, answer) == ([], [b"app"])
    assert seen[0]["body"] == b"0123" and seen[0]["CONTENT_LENGTH"] == "4"
    (started, answer), seen = _call({"CONTENT_LENGTH": "10", "wsgi.input": _Stream(b"x" * 10)})
    assert seen[0]["body"] == b"x" * 10  # exactly the limit is read


def test_whole_bodies_leaves_a_body_over_the_limit_unread():
    stream = _Stream(b"x" * 50)
    (started, _answer), seen = _call({"CONTENT_LENGTH": "11", "wsgi.input": stream})
    assert started == [] and seen[0]["body"] is None  # Django answers 413 by the length
    assert stream.read_bytes == 0 and seen[0]["CONTENT_LENGTH"] == "11"


def test_whole_bodies_refuses_a_body_cut_short_or_failing():
    for stream in (_Stream(b"abc"), _Stream(b"abc", fails=True)):
        (started, answer), seen = _call({"CONTENT_LENGTH": "5", "wsgi.input": stream})
        assert started == ["400 Bad Request"] and answer == [b""] and seen == []


def test_whole_bodies_gives_a_chunked_body_its_length_up_to_one_byte_over_the_limit():
    (started, answer), seen = _call({"wsgi.input": _Stream(b"abcdef")})
    assert (started, answer) == ([], [b"app"])
    assert seen[0]["body"] == b"abcdef" and seen[0]["CONTENT_LENGTH"] == "6"
    stream = _Stream(b"y" * 100)
    (_started, _answer), seen = _call({"CONTENT_LENGTH": "", "wsgi.input": stream})
    assert seen[0]["CONTENT_LENGTH"] == "11" and stream.read_bytes == 11
    (started, _answer), seen = _call({"wsgi.input": _Stream(b"", fails=True)})
    assert started == ["400 Bad Request"] and seen == []
