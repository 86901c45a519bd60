"""The server's URLs: the API, /healthz, the organiser's sign-in link, the pages (the static files
are WhiteNoise's, in front of them)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, URLResolver, path

from varz_deck.server import service
from varz_deck.server.api import api, healthz
from varz_deck.server.views import urlpatterns as pages


def organiser_sign_in(request: HttpRequest, token: str) -> HttpResponse:
    """`/o/TOKEN`: sign this browser in as the event's organiser, then go to a URL without the
    token (it stays out of the history, bookmarks and Referer)."""
    event = service.event_for_token(token)
    if event is None:
        raise Http404("unknown organiser link")
    service.sign_in(request.session, event)
    response = HttpResponseRedirect(service.dashboard_path(event))
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


urlpatterns: list[URLPattern | URLResolver] = [
    path("api/v1/", api.urls),
    path("healthz", healthz, name="healthz"),
    path("o/<str:token>", organiser_sign_in, name="organiser-sign-in"),
    *pages,
]
