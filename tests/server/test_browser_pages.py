"""Every page of `varz-deck serve` on a phone (390×844) and a desktop (1280×900) in Debian's
Chromium: nothing scrolls sideways, no word is broken mid-word ("Pl/ay/er"), and axe-core finds
no serious or critical violation (SPEC §9: every page is usable on a 390-pixel-wide phone).

The pages: home; the submission page empty and with a checked list; the result with its
diagnostics and private link; the private link reopened; a roster's personal link; the organiser's
dashboard with many lists (long names, one name without a space) and its roster, missing, not on
the roster and audit sections, the roster page, a list as the organiser sees it, the form to
submit for a player, the judge's page with a list and a comparison, the sheets; the public lists;
the message pages (404, the organiser's page without signing in) and the submission page of a
locked event.
The CSV is a download, not a page: only its type is checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import SIZES, Watched, axe_problems, browser, layout_problems, watched
from harness import ROOT, LiveServer, deck_variants

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
        problems = layout_problems(self.page) + axe_problems(self.page)
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
    personal = site.get(f"/api/v1/events/{full['event']}/roster", headers=full["headers"]).json()
    player.visit("personal link", personal[0]["link"])
    player.visit("locked event's submission page", site.url(closed["submit_url"]))
    player.visit("404", site.url("/events/no-such-event/submit"))
    player.visit("organiser's page, not signed in", site.url(f"/events/{full['event']}/dashboard"))
    player.visit("public page", site.url(f"/events/{full['event']}/public"))

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
    csv = page.request.get(site.url(f"/events/{full['event']}/export.csv"))
    assert csv.headers["content-type"].startswith("text/csv")

    assert len(player.seen) + len(organiser.seen) == 18
    found = {**player.found, **organiser.found}
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())
