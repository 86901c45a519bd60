"""A stranger cannot take a rostered player's id, in Debian's Chromium: the stranger's list naming
Ann's player id is refused on the public page (the list kept in the form, the message pointing to
the personal link); Ann's personal link then shows her submission form, stores her list and shows
it, and replaces it. A stranger who named the id before the roster was uploaded never sees Ann's
list, and Ann's link never shows theirs.

Skipped on a developer machine without Chromium or Playwright; under CI a missing one is a
failure."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import PHONE, Watched, browser, watched
from harness import ROOT, LiveServer
from test_player_ids import _lists

__all__ = ["browser", "watched"]  # fixtures

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "red-kagura-festival.yaml"
OTHER_LEGAL = EXAMPLES / "blue-minase-tide.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
ROSTER = b"name,player_id\nAnn Lee,P1\nBo Chen,P2\n"


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "claims"))


def _upload(site: LiveServer, event: dict[str, Any]) -> str:
    """The roster uploaded; Ann's personal link."""
    answer = site.post(
        f"/api/v1/events/{event['event']}/roster",
        body=ROSTER,
        headers={**event["headers"], "Content-Type": "text/csv"},
    )
    assert answer.status == 200, answer
    rows = site.get(f"/api/v1/events/{event['event']}/roster", headers=event["headers"]).json()
    link: str = next(r["link"] for r in rows if r["player_id"] == "P1")
    return link


def _stranger_submits(page: Any, site: LiveServer, event: dict[str, Any]) -> None:
    page.goto(site.url(event["submit_url"]))
    page.fill("#player", "Mallory")
    page.fill("#player_id", "P1")
    page.fill("#deck", ILLEGAL.read_text(encoding="utf-8"))
    page.click("#submit-form button[type=submit]")
    page.wait_for_load_state("load")


def test_the_personal_link_shows_and_stores_its_own_players_list(
    site: LiveServer, watched: Callable[..., Watched]
) -> None:
    event = site.create_event("Claims Open")
    link = _upload(site, event)
    stranger = watched(locale="en-US").page
    _stranger_submits(stranger, site, event)
    alert = stranger.locator("[role=alert]").inner_text()
    assert "player id 'P1' is on this event's roster" in alert and "personal link" in alert
    assert stranger.input_value("#deck") == ILLEGAL.read_text(encoding="utf-8")  # kept
    assert re.search(r"/events/\w+/submit$", stranger.url)
    assert _lists(site, event) == []

    ann = watched(viewport=PHONE, locale="en-US").page
    ann.goto(link)
    assert ann.input_value("#player") == "Ann Lee" and ann.input_value("#player_id") == "P1"
    assert "Mallory" not in ann.locator("main").inner_text()
    ann.fill("#deck", LEGAL.read_text(encoding="utf-8"))
    ann.click("#submit-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/decklists/\d+/"))
    assert ann.locator("#verdict").inner_text() == "Legal"
    [stored] = _lists(site, event)
    assert (stored["player"], stored["versions"]) == ("Ann Lee", 1)

    ann.goto(link)  # her link now shows her list, and replaces it
    assert ann.locator("h1").inner_text() == "Ann Lee"
    assert stored["deck_hash"] in ann.locator("dl.facts").inner_text()
    ann.fill("#deck", OTHER_LEGAL.read_text(encoding="utf-8"))
    ann.click("#submit-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/p/[^/?]+\?saved=1"))
    assert ann.locator("table.versions tbody tr").count() == 2

    _stranger_submits(stranger, site, event)  # still refused
    assert "personal link" in stranger.locator("[role=alert]").inner_text()
    [after] = _lists(site, event)
    assert (after["id"], after["player"], after["versions"]) == (stored["id"], "Ann Lee", 2)


def test_a_list_naming_the_id_before_the_roster_never_reaches_the_players_link(
    site: LiveServer, watched: Callable[..., Watched]
) -> None:
    event = site.create_event("Early Claims Open")
    stranger = watched(locale="en-US").page
    _stranger_submits(stranger, site, event)  # no roster yet: stored
    stranger.wait_for_url(re.compile(r"/decklists/\d+/"))
    private = stranger.url
    link = _upload(site, event)

    ann = watched(viewport=PHONE, locale="en-US").page
    ann.goto(link)
    shown = ann.locator("main").inner_text()
    assert "Mallory" not in shown and ann.input_value("#deck") == ""
    ann.fill("#deck", LEGAL.read_text(encoding="utf-8"))
    ann.click("#submit-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/decklists/\d+/"))
    assert ann.locator("h1").inner_text() == "Ann Lee"

    stranger.goto(private)  # the stranger's link shows the stranger's list, not Ann's
    assert stranger.locator("h1").inner_text() == "Mallory"
    assert stranger.locator("table.versions tbody tr").count() == 1
    assert stranger.locator("#verdict").inner_text().startswith("Not legal")
    players = sorted((r["player"], r["versions"]) for r in _lists(site, event))
    assert players == [("Ann Lee", 1), ("Mallory", 1)]
