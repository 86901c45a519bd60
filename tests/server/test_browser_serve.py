"""The pages of `varz-deck serve` in a real browser: Debian's Chromium, headless, driven by
Playwright for Python through `executable_path` (no browser download, ever).

- The player: submit an illegal list and see its errors in Japanese as they type (the live check)
  and on the result page, fix it, see it legal, reopen the private link in another browser.
- The organiser: sign in by the link, see the table, lock, publish, print every sheet to PDF, and
  pdftotext finds every player on their own page.
- Without JavaScript the same submission works (a plain form post).
- Every page loads under its Content-Security-Policy with no violation and no script error.

Skipped on a developer machine without Chromium, pdftotext or Playwright's Python package; under CI
(CI set) a missing one is a failure, as in tests/test_sheet_browser.py.

With VARZ_DECK_SCREENSHOTS set, the test writes the README's screenshots
docs/serve-submit-errors.png and docs/serve-dashboard.png.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_tools import Watched, browser, tool, watched
from harness import ROOT, LiveServer, deck_variants, run_cli

__all__ = ["browser", "watched"]  # fixtures

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "red-kagura-festival.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
SCREENSHOTS = os.environ.get("VARZ_DECK_SCREENSHOTS")
DOCS = ROOT / "docs"
PLAYERS = [
    "Aoi Tanaka", "Ren Sato", "Mika Ito", "Yui Mori", "Haruto Suzuki", "Sakura Kobayashi",
    "Kenji Watanabe", "Emma Laurent",
]  # fmt: skip


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "browser"))


def _check_ja(path: Path) -> list[dict[str, Any]]:
    done = run_cli(["check", str(path), "--lang", "ja", "--output", "json"], cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    diagnostics: list[dict[str, Any]] = json.loads(done.stdout)["decks"][0]["diagnostics"]
    return diagnostics


def _shot(page: Any, name: str, *, full_page: bool = False) -> None:
    """A README screenshot (docs/NAME), only with VARZ_DECK_SCREENSHOTS set; Japanese text needs a
    CJK font installed (e.g. Debian's fonts-wqy-microhei), else it shows as boxes."""
    if SCREENSHOTS:
        DOCS.mkdir(exist_ok=True)
        page.screenshot(path=str(DOCS / name), full_page=full_page)


def test_player_submits_sees_japanese_errors_fixes_and_reopens_the_link(
    site: LiveServer, watched: Callable[..., Watched]
) -> None:
    event = site.create_event("Tokyo Open 2026")
    expected = _check_ja(ILLEGAL)
    assert expected and all(d.get("message_localized") for d in expected)
    player = watched(locale="en-US")
    page = player.page
    page.goto(site.url(event["submit_url"] + "?lang=ja"))
    assert page.locator("h1").inner_text() == "デッキリストの提出"
    page.fill("#player", "Aoi Tanaka")
    page.select_option("#lang", "ja")
    page.fill("#deck", ILLEGAL.read_text(encoding="utf-8"))
    # the live check, as the player types: every diagnostic, located, in Japanese
    live = page.locator("#live .diag")
    live.nth(len(expected) - 1).wait_for()
    assert live.count() == len(expected)
    for n, d in enumerate(expected):
        item = live.nth(n)
        assert item.locator(".where").inner_text() == f"{d['line']}:{d['column']}"
        assert item.locator(".code").inner_text() == d["code"]
        assert item.locator(".msg").inner_text() == d["message_localized"]
    assert page.locator("#live .status").inner_text().startswith("使用不可")
    _shot(page, "serve-submit-errors.png", full_page=True)
    # submit: the result page has every diagnostic and the private link
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/decklists/\d+/"))
    assert page.locator("#verdict").inner_text().startswith("使用不可")
    shown = page.locator(".card > ul.diagnostics .msg").all_inner_texts()
    assert shown == [d["message_localized"] for d in expected]
    link = page.input_value("#private-link")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/decklists/\d+/[A-Za-z0-9_-]{22,}", link), link
    # fix it on the same page: the live check says legal, then the stored version is legal
    page.fill("#deck", LEGAL.read_text(encoding="utf-8"))
    page.locator("#live .status.legal").wait_for()
    assert page.locator("#live .diag").count() == 0
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"saved=1"))
    assert page.locator("#verdict").inner_text() == "使用可能"
    assert page.locator("table.versions tbody tr").count() == 2
    registered = run_cli(["register", str(LEGAL), "--output", "json"], cwd=ROOT)
    deck_hash = json.loads(registered.stdout)["registrations"][0]["deck_hash"]
    assert deck_hash in page.locator("dl.facts").inner_text()
    # another browser (its language from Accept-Language) opens the private link
    other = watched(locale="ja-JP")
    other.page.goto(link)
    assert other.page.locator("#verdict").inner_text() == "使用可能"
    assert other.page.locator("h1").inner_text() == "Aoi Tanaka"
    assert deck_hash in other.page.locator("dl.facts").inner_text()


def test_submission_works_without_javascript(
    site: LiveServer, watched: Callable[..., Watched]
) -> None:
    event = site.create_event("No Script Cup")
    plain = watched(java_script_enabled=False)
    page = plain.page
    page.goto(site.url(event["submit_url"]))
    page.fill("#player", "Ren Sato")
    page.fill("#deck", ILLEGAL.read_text(encoding="utf-8"))
    assert page.locator("#live").is_hidden()  # nothing checks as they type
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/decklists/\d+/"))
    assert page.locator("#verdict").inner_text().startswith("Not legal")
    codes = page.locator(".card > ul.diagnostics .code").all_inner_texts()
    assert codes == [d["code"] for d in _check_ja(ILLEGAL)]


def _act(page: Any, key: str, action: str, done: str) -> None:
    """Lock or publish from the dashboard: its link, then the confirmation page's one form."""
    page.click(f'a[href*="/events/{key}/{action}"]')
    page.locator("main form[method=post] button[type=submit]").click()
    page.wait_for_url(re.compile(rf"done={done}"))


def _pdf_text(pdf: Path, *pages: int) -> str:
    pdftotext = tool("pdftotext")
    span = ["-f", str(pages[0]), "-l", str(pages[-1])] if pages else []
    out = subprocess.run(
        [pdftotext, *span, "-layout", str(pdf), "-"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return " ".join(out.stdout.split())


def test_organiser_signs_in_locks_publishes_and_prints_every_sheet(
    site: LiveServer, watched: Callable[..., Watched], tmp_path: Path
) -> None:
    event = site.create_event("Tokyo Open 2026")
    decks = deck_variants("varz", len(PLAYERS), seed=13, illegal_every=3)
    for name, deck in zip(PLAYERS, decks, strict=True):
        answer = site.post(
            f"/api/v1/events/{event['event']}/decklists", json={"player": name, "deck": deck}
        )
        assert answer.status == 201, answer
    organiser = watched()
    page = organiser.page
    page.goto(site.url(event["organiser_url"]))
    page.wait_for_url(re.compile(r"/dashboard"))
    assert event["organiser_token"] not in page.url
    rows = page.locator("#lists tbody tr")
    assert rows.count() == len(PLAYERS)
    table = page.locator("#lists").inner_text()
    for name in PLAYERS:
        assert name in table
    illegal = page.locator("#lists tbody tr.illegal").count()
    assert 0 < illegal < len(PLAYERS)
    _shot(page, "serve-dashboard.png")
    # lock: players are refused; publish: the public page shows every list
    _act(page, event["event"], "lock", "locked")
    assert page.locator(".badge.locked").is_visible()
    late = site.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": "Late", "deck": LEGAL.read_text(encoding="utf-8")},
    )
    assert late.status == 409
    _act(page, event["event"], "publish", "published")
    page.click("text=Public lists")
    page.wait_for_url(re.compile(r"/public"))
    public = page.locator("main").inner_text()
    for name in PLAYERS:
        assert name in public
    # every sheet, one printable document: a page per player, each player on their page
    page.goto(site.url(f"/events/{event['event']}/dashboard"))
    page.click("#print-sheets")
    page.wait_for_url(re.compile(r"/sheets"))
    pdf = tmp_path / "sheets.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    info = subprocess.run(
        [tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True, timeout=60
    )
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert pages == len(PLAYERS)
    for number, name in enumerate(PLAYERS, start=1):
        assert name in _pdf_text(pdf, number), (number, name)
    assert "Tokyo Open 2026" in _pdf_text(pdf)
