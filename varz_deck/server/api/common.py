"""What the API's endpoints share: the JSON renderer, the headers, the error answers, the
organiser's bearer token and the request's language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Header
from ninja.renderers import BaseRenderer

from varz_deck.core.messages.sanitize import json_dumps
from varz_deck.server import service
from varz_deck.server.api_schemas import ErrorOut
from varz_deck.server.security import request_language


class Renderer(BaseRenderer):
    """JSON in UTF-8 with every control and bidi character escaped (as `check --output json`)."""

    media_type = "application/json"

    def render(self, request: HttpRequest, data: object, *, response_status: int) -> str:
        return json_dumps(data, indent=None)


CONTENT_TYPE = f"{Renderer.media_type}; charset={Renderer.charset}"

ERRORS: dict[int | str, type[ErrorOut]] = {code: ErrorOut for code in (400, 404, 413, 422)}
ORGANISER_ERRORS: dict[int | str, type[ErrorOut]] = {**ERRORS, 401: ErrorOut, 403: ErrorOut}

AuthHeader = Header(None, alias="Authorization", description="Bearer ORGANISER_TOKEN")
EditHeader = Header(None, alias="X-Edit-Token", description="the player's edit token")


def bearer(value: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None: none, or another scheme)."""
    if not value:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def language(request: HttpRequest, lang: str | None) -> str:
    """The answer's language (`lang`, else Accept-Language), kept on the request for errors."""
    chosen = service.language(lang) if lang else request_language(request)
    request.varz_lang = chosen
    return chosen


def rendered(request: HttpRequest, status: int, data: object) -> HttpResponse:
    """`data` rendered as it is: ninja's validation of a submission's, a replacement's or a live
    check's answer against its response schema cost each 0.3 ms of the server's CPU
    (tests/server/test_api.py holds these answers to the OpenAPI document instead)."""
    body = Renderer().render(request, data, response_status=status)
    return HttpResponse(body, status=status, content_type=CONTENT_TYPE)
