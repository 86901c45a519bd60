"""A change of card data gives one verdict everywhere (issue 24 row 4).

A list was submitted; `serve` was restarted with card data that bans one of its cards. The list
API, the dashboard and `?lang=en` said legal, the CSV said V115, and `?lang=ja` answered
`"legal": true` together with a V115 error. Decided (SPEC §9, the organiser's day): each
version keeps a fingerprint of the card data (and varz-deck version) it was checked with; when
`serve` starts, every current list checked with other data is checked again and its verdict
replaced by the current one, so the API (every language), the pages, the CSV, the metagame and
the public lists agree. Earlier versions keep the verdict they were submitted with (history).

The expected verdict comes from `varz-deck check --cards` on the same file and data.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import ROOT, LiveServer, run_cli
from test_pages import LEGAL, signed_in, text_of

BANNED = "VZ01-008"  # Cinder Hound: three copies in the list, written by id


def _check(path: Path, cards: Path) -> dict[str, Any]:
    args = ["check", str(path), "--cards", str(cards), "--format", "standard", "--output", "json"]
    done = run_cli(args, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    deck: dict[str, Any] = json.loads(done.stdout)["decks"][0]
    return deck


def _codes(diagnostics: list[dict[str, Any]]) -> list[str]:
    return [d["code"] for d in diagnostics]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_after_a_ban_every_answer_gives_the_current_verdict(
    kind: str,
    make_database: Callable[..., Any],
    live_server: Callable[..., LiveServer],
    tmp_path: Path,
) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "card_data" / "varz", cards)
    assert BANNED in LEGAL.read_text(encoding="utf-8")
    before = _check(LEGAL, cards)
    assert before["legal"] is True
    server = live_server(make_database(kind, "ban"), extra_args=["--cards", str(cards)])
    event = server.create_event("Ban Day", format="standard")
    key = event["event"]
    submitted = server.post(
        f"/api/v1/events/{key}/decklists",
        json={"player": "Aoi", "deck": LEGAL.read_text(encoding="utf-8")},
    )
    assert submitted.status == 201 and submitted.json()["legal"] is True, submitted
    number, edit = submitted.json()["id"], submitted.json()["edit_token"]

    server.stop()
    formats = cards / "formats.yaml"
    text = formats.read_text(encoding="utf-8")
    assert "banned: [VZ01-031]" in text
    formats.write_text(text.replace("banned: [VZ01-031]", f"banned: [VZ01-031, {BANNED}]"))
    after = _check(LEGAL, cards)
    assert after["legal"] is False and "V115" in _codes(after["diagnostics"]), after
    server.start()
    started = server.log.read_text(encoding="utf-8").rsplit("--- start", 1)[1]
    assert "1 list was checked again: the card data changed" in started, started

    rows = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"]).json()
    assert [(r["legal"], r["errors"]) for r in rows] == [
        (False, list(dict.fromkeys(c for c in _codes(after["diagnostics"]))))
    ]
    for headers in (event["headers"], {"X-Edit-Token": edit}):
        for lang in ("", "?lang=en", "?lang=ja", "?lang=zh"):
            answer = server.get(f"/api/v1/decklists/{number}{lang}", headers=headers).json()
            assert answer["legal"] is False, (lang, answer)
            assert _codes(answer["diagnostics"]) == _codes(after["diagnostics"]), (lang, answer)
            assert answer["versions"][-1]["legal"] is False, answer
    exported = server.get(f"/api/v1/events/{key}/export.csv", headers=event["headers"]).text
    (row,) = list(csv.DictReader(io.StringIO(exported)))
    assert row["legal"] == "false" and "V115" in row["error_codes"].split(), row
    metagame = server.get(f"/api/v1/events/{key}/metagame", headers=event["headers"]).json()
    assert [(m["lists"], m["legal"]) for m in metagame] == [(1, 0)]
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{key}/dashboard")
    assert '<tr class="illegal">' in dashboard.text and "V115" in text_of(dashboard)
    assert "1 list · 0 legal" in text_of(dashboard)
    private = f"/decklists/{number}/{edit}"
    for lang, verdict in (("en", "Not legal"), ("ja", "使用不可")):
        page = server.get(f"{private}?lang={lang}")
        shown = re.search(r'id="verdict">([^<]*)<', page.text)
        assert shown and shown.group(1).startswith(verdict), (lang, shown)
        assert "V115" in text_of(page)
    assert server.post(f"/api/v1/events/{key}/publish", headers=event["headers"]).status == 200
    public = server.get(f"/api/v1/events/{key}/public").json()
    assert [p["legal"] for p in public] == [False]
    server.restart()  # the same data again: nothing to check again
    started = server.log.read_text(encoding="utf-8").rsplit("--- start", 1)[1]
    assert "checked again" not in started, started
    assert server.get(f"/api/v1/events/{key}/public").json()[0]["legal"] is False
    server.stop()
