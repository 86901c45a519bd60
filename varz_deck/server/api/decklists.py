"""One list's endpoints: read and replace (its player or the organiser), withdraw and restore (the
organiser)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from django.http import HttpRequest, HttpResponse
from ninja import Router

from varz_deck.server import service
from varz_deck.server.api.common import (
    ERRORS,
    AuthHeader,
    EditHeader,
    bearer,
    language,
    rendered,
)
from varz_deck.server.api_schemas import (
    DeckIn,
    DecklistOut,
    ErrorOut,
    Lang,
    ReplaceOut,
)

if TYPE_CHECKING:
    from varz_deck.server.models import Decklist

router = Router()


@router.get(
    "/decklists/{decklist}",
    response={200: DecklistOut, **ERRORS},
    summary="A list with its diagnostics and versions (its player or the organiser)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def get_decklist(
    request: HttpRequest,
    decklist: str,
    lang: Lang = None,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
    x_edit_token: Optional[str] = EditHeader,  # noqa: UP045
) -> dict[str, object]:
    chosen = language(request, lang)
    found, _ = service.get_decklist(
        decklist, edit_token=x_edit_token, organiser_token=bearer(authorization)
    )
    return service.decklist_json(found, chosen)


@router.put(
    "/decklists/{decklist}",
    response={200: ReplaceOut, 409: ErrorOut, **ERRORS},
    summary="Replace a list: a new version (its player until the deadline; the organiser always)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def replace_decklist(
    request: HttpRequest,
    decklist: str,
    payload: DeckIn,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
    x_edit_token: Optional[str] = EditHeader,  # noqa: UP045
) -> HttpResponse:
    lang = language(request, payload.lang)
    found, organiser = service.get_decklist(
        decklist, edit_token=x_edit_token, organiser_token=bearer(authorization), current=False
    )
    version, checked = service.replace_deck(found, payload.deck, by_organiser=organiser)
    answer = {
        "id": found.pk,
        "version": version.number,
        "submitted_at": service.iso_time(found.event, version.submitted_at),
        **checked.answer(lang),
    }
    return rendered(request, 200, answer)


def _organisers_list(decklist: str, authorization: str | None) -> Decklist:
    """The list, for its event's organiser: 401 without a token, 404 for any other token (a
    list's existence is not revealed)."""
    token = bearer(authorization)
    if not token:
        raise service.Unauthorized(service.NO_TOKEN)
    found, _ = service.get_decklist(decklist, organiser_token=token)
    return found


@router.delete(
    "/decklists/{decklist}",
    response={200: DecklistOut, 401: ErrorOut, **ERRORS},
    summary="Withdraw a list: kept with its versions, out of the CSV, the sheets, the metagame "
    "and the public lists (organiser); withdrawing it again changes nothing",
)
def withdraw_decklist(
    request: HttpRequest,
    decklist: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> dict[str, object]:
    found = service.withdraw(_organisers_list(decklist, authorization))
    return service.decklist_json(found)


@router.post(
    "/decklists/{decklist}/restore",
    response={200: DecklistOut, 401: ErrorOut, 409: ErrorOut, **ERRORS},
    summary="Restore a withdrawn list (organiser); a list not withdrawn stays as it is; 409 "
    "`player_id_taken` when another list has its player id now",
)
def restore_decklist(
    request: HttpRequest,
    decklist: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> dict[str, object]:
    found = service.restore(_organisers_list(decklist, authorization))
    return service.decklist_json(found)
