"""Every page of `varz-deck serve` on a phone (390×844) and a desktop (1280×900) in Debian's
Chromium: nothing scrolls sideways, no word is broken mid-word ("Pl/ay/er"), no text is drawn
under 11 px, no chart label overlaps another, each page has exactly one <main>, and axe-core finds
no serious or critical violation (docs/guides/organiser.md: every page works on a phone).

The pages: home; the submission page empty and with a checked list; the result with its
diagnostics and private link; the private link reopened, after a second version (the versions
table); the list's figures (the report) at the private link and on the public page; a roster's
personal link; the organiser's dashboard with many lists (long names, one name without a space)
and its roster, missing, not on the roster and audit sections, then with a withdrawn list; the
roster page, also with a refused upload; a list as the organiser sees it; the confirmation pages
(lock, publish, unpublish, withdraw); the form to submit for a player; the judge's page with a
list and a comparison; the sheets; the public lists; the message pages (404, the organiser's page
without signing in) and the submission page of a locked event.
The CSVs are downloads, not pages: only their type is checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import SIZES, Watched, axe_problems, browser, reading_problems, watched
from harness import ROOT, LiveServer, deck_variants

from varz_deck.server.hosts import url_parts

__all__ = ["browser", "watched"]  # fixtures

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "red-kagura-festival.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
PLAYERS = [
    "Aoi Tanaka",
    "Maximiliana Alexandrovna Konstantinopolskaya-Wolkenstein von Hohenzollern-Sigmaringen",
    "Kenji Watanabe",
    "Zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    "Ren Sato",
    "Sakura Kobayashi",
    "Emma Laurent",
    "Jean-Baptiste Émile Delacroix-Fontaine",
    "Yui Mori",
    "Haruto Suzuki",
    "Mika Ito",
    "Oliver O'Connell",
]

ROSTER = [  # no list names one of these ids: all missing, and every list is not on the roster
    ("Hanako Yamamoto", "20260001", "hanako.yamamoto.very.long.address@tokyo-open.example.org"),
    ("Wolfgang Amadeus Theophilus Mozart-Bertholdy", "20260002", ""),
]


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "pages"))


@pytest.fixture(scope="module")
def events(site: LiveServer) -> dict[str, dict[str, Any]]:
    """ "full": many lists, a roster, published; "closed": locked; "open": empty, for the player's pages."""
    full = site.create_event("Tokyo Open 2026 — Spring Championship Qualifier")
    decks = deck_variants("varz", len(PLAYERS), seed=26, illegal_every=3)
    for name, deck in zip(PLAYERS, decks, strict=True):
        answer = site.post(
            f"/api/v1/events/{full['event']}/decklists", json={"player": name, "deck": deck}
        )
        assert answer.status == 201, answer
    roster = "name,player_id,email\n" + "".join(f"{n},{i},{e}\n" for n, i, e in ROSTER)
    uploaded = site.post(
        f"/api/v1/events/{full['event']}/roster",
        body=roster,
        headers={**full["headers"], "Content-Type": "text/csv"},
    )
    assert uploaded.status in (200, 201), uploaded
    published = site.post(f"/api/v1/events/{full['event']}/publish", headers=full["headers"])
    assert published.status == 200, published
    closed = site.create_event("Closed Cup")
    assert (
        site.post(f"/api/v1/events/{closed['event']}/lock", headers=closed["headers"]).status == 200
    )
    return {"full": full, "closed": closed, "open": site.create_event("Open Cup")}


class Pages:
    """Visits pages at one size and collects each page's problems under its name."""

    def __init__(self, opened: Watched) -> None:
        self.page = opened.page
        self.found: dict[str, list[str]] = {}
        self.seen: list[str] = []

    def check(self, name: str) -> None:
        self.page.wait_for_load_state("load")
        self.seen.append(name)
        problems = reading_problems(self.page) + axe_problems(self.page)
        mains = self.page.locator("main").count()
        if mains != 1:
            problems.append(f"{mains} <main> elements")
        if problems:
            self.found[name] = problems

    def visit(self, name: str, url: str) -> None:
        self.page.goto(url)
        self.check(name)


@pytest.fixture(params=sorted(SIZES))
def size(request: pytest.FixtureRequest) -> dict[str, int]:
    return SIZES[request.param]


def test_every_page_fits_the_window_and_passes_axe(
    site: LiveServer,
    events: dict[str, dict[str, Any]],
    watched: Callable[..., Watched],
    size: dict[str, int],
) -> None:
    full, closed, open_ = events["full"], events["closed"], events["open"]
    player = Pages(watched(viewport=size, locale="en-US"))
    page = player.page
    player.visit("home", site.url("/"))
    player.visit("submission page", site.url(open_["submit_url"]))
    page.fill("#player", "Aoi Tanaka")
    page.fill("#deck", ILLEGAL.read_text(encoding="utf-8"))
    page.locator("#live .diag").first.wait_for()
    player.check("submission page with a checked list")
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/decklists/\d+/"))
    assert page.locator(".card > ul.diagnostics .diag").count() > 0
    player.check("result page")
    link = page.input_value("#private-link")
    player.visit("private link", link)
    page.fill("#deck", LEGAL.read_text(encoding="utf-8"))
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"saved=1"))
    assert page.locator("table.versions tbody tr").count() == 2
    player.check("private link with two versions")
    player.visit("the list's figures", link.split("?")[0] + "/report")
    personal = site.get(f"/api/v1/events/{full['event']}/roster", headers=full["headers"]).json()
    player.visit("personal link", personal[0]["link"])
    player.visit("locked event's submission page", site.url(closed["submit_url"]))
    player.visit("404", site.url("/events/no-such-event/submit"))
    player.visit("organiser's page, not signed in", site.url(f"/events/{full['event']}/dashboard"))
    player.visit("public page", site.url(f"/events/{full['event']}/public"))
    page.locator("main a[href*='/public/']").first.click()
    page.wait_for_url(re.compile(r"/public/\d+"))
    player.check("a published list's figures")

    organiser = Pages(watched(viewport=size, locale="en-US"))
    page = organiser.page
    page.goto(site.url(full["organiser_url"]))
    page.wait_for_url(re.compile(r"/dashboard"))
    assert page.locator("#lists tbody tr").count() == len(PLAYERS)
    organiser.check("dashboard")
    page.locator("#lists tbody a").nth(1).click()
    page.wait_for_url(re.compile(r"/decklists/\d+"))
    organiser.check("a list on the organiser's page")
    organiser.visit("roster", site.url(f"/events/{full['event']}/roster"))
    page.fill("#roster-text", "name,player_id\nAoi Tanaka,\n,20269999\nAoi Tanaka,20260001\n")
    page.click("#roster-form button[type=submit]")
    page.wait_for_load_state("load")
    assert page.locator("#roster-problems li").count() > 0
    organiser.check("roster page with a refused upload")
    for action in ("lock", "publish", "unpublish"):
        organiser.visit(f"{action} confirmation", site.url(f"/events/{full['event']}/{action}"))
    organiser.visit("submit for a player", site.url(f"/events/{full['event']}/add"))
    organiser.visit("judge's page", site.url(f"/events/{full['event']}/judge"))
    page.select_option("#entry", index=2)
    page.click("form.inline-form button[type=submit]")
    page.locator("#presented").wait_for()
    organiser.check("judge's page with a list")
    page.fill("#presented", LEGAL.read_text(encoding="utf-8"))
    page.click("form.submit-form button[type=submit]")
    page.locator("#diff-verdict").wait_for()
    organiser.check("judge's page with a comparison")
    organiser.visit("sheets", site.url(f"/events/{full['event']}/sheets"))
    for download in ("export.csv", "roster.csv"):
        csv = page.request.get(site.url(f"/events/{full['event']}/{download}"))
        assert csv.headers["content-type"].startswith("text/csv"), download
    organiser.visit("dashboard, again", site.url(f"/events/{full['event']}/dashboard"))
    page.locator("#lists a.withdraw").first.click()
    page.wait_for_url(re.compile(r"/withdraw"))
    organiser.check("withdraw confirmation")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"done=withdrawn"))
    assert page.locator("#withdrawn tbody tr").count() == 1
    organiser.check("dashboard with a withdrawn list")
    page.click("#withdrawn form button[type=submit]")  # as it was, for the other size
    page.wait_for_url(re.compile(r"done=restored"))
    assert page.locator("#lists tbody tr").count() == len(PLAYERS)

    assert len(player.seen) + len(organiser.seen) == 28
    found = {**player.found, **organiser.found}
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())


def test_a_long_link_is_cut_after_its_slashes() -> None:
    """The parts a link is shown in, a <wbr> after each: it wraps at a slash, not mid-word."""
    assert url_parts("https://decks.example.org/events/945p8epdfq/submit?lang=ja&x=1") == [
        "https://",
        "decks.example.org/",
        "events/",
        "945p8epdfq/",
        "submit",
        "?lang=ja",
        "&x=1",
    ]
    assert url_parts("") == []
