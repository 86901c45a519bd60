"""The organiser's whole day in Debian's Chromium (SPEC §9 "The organiser's whole day").

The organiser signs in, uploads a roster on the dashboard and sends each player their personal
link; one player submits an illegal list through it and fixes it, another submits a legal one, a
junk list comes in without a link; the dashboard shows who is missing and what is not on the
roster. The organiser locks (with a confirmation page), withdraws the junk list, publishes,
unpublishes, prints the sheets to PDF, and the QR code read back from the printed page
(pdftoppm renders it, zbarimg decodes it) is the list's deck code (`varz-deck code`).

Skipped on a developer machine without Chromium, poppler-utils, zbar-tools or Playwright; under
CI a missing one is a failure. With VARZ_DECK_SCREENSHOTS set, the README's screenshots of the day
are written to docs/images/ (PNG at 1×).
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_tools import PHONE, Watched, browser, tool, watched
from harness import ROOT, LiveServer, run_cli

__all__ = ["browser", "watched"]  # fixtures

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "red-kagura-festival.yaml"
OTHER_LEGAL = EXAMPLES / "blue-minase-tide.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
EVENT = "Kyoto Spring Open"
ROSTER = [
    ("Aoi Tanaka", "1001", "aoi@example.org"),
    ("Ren Sato", "1002", ""),
    ("Mika Ito", "1003", "mika@example.org"),
    ("Yui Mori", "1004", ""),
]
JUNK = "asdf qwerty"
SCREENSHOTS = os.environ.get("VARZ_DECK_SCREENSHOTS")
IMAGES = ROOT / "docs" / "images"


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "day"))


def _shot(page: Any, name: str, *, full_page: bool = False, height: int = 0) -> None:
    """A README screenshot docs/images/NAME (only with VARZ_DECK_SCREENSHOTS set), at 1×,
    saved again by Pillow with its smallest PNG settings when Pillow is there."""
    if not SCREENSHOTS:
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    path = IMAGES / name
    width = page.viewport_size["width"]
    clip = {"x": 0, "y": 0, "width": width, "height": height} if height else None
    page.screenshot(path=str(path), full_page=full_page, clip=clip)
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128)
        small.save(path, optimize=True)


def _roster_csv(path: Path) -> Path:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", "player_id", "email"])
    writer.writerows(ROSTER)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _roster(site: LiveServer, event: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """GET /api/v1/events/{event}/roster: each rostered player by name."""
    answer = site.get(f"/api/v1/events/{event['event']}/roster", headers=event["headers"])
    assert answer.status == 200, answer
    body = answer.json()
    players = body if isinstance(body, list) else body.get("players", body.get("roster"))
    return {player["name"]: player for player in players if player.get("on_roster", True)}


def _personal_link(player: dict[str, Any]) -> str:
    links = [v for v in player.values() if isinstance(v, str) and "/p/" in v]
    assert len(links) == 1, player
    return links[0]


def _named(page: Any, name: str) -> bool:
    """The submission form names the player (a filled-in field, or the name shown)."""
    field = page.locator("#submit-form input#player")
    if field.count():
        return bool(field.input_value() == name)
    return name in page.locator("#submit-form").inner_text()


def _section(page: Any, heading: str) -> str:
    """The text of the dashboard's section whose heading matches `heading`."""
    title = page.get_by_role("heading", name=re.compile(heading, re.I))
    text: str = page.locator("section", has=title).first.inner_text()
    return text


def _state(site: LiveServer, event: dict[str, Any]) -> dict[str, Any]:
    answer = site.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
    assert answer.status == 200, answer
    return {row["player"]: row for row in answer.json()}


def _confirm(page: Any, link: str, question: str) -> None:
    """Follow a dashboard link to its confirmation page (which asks `question`), then confirm."""
    page.click(link)
    page.get_by_text(question).wait_for()
    forms = page.locator("main form[method=post]")
    assert forms.count() == 1
    forms.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/dashboard"))


def _pdf_text(pdf: Path) -> str:
    out = subprocess.run(
        [tool("pdftotext"), "-layout", str(pdf), "-"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return out.stdout


def _submit(page: Any, deck: Path) -> str:
    page.fill("#deck", deck.read_text(encoding="utf-8"))
    page.click("#submit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/decklists/\d+/"))
    verdict: str = page.locator("#verdict").inner_text()
    return verdict


def _qr_on_printed_page(pdf: Path, number: int, folder: Path) -> list[str]:
    """The QR codes zbarimg reads on page `number` of the PDF, rendered at 200 dpi."""
    pdftoppm = tool("pdftoppm")
    zbarimg = tool("zbarimg", package="zbar-tools")
    prefix = folder / f"page{number}"
    subprocess.run(
        [pdftoppm, "-f", str(number), "-l", str(number), "-r", "200", "-png", "-singlefile",
         str(pdf), str(prefix)],
        check=True, timeout=60,
    )  # fmt: skip
    read = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", f"{prefix}.png"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return read.stdout.splitlines()


def _pdf_page_of(pdf: Path, name: str) -> int:
    pages = _pdf_text(pdf).split("\f")
    found = [n for n, text in enumerate(pages, start=1) if name in " ".join(text.split())]
    assert len(found) == 1, (name, found)
    return found[0]


def test_the_organisers_day(
    site: LiveServer, watched: Callable[..., Watched], tmp_path: Path
) -> None:
    tool("zbarimg", package="zbar-tools")
    event = site.create_event(EVENT)
    key = event["event"]
    organiser = watched(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = organiser.page
    page.goto(site.url(event["organiser_url"]))
    page.wait_for_url(re.compile(r"/dashboard"))

    # the roster, uploaded on the dashboard; each player gets a personal link
    upload = page.locator("form", has=page.locator("input[type=file]"))
    upload.locator("input[type=file]").set_input_files(str(_roster_csv(tmp_path / "roster.csv")))
    upload.locator("button[type=submit]").click()
    page.wait_for_load_state("load")
    roster = _roster(site, event)
    assert sorted(roster) == sorted(name for name, _, _ in ROSTER)
    assert {p["status"] for p in roster.values()} == {"missing"}
    links = {name: _personal_link(player) for name, player in roster.items()}

    # Aoi submits an illegal list through her link (her name filled in), then fixes it
    aoi = watched(viewport=PHONE, locale="en-US").page
    aoi.goto(links["Aoi Tanaka"])
    assert _named(aoi, "Aoi Tanaka")
    assert _submit(aoi, ILLEGAL).startswith("Not legal")
    assert _submit(aoi, LEGAL) == "Legal"
    ren = watched(locale="en-US").page
    ren.goto(links["Ren Sato"])
    assert _named(ren, "Ren Sato")
    assert _submit(ren, OTHER_LEGAL) == "Legal"
    # a junk list, without a link
    junk = watched(locale="en-US").page
    junk.goto(site.url(event["submit_url"]))
    junk.fill("#player", JUNK)
    assert _submit(junk, ILLEGAL).startswith("Not legal")

    # the dashboard: who is missing, who is legal, what is not on the roster
    page.goto(site.url(f"/events/{key}/dashboard"))
    statuses = {name: player["status"] for name, player in _roster(site, event).items()}
    assert statuses == {
        "Aoi Tanaka": "legal", "Ren Sato": "legal", "Mika Ito": "missing", "Yui Mori": "missing"
    }  # fmt: skip
    missing = _section(page, "missing")
    assert "Mika Ito" in missing and "Yui Mori" in missing and "Aoi Tanaka" not in missing
    assert JUNK in _section(page, "not on the roster")
    _shot(page, "day-dashboard-roster.png", full_page=True)
    phone = watched(viewport=PHONE, locale="en-US")
    phone.page.goto(site.url(event["organiser_url"]))
    phone.page.wait_for_url(re.compile(r"/dashboard"))
    _shot(phone.page, "day-dashboard-phone.png")

    # lock, after a confirmation page; a late player's form is closed
    lock = f'a[href*="/events/{key}/lock"]'
    page.click(lock)
    page.get_by_text(f"Lock submissions of {EVENT}?").wait_for()
    _shot(page, "day-confirm-lock.png", height=300)
    page.go_back()
    _confirm(page, lock, f"Lock submissions of {EVENT}?")
    assert site.get(f"/api/v1/events/{key}", headers=event["headers"]).json()["locked"] is True
    mika = watched(viewport=PHONE, locale="en-US").page
    mika.goto(links["Mika Ito"])
    assert mika.locator("#submit-form button[type=submit]").is_disabled()
    assert "The organiser has locked submissions" in mika.locator("main").inner_text()

    # withdraw the junk list
    withdraw = page.locator("#lists tr", has_text=JUNK).locator('a[href$="/withdraw"]')
    _confirm(page, f'a[href="{withdraw.get_attribute("href")}"]', f"Withdraw the list of {JUNK}?")
    assert _state(site, event)[JUNK]["withdrawn"] is True

    # publish, then unpublish: the public page comes and goes, without the junk list
    _confirm(page, f'a[href*="/events/{key}/publish"]', f"Publish every list of {EVENT}?")
    public = watched(locale="en-US").page
    public.goto(site.url(f"/events/{key}/public"))
    shown = public.locator("main").inner_text()
    assert "Aoi Tanaka" in shown and "Ren Sato" in shown and JUNK not in shown
    _confirm(page, f'a[href*="/events/{key}/unpublish"]', f"Unpublish the lists of {EVENT}?")
    assert public.goto(site.url(f"/events/{key}/public")).status == 404

    # print the sheets: a page a list (the withdrawn one left out); Aoi's QR code is her deck code
    page.click("#print-sheets")
    page.wait_for_url(re.compile(r"/sheets"))
    _shot(page, "day-sheet-qr.png", height=720)
    pdf = tmp_path / "sheets.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    printed = _pdf_text(pdf)
    assert printed.count("\f") == 2 and JUNK not in printed
    code = run_cli(["code", str(LEGAL)], cwd=ROOT)
    assert code.returncode == 0, code.stderr
    number = _pdf_page_of(pdf, "Aoi Tanaka")
    assert _qr_on_printed_page(pdf, number, tmp_path) == [code.stdout.strip()]


def test_a_printed_sheets_qr_code_is_its_lists_deck_code(
    site: LiveServer, watched: Callable[..., Watched], tmp_path: Path
) -> None:
    tool("zbarimg", package="zbar-tools")
    event = site.create_event("QR Cup")
    for player, deck in (("Aoi Tanaka", LEGAL), ("Ren Sato", OTHER_LEGAL)):
        answer = site.post(
            f"/api/v1/events/{event['event']}/decklists",
            json={"player": player, "deck": deck.read_text(encoding="utf-8")},
        )
        assert answer.status == 201, answer
    page = watched(locale="en-US").page
    page.goto(site.url(event["organiser_url"]))
    page.wait_for_url(re.compile(r"/dashboard"))
    page.click("#print-sheets")
    page.wait_for_url(re.compile(r"/sheets"))
    pdf = tmp_path / "sheets.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    for player, deck in (("Aoi Tanaka", LEGAL), ("Ren Sato", OTHER_LEGAL)):
        code = run_cli(["code", str(deck)], cwd=ROOT)
        assert code.returncode == 0, code.stderr
        number = _pdf_page_of(pdf, player)
        assert _qr_on_printed_page(pdf, number, tmp_path) == [code.stdout.strip()], player
