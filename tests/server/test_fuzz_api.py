"""The API fuzzed from its own OpenAPI document with schemathesis (issue 13: "no 500, ever").

Against the live server (SQLite and PostgreSQL), every operation of /api/v1/openapi.json is called
with data schemathesis generates, data that fits the schema (positive) and data that does not
(negative), twice over:
- as generated: unknown events and lists, random tokens;
- aimed at a real event and list, with the organiser's token and the list's edit token, so the
  requests go past the look-ups into the checker, the writes, lock/publish, the exports.
No answer may be a 5xx, and every 4xx is the API's JSON error (`{"error": {"code", "message"}}`).
Bounded: EXAMPLES cases per operation and variant, no example database; 15-30 s per database.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from harness import LiveServer, deck_variants

schemathesis = pytest.importorskip("schemathesis")
hypothesis = pytest.importorskip("hypothesis")
requests = pytest.importorskip("requests")

EXAMPLES = 15  # per operation, generation mode and aim: 34 runs, about 500 requests a database
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,  # nothing written to .hypothesis/
    derandomize=False,
    suppress_health_check=list(hypothesis.HealthCheck),
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],  # no shrinking: bounded time
)


@pytest.fixture(scope="module")
def target(server: LiveServer) -> dict[str, Any]:
    """A real event with three lists (legal, illegal, and another game's deck)."""
    event = server.create_event("Fuzz Open")
    decks = [*deck_variants("varz", 4, seed=3)[2:], deck_variants("azuki", 1, seed=3)[0]]
    lists = []
    for number, deck in enumerate(decks):
        answer = server.post(
            f"/api/v1/events/{event['event']}/decklists",
            json={"player": f"Fuzz {number}", "deck": deck},
        )
        assert answer.status == 201, answer
        lists.append(answer.json())
    return {"event": event, "lists": lists}


def _operations(server: LiveServer) -> list[Any]:
    schema = schemathesis.openapi.from_url(server.url("/api/v1/openapi.json"), timeout=30)
    found = []
    for result in schema.get_all_operations():
        found.append(result.ok())  # an operation schemathesis cannot read is itself a failure
    return found


def _can_break(operation: Any, fixed: set[str]) -> bool:
    """Whether schemathesis can make data outside the schema: a body or a query parameter (the
    path parameters and headers here take any string)."""
    if len(operation.body) > 0:
        return True
    return any(p.location == "query" and p.name not in fixed for p in operation.iter_parameters())


# gunicorn refuses a request line over 4,094 bytes itself (414, or 400 when it cannot parse it),
# before Django: the one answer of the server that is not the API's JSON (docs: the organiser's
# guide). A URL past that length is the only case let through here.
REQUEST_LINE_LIMIT = 4094
HTTP_LIMITS = (400, 414)


def _request_line(method: str, url: str) -> int:
    parts = urlsplit(url)
    return len(f"{method} {parts.path}{'?' + parts.query if parts.query else ''} HTTP/1.1")


def _fuzz(server: LiveServer, operation: Any, mode: Any, aim: dict[str, Any]) -> list[str]:
    """Run EXAMPLES generated cases of one operation; the failures, shrunk, as text."""
    names = {p.name for p in operation.iter_parameters()}
    path = {k: v for k, v in aim.get("path", {}).items() if k in names}
    headers = {k: v for k, v in aim.get("headers", {}).items() if k in names}
    if mode == schemathesis.GenerationMode.NEGATIVE and not _can_break(
        operation, {*path, *headers}
    ):
        return []  # any string is a valid value of every parameter left: nothing negative to make
    strategy = operation.as_strategy(mode, path_parameters=path or None, headers=headers or None)
    seen: list[int] = []

    @SETTINGS
    @hypothesis.given(case=strategy)
    def run(case: Any) -> None:
        # each case from an address of its own: the live check's per-address limit (429) must
        # not stand in for the answers fuzzed here
        client = {"X-Forwarded-For": f"10.{len(seen) // 250}.{len(seen) % 250}.9"}
        try:
            response = case.call(base_url=server.base_url, timeout=30, headers=client)
        except (requests.exceptions.InvalidHeader, requests.exceptions.InvalidURL, ValueError):
            hypothesis.reject()  # the client cannot send it (a header requests refuses)
        seen.append(response.status_code)
        sent = response.request
        label = (
            f"{sent.method} {sent.url} -> {response.status_code}; headers "
            f"{dict(case.headers or {})!r}; body {str(sent.body)[:300]!r}"
        )
        assert response.status_code < 500, f"{label}: {response.text[:500]}"
        if (
            response.status_code in HTTP_LIMITS
            and _request_line(sent.method, sent.url) > REQUEST_LINE_LIMIT
        ):
            return  # gunicorn's own refusal of a request line too long, before the API
        # a generated `..` in a path parameter can lead the request out of /api/ (a page's 404)
        if response.status_code >= 400 and urlsplit(sent.url).path.startswith("/api/"):
            kind = response.headers.get("content-type") or [""]  # schemathesis: name -> values
            assert kind[0].startswith("application/json"), label
            body = response.json()
            assert set(body) == {"error"}, label
            assert isinstance(body["error"]["code"], str) and body["error"]["code"], label
            assert isinstance(body["error"]["message"], str) and body["error"]["message"], label

    where = f"{operation.label} ({mode}, {'aimed' if aim else 'as generated'})"
    try:
        run()
    except hypothesis.errors.Unsatisfiable:
        pass  # every case was rejected: judged below, with the runs that sent too few
    except Exception as failure:
        return [f"{where}: {failure}"]
    if not seen:  # an operation fuzzed with no request at all is a gap, never a pass
        return [f"{where}: no request sent"]
    return []


def test_an_operation_fuzzed_with_no_request_is_a_failure(server, monkeypatch):
    """Issue 24: when the client could send none of the generated cases (each rejected, so
    hypothesis ends with Unsatisfiable), `_fuzz` returned no failure before checking that any
    request was sent: an operation could pass fuzzed with zero requests."""

    def unsendable(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise requests.exceptions.InvalidURL("not sendable")

    operation = next(o for o in _operations(server) if len(o.body) > 0)  # a POST or PUT
    monkeypatch.setattr(schemathesis.Case, "call", unsendable)
    found = _fuzz(server, operation, schemathesis.GenerationMode.POSITIVE, {})
    assert len(found) == 1 and found[0].endswith("no request sent"), found


def test_a_request_line_too_long_is_refused_by_gunicorn_with_414(server):
    """The one answer of the API that is not JSON (docs/guides/organiser.md): gunicorn's own."""
    query = "lang=" + "a" * REQUEST_LINE_LIMIT
    response = requests.get(f"{server.base_url}/api/v1/events/x/sheets?{query}", timeout=30)
    assert response.status_code == 414
    assert server.get("/healthz").status == 200


def test_no_server_error_on_any_operation(server, target):
    operations = _operations(server)
    assert len(operations) >= 10  # every row of SPEC §9's table, and the extras
    event, first = target["event"], target["lists"][0]
    aim = {
        "path": {"event": event["event"], "decklist": first["id"]},
        "headers": {
            "Authorization": f"Bearer {event['organiser_token']}",
            "X-Edit-Token": first["edit_token"],
        },
    }
    failures: list[str] = []
    for operation in operations:
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            for chosen in ({}, aim):
                failures += _fuzz(server, operation, mode, chosen)
    assert not failures, "\n\n".join(failures)
    assert server.get("/healthz").status == 200
