"""The guards in-process: headers on every answer, cookies, the body limit, the Host check, API
errors as JSON, the live check's token buckets."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import pytest

CSP_BASE = (
    "default-src 'self'; script-src 'self'; style-src 'self'{}; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def _headers_of_every_answer(answer: Any) -> None:
    assert answer["Cross-Origin-Resource-Policy"] == "same-origin"
    assert answer["Permissions-Policy"] == "camera=(), microphone=(), geolocation=()"
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/v1/events/nosuch", "/nothing-here"])
def test_security_headers(client, path) -> None:
    answer = client.get(path)
    _headers_of_every_answer(answer)
    assert answer["Content-Security-Policy"] == CSP_BASE.format("")
    assert answer["X-Frame-Options"] == "DENY"


def test_style_blocks_are_allowed_by_their_hash(client, make_event) -> None:
    event, token = make_event()
    from varz_deck.server import service

    service.submit(event, "Aoi", "hero: x\n")
    signed = client
    signed.get(f"/o/{token}")
    answer = signed.get(f"/events/{event.key}/sheets")
    import re

    blocks = re.findall(rb"<style[^>]*>(.*?)</style>", answer.content, re.DOTALL)
    assert blocks
    hashes = dict.fromkeys(
        "'sha256-" + base64.b64encode(hashlib.sha256(b).digest()).decode() + "'" for b in blocks
    )
    assert answer["Content-Security-Policy"] == CSP_BASE.format("".join(" " + h for h in hashes))
    assert "unsafe-inline" not in answer["Content-Security-Policy"]


def test_two_style_blocks_are_allowed_each_by_its_hash_once(django_db) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory

    from varz_deck.server.security import SecurityHeadersMiddleware

    page = b"<style>a{}</style><p>x</p><STYLE media=print>b{}</STYLE><style>a{}</style>"
    answer = SecurityHeadersMiddleware(lambda request: HttpResponse(page))(
        RequestFactory().get("/")
    )
    first, second = (
        "'sha256-" + base64.b64encode(hashlib.sha256(block).digest()).decode() + "'"
        for block in (b"a{}", b"b{}")
    )
    assert answer["Content-Security-Policy"] == CSP_BASE.format(f" {first} {second}")


def test_cookies_are_httponly_lax_and_secure_over_https(client, make_event) -> None:
    _event, token = make_event()
    plain = client.get(f"/o/{token}")
    morsel = plain.cookies["varzdeck_session"]
    assert morsel["httponly"] is True and morsel["samesite"] == "Lax" and not morsel["secure"]
    from django.test import Client

    secure = Client().get(f"/o/{token}", secure=True)
    assert secure.cookies["varzdeck_session"]["secure"] is True
    lang = client.get("/?lang=ja", secure=True).cookies["varzdeck_lang"]
    assert lang["httponly"] is True and lang["secure"] is True and lang["samesite"] == "Lax"


def test_a_cookie_set_without_samesite_is_made_lax(django_db) -> None:
    """Every cookie this server sets names SameSite itself; the middleware still makes one that
    does not HttpOnly and SameSite=Lax."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from varz_deck.server.security import SecurityHeadersMiddleware

    def view(request: Any) -> HttpResponse:
        answer = HttpResponse("ok")
        answer.set_cookie("plain", "1")
        answer.set_cookie("strict", "2", samesite="Strict")
        return answer

    answer = SecurityHeadersMiddleware(view)(RequestFactory().get("/"))
    assert answer.cookies["plain"].OutputString() == "plain=1; HttpOnly; Path=/; SameSite=Lax"
    assert answer.cookies["strict"].OutputString() == "strict=2; HttpOnly; Path=/; SameSite=Strict"


def test_a_body_over_the_limit_is_413(client, make_event) -> None:
    event, _ = make_event()
    over = str(1024 * 1024 + 1)
    answer = client.post(f"/api/v1/events/{event.key}/decklists", CONTENT_LENGTH=over)
    assert answer.status_code == 413
    assert answer.json() == {
        "error": {
            "code": "too_large",
            "message": "the request is over 1,048,576 bytes; a deck list is far smaller",
        }
    }
    _headers_of_every_answer(answer)
    page = client.post(
        f"/events/{event.key}/submit", CONTENT_LENGTH=over, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert page.status_code == 413 and page.json()["error"]["code"] == "too_large"
    assert page.json()["error"]["message"] != answer.json()["error"]["message"]
    exact = client.post(f"/api/v1/events/{event.key}/decklists", CONTENT_LENGTH=str(1024 * 1024))
    assert exact.status_code != 413


@pytest.mark.parametrize(
    "host", ["evil.example", "testserver.evil", "[::2]:80", "bad host", "testserver:x"]
)
def test_another_host_is_400(client, host) -> None:
    api = client.get("/api/v1/events/nosuch", HTTP_HOST=host)
    assert api.status_code == 400
    assert api.json() == {
        "error": {
            "code": "bad_host",
            "message": "this server answers at http://testserver; the request named another host",
        }
    }
    _headers_of_every_answer(api)
    page = client.get("/", HTTP_HOST=host)
    assert page.status_code == 400
    assert page["Content-Type"] == "text/plain; charset=utf-8"
    assert page.content.decode() == (
        "this server answers at http://testserver; the request named another host\n"
    )


@pytest.mark.parametrize(
    "host", ["testserver", "TESTSERVER:8000", "localhost", "127.0.0.1:80", "[::1]:8000"]
)
def test_this_servers_names_are_served(client, host) -> None:
    assert client.get("/healthz", HTTP_HOST=host).status_code == 200


def test_host_refused_in_the_requests_language(client) -> None:
    answer = client.get("/api/v1/events/x", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert answer.status_code == 400
    assert "http://testserver" in answer.json()["error"]["message"]
    assert answer.json()["error"]["message"] != (
        "this server answers at http://testserver; the request named another host"
    )


def test_without_serve_every_host_is_served(client) -> None:
    from varz_deck.server import hosts

    before = hosts.current()
    hosts.use(None)
    try:
        assert client.get("/healthz", HTTP_HOST="anything.example").status_code == 200
        assert hosts.link("/x") == "/x"
    finally:
        hosts.use(before)


@pytest.mark.parametrize(
    ("path", "status", "code", "message"),
    [
        ("/api/v1/nothing", 404, "not_found", "there is nothing here"),
        ("/api/v1/events/x/decklists/y/z", 404, "not_found", "there is nothing here"),
    ],
)
def test_api_errors_are_json(client, path, status, code, message) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    assert answer["Content-Type"].startswith("application/json")
    assert answer.json() == {"error": {"code": code, "message": message}}


def test_djangos_own_api_errors_are_in_the_requests_language(client) -> None:
    ja = client.get("/api/v1/nothing", HTTP_ACCEPT_LANGUAGE="ja")
    assert ja.json() == {"error": {"code": "not_found", "message": "ここには何もありません"}}
    zh = client.get("/api/v1/nothing?lang=zh", HTTP_ACCEPT_LANGUAGE="ja")
    assert zh.json() == {"error": {"code": "not_found", "message": "这里什么都没有"}}


def test_a_wrong_method_on_the_api_keeps_allow(client, make_event) -> None:
    event, _ = make_event()
    answer = client.delete(f"/api/v1/events/{event.key}")
    assert answer.status_code == 405
    assert answer.json() == {
        "error": {"code": "method_not_allowed", "message": "this method is not allowed here"}
    }
    assert "GET" in answer["Allow"]


def test_csrf_refusal_on_the_api_is_json(make_event) -> None:
    from django.test import Client

    event, token = make_event()
    strict = Client(enforce_csrf_checks=True)
    strict.get(f"/o/{token}")
    page = strict.post(f"/events/{event.key}/lock")
    assert page.status_code == 403
    assert "Sign in" not in page.content.decode()


def test_api_answers_vary_by_accept_language(client) -> None:
    answer = client.get("/api/v1/events/nosuch")
    assert "Accept-Language" in answer["Vary"]
    page = client.get("/")
    assert "Accept-Language" in page["Vary"]


def test_page_language_follows_the_browser_but_api_chooses_itself(client) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja")
    assert 'lang="ja"' in page.content.decode()
    assert page["Content-Language"] == "ja"
    api = client.get("/api/v1/events/nosuch", HTTP_ACCEPT_LANGUAGE="ja")
    assert "Content-Language" not in api
    assert api.json()["error"]["message"] != "there is no such event"


@pytest.mark.parametrize(
    ("accept", "query", "expected"),
    [
        ("", "", "en"),
        ("ja", "", "ja"),
        ("fr-FR, zh-CN;q=0.8", "", "zh"),
        ("JA-jp", "", "ja"),
        ("ja", "en", "en"),
        ("ja", "xx", "ja"),
        ("fr, de", "", "en"),
        ("fr-FR,fr;q=0.9,zh;q=0.8", "", "zh"),  # as browsers send it: no spaces
    ],
)
def test_request_language(accept, query, expected, django_db) -> None:
    from django.test import RequestFactory

    from varz_deck.server.security import request_language

    request = RequestFactory().get(
        "/", {"lang": query} if query else {}, HTTP_ACCEPT_LANGUAGE=accept
    )
    assert request_language(request) == expected
    assert request_language(request, "zh") == "zh"
    assert request_language(request, "xx") == expected


def test_error_response_keeps_unicode(django_db) -> None:
    from varz_deck.server.security import error_response

    answer = error_response(418, "teapot", "見")
    assert answer.status_code == 418
    assert answer.content.decode() == '{"error": {"code": "teapot", "message": "見"}}'


# --- the live check's token buckets -------------------------------------------------------------


def test_token_bucket_burst_then_rate() -> None:
    from varz_deck.server.limits import TokenBuckets

    buckets = TokenBuckets(burst=3, rate=2.0)
    assert [buckets.take("a", 10.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a", 10.0) == pytest.approx(0.5)  # 1 token at 2 a second
    assert buckets.take("b", 10.0) == 0.0  # another address has its own
    assert buckets.take("a", 10.25) == pytest.approx(0.25)
    assert buckets.take("a", 10.5) == 0.0
    assert buckets.take("a", 10.5) == pytest.approx(0.5)
    assert buckets.take("a", 100.0) == 0.0  # refilled, never over the burst
    assert buckets.take("a", 100.0) == 0.0 and buckets.take("a", 100.0) == 0.0
    assert buckets.take("a", 100.0) > 0.0


def test_token_bucket_defaults() -> None:
    from varz_deck.server.limits import BURST, RATE, TokenBuckets

    assert (BURST, RATE) == (30, 3.0)
    buckets = TokenBuckets()
    assert (buckets.burst, buckets.rate, buckets.most) == (30, 3.0, 4096)
    assert all(buckets.take("x", 0.0) == 0.0 for _ in range(30))
    assert buckets.take("x", 0.0) == pytest.approx(1 / 3)


class _RecordingCache:
    """A cache that keeps what it is given and the timeout of each."""

    def __init__(self) -> None:
        self.held: dict[str, Any] = {}
        self.timeouts: dict[str, int] = {}

    def get(self, name: str) -> Any:
        return self.held.get(name)

    def set(self, name: str, value: Any, timeout: int) -> None:
        self.held[name], self.timeouts[name] = value, timeout


def test_token_buckets_live_in_the_cache_and_are_forgotten_once_full() -> None:
    from varz_deck.server.limits import TokenBuckets

    cache = _RecordingCache()
    buckets = TokenBuckets(burst=2, rate=1.0, cache=cache, prefix="check")
    buckets.take("busy", 0.0)
    buckets.take("busy", 0.0)
    assert cache.held == {"varz-deck:check:busy": (0.0, 0.0)}
    assert cache.timeouts == {"varz-deck:check:busy": 3}  # full again after 2 s, then forgotten
    assert buckets.take("busy", 0.0) == pytest.approx(1.0)
    cache.held.clear()  # expired: a full bucket again
    assert buckets.take("busy", 0.0) == 0.0
    slow = TokenBuckets(burst=30, rate=0.5, cache=cache)
    assert slow.ttl == 61


def test_token_buckets_without_a_cache_keep_their_own(django_db) -> None:
    from varz_deck.server.limits import TokenBuckets

    one, two = TokenBuckets(burst=1, rate=1.0, most=7), TokenBuckets(burst=1, rate=1.0)
    assert one.take("a", 0.0) == 0.0 and one.take("a", 0.0) == pytest.approx(1.0)
    assert two.take("a", 0.0) == 0.0  # not the other's bucket
    assert one.cache._max_entries == 7


def test_json_page_escapes_markup(django_db) -> None:
    from varz_deck.server.views.render import json_page

    answer = json_page({"a": "<b>&é</b>"}, 201)
    assert answer.status_code == 201 and answer["Cache-Control"] == "no-store"
    assert answer.content.decode() == '{"a": "\\u003cb\\u003e\\u0026\\u00e9\\u003c/b\\u003e"}'
    assert json.loads(answer.content) == {"a": "<b>&é</b>"}


def test_style_in_a_json_answer_is_no_style_source(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(
        f"/api/v1/events/{event.key}/decklists",
        json.dumps({"player": "<style>p{}</style>", "deck": "x"}),
        content_type="application/json",
    )
    body = answer.json()
    got = client.get(f"/api/v1/decklists/{body['id']}", HTTP_X_EDIT_TOKEN=body["edit_token"])
    assert b"<style>p{}</style>" in got.content
    assert got["Content-Security-Policy"] == CSP_BASE.format("")


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        (400, "bad_request", "the request cannot be read"),
        (403, "forbidden", "this is not allowed"),
        (409, "conflict", "the request cannot be read"),
        (415, "unsupported_media_type", "the request cannot be read"),
        (418, "error", "the request cannot be read"),
        (500, "internal", "the server failed; nothing was changed"),
    ],
)
def test_api_errors_are_made_json(django_db, status, code, message) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory

    from varz_deck.server.security import _api_error

    request = RequestFactory().get("/api/v1/x")
    made = _api_error(request, HttpResponse("<p>no</p>", status=status))
    assert made.status_code == status
    assert json.loads(made.content) == {"error": {"code": code, "message": message}}
    assert not made.has_header("Allow")
    fine = HttpResponse("ok", status=399)
    assert _api_error(request, fine) is fine
    already = HttpResponse("{}", status=404, content_type="application/json")
    assert _api_error(request, already) is already
