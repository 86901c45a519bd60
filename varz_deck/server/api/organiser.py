"""The organiser's endpoints about the whole event: the audit log, the roster (CSV in, JSON and a
mail-merge CSV out), the export CSV, the metagame and the printable sheets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

from django.http import HttpRequest, HttpResponse
from ninja import Router

from varz_deck.server import service
from varz_deck.server.api.common import (
    ORGANISER_ERRORS,
    AuthHeader,
    bearer,
    language,
    rendered,
)
from varz_deck.server.api_schemas import (
    CSV_ANSWER,
    AuditOut,
    ErrorOut,
    Lang,
    MetagameOut,
    RosterErrorOut,
    RosterOut,
    RosterUploadOut,
)
from varz_deck.server.security import error_body
from varz_deck.server.views.render import csv_download

if TYPE_CHECKING:
    from varz_deck.server.models import Event

router = Router()


@router.get(
    "/events/{event}/audit",
    response={200: list[AuditOut], **ORGANISER_ERRORS},
    summary="Every organiser action on the event, with its time, oldest first (organiser)",
)
def audit(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, object]]:
    found = service.organiser_event(event, bearer(authorization))
    return [service.audit_json(entry, found) for entry in service.audit_log(found)]


class UnsupportedType(service.ServiceError):
    status, code = 415, "unsupported_media_type"


_ROSTER_CSV = {
    "content": {"text/csv": {"schema": {"type": "string"}}},
    "required": True,
    "description": "`name,player_id` and optionally `email`, in any order; UTF-8",
}


@router.post(
    "/events/{event}/roster",
    response={**ORGANISER_ERRORS, 200: RosterUploadOut, 415: ErrorOut, 422: RosterErrorOut},
    summary="Upload the roster as CSV: new players are added, known ones updated, none removed "
    "(organiser); 422 names every wrong line, and nothing is stored",
    openapi_extra={"requestBody": _ROSTER_CSV},
)
def upload_roster(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    lang = language(request, None)
    found = service.organiser_event(event, bearer(authorization))
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
        return rendered(request, 422, body)
    return rendered(request, 200, done.__dict__)


@router.get(
    "/events/{event}/roster",
    response={200: list[RosterOut], **ORGANISER_ERRORS},
    summary="Every rostered player with their personal link, status (missing, legal, illegal) "
    "and list, then every list not on the roster (`on_roster` false) (organiser)",
)
def roster(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, object]]:
    found = service.organiser_event(event, bearer(authorization))
    return [row.to_json(found) for row in service.roster_rows(found)]


def _organiser_csv(
    name: str, summary: str, rows: Callable[[Event], str], filename: Callable[[Event], str]
) -> None:
    """`GET /events/{event}/NAME.csv`: a CSV file of the event for its organiser, answered by
    the operation NAME_csv (its id `varz_deck_server_api_NAME_csv`, as the API names them)."""

    def endpoint(
        request: HttpRequest,
        event: str,
        authorization: Optional[str] = AuthHeader,  # noqa: UP045
    ) -> HttpResponse:
        found = service.organiser_event(event, bearer(authorization))
        return csv_download(rows(found), filename(found))

    endpoint.__name__ = endpoint.__qualname__ = f"{name}_csv"
    router.get(
        f"/events/{{event}}/{name}.csv",
        response={200: str, **ORGANISER_ERRORS},
        summary=summary,
        openapi_extra=CSV_ANSWER,
    )(endpoint)


_organiser_csv(
    "roster",
    "The personal links for a mail merge: name, player_id, email, link (organiser)",
    service.roster_csv,
    lambda found: f"{found.key}-links.csv",
)
_organiser_csv(
    "export",
    "The `register --output csv` columns, one row per player (organiser)",
    service.export_csv,
    lambda found: f"{found.key}.csv",
)


@router.get(
    "/events/{event}/metagame",
    response={200: list[MetagameOut], **ORGANISER_ERRORS},
    summary="How many lists play each lead card, most played first (organiser)",
)
def metagame(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> list[dict[str, object]]:
    found = service.organiser_event(event, bearer(authorization))
    return [row.__dict__ for row in service.metagame(found)]


@router.get(
    "/events/{event}/sheets",
    response={200: str, **ORGANISER_ERRORS},
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
    chosen = language(request, lang)
    found = service.organiser_event(event, bearer(authorization))
    document = service.sheets_document(found, chosen)
    return HttpResponse(document, content_type="text/html; charset=utf-8")
