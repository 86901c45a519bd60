"""A player id names one current list per event, over real HTTP, on SQLite and on PostgreSQL:
- a stranger cannot claim a rostered player's id (API and page): refused, and the player's
  personal link shows and stores the player's own list;
- a second list for an id without its edit token is refused, pointing to the private link;
- a double tap on Submit of a personal link (two posts at the same moment) leaves one list per
  player, and two posts of one id at the same moment on the public API one list and one refusal.
Each client sends its own X-Forwarded-For (submissions are limited per address). Expected values
are written here by hand."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from harness import Client, LiveServer, deck_variants
from test_pages import CSRF_FIELD, ILLEGAL, LEGAL, csrf

PLAYERS = 20  # rostered players, each tapping Submit twice at once
ROSTER = "name,player_id\n" + "".join(f"Player {n:02},P{n:02}\n" for n in range(PLAYERS))


def _from(n: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"10.77.{n // 250}.{n % 250 + 1}"}


def _roster(server: LiveServer, event: dict[str, Any]) -> list[dict[str, Any]]:
    answer = server.get(f"/api/v1/events/{event['event']}/roster", headers=event["headers"])
    assert answer.status == 200, answer
    rows: list[dict[str, Any]] = answer.json()
    return rows


def _lists(server: LiveServer, event: dict[str, Any]) -> list[dict[str, Any]]:
    answer = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert answer.status == 200, answer
    rows: list[dict[str, Any]] = answer.json()
    return rows


def _with_roster(server: LiveServer, roster: str = ROSTER) -> dict[str, Any]:
    event = server.create_event("Ids Open")
    answer = server.post(
        f"/api/v1/events/{event['event']}/roster",
        body=roster.encode(),
        headers={**event["headers"], "Content-Type": "text/csv"},
    )
    assert answer.status == 200, answer
    return event


def _path(link: str, server: LiveServer) -> str:
    return link.removeprefix(server.base_url)


def test_a_stranger_cannot_claim_a_rostered_id(server: LiveServer) -> None:
    event = _with_roster(server, "name,player_id\nAnn Lee,P1\n")
    key = event["event"]
    api = server.post(
        f"/api/v1/events/{key}/decklists",
        json={"player": "Mallory", "deck": ILLEGAL.read_text(encoding="utf-8"), "player_id": "P1"},
        headers=_from(1),
    )
    assert api.status == 409, api
    assert api.json()["error"]["code"] == "player_id_rostered"
    stranger = server.client()
    try:
        form = stranger.get(event["submit_url"], headers=_from(2))
        page = stranger.post(
            event["submit_url"],
            form={
                "player": "Mallory",
                "player_id": "P1",
                "deck": ILLEGAL.read_text(encoding="utf-8"),
                CSRF_FIELD: csrf(form),
            },
            headers=_from(2),
        )
    finally:
        stranger.close()
    assert page.status == 409 and "personal link" in page.text
    assert _lists(server, event) == []
    [ann] = _roster(server, event)
    link = _path(ann["link"], server)
    player = server.client()
    try:
        shown = player.get(link, headers=_from(3))
        assert (
            shown.status == 200 and 'value="Ann Lee"' in shown.text and "Mallory" not in shown.text
        )
        sent = player.post(
            link,
            form={"deck": LEGAL.read_text(encoding="utf-8"), CSRF_FIELD: csrf(shown)},
            headers=_from(3),
        )
        assert sent.status == 303 and re.match(r"/decklists/\d+/", sent.header("Location") or "")
        mine = player.get(link, headers=_from(3))
    finally:
        player.close()
    assert "Ann Lee" in mine.text and "Mallory" not in mine.text
    [row] = _lists(server, event)
    assert (row["player"], row["legal"], row["versions"]) == ("Ann Lee", True, 1)
    [ann] = _roster(server, event)
    assert (ann["status"], ann["list"]) == ("legal", row["id"])


def test_a_second_list_for_an_id_is_refused_and_the_private_link_still_replaces_it(
    server: LiveServer,
) -> None:
    event = server.create_event("Second Open")
    url = f"/api/v1/events/{event['event']}/decklists"
    old, new = deck_variants("varz", 2, seed=90)
    first = server.post(
        url, json={"player": "Kai", "deck": old, "player_id": "P7"}, headers=_from(4)
    )
    assert first.status == 201, first
    again = server.post(
        url, json={"player": "Kai", "deck": new, "player_id": "P7", "lang": "ja"}, headers=_from(4)
    )
    assert again.status == 409, again
    assert again.json()["error"]["code"] == "player_id_taken"
    assert "あなた専用のリンク" in again.json()["error"]["message"]
    body = first.json()
    put = server.put(
        f"/api/v1/decklists/{body['id']}",
        json={"deck": new},
        headers={"X-Edit-Token": body["edit_token"], **_from(4)},
    )
    assert put.status == 200 and put.json()["version"] == 2, put
    assert [(r["id"], r["versions"]) for r in _lists(server, event)] == [(body["id"], 2)]


def _double_tap(
    server: LiveServer, link: str, deck: str, n: int, *, to: tuple[LiveServer, ...] = ()
) -> list[Any]:
    """Two posts of the personal link's form at the same moment, from one browser (that opened
    the form on `server`); to `server` twice, or once to each server of `to`."""
    browser = server.client()
    try:
        page = browser.get(link, headers=_from(n))
        token, cookies = csrf(page), dict(browser.cookies)
    finally:
        browser.close()
    together = threading.Barrier(2, timeout=30)
    answers: list[Any] = []

    def tap(target: LiveServer) -> None:
        client = Client(browser.host, target.port)
        client.cookies.update(cookies)
        try:
            together.wait()
            answers.append(
                client.post(link, form={"deck": deck, CSRF_FIELD: token}, headers=_from(n))
            )
        finally:
            client.close()

    taps = [threading.Thread(target=tap, args=(t,), daemon=True) for t in to or (server, server)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join(60)
    return answers


def _every_player_has_one_list(
    servers: list[LiveServer], event: dict[str, Any], taps: Callable[[int, str], list[Any]]
) -> None:
    decks = deck_variants("varz", PLAYERS, seed=8)
    rows = _roster(servers[0], event)
    answers: dict[int, list[Any]] = {}
    lock = threading.Lock()

    def player(n: int) -> None:
        got = taps(n, _path(rows[n]["link"], servers[0]), decks[n])
        with lock:
            answers[n] = got

    threads = [threading.Thread(target=player, args=(n,), daemon=True) for n in range(PLAYERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(answers) == list(range(PLAYERS))
    statuses = sorted(a.status for got in answers.values() for a in got)
    assert statuses == [303] * (2 * PLAYERS), [a for got in answers.values() for a in got]
    for server in servers:
        lists = _lists(server, event)
        by_player: dict[str, list[int]] = {}
        for row in lists:
            by_player.setdefault(row["player"], []).append(row["id"])
        assert {p: len(ids) for p, ids in by_player.items()} == {
            f"Player {n:02}": 1 for n in range(PLAYERS)
        }
        assert sorted(row["versions"] for row in lists) == [2] * PLAYERS  # both taps kept
        roster = {r["player_id"]: r["list"] for r in _roster(server, event)}
        assert roster == {f"P{n:02}": by_player[f"Player {n:02}"][0] for n in range(PLAYERS)}


def test_a_double_tap_on_a_personal_link_leaves_one_list_per_player(server: LiveServer) -> None:
    event = _with_roster(server)
    _every_player_has_one_list(
        [server], event, lambda n, link, deck: _double_tap(server, link, deck, n)
    )


def test_two_posts_of_one_id_at_once_store_one_list_and_refuse_the_other(
    server: LiveServer,
) -> None:
    event = server.create_event("Twice Open")
    url = f"/api/v1/events/{event['event']}/decklists"
    decks = deck_variants("varz", 2 * PLAYERS, seed=9)
    statuses: dict[int, list[int]] = {}
    lock = threading.Lock()

    def pair(n: int) -> None:
        together = threading.Barrier(2, timeout=30)
        got: list[int] = []

        def post(deck: str) -> None:
            together.wait()
            answer = server.post(
                url,
                json={"player": f"Kai {n}", "deck": deck, "player_id": f"K{n}"},
                headers=_from(n),
            )
            got.append(answer.status)

        posts = [
            threading.Thread(target=post, args=(decks[2 * n + k],), daemon=True) for k in (0, 1)
        ]
        for thread in posts:
            thread.start()
        for thread in posts:
            thread.join(60)
        with lock:
            statuses[n] = sorted(got)

    threads = [threading.Thread(target=pair, args=(n,), daemon=True) for n in range(PLAYERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert statuses == {n: [201, 409] for n in range(PLAYERS)}
    assert sorted(r["player"] for r in _lists(server, event)) == sorted(
        f"Kai {n}" for n in range(PLAYERS)
    )
