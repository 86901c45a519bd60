"""The organiser's audit log (SPEC §9 "Audit", issue 26) over real HTTP, on SQLite and on
PostgreSQL: every organiser action, with its time, oldest first; nobody else's."""

from __future__ import annotations

import datetime
from typing import Any

from harness import ROOT

LEGAL = (ROOT / "examples" / "blue-minase-tide.yaml").read_text(encoding="utf-8")


def _log(server: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
    response = server.get(f"/api/v1/events/{event['event']}/audit", headers=event["headers"])
    assert response.status == 200, response
    entries: list[dict[str, Any]] = response.json()
    return entries


def test_every_organiser_action_is_logged_with_its_time(server):
    event = server.create_event("Audit Open")
    key, headers = event["event"], event["headers"]
    before = datetime.datetime.now(datetime.timezone.utc)
    player = server.post(f"/api/v1/events/{key}/decklists", json={"player": "Ann", "deck": LEGAL})
    assert player.status == 201
    listed = player.json()["id"]
    assert (
        server.put(f"/api/v1/decklists/{listed}", json={"deck": LEGAL}, headers=headers).status
        == 200
    )
    for action in ("lock", "unlock", "publish"):
        assert server.post(f"/api/v1/events/{key}/{action}", headers=headers).status == 200
    entries = _log(server, event)
    assert [(e["action"], e["decklist"]) for e in entries] == [
        ("replace", listed),
        ("lock", None),
        ("unlock", None),
        ("publish", None),
    ]  # the player's own submission is not an organiser action; the organiser's replacement is
    assert entries[0]["detail"] == "version 2"
    times = [datetime.datetime.fromisoformat(e["at"]) for e in entries]
    assert times == sorted(times)
    assert before - datetime.timedelta(seconds=5) <= times[0] <= times[-1]
    assert times[-1] <= datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=5)


def test_the_log_is_the_organisers_only(server):
    event = server.create_event("Audit Closed")
    other = server.create_event("Audit Other")
    path = f"/api/v1/events/{event['event']}/audit"
    assert server.get(path).status == 401
    assert server.get(path, headers=other["headers"]).status == 403
    assert server.get("/api/v1/events/nosuchevent/audit", headers=event["headers"]).status == 404
