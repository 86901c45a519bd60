"""One address floods the anonymous live check while a player checks and submits (SPEC §9: "a
player's own check stays fast while others flood it"), on SQLite and on PostgreSQL.

The flood comes from 127.0.0.1 itself (300 checks over a few seconds, from several connections at
once); the player comes through a trusted proxy on 127.0.0.1 with `X-Forwarded-For` (the server
counts each client address after its trusted proxies). The flood gets 429 with Retry-After once its
address's bucket is empty; the player's checks, submission and replacement all succeed, each
answered within a second on this 2-core machine. Everything on 127.0.0.1, bounded.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from harness import TRANSPORT_ERRORS, deck_variants

FLOOD = 300  # live checks from the one flooding address
FLOODERS = 6  # connections it floods from
PLAYER = {"X-Forwarded-For": "203.0.113.26"}  # the player, behind the trusted proxy
BOUND = 1.0  # seconds: each of the player's requests under the flood


def test_a_flood_of_live_checks_gets_429_and_the_player_stays_fast(server, event):
    key = event["event"]
    decks = deck_variants("varz", 3, seed=126)
    check = f"/api/v1/events/{key}/check"
    lock = threading.Lock()
    statuses: list[int] = []
    waits: list[str | None] = []
    left = list(range(FLOOD))

    def flooder() -> None:
        client = server.client(timeout=20)
        try:
            while True:
                with lock:
                    if not left:
                        return
                    left.pop()
                try:
                    answer = client.post(check, json={"deck": decks[0]})
                except TRANSPORT_ERRORS:
                    client.close()
                    continue
                with lock:
                    statuses.append(answer.status)
                    if answer.status == 429:
                        waits.append(answer.header("Retry-After"))
                time.sleep(0.05)  # 6 connections: about 100 checks a second, 3 s in all
        finally:
            client.close()

    threads = [threading.Thread(target=flooder, daemon=True) for _ in range(FLOODERS)]
    for thread in threads:
        thread.start()
    times: list[float] = []
    answers: list[Any] = []
    player = server.client()
    try:
        time.sleep(0.5)  # the flood under way
        for deck in decks:
            answer = player.post(check, json={"deck": deck}, headers=PLAYER)
            answers.append(answer)
            times.append(answer.elapsed)
        sent = player.post(
            f"/api/v1/events/{key}/decklists",
            json={"player": "Flooded Out", "deck": decks[1]},
            headers=PLAYER,
        )
        answers.append(sent)
        times.append(sent.elapsed)
        assert sent.status == 201, sent
        replaced = player.put(
            f"/api/v1/decklists/{sent.json()['id']}",
            json={"deck": decks[2]},
            headers={**PLAYER, "X-Edit-Token": sent.json()["edit_token"]},
        )
        answers.append(replaced)
        times.append(replaced.elapsed)
        flooding = any(t.is_alive() for t in threads)
    finally:
        player.close()
        for thread in threads:
            thread.join(60)
    assert [a.status for a in answers] == [200, 200, 200, 201, 200], answers
    assert flooding, "the flood was over before the player was done"
    assert max(times) < BOUND, times
    assert len(statuses) == FLOOD and set(statuses) == {200, 429}, sorted(set(statuses))
    assert statuses.count(429) >= FLOOD // 2, statuses.count(429)
    assert waits and all(w is not None and w.isdigit() and int(w) >= 1 for w in waits), waits[:5]
