"""The anonymous live check cannot be used to slow the server down (issue 24 row 6).

20 anonymous clients posting decks of about 1 MiB to the live check made a player's own check
take 11-21 s (10 ms normally): each such deck costs about a second of checking. Now, in front of
Django's views (limits.RequestLimits: a refused request reaches no session, view or
database):
- the live check takes at most LIVE_CHECK_LIMIT bytes (32 KiB; a real deck is under 4 KiB), 413
  above, on the API's and on the pages' route; a submission still takes 1 MiB (SPEC §9);
- repeated checks from one client address are limited by a token bucket per address and per
  worker process: 429 with Retry-After (whole seconds) once it is empty; other addresses are
  not affected.
Clients are told apart by address: the tests send X-Forwarded-For, which the server takes from a
proxy on 127.0.0.1 (trusted by default, as gunicorn's forwarded_allow_ips). Everything on
127.0.0.1, bounded in count and time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from harness import TRANSPORT_ERRORS, LiveServer
from test_pages import CSRF_FIELD, LEGAL, csrf

DECK = LEGAL.read_text(encoding="utf-8")
KIB = 1024
LIMIT = 32 * KIB  # security.LIVE_CHECK_LIMIT, written out: the tests hold the code to it
FLOODERS = 20
FLOOD_SECONDS = 20.0  # at most, whatever happens


def _padded(size: int) -> str:
    """The legal deck made `size` bytes long with a comment (still legal)."""
    pad = size - len(DECK.encode()) - 3
    return DECK + "# " + "x" * pad + "\n"


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "live-check"))


@pytest.fixture(scope="module")
def event(site: LiveServer) -> dict[str, Any]:
    return site.create_event("Flood Open")


def test_a_live_check_over_the_limit_is_413_and_a_submission_still_takes_it(site, event):
    key = event["event"]
    over, under = _padded(LIMIT + 1), _padded(LIMIT - 200)  # JSON adds its quotes and keys
    answer = site.post(
        f"/api/v1/events/{key}/check", json={"deck": over}, headers=_from("10.6.0.1")
    )
    assert answer.status == 413, answer
    assert answer.json()["error"]["code"] == "too_large"
    answer = site.post(
        f"/api/v1/events/{key}/check", json={"deck": under}, headers=_from("10.6.0.1")
    )
    assert answer.status == 200 and answer.json()["legal"] is True, answer
    player = site.client()
    token = csrf(player.get(event["submit_url"]))
    page = player.post(
        f"/events/{key}/check",
        form={"deck": _padded(2 * LIMIT), CSRF_FIELD: token},
        headers={**_from("10.6.0.2"), "X-CSRFToken": token},
    )
    assert page.status == 413, page
    stored = site.post(
        f"/api/v1/events/{key}/decklists",
        json={"player": "Long Comment", "deck": _padded(4 * LIMIT)},
        headers=_from("10.6.0.3"),
    )
    assert stored.status == 201 and stored.json()["legal"] is True, stored


def test_repeated_checks_from_one_address_get_429_with_retry_after(site, event):
    path = f"/api/v1/events/{event['event']}/check"
    flood = site.client()  # one kept-alive connection (it may move to the other worker)
    statuses, waits = [], []
    try:
        for _ in range(120):  # each worker's bucket holds at most 30
            answer = flood.post(path, json={"deck": DECK}, headers=_from("10.7.0.1"))
            statuses.append(answer.status)
            if answer.status == 429:
                waits.append(answer.header("Retry-After"))
                assert answer.json()["error"]["code"] == "too_many_requests", answer
    finally:
        flood.close()
    assert set(statuses) == {200, 429}, statuses
    assert statuses[:20] == [200] * 20  # a player's burst is answered
    assert waits and all(w is not None and w.isdigit() and int(w) >= 1 for w in waits), waits
    other = site.post(path, json={"deck": DECK}, headers=_from("10.7.0.2"))
    assert other.status == 200, other  # another address is not affected
    time.sleep(int(waits[-1]))
    again = site.post(path, json={"deck": DECK}, headers=_from("10.7.0.1"))
    assert again.status == 200, again


def test_a_flood_of_large_anonymous_checks_leaves_a_players_own_check_fast(site, event):
    key = event["event"]
    # about 1 MiB of entries (about a second of checking each: unknown cards, F005)
    big = "spells:\n" + "".join(f"  Card {n}: 1\n" for n in range(56_000))
    assert 900 * KIB < len(json.dumps({"deck": big})) < 1024 * KIB  # under the body limit
    stop = threading.Event()
    sent: list[int] = []

    def flooder(number: int) -> None:
        client = site.client(timeout=FLOOD_SECONDS)
        try:
            while not stop.is_set():
                try:
                    answer = client.post(
                        f"/api/v1/events/{key}/check",
                        json={"deck": big},
                        headers=_from(f"10.8.{number}.1"),
                    )
                    sent.append(answer.status)
                except TRANSPORT_ERRORS:
                    client.close()
        finally:
            client.close()

    threads = [threading.Thread(target=flooder, args=(n,), daemon=True) for n in range(FLOODERS)]
    for thread in threads:
        thread.start()
    times = []
    try:
        time.sleep(1.0)  # the flood under way
        player = site.client()
        for _ in range(5):
            answer = player.post(
                f"/api/v1/events/{key}/check", json={"deck": DECK}, headers=_from("10.9.0.1")
            )
            assert answer.status == 200 and answer.json()["legal"] is True, answer
            times.append(answer.elapsed)
            time.sleep(0.2)
        player.close()
    finally:
        stop.set()
        for thread in threads:
            thread.join(FLOOD_SECONDS + 5)
    assert max(times) < 1.0, times  # 11-21 s before; 10 ms alone
    assert sent and set(sent) <= {413, 429}, sorted(set(sent))


def test_the_token_bucket_refills_at_its_rate_and_forgets_full_buckets():
    from varz_deck.server.limits import TokenBuckets

    buckets = TokenBuckets(burst=3, rate=2.0, most=2)
    assert [buckets.take("a", 10.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a", 10.0) == pytest.approx(0.5)  # one token in half a second
    assert buckets.take("a", 10.25) == pytest.approx(0.25)
    assert buckets.take("a", 10.5) == 0.0  # refilled: one spent
    assert buckets.take("b", 10.5) == 0.0  # another address: its own bucket
    assert buckets.take("a", 100.0) == 0.0  # long after: full again, never over the burst
    assert [buckets.take("a", 100.0) for _ in range(3)][-1] == pytest.approx(0.5)
    # a bucket left alone is forgotten once it would be full again: 3 tokens at 2 a second,
    # 2 s, and a second more
    assert buckets.ttl == 3


class _Request:
    def __init__(self, peer: str, forwarded: str | None = None) -> None:
        self.META = {"REMOTE_ADDR": peer}
        if forwarded is not None:
            self.META["HTTP_X_FORWARDED_FOR"] = forwarded


def test_the_client_address_is_the_last_one_no_trusted_proxy_wrote():
    from varz_deck.server.limits import _trusted, client_address

    proxies = _trusted("127.0.0.1, 10.0.0.0/8, not-an-address")
    # a client that is no trusted proxy: its own header is not believed
    assert client_address(_Request("203.0.113.9", "198.51.100.1"), proxies) == "203.0.113.9"
    # through the trusted proxies: the hop before them (earlier ones the client wrote itself)
    chain = "192.0.2.66, 198.51.100.7, 10.1.1.1"
    assert client_address(_Request("127.0.0.1", chain), proxies) == "198.51.100.7"
    assert client_address(_Request("127.0.0.1"), proxies) == "127.0.0.1"
    assert client_address(_Request("127.0.0.1", " , "), proxies) == "127.0.0.1"
    assert client_address(_Request("127.0.0.1", "10.0.0.5, 10.0.0.6"), proxies) == "10.0.0.5"
    assert client_address(_Request("10.9.9.9", "junk"), proxies) == "junk"
    everyone = _trusted("*")
    assert client_address(_Request("9.9.9.9", "1.1.1.1, 2.2.2.2"), everyone) == "1.1.1.1"
    assert client_address(_Request("::1", "2001:db8::1"), _trusted("::1")) == "2001:db8::1"
    assert client_address(_Request("::1", "2001:db8::1"), _trusted("")) == "::1"
