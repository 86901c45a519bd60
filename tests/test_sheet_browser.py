"""Print registration sheets with headless Chromium and read the PDF back with poppler.

Skipped only when Chromium or poppler is missing on a developer machine; under CI (CI set) a
missing tool is a failure, because `.ci/run` installs Debian's chromium and poppler-utils.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from varz_decks import REGISTRAR

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.core.registration.register import Registration
from varz_deck.games import get_game, open_database

src = DeckSource.from_path
AZUKI = get_game("azuki").registrar
register_deck, render_sheet = REGISTRAR.register, REGISTRAR.render_sheet
azuki_register = AZUKI.register

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-pdf-header-footer",
)  # fmt: skip
PAPER = ("A4", "letter")
LONG_PLAYER = "Alexandrovna Konstantinopoulou-Watanabe de la Cruz y Fernández"
LONG_EVENT = "Grand International Championship Series, Day Two, Swiss Rounds, Main Event Hall B"

# The widest legal deck the bundled database allows: 30 different spells (red, colourless, blue with
# blue VAZ), 9 different skills, 7 different portals. If it fits on one page, every legal deck does.
WIDEST_SPELLS = (
    "VZ01-061 VZ01-007 VZ01-008 VZ01-009 VZ02-063 VZ01-011 VZ01-012 VZ01-013 VZ01-014 VZ01-015 "
    "VZ01-016 VZ01-017 VZ01-018 VZ01-019 VZ01-020 VZ01-021 VZ01-022 VZ01-023 VZ01-024 VZ01-062 "
    "VZ01-063 VZ01-064 VZ01-065 VZ01-066 VZ02-003 VZ02-004 VZ02-005 VZ02-006 VZ02-007 VZ02-008"
)
WIDEST_SKILLS = "VZ01-067 VZ01-068 VZ01-069 VZ01-070 VZ01-091 VZ01-094 VZ01-095 VZ01-096 VZ01-097"


def widest_yaml() -> str:
    def ones(ids: str) -> str:
        return ", ".join(f"{i}: 1" for i in ids.split())

    return (
        "player: Aoi Tanaka\nevent: Tokyo Open 2026\nhero: VZ01-001\n"
        f"spells: {{{ones(WIDEST_SPELLS)}}}\n"
        f"skills: {{{ones(WIDEST_SKILLS)}}}\n"
        "portals: {VZ01-100: 1, VZ01-101: 1, VZ01-102: 1, VZ01-103: 1, VZ01-104: 2, "
        "VZ01-110: 1, VZ01-113: 1}\n"
    )


def _tool(name: str, *fallbacks: str) -> str:
    for candidate in (name, *fallbacks):
        found = shutil.which(candidate)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail(
            f"{name} is not installed; .ci/run installs it (apt-get install chromium poppler-utils)"
        )
    pytest.skip(f"{name} is not installed (apt-get install chromium poppler-utils)")


@pytest.fixture(scope="module")
def tools() -> dict[str, str]:
    return {
        "chromium": _tool("chromium", "chromium-browser"),
        "pdftotext": _tool("pdftotext"),
        "pdfinfo": _tool("pdfinfo"),
    }


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data" / "varz")


def print_pdf(html: str, paper: str, tmp: Path, tools: dict[str, str]) -> Path:
    """Print an HTML sheet on a given paper size (as a print dialog would) and return the PDF."""
    page = tmp / f"sheet-{paper}.html"
    page.write_text(
        html.replace("@page { margin: 12mm; }", f"@page {{ size: {paper}; margin: 12mm; }}"),
        encoding="utf-8",
    )
    pdf = tmp / f"sheet-{paper}.pdf"
    profile = tmp / "profile"
    command = [tools["chromium"], *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
    done = subprocess.run(
        [*command, f"--print-to-pdf={pdf}", page.as_uri()],
        capture_output=True,
        timeout=180,
        check=False,
    )
    assert pdf.exists() and pdf.stat().st_size > 0, done.stderr.decode(errors="replace")[-2000:]
    return pdf


def pdf_pages(pdf: Path, tools: dict[str, str]) -> tuple[int, str]:
    info = subprocess.run([tools["pdfinfo"], str(pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    size = re.search(r"^Page size:.*$", info.stdout, re.MULTILINE)
    return pages, size.group(0) if size else ""


def pdf_text(pdf: Path, tools: dict[str, str]) -> str:
    out = subprocess.run(
        [tools["pdftotext"], "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return " ".join(out.stdout.split())


def _widest(tmp: Path) -> Registration:
    deck = tmp / "widest.yaml"
    deck.write_text(widest_yaml(), encoding="utf-8")
    return register_deck(src(deck), bundled(), date=on_date())


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("deck", ["example", "widest", "widest-long-names"])
def test_legal_sheet_prints_on_one_page_with_every_card(
    deck: str, paper: str, tmp_path: Path, tools: dict[str, str]
) -> None:
    reg = (
        register_deck(src(KAGURA), bundled(), date=on_date())
        if deck == "example"
        else _widest(tmp_path)
    )
    if deck == "widest-long-names":  # names long enough to wrap: the page still holds everything
        reg = replace(
            reg, player=f"Aoi Tanaka {LONG_PLAYER}", event=f"Tokyo Open 2026 {LONG_EVENT}"
        )
    assert reg.legal and reg.canonical is not None and reg.deck_hash
    if deck != "example":
        assert [len(reg.canonical.sections[s]) for s in ("spells", "skills", "portals")] == [
            30,
            9,
            7,
        ]
    pdf = print_pdf(render_sheet(reg), paper, tmp_path, tools)
    pages, size = pdf_pages(pdf, tools)
    assert ("A4" if paper == "A4" else "letter") in size
    assert pages == 1
    text = pdf_text(pdf, tools)
    for expected in ("Aoi Tanaka", "Tokyo Open 2026", "Hibiki Kagura", reg.deck_hash, "LEGAL"):
        assert expected in text
    missing = [c.name for c in reg.canonical.cards() if " ".join(c.name.split()) not in text]
    assert missing == []
    assert "Shield Life 20" in text or re.search(r"Shield Life\s+20", text)


def test_illegal_sheet_prints_its_errors(tmp_path: Path, tools: dict[str, str]) -> None:
    reg = register_deck(
        src(ROOT / "examples" / "illegal.yaml"), bundled(), player="Ren Sato", date=on_date()
    )
    pdf = print_pdf(render_sheet(reg), "A4", tmp_path, tools)
    text = pdf_text(pdf, tools)
    assert "NOT LEGAL" in text and "Ren Sato" in text and str(reg.deck_hash) in text
    for code in ("V103", "V105", "V113", "V114"):
        assert code in text


AZUKI_EXAMPLES = ROOT / "examples" / "azuki"


@cache
def azuki() -> CardDatabase:
    return open_database(ROOT / "card_data" / "azuki")


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("example", ["stt01-raizan-lightning.yaml", "stt04-zero-fire.yaml"])
def test_azuki_sheet_prints_on_one_page_with_leader_gate_main_and_ikz(
    example: str, paper: str, tmp_path: Path, tools: dict[str, str]
) -> None:
    render_azuki_sheet = AZUKI.render_sheet

    reg = azuki_register(
        src(AZUKI_EXAMPLES / example),
        azuki(),
        player="Aoi Tanaka",
        event="Azuki Night",
        date=on_date(),
    )
    assert reg.legal and reg.canonical is not None and reg.deck_hash
    pdf = print_pdf(render_azuki_sheet(reg), paper, tmp_path, tools)
    pages, size = pdf_pages(pdf, tools)
    assert ("A4" if paper == "A4" else "letter") in size
    assert pages == 1
    text = pdf_text(pdf, tools)
    leader, gate = reg.canonical.slots["leader"], reg.canonical.slots["gate"]
    assert leader is not None and gate is not None
    for expected in ("Aoi Tanaka", "Azuki Night", reg.deck_hash, "LEGAL", "Leader", "Gate"):
        assert expected in text
    for expected in (leader.name, leader.key, gate.name, gate.key, "IKZ Token", "AZP-001"):
        assert expected in text
    missing = [c.name for c in reg.canonical.cards() if " ".join(c.name.split()) not in text]
    assert missing == []
    assert re.search(r"Main deck \(50\)", text) and re.search(r"IKZ deck \(11\)", text)


@pytest.mark.parametrize("paper", PAPER)
def test_combined_sheets_print_a_page_per_player(
    paper: str, tmp_path: Path, tools: dict[str, str]
) -> None:
    """`register --sheet DIR --combined`: every sheet in one document, one page per player, on
    both papers, the widest legal deck included; each page has its player, seat, date and code."""
    render_sheets = REGISTRAR.render_sheets

    players = ["Aoi Tanaka", "Ren Sato", "Mika Ito", f"Yui Mori {LONG_PLAYER}"]
    base = [register_deck(src(KAGURA), bundled(), date=on_date()), _widest(tmp_path)]
    regs = [
        replace(base[n % 2], player=p, seat=f"Table {n + 1}", date="2026-05-17")
        for n, p in enumerate(players)
    ]
    pdf = print_pdf(render_sheets(regs), paper, tmp_path, tools)
    pages, size = pdf_pages(pdf, tools)
    assert ("A4" if paper == "A4" else "letter") in size
    assert pages == len(players)
    for page, (player, reg) in enumerate(zip(players, regs, strict=True), start=1):
        out = subprocess.run(
            [tools["pdftotext"], "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        text = " ".join(out.stdout.split())
        assert " ".join(player.split()[:2]) in text, (page, player)
        assert f"Table {page}" in text and "2026-05-17" in text and str(reg.deck_hash) in text
        assert "Deck code" in text
