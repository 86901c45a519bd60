"""The guards of the server under gunicorn (`security.WholeBodies`, `client_address`,
`RequestLimits`), in this process. They replace the ASGI guards of the uvicorn server
(issue 26, "stack"); where this tree still has the ASGI ones, these tests are skipped."""

from __future__ import annotations

import io
import json
from typing import Any

from varz_deck.server import limits, security


class _App:
    """A WSGI app that records the body it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[bytes, str]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        body = environ["wsgi.input"].read()
        self.seen.append((body, environ.get("CONTENT_LENGTH", "")))
        start_response("200 OK", [])
        return [b"ok"]


def _call(app: Any, body: bytes, length: str | None) -> tuple[str, list[bytes]]:
    status: list[str] = []
    environ: dict[str, Any] = {"wsgi.input": io.BytesIO(body)}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    out = app(environ, lambda s, headers: status.append(s))
    return status[0], list(out)


def test_whole_bodies() -> None:
    inner = _App()
    guard = security.WholeBodies(inner, limit=10)
    assert guard.limit == 10
    assert _call(guard, b"12345", "5") == ("200 OK", [b"ok"])
    assert inner.seen[-1] == (b"12345", "5")
    assert _call(guard, b"123", "5") == ("400 Bad Request", [b""])  # cut short
    assert _call(guard, b"abcdefgh", None) == ("200 OK", [b"ok"])  # chunked: read here
    assert inner.seen[-1] == (b"abcdefgh", "8")
    assert _call(guard, b"x" * 50, None) == ("200 OK", [b"ok"])
    assert inner.seen[-1] == (b"x" * 11, "11")  # at most limit + 1: the 413 comes later
    assert _call(guard, b"x" * 50, "50") == ("200 OK", [b"ok"])
    assert inner.seen[-1] == (b"x" * 50, "50")  # over the limit: untouched, refused by length
    assert _call(guard, b"", "") == ("200 OK", [b"ok"])
    assert _call(guard, b"x" * 10, "10") == ("200 OK", [b"ok"])  # exactly the limit: read here
    assert inner.seen[-1] == (b"x" * 10, "10")
    assert _call(guard, b"123", "10") == ("400 Bad Request", [b""])  # and cut short

    class Broken:
        def read(self, size: int) -> bytes:
            raise OSError("the client left")

    status: list[str] = []
    answer = guard({"wsgi.input": Broken(), "CONTENT_LENGTH": "3"}, lambda s, h: status.append(s))
    assert status == ["400 Bad Request"] and list(answer) == [b""]
    chunked = guard({"wsgi.input": Broken()}, lambda s, h: status.append(s))
    assert status[-1] == "400 Bad Request" and list(chunked) == [b""]
    assert security.WholeBodies(inner).limit == 1024 * 1024


def test_read_in_parts() -> None:
    stream = io.BytesIO(b"a" * (200 * 1024))
    assert security._read(stream, 150 * 1024) == b"a" * (150 * 1024)
    assert security._read(io.BytesIO(b"abc"), 10) == b"abc"
    assert security._read(io.BytesIO(b"abc"), 0) == b""


def test_trusted_proxies() -> None:
    assert limits._trusted("*") == (True, ())
    anyone, networks = limits._trusted(" 10.0.0.0/8 , ::1, junk,")
    assert anyone is False and [str(n) for n in networks] == ["10.0.0.0/8", "::1/128"]
    spec = limits._trusted("10.0.0.0/8")
    assert limits._is_trusted("10.1.2.3", spec) and not limits._is_trusted("11.0.0.1", spec)
    assert not limits._is_trusted("not an address", spec)
    assert limits._is_trusted("anything", (True, ()))


def test_client_address(django_db) -> None:
    from django.test import RequestFactory

    spec = limits._trusted("127.0.0.1,10.0.0.0/8")
    factory = RequestFactory()
    direct = factory.get("/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert limits.client_address(direct, spec) == "203.0.113.5"
    proxied = factory.get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7 , 10.0.0.2"
    )
    assert limits.client_address(proxied, spec) == "198.51.100.7"
    only_proxies = factory.get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.0.0.3, 10.0.0.2"
    )
    assert limits.client_address(only_proxies, spec) == "10.0.0.3"
    none = factory.get("/", REMOTE_ADDR="127.0.0.1")
    assert limits.client_address(none, spec) == "127.0.0.1"
    # every address trusted (FORWARDED_ALLOW_IPS=*): the first hop, cut to 64 characters
    everyone = factory.get(
        "/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="y" * 100 + ", 10.0.0.1"
    )
    assert limits.client_address(everyone, (True, ())) == "y" * 64
    long = factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="x" * 100)
    assert limits.client_address(long, spec) == "x" * 64


def test_live_check_middleware(django_db) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory

    now = [100.0]
    guard = limits.RequestLimits(lambda request: HttpResponse("checked"), clock=lambda: now[0])
    factory = RequestFactory()

    def check(path: str = "/events/abc/check", **extra: Any) -> Any:
        return guard(
            factory.post(
                path,
                "deck=x",
                content_type="application/x-www-form-urlencoded",
                REMOTE_ADDR="203.0.113.9",
                **extra,
            )
        )

    assert all(check().content == b"checked" for _ in range(30))
    refused = check(HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert json.loads(refused.content) == {
        "error": {
            "code": "too_many_requests",
            "message": "too many checks from this address; try again in 1 s",
        }
    }
    assert check("/api/v1/events/abc/check").status_code == 429
    other = guard(
        factory.post(
            "/events/abc/check",
            "deck=x",
            content_type="application/x-www-form-urlencoded",
            REMOTE_ADDR="203.0.113.10",
        )
    )
    assert other.status_code == 200  # another address
    assert (
        guard(factory.post("/events/abc/decklists", REMOTE_ADDR="203.0.113.9")).status_code == 200
    )
    assert guard(factory.get("/events/abc/check", REMOTE_ADDR="203.0.113.9")).status_code == 200
    now[0] += 0.34  # one token back (3 a second)
    assert check().status_code == 200
    now[0] += 100
    big = factory.post(
        "/events/abc/check", "x", content_type="text/plain", REMOTE_ADDR="203.0.113.9"
    )
    big.META["CONTENT_LENGTH"] = str(32 * 1024 + 1)
    answer = guard(big)
    assert answer.status_code == 413 and json.loads(answer.content)["error"]["code"] == "too_large"
    exact = factory.post(
        "/events/abc/check", "x", content_type="text/plain", REMOTE_ADDR="203.0.113.9"
    )
    exact.META["CONTENT_LENGTH"] = str(32 * 1024)
    assert guard(exact).status_code == 200
    odd = factory.post(
        "/events/abc/check", "x", content_type="text/plain", REMOTE_ADDR="203.0.113.9"
    )
    odd.META["CONTENT_LENGTH"] = "-1"
    assert guard(odd).status_code == 413


def test_the_live_check_is_limited_through_the_stack(client, make_event) -> None:
    event, _ = make_event()
    url = f"/events/{event.key}/check"
    big = "x" * (32 * 1024 + 1)
    answer = client.post(url, {"deck": big})
    assert answer.status_code == 413
    assert json.loads(answer.content)["error"]["code"] == "too_large"
