"""Every organiser route refuses everyone but that event's organiser (issue 24, a mutation audit:
the page that publishes an event kept working without the sign-in check, and no test noticed).

- Pages: each route of urls.py is listed below as the organiser's or as another's, and the lists
  must be exactly the routes urls.py has, so a new route cannot be forgotten. Each organiser
  route, with each method it takes, is asked by a stranger holding a valid CSRF token (from the
  submission page) and by the signed-in organiser of another event: 403 with the sign-in page
  (not the CSRF refusal), and nothing changed; then by the event's organiser: it works.
- The API: likewise each operation of the OpenAPI document is listed as the organiser's or as
  another's; each organiser operation is 401 without a token and 403 with another event's, with
  nothing changed, and 200 with its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from harness import ROOT, LiveServer
from test_pages import CSRF_FIELD, LEGAL, csrf, signed_in, text_of

DECK = LEGAL.read_text(encoding="utf-8")
# name in urls.py -> (its path under the event, the methods it takes, the form a POST sends)
ORGANISER_PAGES: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "page-dashboard": ("dashboard", ("GET",), {}),
    "page-lock": ("lock", ("GET", "POST"), {}),  # GET: the confirmation page
    "page-unlock": ("unlock", ("POST",), {}),
    "page-publish": ("publish", ("GET", "POST"), {}),
    "page-unpublish": ("unpublish", ("GET", "POST"), {}),
    "page-withdraw": ("decklists/{list}/withdraw", ("GET", "POST"), {}),
    "page-restore": ("decklists/{list}/restore", ("POST",), {}),
    "page-sheets": ("sheets", ("GET",), {}),
    "page-export": ("export.csv", ("GET",), {}),
    "page-add": ("add", ("GET", "POST"), {"player": "Mallory", "deck": DECK}),
    "page-organiser-list": ("decklists/{list}", ("GET", "POST"), {"deck": DECK}),
    "page-judge": ("judge", ("GET", "POST"), {"entry": "{list}", "presented": DECK}),
    "page-roster": ("roster", ("GET", "POST"), {"roster": "name,player_id\nMallory,M1\n"}),
    "page-roster-csv": ("roster.csv", ("GET",), {}),
}
OTHER_PAGES = {
    "page-home",  # where to go
    "page-submit",  # players
    "page-check",
    "page-decklist",  # the player's private link (its token)
    "page-decklist-figures",  # the same list's report page (its token)
    "page-public",  # anyone, once published
    "page-public-figures",  # a published list's report page
    "organiser-sign-in",  # /o/TOKEN: the token is the credential
    "page-personal",  # /p/TOKEN: a rostered player's link, the token is the credential
    "healthz",
    # /static/ is no route: WhiteNoise serves it in front of the URLs
}
# (method, path) -> the organiser's; every other operation of the document is listed in OTHER_API
ORGANISER_API = {
    ("get", "/api/v1/events/{event}/decklists"),
    ("post", "/api/v1/events/{event}/lock"),
    ("post", "/api/v1/events/{event}/unlock"),
    ("post", "/api/v1/events/{event}/publish"),
    ("post", "/api/v1/events/{event}/unpublish"),
    ("get", "/api/v1/events/{event}/audit"),
    ("get", "/api/v1/events/{event}/export.csv"),
    ("get", "/api/v1/events/{event}/metagame"),
    ("get", "/api/v1/events/{event}/sheets"),
    ("get", "/api/v1/events/{event}/audit"),
    ("get", "/api/v1/events/{event}/roster"),
    ("post", "/api/v1/events/{event}/roster"),
    ("get", "/api/v1/events/{event}/roster.csv"),
}
# what an organiser operation sends besides the token (none: nothing)
API_BODIES = {
    ("post", "/api/v1/events/{event}/roster"): {
        "body": b"name,player_id\nMallory,M1\n",
        "headers": {"Content-Type": "text/csv"},
    },
}
OTHER_API = {
    ("post", "/api/v1/events/{event}/decklists"),  # anyone submits
    ("post", "/api/v1/events/{event}/check"),
    ("get", "/api/v1/events/{event}"),
    ("get", "/api/v1/events/{event}/public"),
    ("get", "/api/v1/decklists/{decklist}"),  # its player or the organiser (test_api)
    ("put", "/api/v1/decklists/{decklist}"),
    # the organiser's, by the list: 401 without a token, 404 with another's (test_withdraw)
    ("delete", "/api/v1/decklists/{decklist}"),
    ("post", "/api/v1/decklists/{decklist}/restore"),
}

ROUTES = textwrap.dedent(
    """
    import json, sys
    from varz_deck.server.config import configure
    configure(sys.argv[1])
    from django.urls import URLResolver, get_resolver
    names = []
    def walk(entries):
        for entry in entries:
            if isinstance(entry, URLResolver) and str(entry.pattern) == "api/v1/":
                continue  # the API: its OpenAPI document
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns)
            else:
                names.append(entry.name)
    walk(get_resolver().url_patterns)
    print(json.dumps(names))
    """
)


def test_every_page_route_is_listed_as_the_organisers_or_anothers(tmp_path, server_stack):
    done = subprocess.run(
        [sys.executable, "-c", ROUTES, str(tmp_path / "routes.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    names = json.loads(done.stdout)
    assert len(names) == len(set(names)) and None not in names, names
    assert set(ORGANISER_PAGES).isdisjoint(OTHER_PAGES)
    assert set(names) == set(ORGANISER_PAGES) | OTHER_PAGES


def test_every_api_operation_is_listed_as_the_organisers_or_anothers(server: LiveServer) -> None:
    paths = server.get("/api/v1/openapi.json").json()["paths"]
    found = {(method, path) for path, item in paths.items() for method in item}
    assert ORGANISER_API.isdisjoint(OTHER_API)
    assert found == ORGANISER_API | OTHER_API
    for method, path in ORGANISER_API:  # and the document says who may
        assert {"401", "403"} <= set(paths[path][method]["responses"]), (method, path)


def _state(server: LiveServer, event: dict[str, Any]) -> Any:
    """Everything an organiser route could change: the event's state, and every list with its
    versions."""
    key = event["event"]
    state = server.get(f"/api/v1/events/{key}").json()
    rows = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"]).json()
    return state, [(r["id"], r["player"], r["versions"], r["deck_hash"]) for r in rows]


@pytest.fixture
def listed(server: LiveServer, make_event: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """A new event with one list, and another event (whose organiser is not this one's)."""
    event = make_event()
    answer = server.post(
        f"/api/v1/events/{event['event']}/decklists", json={"player": "Aoi", "deck": DECK}
    )
    assert answer.status == 201, answer
    return {**event, "list": str(answer.json()["id"]), "other": make_event()}


@pytest.mark.parametrize(
    ("name", "method"),
    [(name, method) for name, (_, methods, _) in ORGANISER_PAGES.items() for method in methods],
)
def test_an_organiser_page_refuses_a_stranger_and_another_events_organiser(
    server: LiveServer, listed: dict[str, Any], name: str, method: str
) -> None:
    tail, _methods, form = ORGANISER_PAGES[name]
    path = f"/events/{listed['event']}/" + tail.format(list=listed["list"])
    form = {key: value.format(list=listed["list"]) for key, value in form.items()}
    before = _state(server, listed)
    stranger = server.client()
    token = csrf(stranger.get(listed["submit_url"]))  # a real CSRF token, from the player's page
    elsewhere = signed_in(server, listed["other"])
    other_token = csrf(elsewhere.get(f"/events/{listed['other']['event']}/add"))
    for client, held in ((stranger, token), (elsewhere, other_token)):
        if method == "POST":
            answer = client.post(path, form={**form, CSRF_FIELD: held})
        else:
            answer = client.get(path)
        assert answer.status == 403, (name, method, answer)
        assert "Sign in first" in text_of(answer), (name, method, answer)  # not the CSRF check
    assert _state(server, listed) == before, (name, method)
    organiser = signed_in(server, listed)
    own = csrf(organiser.get(f"/events/{listed['event']}/add"))
    if method == "POST":
        answer = organiser.post(path, form={**form, CSRF_FIELD: own})
    else:
        answer = organiser.get(path)
    assert answer.status in (200, 303), (name, method, answer)  # the route itself works


@pytest.mark.parametrize(("method", "path"), sorted(ORGANISER_API))
def test_an_organiser_api_operation_needs_the_events_own_token(
    server: LiveServer, listed: dict[str, Any], method: str, path: str
) -> None:
    url = path.replace("{event}", listed["event"])
    before = _state(server, listed)
    other = listed["other"]["headers"]
    sent = API_BODIES.get((method, path), {})
    body, extra = sent.get("body"), sent.get("headers", {})
    for headers, status in (({}, 401), ({"Authorization": "Bearer "}, 401), (other, 403)):
        answer = server.request(method.upper(), url, body=body, headers={**extra, **headers})
        assert answer.status == status, (method, path, headers, answer)
        assert set(answer.json()) == {"error"}, answer
    assert _state(server, listed) == before, (method, path)
    answer = server.request(method.upper(), url, body=body, headers={**extra, **listed["headers"]})
    assert answer.status == 200, (method, path, answer)
