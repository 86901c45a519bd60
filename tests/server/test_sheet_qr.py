"""Each printed sheet carries a QR code of the list's deck code, and the judge's page finds a list
by that code (issue 26 point 9), on SQLite and PostgreSQL.

The QR code is inline SVG (segno). Its modules are read back from the SVG's path and compared
with segno's own encoding of the code `varz-deck code` prints for the same deck (error level M,
the documented choice). The browser test decodes the printed page with zbarimg.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from harness import ROOT, LiveServer, run_cli
from test_pages import ILLEGAL, LEGAL, OTHER_LEGAL, signed_in, text_of

segno = pytest.importorskip("segno")

SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.DOTALL)


def _code(path: Any) -> str:
    done = run_cli(["code", str(path)], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules an SVG path of horizontal runs draws (`M x y`, `m dx dy`, `h n`), with
    the quiet zone's offset removed."""
    path = re.search(r'\sd="([^"]+)"', svg)
    assert path, svg
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, args in re.findall(r"([MmHhVv])([-\d. ]+)", path.group(1)):
        numbers = [float(n) for n in args.split()]
        if op == "M":
            x, y = numbers
        elif op == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif op == "h":
            start, x = x, x + numbers[0]
            dark.update((int(c), int(y)) for c in range(int(start), int(x)))
        else:
            raise AssertionError(f"unexpected path command {op}")
    left, top = min(c for c, _ in dark), min(r for _, r in dark)
    return {(c - left, r - top) for c, r in dark}


def _expected(code: str) -> set[tuple[int, int]]:
    matrix = segno.make_qr(code, error="m").matrix
    return {(c, r) for r, row in enumerate(matrix) for c, v in enumerate(row) if v}


def test_each_sheet_carries_the_qr_code_of_its_deck_code(
    server: LiveServer, make_event: Callable[..., dict[str, Any]]
) -> None:
    event = make_event()
    key = event["event"]
    for player, path in (("Aoi", LEGAL), ("Ren", OTHER_LEGAL), ("Mio", ILLEGAL)):
        answer = server.post(
            f"/api/v1/events/{key}/decklists",
            json={"player": player, "deck": path.read_text(encoding="utf-8")},
        )
        assert answer.status == 201, answer
    document = server.get(f"/api/v1/events/{key}/sheets", headers=event["headers"]).text
    sheets = document.split('<article class="sheet">')[1:]
    assert len(sheets) == 3
    for sheet, path in zip(sheets, (LEGAL, OTHER_LEGAL, ILLEGAL), strict=True):
        code = _code(path)  # an illegal list that was read completely has a code too
        assert code in sheet
        (svg,) = SVG.findall(sheet)
        assert _modules(svg) == _expected(code)
        assert "<script" not in svg and "style=" not in svg
    organiser = signed_in(server, event)
    page = organiser.get(f"/events/{key}/sheets")
    assert page.status == 200 and len(SVG.findall(page.text)) >= 2
    policy = page.header("Content-Security-Policy") or ""
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_the_judge_finds_a_list_by_its_deck_code(
    server: LiveServer, make_event: Callable[..., dict[str, Any]]
) -> None:
    event = make_event()
    key = event["event"]
    for player, path in (("Aoi", LEGAL), ("Ren", OTHER_LEGAL)):
        answer = server.post(
            f"/api/v1/events/{key}/decklists",
            json={"player": player, "deck": path.read_text(encoding="utf-8")},
        )
        assert answer.status == 201, answer
    organiser = signed_in(server, event)
    code = _code(OTHER_LEGAL)
    found = organiser.get(f"/events/{key}/judge?{urlencode({'hash': code})}")
    assert found.status == 200
    assert "<h2>Ren</h2>" in found.text and "<h2>Aoi</h2>" not in found.text, text_of(found)
    # a code of a deck nobody registered: none found, and said so
    other = _code(ILLEGAL)
    missing = organiser.get(f"/events/{key}/judge?{urlencode({'hash': other})}")
    assert missing.status == 200 and "<h2>" not in missing.text, text_of(missing)
    assert "No list matches" in text_of(missing), text_of(missing)
