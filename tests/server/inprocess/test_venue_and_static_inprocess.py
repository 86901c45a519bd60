"""A venue's players behind one address are not starved by the rate limit, while one client
flooding is still held back (limits.RequestLimits: a browser's own bucket, then its address's
venue bucket; a client without cookies is limited as one browser of its address)."""

from __future__ import annotations

import random
from typing import Any

import pytest

VENUE = "198.51.100.20"  # the hall's network, as the hosted deployment's proxy sees it
PLAYERS = 300
MINUTES = 10


def _guard(now: list[float]) -> Any:
    from django.http import HttpResponse

    from varz_deck.server.limits import RequestLimits

    return RequestLimits(lambda request: HttpResponse("ok"), clock=lambda: now[0])


def _post(guard: Any, path: str, cookie: str | None, address: str = VENUE) -> int:
    from django.test import RequestFactory

    extra = {"REMOTE_ADDR": address}
    if cookie is not None:
        extra["HTTP_COOKIE"] = f"varzdeck_csrftoken={cookie}"
    request = RequestFactory().post(path, "{}", content_type="application/json", **extra)
    return int(guard(request).status_code)


def _cookie(number: int) -> str:
    return f"{number:032d}"  # 32 characters, as Django's CSRF cookie


def test_300_players_behind_one_address_get_every_check_and_submission(django_db) -> None:
    """Each player makes 10 live checks and 2 submissions in the last 10 minutes, at random
    moments; every player's last submission comes in the last 30 seconds (the deadline rush)."""
    rng = random.Random(40)
    span = MINUTES * 60.0
    requests = []
    for player in range(PLAYERS):
        for _ in range(10):
            requests.append((rng.uniform(0, span - 30), player, "/events/E/check"))
        requests.append((rng.uniform(0, span - 30), player, "/api/v1/events/E/decklists"))
        requests.append((rng.uniform(span - 30, span), player, f"/decklists/{player}/T"))
    requests.sort()
    now = [1000.0]
    guard = _guard(now)
    refused = []
    for moment, player, path in requests:
        now[0] = 1000.0 + moment
        if _post(guard, path, _cookie(player)) != 200:
            refused.append((moment, player, path))
    assert refused == []
    assert len(requests) == PLAYERS * 12


def test_one_browser_flooding_is_held_to_its_own_burst(django_db) -> None:
    now = [50.0]
    guard = _guard(now)
    flood = [_post(guard, "/events/E/check", _cookie(7)) for _ in range(100)]
    assert flood.count(200) == 30 and flood[30:] == [429] * 70
    assert _post(guard, "/events/E/check", _cookie(8)) == 200  # the next player is not starved
    lists = [_post(guard, "/events/E/submit", _cookie(7)) for _ in range(100)]
    assert lists.count(200) == 60 and lists[60:] == [429] * 40


def test_a_client_without_cookies_is_one_client_of_its_address(django_db) -> None:
    now = [50.0]
    guard = _guard(now)
    flood = [_post(guard, "/api/v1/events/E/check", None) for _ in range(100)]
    assert flood.count(200) == 30 and flood[30:] == [429] * 70
    assert _post(guard, "/api/v1/events/E/check", _cookie(1)) == 200  # a browser: its own
    assert _post(guard, "/api/v1/events/E/check", None, "203.0.113.1") == 200  # another address


@pytest.mark.parametrize(
    ("path", "most"), [("/events/E/check", 30 * 20), ("/events/E/submit", 60 * 20)]
)
def test_new_cookies_for_every_request_meet_the_venue_limit(django_db, path, most) -> None:
    now = [50.0]
    guard = _guard(now)
    flood = [_post(guard, path, _cookie(10_000 + n)) for n in range(most + 50)]
    assert flood.count(200) == most and flood[most:] == [429] * 50


def test_a_malformed_cookie_is_no_browser(django_db) -> None:
    now = [50.0]
    guard = _guard(now)
    shapes = ["short", "x" * 65, "é" * 32, "a b" * 16]
    answers = [_post(guard, "/events/E/check", shapes[n % 4]) for n in range(40)]
    assert answers.count(200) == 30  # all of them the address's own bucket


def test_the_trusted_proxies_come_from_the_settings(django_db) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory, override_settings

    from varz_deck.server.limits import RequestLimits

    with override_settings(VARZ_DECK_TRUSTED_PROXIES="10.0.0.0/8"):
        guard = RequestLimits(lambda request: HttpResponse("ok"), clock=lambda: 5.0)

    def check(forwarded: str) -> int:
        request = RequestFactory().post(
            "/events/E/check", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR=forwarded
        )
        return int(guard(request).status_code)

    assert [check("203.0.113.1") for _ in range(31)][-1] == 429  # one client behind the proxy
    assert check("203.0.113.2") == 200  # another client behind the same proxy


def test_the_static_files_are_whitenoises_with_the_servers_headers(client) -> None:
    from pathlib import Path

    import varz_deck.server

    css = client.get("/static/serve.css")
    assert css.status_code == 200 and css["Content-Type"].startswith("text/css")
    folder = Path(varz_deck.server.__file__).parent / "static"
    assert b"".join(css.streaming_content) == (folder / "serve.css").read_bytes()
    assert css["Cache-Control"] == "max-age=3600, public"
    assert "default-src 'self'" in css["Content-Security-Policy"]
    assert css["X-Content-Type-Options"] == "nosniff"
    again = client.get("/static/serve.css", HTTP_IF_NONE_MATCH=css["ETag"])
    assert again.status_code == 304
    assert client.get("/static/../settings.py").status_code == 404
    assert client.get("/static/nothing.css").status_code == 404
