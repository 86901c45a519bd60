"""Headers on every answer, secure cookies over https, and the 1 MiB body limit (SPEC §9).

- Content-Security-Policy: everything from this server only, no inline script, no outside
  resource, no framing. An HTML answer's own `<style>` blocks (the printable sheets are one
  self-contained document) are allowed by their SHA-256, never by 'unsafe-inline'.
- X-Content-Type-Options, Referrer-Policy, Cross-Origin-Opener-Policy (Django's SecurityMiddleware)
  and X-Frame-Options (its clickjacking middleware) come with them; here also
  Cross-Origin-Resource-Policy and Permissions-Policy.
- Cookies (session, CSRF) are HttpOnly and SameSite=Lax always, and Secure when the request came
  over https (directly, or through a proxy uvicorn trusts with --forwarded-allow-ips).
- A request naming a host this server is not (hosts.py) is answered 400 before any view runs.
- A request body over BODY_LIMIT is answered 413 before it is read (`BodyLimit`, the ASGI layer
  in front of Django); the middleware here refuses one the same way when Django is run otherwise.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.utils.cache import patch_vary_headers

from varz_deck.core.i18n import LANGUAGES, msg
from varz_deck.core.sanitize import json_dumps
from varz_deck.server import hosts
from varz_deck.server.settings import BODY_LIMIT

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'{styles}; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_STYLE = re.compile(rb"<style[^>]*>(.*?)</style>", re.DOTALL | re.IGNORECASE)
TOO_LARGE = msg("serve", "the request is over {limit:,} bytes; a deck list is far smaller")
API_PREFIX = "/api/"


def request_language(request: HttpRequest, given: str | None = None) -> str:
    """en, ja or zh for messages: the one given (`lang`), else `?lang=`, else Accept-Language."""
    for choice in (given, request.GET.get("lang")):
        if choice in LANGUAGES:
            return str(choice)
    accepted = request.META.get("HTTP_ACCEPT_LANGUAGE", "")  # not request.headers: it copies all
    for part in accepted.split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return "en"


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> HttpResponse:
    return JsonResponse(
        error_body(code, message),
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


def _style_sources(response: HttpResponse) -> str:
    if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
        return ""
    found = [
        "'sha256-" + base64.b64encode(hashlib.sha256(block).digest()).decode() + "'"
        for block in _STYLE.findall(response.content)
    ]
    return "".join(" " + h for h in dict.fromkeys(found))


class PageLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, for the pages only (Django's own texts there, such as its CSRF
    refusal, follow the browser). The API chooses its language itself (`request_language`):
    activating Django's cost each API request 0.17 ms. Its answers still vary by
    Accept-Language."""

    def process_request(self, request: HttpRequest) -> None:
        if not request.path.startswith(API_PREFIX):
            super().process_request(request)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            patch_vary_headers(response, ("Accept-Language",))
            return response
        return super().process_response(request, response)


class SecurityHeadersMiddleware:
    """The headers above on every answer; an over-large body refused; API errors as JSON."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = request.META.get("CONTENT_LENGTH") or "0"
        served = hosts.current()
        named = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME") or ""
        if served is not None and not served.allows(str(named)):
            response = _bad_host(request, served.public_url)
        elif length.isdigit() and int(length) > BODY_LIMIT:
            message = TOO_LARGE(limit=BODY_LIMIT).render(request_language(request))
            response = error_response(413, "too_large", message)
        else:
            response = self.get_response(request)
        if request.path.startswith(API_PREFIX):
            response = _api_error(request, response)
        response.setdefault("Content-Security-Policy", CSP.format(styles=_style_sources(response)))
        response.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        response.setdefault("X-Content-Type-Options", "nosniff")
        response.setdefault("Referrer-Policy", "same-origin")
        if request.is_secure():
            for morsel in response.cookies.values():
                morsel["secure"] = True
        for morsel in response.cookies.values():
            morsel["httponly"] = True
            if not morsel["samesite"]:
                morsel["samesite"] = "Lax"
        return response


BAD_HOST = msg("serve", "this server answers at {url}; the request named another host")


def _bad_host(request: HttpRequest, url: str) -> HttpResponse:
    """400 for a request naming a host this server is not (the host is not repeated)."""
    message = BAD_HOST(url=url).render(request_language(request))
    if request.path.startswith(API_PREFIX):
        return error_response(400, "bad_host", message)
    return HttpResponse(message + "\n", status=400, content_type="text/plain; charset=utf-8")


_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    500: "internal",
}
_STATUS_MESSAGES = {
    400: msg("serve", "the request cannot be read"),
    403: msg("serve", "this is not allowed"),
    404: msg("serve", "there is nothing here"),
    405: msg("serve", "this method is not allowed here"),
    500: msg("serve", "the server failed; nothing was changed"),
}


def _api_error(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An API error that is not yet `{"error": {"code", "message"}}` (Django's own 404, 405, a
    CSRF refusal…) made so."""
    if response.status_code < 400 or response.get("Content-Type", "").startswith(
        "application/json"
    ):
        return response
    status = response.status_code
    message = _STATUS_MESSAGES.get(status, _STATUS_MESSAGES[400])
    code = _STATUS_CODES.get(status, "error")
    replaced = error_response(status, code, message.render(request_language(request)))
    if response.has_header("Allow"):
        replaced["Allow"] = response["Allow"]
    return replaced


Scope = MutableMapping[str, Any]
Message_ = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message_]]
Send = Callable[[Message_], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


DRAIN_LIMIT = 16 * BODY_LIMIT  # bytes of a refused body read (and dropped) before the 413


class BodyLimit:
    """ASGI: a request whose body is over the limit is answered 413 before Django reads it (by
    its Content-Length, or while a chunked body arrives); nothing else is changed."""

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await self._refuse(scope, receive, send, int(length) if length.isdigit() else 0)
                return
            await self.app(scope, receive, send)
            return
        # no Content-Length (chunked): read it here, up to the limit, and hand it on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left: nothing to do, nothing written
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                more = message.get("more_body", False)
                await self._refuse(scope, receive if more else None, send, DRAIN_LIMIT)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message_:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive | None, send: Send, size: int) -> None:
        text = TOO_LARGE(limit=self.limit).render(_language(scope))
        await refuse(scope, receive, send, size, (413, "too_large", text))


def _language(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            tag = value.decode("latin-1").split(",")[0].strip().lower()[:2]
            return tag if tag in LANGUAGES else "en"
    return "en"


async def refuse(
    scope: Scope,
    receive: Receive | None,
    send: Send,
    size: int,
    error: tuple[int, str, str],
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """An error answer (status, code, message) after reading and dropping a body of up to
    DRAIN_LIMIT bytes (a client still sending would see its connection cut before the answer);
    nothing of it is kept, and the connection is closed."""
    if receive is not None and size <= DRAIN_LIMIT:
        drained = 0
        while drained <= DRAIN_LIMIT:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            drained += len(message.get("body", b""))
            if not message.get("more_body", False):
                break
    status, code, text = error
    body = json_dumps(error_body(code, text), indent=None).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                (b"content-security-policy", CSP.format(styles="").encode()),
                (b"x-content-type-options", b"nosniff"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


LIVE_CHECK = re.compile(r"/(?:api/v1/)?events/[^/]+/check")
LIVE_CHECK_LIMIT = 32 * 1024  # bytes of a live check's body; a real deck is under 4 KiB
BURST = 30  # live checks one client address may make at once (in each worker process)
RATE = 3.0  # … and then each second (the page's script sends one after each 350 ms pause)
TOO_MANY = msg(
    "serve",
    "too many checks from this address; try again in {seconds} s (submitting is not limited)",
)


class TokenBuckets:
    """A token bucket per client address: `take` spends a token, or says how many seconds until
    one is there. At most `most` addresses are kept; full buckets are forgotten first."""

    def __init__(self, burst: int = BURST, rate: float = RATE, most: int = 4096) -> None:
        self.burst, self.rate, self.most = burst, rate, most
        self._held: dict[str, tuple[float, float]] = {}  # address: tokens, when counted

    def take(self, address: str, now: float) -> float:
        tokens, then = self._held.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._held[address] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if address not in self._held and len(self._held) >= self.most:
            self._forget(now)
        self._held[address] = (tokens - 1.0, now)
        return 0.0

    def _forget(self, now: float) -> None:
        full = [a for a, (t, w) in self._held.items() if t + (now - w) * self.rate >= self.burst]
        for address in full:
            del self._held[address]
        if len(self._held) >= self.most:  # every one busy: a flood of addresses
            self._held.clear()


class LiveCheckGuard:
    """ASGI, in front of everything: the anonymous live check (`POST /events/E/check`, and the
    API's) is the one request anyone may repeat that costs real work, so its body is limited to
    LIVE_CHECK_LIMIT (413) and each client address (after a trusted proxy's X-Forwarded-For) to
    a token bucket (429 with Retry-After); nothing of a refused request reaches Django."""

    def __init__(self, app: ASGIApp, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.limited = BodyLimit(app, LIVE_CHECK_LIMIT)
        self.buckets = TokenBuckets()
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope["type"] == "http"
            and scope.get("method") == "POST"
            and LIVE_CHECK.fullmatch(scope.get("path", ""))
        ):
            await self.app(scope, receive, send)
            return
        client = scope.get("client") or ("", 0)
        wait = self.buckets.take(str(client[0]), self.clock())
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            text = TOO_MANY(seconds=seconds).render(_language(scope))
            retry = ((b"retry-after", str(seconds).encode()),)
            await refuse(scope, receive, send, 0, (429, "too_many_requests", text), retry)
            return
        await self.limited(scope, receive, send)
