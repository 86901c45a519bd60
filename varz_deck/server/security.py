"""Headers on every answer, secure cookies over https, and the 1 MiB body limit (docs/guides/organiser.md).

- Content-Security-Policy: everything from this server only, no inline script, no outside
  resource, no framing. An HTML answer's own `<style>` blocks (the printable sheets are one
  self-contained document) are allowed by their SHA-256, never by 'unsafe-inline'. Kept rather
  than django-csp 4: its header lists the directives in set order, which differs from one
  worker process to the next, it costs 43 µs an answer against 2 µs here, and the style hashes
  would still be computed here (docs/guides/organiser.md, "Run it on a server").
- X-Content-Type-Options, Referrer-Policy, Cross-Origin-Opener-Policy (Django's SecurityMiddleware)
  and X-Frame-Options (its clickjacking middleware) come with them; here also
  Cross-Origin-Resource-Policy and Permissions-Policy.
- Cookies (session, CSRF) are HttpOnly and SameSite=Lax always, and Secure when the request came
  over https (directly, or through a proxy gunicorn trusts: FORWARDED_ALLOW_IPS, 127.0.0.1 and ::1
  unless set, gunicorn's `forwarded_allow_ips`).
- A request naming a host this server is not (hosts.py) is answered 400 before any view runs.
- A request body over BODY_LIMIT is answered 413 before it is read, by its Content-Length
  (`WholeBodies` gives a chunked body one, reading at most BODY_LIMIT + 1 bytes of it).
- The anonymous live check and the submissions are limited per client address
  (`RequestLimits`).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.utils.cache import patch_vary_headers

from varz_deck.core.messages.i18n import LANGUAGES, msg
from varz_deck.server import hosts
from varz_deck.server.config import BODY_LIMIT

if TYPE_CHECKING:
    from _typeshed import SupportsRead
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


def error_body(code: str, message: str) -> dict[str, dict[str, object]]:
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


class WholeBodies:
    """WSGI, in front of Django: a request's body is read whole here, before Django sees it.

    - A Content-Length over `limit`: nothing read (SecurityHeadersMiddleware answers 413 by it).
    - A Content-Length: exactly that many bytes. gunicorn gives a body cut short by a client
      that left as if it were whole, and Django would act on that half: it is answered 400 here,
      and Django never sees it.
    - None (chunked: gunicorn passes it on with `wsgi.input_terminated`, and Django would read it
      as empty): at most `limit` + 1 bytes, given to Django with their length (over the limit,
      413 as above; the rest is never read).
    """

    def __init__(self, app: WSGIApplication, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        length = str(environ.get("CONTENT_LENGTH") or "")
        if length.isdigit() and int(length) > self.limit:
            return self.app(environ, start_response)
        wanted = int(length) if length.isdigit() else self.limit + 1
        try:
            body = _read(environ["wsgi.input"], wanted)
        except Exception:  # the client left, or sent a malformed chunk
            body = None
        if body is None or (length.isdigit() and len(body) < wanted):
            start_response("400 Bad Request", [("Content-Length", "0")])
            return [b""]
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)


def _read(stream: SupportsRead[bytes], most: int) -> bytes:
    """Up to `most` bytes of a stream, fewer where it ends first."""
    parts: list[bytes] = []
    left = most
    while left > 0:
        part = stream.read(min(left, 64 * 1024))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
