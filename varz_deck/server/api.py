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
from typing import Any, Optional

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from ninja import Header, NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.renderers import BaseRenderer

from varz_deck import __version__
from varz_deck.core.messages.i18n import msg
from varz_deck.core.messages.sanitize import json_dumps
from varz_deck.server import service
from varz_deck.server.api_schemas import (
    CSV_ANSWER,
    AuditOut,
    CheckOut,
    DeckIn,
    DecklistOut,
    ErrorOut,
    EventOut,
    Lang,
    MetagameOut,
    PublicOut,
    ReplaceOut,
    RosterErrorOut,
    RosterOut,
    RosterUploadOut,
    RowOut,
    SubmitIn,
    SubmitOut,
)
from varz_deck.server.security import error_body, request_language
from varz_deck.server.views.render import csv_download

LOG = logging.getLogger("varz_deck.server")


class Renderer(BaseRenderer):
    """JSON in UTF-8 with every control and bidi character escaped (as `check --output json`)."""

    media_type = "application/json"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> Any:
        return json_dumps(data, indent=None)


api = NinjaAPI(
    title="varz-deck registration",
    version="1",
    description="Deck registration for an event. Errors: "
    '`{"error": {"code": "...", "message": "..."}}`.',
    urls_namespace="api-v1",
    renderer=Renderer(),
    openapi_url="/openapi.json",
    docs_url=None,
)


# --- Schemas ----------------------------------------------------------------------------------


_ERRORS: dict[int | str, Any] = {code: ErrorOut for code in (400, 404, 413, 422)}
_ORGANISER_ERRORS: dict[int | str, Any] = {**_ERRORS, 401: ErrorOut, 403: ErrorOut}

AuthHeader = Header(None, alias="Authorization", description="Bearer ORGANISER_TOKEN")
EditHeader = Header(None, alias="X-Edit-Token", description="the player's edit token")


def _bearer(value: str | None) -> str | None:
    if not value:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


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


def _lang(request: HttpRequest, lang: str | None) -> str:
    chosen = service.language(lang) if lang else request_language(request)
    request.varz_lang = chosen
    return chosen


def _rendered(request: HttpRequest, status: int, answer: dict[str, Any]) -> HttpResponse:
    """The answer of a submission or a live check, the two requests made all day long, rendered
    as it is: ninja's validation of it against its response schema cost each 0.3 ms of the
    server's CPU. test_api holds these answers to the OpenAPI document instead."""
    return api.create_response(request, answer, status=status)


# --- Endpoints --------------------------------------------------------------------------------


@api.post(
    "/events/{event}/decklists",
    response={201: SubmitOut, 409: ErrorOut, **_ERRORS},
    summary="Submit a decklist (anyone); every submission is stored, legal or not. A player id "
    "names one list: 409 `player_id_rostered` for a rostered player's id (their personal link "
    "submits it), `player_id_taken` for an id that has a list (its private link replaces it); "
    "413 `deck_too_large` for a list far over its game's section sizes",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def submit(request: HttpRequest, event: str, payload: SubmitIn) -> HttpResponse:
    lang = _lang(request, payload.lang)
    found = service.recent_event(event)
    decklist, _version, token, checked = service.submit(
        found, payload.player, payload.deck, player_id=payload.player_id
    )
    answer = {
        "id": decklist.pk,
        "edit_token": token,
        "private_url": service.decklist_path(decklist, token),
        "legal": checked.legal,
        "deck_hash": checked.deck_hash,
        "diagnostics": checked.diagnostics(lang),
    }
    return _rendered(request, 201, answer)


@api.post(
    "/events/{event}/check",
    response={200: CheckOut, **_ERRORS},
    summary="Check a deck for the event without storing it (the live check)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def check(request: HttpRequest, event: str, payload: DeckIn) -> HttpResponse:
    lang = _lang(request, payload.lang)
    checked = service.check_deck(service.recent_event(event), payload.deck)
    answer = {
        "legal": checked.legal,
        "deck_hash": checked.deck_hash,
        "diagnostics": checked.diagnostics(lang),
    }
    return _rendered(request, 200, answer)


@api.get(
    "/decklists/{decklist}",
    response={200: DecklistOut, **_ERRORS},
    summary="A list with its diagnostics and versions (its player or the organiser)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def get_decklist(
    request: HttpRequest,
    decklist: str,
    lang: Lang = None,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
    x_edit_token: Optional[str] = EditHeader,  # noqa: UP045
) -> dict[str, Any]:
    chosen = _lang(request, lang)
    found, _ = service.get_decklist(
        decklist, edit_token=x_edit_token, organiser_token=_bearer(authorization)
    )
    return service.decklist_json(found, chosen)


@api.put(
    "/decklists/{decklist}",
    response={200: ReplaceOut, 409: ErrorOut, **_ERRORS},
    summary="Replace a list: a new version (its player until the deadline; the organiser always)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def replace_decklist(
    request: HttpRequest,
    decklist: str,
    payload: DeckIn,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
    x_edit_token: Optional[str] = EditHeader,  # noqa: UP045
) -> dict[str, Any]:
    lang = _lang(request, payload.lang)
    found, organiser = service.get_decklist(
        decklist, edit_token=x_edit_token, organiser_token=_bearer(authorization)
    )
    version, checked = service.replace_deck(found, payload.deck, by_organiser=organiser)
    return {
        "id": found.pk,
        "version": version.number,
        "submitted_at": service.iso_time(found.event, version.submitted_at),
        "legal": checked.legal,
        "deck_hash": checked.deck_hash,
        "diagnostics": checked.diagnostics(lang),
    }


@api.get(
    "/events/{event}",
    response={200: EventOut, **_ERRORS},
    summary="The event's state (anyone)",
)
def event_state(request: HttpRequest, event: str) -> dict[str, Any]:
    return service.event_state(service.get_event(event))


@api.get(
    "/events/{event}/decklists",
    response={200: list[RowOut], **_ORGANISER_ERRORS},
    summary="Every list of the event (organiser)",
)
def list_decklists(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    found = service.organiser_event(event, _bearer(authorization))
    # rendered here, not validated row by row against RowOut (for 1,000 lists that took more
    # than half of the answer's time); service.decklist_rows builds exactly RowOut's fields
    rows = service.decklist_rows(found)
    return HttpResponse(
        Renderer().render(request, rows, response_status=200),
        content_type=api.get_content_type(),
    )


def _organiser_action(name: str, summary: str) -> None:
    @api.post(
        f"/events/{{event}}/{name}",
        response={200: EventOut, **_ORGANISER_ERRORS},
        summary=summary,
        operation_id=f"event_{name}",
    )
    def action(
        request: HttpRequest,
        event: str,
        authorization: Optional[str] = AuthHeader,  # noqa: UP045
    ) -> dict[str, Any]:
        found = service.organiser_event(event, _bearer(authorization))
        if name == "lock":
            found = service.set_locked(found, True)
        elif name == "unlock":
            found = service.set_locked(found, False)
        elif name == "unpublish":
            found = service.unpublish(found)
        else:
            found = service.publish(found)
        return service.event_state(found)


_organiser_action("lock", "Lock the event: players can no longer submit or replace (organiser)")
_organiser_action("unlock", "Unlock the event (organiser)")
_organiser_action("publish", "Publish every list (organiser)")
_organiser_action("unpublish", "Unpublish the lists: the public lists are 404 again (organiser)")


def _organisers_list(decklist: str, authorization: str | None) -> Any:
    """The list, for its event's organiser: 401 without a token, 404 for any other token (a
    list's existence is not revealed)."""
    token = _bearer(authorization)
    if not token:
        raise service.Unauthorized(service.NO_TOKEN)
    found, _ = service.get_decklist(decklist, organiser_token=token)
    return found


@api.delete(
    "/decklists/{decklist}",
    response={200: DecklistOut, 401: ErrorOut, **_ERRORS},
    summary="Withdraw a list: kept with its versions, out of the CSV, the sheets, the metagame "
    "and the public lists (organiser); withdrawing it again changes nothing",
)
def withdraw_decklist(
    request: HttpRequest,
    decklist: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> dict[str, Any]:
    found = service.withdraw(_organisers_list(decklist, authorization))
    return service.decklist_json(found)


@api.post(
    "/decklists/{decklist}/restore",
    response={200: DecklistOut, 401: ErrorOut, 409: ErrorOut, **_ERRORS},
    summary="Restore a withdrawn list (organiser); a list not withdrawn stays as it is; 409 "
    "`player_id_taken` when another list has its player id now",
)
def restore_decklist(
    request: HttpRequest,
    decklist: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> dict[str, Any]:
    found = service.restore(_organisers_list(decklist, authorization))
    return service.decklist_json(found)


@api.get(
    "/events/{event}/audit",
    response={200: list[AuditOut], **_ORGANISER_ERRORS},
    summary="Every organiser action on the event, with its time, oldest first (organiser)",
)
def audit(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, Any]]:
    found = service.organiser_event(event, _bearer(authorization))
    return [service.audit_json(entry, found) for entry in service.audit_log(found)]


class UnsupportedType(service.ServiceError):
    status, code = 415, "unsupported_media_type"


_ROSTER_CSV = {
    "content": {"text/csv": {"schema": {"type": "string"}}},
    "required": True,
    "description": "`name,player_id` and optionally `email`, in any order; UTF-8",
}


@api.post(
    "/events/{event}/roster",
    response={**_ORGANISER_ERRORS, 200: RosterUploadOut, 415: ErrorOut, 422: RosterErrorOut},
    summary="Upload the roster as CSV: new players are added, known ones updated, none removed "
    "(organiser); 422 names every wrong line, and nothing is stored",
    openapi_extra={"requestBody": _ROSTER_CSV},
)
def upload_roster(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    lang = _lang(request, None)
    found = service.organiser_event(event, _bearer(authorization))
    kind = request.META.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if kind != "text/csv":
        raise UnsupportedType(service.ROSTER_TYPE)
    try:
        done = service.upload_roster(found, request.body)
    except service.RosterInvalid as invalid:
        body = error_body(invalid.code, invalid.message.render(lang))
        body["error"]["problems"] = [
            {"line": p.line, "message": p.message.render(lang)} for p in invalid.problems
        ]
        return api.create_response(request, body, status=422)
    return api.create_response(request, done.__dict__, status=200)


@api.get(
    "/events/{event}/roster",
    response={200: list[RosterOut], **_ORGANISER_ERRORS},
    summary="Every rostered player with their personal link, status (missing, legal, illegal) "
    "and list, then every list not on the roster (`on_roster` false) (organiser)",
)
def roster(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, Any]]:
    found = service.organiser_event(event, _bearer(authorization))
    return [row.to_json(found) for row in service.roster_rows(found)]


@api.get(
    "/events/{event}/roster.csv",
    response={200: str, **_ORGANISER_ERRORS},
    summary="The personal links for a mail merge: name, player_id, email, link (organiser)",
    openapi_extra=CSV_ANSWER,
)
def roster_csv(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    found = service.organiser_event(event, _bearer(authorization))
    return csv_download(service.roster_csv(found), f"{found.key}-links.csv")


@api.get(
    "/events/{event}/export.csv",
    response={200: str, **_ORGANISER_ERRORS},
    summary="The `register --output csv` columns, one row per player (organiser)",
    openapi_extra=CSV_ANSWER,
)
def export_csv(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    found = service.organiser_event(event, _bearer(authorization))
    return csv_download(service.export_csv(found), f"{found.key}.csv")


@api.get(
    "/events/{event}/metagame",
    response={200: list[MetagameOut], **_ORGANISER_ERRORS},
    summary="How many lists play each lead card, most played first (organiser)",
)
def metagame(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, Any]]:
    found = service.organiser_event(event, _bearer(authorization))
    return [row.__dict__ for row in service.metagame(found)]


@api.get(
    "/events/{event}/sheets",
    response={200: str, **_ORGANISER_ERRORS},
    summary="Every player's registration sheet in one printable HTML document (organiser)",
    openapi_extra={
        "responses": {200: {"description": "HTML", "content": {"text/html": {"schema": {}}}}}
    },
)
def sheets(
    request: HttpRequest,
    event: str,
    lang: Lang = None,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    chosen = _lang(request, lang)
    found = service.organiser_event(event, _bearer(authorization))
    document = service.sheets_document(found, chosen)
    return HttpResponse(document, content_type="text/html; charset=utf-8")


@api.get(
    "/events/{event}/public",
    response={200: list[PublicOut], **_ERRORS},
    summary="Every player's canonical list, once published (anyone); 404 before",
)
def public(request: HttpRequest, event: str) -> list[dict[str, Any]]:
    return service.public_lists(service.get_event(event))


def healthz(request: HttpRequest) -> HttpResponse:
    """200 once the server accepts requests (and its database answers)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    body = json_dumps({"status": "ok", "version": __version__}, indent=None)
    return HttpResponse(body, content_type="application/json")
