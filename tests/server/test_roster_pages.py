"""The roster's pages (SPEC §9 "Roster", issue 26) over real HTTP, on SQLite and on PostgreSQL,
with plain form posts (no script): the upload on the dashboard, the personal link, who is missing,
the lists not on the roster, and the audit log on the dashboard. Hostile names come out escaped."""

from __future__ import annotations

import html
import re
from typing import Any

from harness import ROOT
from test_pages import (
    CSRF_FIELD,
    HOSTILE_PLAYER,
    _multipart,
    assert_safe_page,
    csrf,
    signed_in,
    text_of,
)

LEGAL = (ROOT / "examples" / "blue-minase-tide.yaml").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "examples" / "illegal.yaml").read_text(encoding="utf-8")
ROSTER = "name,player_id,email\nAnn Lee,P001,ann@example.org\nBo Baker,P002,\nCy Doe,P003,\n"


def _section(response: Any, name: str) -> str:
    """The visible text of the page's element with this id."""
    found = re.search(rf'<section[^>]*id="{name}"[^>]*>(.*?)</section>', response.text, re.S)
    assert found, (name, response)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def _links(server: Any, event: dict[str, Any]) -> dict[str, str]:
    rows = server.get(f"/api/v1/events/{event['event']}/roster", headers=event["headers"]).json()
    return {r["player_id"]: r["link"].removeprefix(server.base_url) for r in rows if r["link"]}


def test_the_organiser_uploads_the_roster_on_the_dashboard_and_sees_who_is_missing(
    server: Any,
) -> None:
    event = server.create_event("Roster Day")
    key = event["event"]
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{key}/dashboard")
    assert_safe_page(dashboard)
    # without its CSRF token the upload is refused and nothing is stored
    assert organiser.post(f"/events/{key}/roster", form={"roster": ROSTER}).status == 403
    stored = organiser.post(
        f"/events/{key}/roster",
        form={"roster": ROSTER, "from": "dashboard", CSRF_FIELD: csrf(dashboard)},
    )
    assert stored.status == 303, stored
    assert stored.header("Location").startswith(f"/events/{key}/dashboard?")  # back where it was
    dashboard = organiser.get(stored.header("Location"))
    assert_safe_page(dashboard)
    assert "3 players (3 new)" in _section(dashboard, "roster")
    roster = _section(dashboard, "roster")
    assert "3 missing" in roster and "0 legal" in roster and "0 illegal" in roster
    missing = _section(dashboard, "missing")
    assert all(name in missing for name in ("Ann Lee", "Bo Baker", "Cy Doe"))
    assert f'href="/events/{key}/roster.csv"' in dashboard.text
    # Ann submits through her personal link, Cy an illegal list through his, Dee from the public
    # page without an id; Bo's id typed on the public page is refused (his link submits it)
    player = server.client()
    links = _links(server, event)
    for player_id, deck in (("P001", LEGAL), ("P003", ILLEGAL)):
        form_page = player.get(links[player_id])
        answer = player.post(links[player_id], form={"deck": deck, CSRF_FIELD: csrf(form_page)})
        assert answer.status == 303, answer
    for name, player_id, status in (("Dee", "", 303), ("Mallory", "P002", 409)):
        form_page = player.get(event["submit_url"])
        assert 'name="player_id"' in form_page.text
        answer = player.post(
            event["submit_url"],
            form={"player": name, "player_id": player_id, "deck": LEGAL,
                  CSRF_FIELD: csrf(form_page)},
        )  # fmt: skip
        assert answer.status == status, answer
    dashboard = organiser.get(f"/events/{key}/dashboard")
    roster = _section(dashboard, "roster")
    assert "1 missing" in roster and "1 legal" in roster and "1 illegal" in roster
    assert "1 not on the roster" in roster
    missing = _section(dashboard, "missing")
    assert "Bo Baker" in missing and "Ann Lee" not in missing and "Cy Doe" not in missing
    assert "Dee" in _section(dashboard, "not-on-roster")
    dee = re.search(r"<tr[^>]*>(?:(?!</tr>).)*Dee(?:(?!</tr>).)*</tr>", dashboard.text, re.S)
    assert dee and "not on the roster" in dee.group(0)  # marked in the table of every list
    # the links CSV from the dashboard: one row per player, the links of the API
    exported = organiser.get(f"/events/{key}/roster.csv")
    assert exported.status == 200 and exported.header("Content-Type").startswith("text/csv")
    links = _links(server, event)
    assert [line.rsplit(",", 1)[1] for line in exported.text.splitlines()[1:]] == [
        server.base_url + links[p] for p in ("P001", "P002", "P003")
    ]
    # the roster page lists every player with the status and the link
    page = organiser.get(f"/events/{key}/roster")
    assert_safe_page(page)
    shown = page.text.replace("<wbr>", "")  # a link wraps after its slashes
    assert all(server.base_url + link in shown for link in links.values())


def test_a_file_upload_and_a_bad_line_shown_with_the_text_kept(server: Any) -> None:
    event = server.create_event("Roster Form")
    key = event["event"]
    organiser = signed_in(server, event)
    token = csrf(organiser.get(f"/events/{key}/roster"))
    body, headers = _multipart(
        [(CSRF_FIELD, None, token.encode()), ("roster", None, b""),
         ("file", "roster.csv", "\ufeffname,player_id\r\nAnn Lee,P001\r\n".encode())]
    )  # fmt: skip
    stored = organiser.post(f"/events/{key}/roster", body=body, headers=headers)
    assert stored.status == 303, stored
    bad = "name,player_id\nBo,P002\nCy,P002\n"
    refused = organiser.post(f"/events/{key}/roster", form={"roster": bad, CSRF_FIELD: token})
    assert refused.status == 422
    assert_safe_page(refused)
    shown = text_of(refused)
    assert "line 3" in shown and "line 2" in shown and "P002" in shown
    assert "Bo,P002\nCy,P002" in refused.text  # the text area keeps what was posted
    assert sorted(_links(server, event)) == ["P001"]  # nothing of the bad file was stored


def test_the_personal_link_fills_in_the_player_and_replaces_their_list(server: Any) -> None:
    event = server.create_event("Roster Link")
    key = event["event"]
    organiser = signed_in(server, event)
    token = csrf(organiser.get(f"/events/{key}/roster"))
    assert (
        organiser.post(f"/events/{key}/roster", form={"roster": ROSTER, CSRF_FIELD: token}).status
        == 303
    )
    link = _links(server, event)["P002"]
    player = server.client()
    page = player.get(link)
    assert_safe_page(page)
    # the name and the player id are filled in, read-only, and never sent with the form
    for field, value in (("player", "Bo Baker"), ("player_id", "P002")):
        found = re.search(rf'<input[^>]*id="{field}"[^>]*>', page.text)
        assert found and "readonly" in found.group(0) and f'value="{value}"' in found.group(0)
    assert 'name="player' not in page.text
    first = player.post(link, form={"deck": ILLEGAL, "player": "Mallory", CSRF_FIELD: csrf(page)})
    assert first.status == 303  # the first list: its result page with its private link
    assert re.fullmatch(
        r"/decklists/\d+/[A-Za-z0-9_-]{22,}\?saved=1&lang=en", first.header("Location")
    )
    assert re.search(r'id="verdict">Not legal', player.get(first.header("Location")).text)
    result = player.get(link)  # the link now shows that list
    assert_safe_page(result)
    assert re.search(r'id="verdict">Not legal', result.text) and "Bo Baker" in text_of(result)
    rows = server.get(f"/api/v1/events/{key}/roster", headers=event["headers"]).json()
    bo = next(r for r in rows if r["player_id"] == "P002")
    assert bo["status"] == "illegal"
    # the same link again: the list is replaced (a new version), never a second list
    fixed = player.post(link, form={"deck": LEGAL, CSRF_FIELD: csrf(result)})
    assert fixed.status == 303 and fixed.header("Location").startswith(link + "?")
    again = player.get(fixed.header("Location"))
    assert re.search(r'id="verdict">Legal', again.text)
    rows = server.get(f"/api/v1/events/{key}/roster", headers=event["headers"]).json()
    assert [(r["status"], r["list"]) for r in rows if r["player_id"] == "P002"] == [
        ("legal", bo["list"])
    ]
    mine = server.get(f"/api/v1/decklists/{bo['list']}", headers=event["headers"]).json()
    assert (mine["player"], len(mine["versions"])) == ("Bo Baker", 2)
    lists = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"]).json()
    assert len(lists) == 1
    # after the lock the link shows the list, and a post is refused (409), nothing changed
    assert server.post(f"/api/v1/events/{key}/lock", headers=event["headers"]).status == 200
    late = player.post(link, form={"deck": ILLEGAL, CSRF_FIELD: csrf(again)})
    assert late.status == 409
    assert player.get(link[:-4] + "AAAA").status == 404


def test_hostile_roster_names_are_escaped_and_the_audit_log_is_on_the_dashboard(
    server: Any,
) -> None:
    event = server.create_event("Roster Hostile")
    key = event["event"]
    organiser = signed_in(server, event)
    token = csrf(organiser.get(f"/events/{key}/dashboard"))
    escaped = HOSTILE_PLAYER.replace('"', '""')
    roster = f'name,player_id\n"{escaped}",P1\n"=cmd|\' /C calc\'!A0",P2\n'
    stored = organiser.post(f"/events/{key}/roster", form={"roster": roster, CSRF_FIELD: token})
    assert stored.status == 303, stored
    assert organiser.post(f"/events/{key}/lock", form={CSRF_FIELD: token}).status == 303
    pages = [
        organiser.get(f"/events/{key}/dashboard"),
        organiser.get(f"/events/{key}/roster"),
        server.get(_links(server, event)["P1"]),
    ]
    for page in pages:
        assert page.status == 200, page
        assert_safe_page(page)
        shown = text_of(page) + " ".join(
            html.unescape(v) for v in re.findall(r'value="([^"]*)"', page.text)
        )
        assert "<script>alert('player')</script>\\x1b[31mRed" in shown
    audit = _section(pages[0], "audit")
    assert "2 players (2 new)" in audit
    assert audit.index("Roster uploaded") < audit.index("Locked")
