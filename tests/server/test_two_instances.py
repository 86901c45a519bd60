"""Two `varz-deck serve` processes on one PostgreSQL database serve one event as one (SPEC §9,
"The organiser's whole day"): a list submitted on one is read and replaced with its edit token on
the other, an organiser signed in on one is signed in on the other (the session is in the
database), the organiser's list on either has every list of both exactly once, submissions
sent to both at once are all stored exactly once, and a double tap on a personal link whose two
posts reach the two servers at the same moment leaves one list per player (the database's
unique index, not a check in one process). Everything on 127.0.0.1, bounded."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from harness import Database, LiveServer, deck_variants
from test_player_ids import _double_tap, _every_player_has_one_list, _from, _with_roster

PER_INSTANCE = 24  # concurrent submissions sent to each server
CLIENTS = 6  # threads per server


@pytest.fixture(scope="module")
def pair(
    make_database: Callable[..., Database], live_server: Callable[..., LiveServer]
) -> tuple[LiveServer, LiveServer]:
    database = make_database("postgresql", "two-instances")
    first = live_server(database)
    second = live_server(database)
    assert first.port != second.port
    return first, second


@pytest.fixture(scope="module")
def event(pair: tuple[LiveServer, LiveServer]) -> dict[str, Any]:
    return pair[0].create_event("Two Rooms Open")


def _listed(server: LiveServer, event: dict[str, Any]) -> list[dict[str, Any]]:
    answer = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert answer.status == 200, answer
    rows: list[dict[str, Any]] = answer.json()
    return rows


def test_a_list_submitted_on_one_is_read_and_replaced_on_the_other(pair, event):
    first, second = pair
    old, new = deck_variants("varz", 2, seed=26)
    sent = first.post(
        f"/api/v1/events/{event['event']}/decklists", json={"player": "Ada", "deck": old}
    )
    assert sent.status == 201, sent
    number, token = sent.json()["id"], sent.json()["edit_token"]
    read = second.get(f"/api/v1/decklists/{number}", headers={"X-Edit-Token": token})
    assert read.status == 200, read
    assert read.json()["deck_hash"] == sent.json()["deck_hash"]
    assert second.get(f"/api/v1/decklists/{number}").status == 404  # no token: nobody's
    replaced = second.put(
        f"/api/v1/decklists/{number}", json={"deck": new}, headers={"X-Edit-Token": token}
    )
    assert replaced.status == 200, replaced
    again = first.get(f"/api/v1/decklists/{number}", headers={"X-Edit-Token": token})
    assert again.status == 200, again
    hashes = [v["deck_hash"] for v in again.json()["versions"]]
    assert hashes == [sent.json()["deck_hash"], replaced.json()["deck_hash"]]
    assert again.json()["deck_hash"] == replaced.json()["deck_hash"]


def test_an_organiser_signed_in_on_one_is_signed_in_on_the_other(pair, event):
    first, second = pair
    browser = first.client()
    try:
        signed = browser.get(event["organiser_url"])
        assert signed.status == 302, signed
        dashboard = signed.header("Location")
        assert dashboard and "/o/" not in dashboard
        assert browser.get(dashboard).status == 200
        cookies = dict(browser.cookies)
    finally:
        browser.close()
    assert cookies
    stranger = second.client()
    same_browser = second.client()
    same_browser.cookies.update(cookies)  # one browser, one site: its cookies go to both
    try:
        assert stranger.get(dashboard).status != 200
        page = same_browser.get(dashboard)
        assert page.status == 200, page
        assert "Two Rooms Open" in page.text
    finally:
        stranger.close()
        same_browser.close()


def test_submissions_to_both_at_once_are_all_stored_exactly_once(pair, event):
    before = {row["id"] for row in _listed(pair[0], event)}
    decks = deck_variants("varz", 2 * PER_INSTANCE, seed=2626)
    jobs = [(n, deck) for n, deck in enumerate(decks)]
    lock = threading.Lock()
    answered: dict[int, str] = {}
    other: list[Any] = []

    def work(server: LiveServer, mine: list[tuple[int, str]]) -> None:
        client = server.client()
        try:
            while True:
                with lock:
                    if not mine:
                        return
                    number, deck = mine.pop()
                player = f"Both {number:03}"
                answer = client.post(
                    f"/api/v1/events/{event['event']}/decklists",
                    json={"player": player, "deck": deck},
                    headers=_from(number),  # submissions are limited per address
                )
                with lock:
                    if answer.status == 201:
                        answered[answer.json()["id"]] = player
                    else:
                        other.append(answer)
        finally:
            client.close()

    halves = (jobs[:PER_INSTANCE], jobs[PER_INSTANCE:])
    threads = [
        threading.Thread(target=work, args=(server, half), daemon=True)
        for server, half in zip(pair, halves, strict=True)
        for _ in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    assert not other, other[:3]
    assert len(answered) == 2 * PER_INSTANCE
    for server in pair:
        rows = [row for row in _listed(server, event) if row["id"] not in before]
        assert sorted(row["id"] for row in rows) == sorted(answered)  # each exactly once
        assert {row["id"]: row["player"] for row in rows} == answered


def test_a_double_tap_reaching_both_servers_leaves_one_list_per_player(pair):
    first, second = pair
    event = _with_roster(first)

    def taps(n: int, link: str, deck: str) -> list[Any]:
        return _double_tap(first, link, deck, n, to=pair)

    _every_player_has_one_list([first, second], event, taps)
