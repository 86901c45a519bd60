"""The event's endpoints: submit a list and the live check (anyone), the event's state and public
lists, and the organiser's list of lists and actions (lock, unlock, publish, unpublish)."""

from __future__ import annotations

from typing import Optional

from django.http import HttpRequest, HttpResponse
from ninja import Router

from varz_deck.server import service
from varz_deck.server.api.common import (
    CONTENT_TYPE,
    ERRORS,
    ORGANISER_ERRORS,
    AuthHeader,
    Renderer,
    bearer,
    language,
    rendered,
)
from varz_deck.server.api_schemas import (
    CheckOut,
    DeckIn,
    ErrorOut,
    EventOut,
    PublicOut,
    RowOut,
    SubmitIn,
    SubmitOut,
)

router = Router()


@router.post(
    "/events/{event}/decklists",
    response={201: SubmitOut, 409: ErrorOut, **ERRORS},
    summary="Submit a decklist (anyone); every submission is stored, legal or not. A player id "
    "names one list: 409 `player_id_rostered` for a rostered player's id (their personal link "
    "submits it), `player_id_taken` for an id that has a list (its private link replaces it); "
    "413 `deck_too_large` for a list far over its game's section sizes",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def submit(request: HttpRequest, event: str, payload: SubmitIn) -> HttpResponse:
    lang = language(request, payload.lang)
    found = service.recent_event(event)
    decklist, _version, token, checked = service.submit(
        found, payload.player, payload.deck, player_id=payload.player_id
    )
    answer = {
        "id": decklist.pk,
        "edit_token": token,
        "private_url": service.decklist_path(decklist, token),
        **checked.answer(lang),
    }
    return rendered(request, 201, answer)


@router.post(
    "/events/{event}/check",
    response={200: CheckOut, **ERRORS},
    summary="Check a deck for the event without storing it (the live check)",
    exclude_unset=True,  # `message_localized` only when a language is asked
)
def check(request: HttpRequest, event: str, payload: DeckIn) -> HttpResponse:
    lang = language(request, payload.lang)
    checked = service.check_deck(service.recent_event(event), payload.deck)
    return rendered(request, 200, checked.answer(lang))


@router.get(
    "/events/{event}",
    response={200: EventOut, **ERRORS},
    summary="The event's state (anyone)",
)
def event_state(request: HttpRequest, event: str) -> dict[str, object]:
    return service.event_state(service.get_event(event))


@router.get(
    "/events/{event}/decklists",
    response={200: list[RowOut], **ORGANISER_ERRORS},
    summary="Every list of the event (organiser)",
)
def list_decklists(
    request: HttpRequest,
    event: str,
    authorization: Optional[str] = AuthHeader,  # noqa: UP045
) -> HttpResponse:
    found = service.organiser_event(event, bearer(authorization))
    # rendered here, not validated row by row against RowOut (for 1,000 lists that took more
    # than half of the answer's time); service.decklist_rows builds exactly RowOut's fields
    rows = service.decklist_rows(found)
    return HttpResponse(
        Renderer().render(request, rows, response_status=200),
        content_type=CONTENT_TYPE,
    )


def _organiser_action(name: str, summary: str) -> None:
    @router.post(
        f"/events/{{event}}/{name}",
        response={200: EventOut, **ORGANISER_ERRORS},
        summary=summary,
        operation_id=f"event_{name}",
    )
    def action(
        request: HttpRequest,
        event: str,
        authorization: Optional[str] = AuthHeader,  # noqa: UP045
    ) -> dict[str, object]:
        found = service.organiser_event(event, bearer(authorization))
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


@router.get(
    "/events/{event}/public",
    response={200: list[PublicOut], **ERRORS},
    summary="Every player's canonical list, once published (anyone); 404 before",
)
def public(request: HttpRequest, event: str) -> list[dict[str, object]]:
    return service.public_lists(service.get_event(event))
