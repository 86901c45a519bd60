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
