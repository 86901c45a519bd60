"""Withdraw and restore a list, unpublish an event (SPEC §9 "Withdraw and restore", issue 26) over
real HTTP, on SQLite and on PostgreSQL.

A withdrawn list is kept with its versions, and leaves the CSV, the sheets, the metagame, the
public lists and the judge's look-up; the organiser's rows list it with `"withdrawn": true`.
Nobody can replace it until it is restored. Withdrawing a withdrawn list (or restoring a list
that is not withdrawn, or unpublishing an unpublished event) answers 200 and changes nothing: no
second audit line. Expected values are written by hand (the examples' heroes and hashes, from
`register`).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from harness import ROOT, run_cli

EXAMPLES = ROOT / "examples"
KAGURA = (EXAMPLES / "red-kagura-festival.yaml").read_text(encoding="utf-8")  # Hibiki Kagura
MINASE = (EXAMPLES / "blue-minase-tide.yaml").read_text(encoding="utf-8")  # Shizuku Minase
ILLEGAL = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")  # Hibiki Kagura, not legal
MINASE_HASH = "v1-k7ez4ns43m"


def _submit(server: Any, event: dict[str, Any], player: str, deck: str) -> dict[str, Any]:
    answer = server.post(
        f"/api/v1/events/{event['event']}/decklists", json={"player": player, "deck": deck}
    )
    assert answer.status == 201, answer
    body: dict[str, Any] = answer.json()
    return body


def _get(server: Any, event: dict[str, Any], tail: str) -> Any:
    answer = server.get(f"/api/v1/events/{event['event']}/{tail}", headers=event["headers"])
    assert answer.status == 200, (tail, answer)
    return answer


def _audit(server: Any, event: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(e["action"], e["decklist"]) for e in _get(server, event, "audit").json()]


def _csv_players(server: Any, event: dict[str, Any]) -> list[str]:
    rows = csv.DictReader(io.StringIO(_get(server, event, "export.csv").text))
    return [row["player"] for row in rows]


def _public_ids(server: Any, event: dict[str, Any]) -> list[int]:
    answer = server.get(f"/api/v1/events/{event['event']}/public")
    assert answer.status == 200, answer
    return [entry["id"] for entry in answer.json()]


def _metagame(server: Any, event: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(m["lead"], m["lists"], m["legal"]) for m in _get(server, event, "metagame").json()]


def test_a_withdrawn_list_leaves_every_output_and_restore_brings_it_back(server, make_event):
    event = make_event("Withdraw Open")
    ann = _submit(server, event, "Ann Kept", KAGURA)
    bob = _submit(server, event, "Bob Withdrawn", MINASE)
    cid = _submit(server, event, "Cid Kept", ILLEGAL)
    headers = event["headers"]
    assert server.post(f"/api/v1/events/{event['event']}/publish", headers=headers).status == 200
    assert _metagame(server, event) == [("Hibiki Kagura", 2, 1), ("Shizuku Minase", 1, 1)]

    withdrawn = server.request("DELETE", f"/api/v1/decklists/{bob['id']}", headers=headers)
    assert withdrawn.status == 200, withdrawn
    body = withdrawn.json()
    assert body["id"] == bob["id"] and body["withdrawn"] is True and body["withdrawn_at"]
    assert len(body["versions"]) == 1 and body["deck_hash"] == MINASE_HASH  # kept

    rows = _get(server, event, "decklists").json()
    assert [(r["player"], r["withdrawn"]) for r in rows] == [
        ("Ann Kept", False),
        ("Bob Withdrawn", True),
        ("Cid Kept", False),
    ]
    assert _csv_players(server, event) == ["Ann Kept", "Cid Kept"]
    assert _public_ids(server, event) == [ann["id"], cid["id"]]
    assert _metagame(server, event) == [("Hibiki Kagura", 2, 1)]
    sheets = _get(server, event, "sheets").text
    assert "Ann Kept" in sheets and "Cid Kept" in sheets and "Bob Withdrawn" not in sheets
    public_page = server.get(f"/events/{event['event']}/public").text
    assert "Ann Kept" in public_page and "Bob Withdrawn" not in public_page
    listed = run_cli(
        ["event", "list", "--database", server.database.url, "--output", "json"],
        cwd=server.database.folder,
    )
    counts = {e["event"]: e["decklists"] for e in json.loads(listed.stdout)["events"]}
    assert counts[event["event"]] == 2  # `event list` counts the lists in the event

    # its player sees it withdrawn and cannot replace it; nor can the organiser until restored
    mine = server.get(f"/api/v1/decklists/{bob['id']}", headers={"X-Edit-Token": bob["edit_token"]})
    assert mine.status == 200 and mine.json()["withdrawn"] is True
    for who in ({"X-Edit-Token": bob["edit_token"]}, headers):
        replaced = server.put(f"/api/v1/decklists/{bob['id']}", json={"deck": KAGURA}, headers=who)
        assert replaced.status == 409, replaced
        assert replaced.json()["error"]["code"] == "withdrawn"
    again = server.get(f"/api/v1/decklists/{bob['id']}", headers=headers).json()
    assert len(again["versions"]) == 1

    # twice: 200, nothing changed, one audit line
    twice = server.request("DELETE", f"/api/v1/decklists/{bob['id']}", headers=headers)
    assert twice.status == 200 and twice.json()["withdrawn_at"] == body["withdrawn_at"]
    assert _audit(server, event) == [("publish", None), ("withdraw", bob["id"])]

    restored = server.post(f"/api/v1/decklists/{bob['id']}/restore", headers=headers)
    assert restored.status == 200, restored
    assert restored.json()["withdrawn"] is False and restored.json()["withdrawn_at"] is None
    assert server.post(f"/api/v1/decklists/{bob['id']}/restore", headers=headers).status == 200
    assert _audit(server, event) == [
        ("publish", None),
        ("withdraw", bob["id"]),
        ("restore", bob["id"]),
    ]
    assert _csv_players(server, event) == ["Ann Kept", "Bob Withdrawn", "Cid Kept"]
    assert _public_ids(server, event) == [ann["id"], bob["id"], cid["id"]]
    assert _metagame(server, event) == [("Hibiki Kagura", 2, 1), ("Shizuku Minase", 1, 1)]
    assert [r["withdrawn"] for r in _get(server, event, "decklists").json()] == [False] * 3
    replaced = server.put(
        f"/api/v1/decklists/{bob['id']}",
        json={"deck": KAGURA},
        headers={"X-Edit-Token": bob["edit_token"]},
    )
    assert replaced.status == 200, replaced


def test_withdraw_and_restore_are_the_organisers_only(server, make_event):
    event, other = make_event("Withdraw Guarded"), make_event("Withdraw Elsewhere")
    listed = _submit(server, event, "Dee", KAGURA)
    player = {"X-Edit-Token": listed["edit_token"]}
    for tail in ("", "/restore"):
        method = "DELETE" if not tail else "POST"
        path = f"/api/v1/decklists/{listed['id']}{tail}"
        for headers, status in (({}, 401), (player, 401), (other["headers"], 404)):
            answer = server.request(method, path, headers=headers)
            assert answer.status == status, (method, headers, answer)
            assert set(answer.json()) == {"error"}
        for junk in ("999999999", "abc", "1%00"):
            answer = server.request(
                method, f"/api/v1/decklists/{junk}{tail}", headers=event["headers"]
            )
            assert answer.status == 404, (junk, answer)
    rows = _get(server, event, "decklists").json()
    assert [r["withdrawn"] for r in rows] == [False]
    assert _audit(server, event) == []


def test_unpublish_hides_the_public_lists_again(server, make_event):
    event = make_event("Unpublish Open")
    _submit(server, event, "Eve", KAGURA)
    key, headers = event["event"], event["headers"]
    assert server.get(f"/api/v1/events/{key}/public").status == 404
    assert server.post(f"/api/v1/events/{key}/publish", headers=headers).status == 200
    assert server.get(f"/api/v1/events/{key}/public").status == 200
    assert server.get(f"/events/{key}/public").status == 200
    hidden = server.post(f"/api/v1/events/{key}/unpublish", headers=headers)
    assert hidden.status == 200 and hidden.json()["published"] is False
    assert server.get(f"/api/v1/events/{key}/public").status == 404
    assert server.get(f"/events/{key}/public").status == 404
    assert server.post(f"/api/v1/events/{key}/unpublish", headers=headers).status == 200
    assert _audit(server, event) == [("publish", None), ("unpublish", None)]
    assert server.post(f"/api/v1/events/{key}/publish", headers=headers).status == 200
    assert server.get(f"/api/v1/events/{key}/public").status == 200
