"""The JSON API, version 1 (docs/guides/organiser.md), with django-ninja; its OpenAPI document is
/api/v1/openapi.json.

Errors are `{"error": {"code": "...", "message": "..."}}`, the message in the request's language
(`lang`, `?lang=`, else Accept-Language). The organiser sends `Authorization: Bearer TOKEN`; a
player `X-Edit-Token: TOKEN`. Besides the table of docs/guides/organiser.md: `GET /events/{event}` (the event's
state, anyone), `POST /events/{event}/check` (check a deck without storing it, for the live
check as the player types), and for the organiser `GET /events/{event}/metagame` and
`GET /events/{event}/sheets` (every sheet in one printable HTML document), and the roster:
`POST /events/{event}/roster` (`text/csv`), `GET /events/{event}/roster` (each player with
personal link, status and list; then the lists not on the roster) and `GET
/events/{event}/roster.csv` (the links for a mail merge). The organiser's rows list withdrawn
lists too, with `"withdrawn": true`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError

from varz_deck import __version__
from varz_deck.core.messages.i18n import msg
from varz_deck.core.messages.sanitize import json_dumps
from varz_deck.server import service
from varz_deck.server.api import decklists, events, organiser
from varz_deck.server.api.common import Renderer
from varz_deck.server.security import error_body, request_language

if TYPE_CHECKING:
    from ninja.operation import Operation

LOG = logging.getLogger("varz_deck.server")


class Api(NinjaAPI):
    """The API; each operation's id is `varz_deck_server_api_<function>`, whichever module of
    this package defines it (the ids clients generated from the OpenAPI document keep)."""

    def get_openapi_operation_id(self, operation: Operation) -> str:
        return f"varz_deck_server_api_{operation.view_func.__name__}"


api = Api(
    title="varz-deck registration",
    version="1",
    description="Deck registration for an event. Errors: "
    '`{"error": {"code": "...", "message": "..."}}`.',
    urls_namespace="api-v1",
    renderer=Renderer(),
    openapi_url="/openapi.json",
    docs_url=None,
)
api.add_router("", events.router)
api.add_router("", decklists.router)
api.add_router("", organiser.router)


# --- Errors ---------------------------------------------------------------------------------


def _error(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    return api.create_response(request, error_body(code, message), status=status)


@api.exception_handler(service.ServiceError)
def _service_error(request: HttpRequest, exc: service.ServiceError) -> HttpResponse:
    lang = getattr(request, "varz_lang", None) or request_language(request)
    return _error(request, exc.status, exc.code, exc.message.render(lang))


_INVALID = msg("serve", "the request is not valid: {problems}")


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    lang = request_language(request)
    places = []
    for error in exc.errors:
        loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "payload")]
        if loc == ["player"] and error.get("type") in ("missing", "string_pattern_mismatch"):
            return _error(request, 422, "invalid", service.NO_PLAYER.render(lang))
        places.append(".".join(loc) or "body")
    problems = ", ".join(dict.fromkeys(places)) or "body"
    return _error(request, 422, "invalid", _INVALID(problems=problems).render(lang))


_UNREADABLE = msg("serve", "the request cannot be read")
_BUSY = msg("serve", "the database is busy; nothing was changed, try again")
_FAILED = msg("serve", "the server failed; nothing was changed")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    lang = request_language(request)
    status = exc.status_code
    code = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found"}
    return _error(request, status, code.get(status, "error"), _UNREADABLE.render(lang))


@api.exception_handler(DatabaseError)
def _database_error(request: HttpRequest, exc: DatabaseError) -> HttpResponse:
    LOG.warning("database error: %s", exc)
    response = _error(request, 503, "busy", _BUSY.render(request_language(request)))
    response["Retry-After"] = "1"
    return response


@api.exception_handler(Exception)
def _failure(request: HttpRequest, exc: Exception) -> HttpResponse:
    from django.http import Http404

    if isinstance(exc, Http404):
        message = service.NO_EVENT.render(request_language(request))
        return _error(request, 404, "not_found", message)
    LOG.exception("internal error")
    return _error(request, 500, "internal", _FAILED.render(request_language(request)))


def healthz(request: HttpRequest) -> HttpResponse:
    """200 once the server accepts requests (and its database answers)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    body = json_dumps({"status": "ok", "version": __version__}, indent=None)
    return HttpResponse(body, content_type="application/json")
