"""`serve` checks every list as of its event's date (SPEC §9, §12): `service.check_deck` passes
`check_date(event)` to the check. The dated ban here is written by hand: Scorch Shot (three
copies in examples/red-kagura-festival.yaml) banned from 2027-01-15."""

from __future__ import annotations

import datetime
import shutil
from typing import Any

from inprocess_data import EXAMPLES, LEGAL, ROOT

KAGURA = (EXAMPLES / "red-kagura-festival.yaml").read_text(encoding="utf-8")
ANCHOR = "    restricted: {VZ01-040: 1}    # sample restriction: Soul Harvest, at most 1 copy\n"
DATED_BAN = "    changes:\n      - date: 2027-01-15\n        banned: [VZ01-010]\n"


def test_a_list_is_checked_as_of_its_events_date(service, make_event) -> None:
    day = datetime.date(2031, 5, 6)
    event, _ = make_event(date=day)
    checked = service.check_deck(event, LEGAL)
    assert checked.report.date == day
    assert checked.registration.date == "2031-05-06"
    assert checked.report.to_json()["date"] == "2031-05-06"


def test_an_event_on_a_ban_day_sees_the_ban(service, make_event, tmp_path, monkeypatch) -> None:
    from varz_deck.games import open_database

    folder = tmp_path / "cards"
    shutil.copytree(ROOT / "card_data" / "varz", folder)
    formats = folder / "formats.yaml"
    text = formats.read_text(encoding="utf-8")
    assert ANCHOR in text
    formats.write_text(text.replace(ANCHOR, ANCHOR + DATED_BAN), encoding="utf-8")
    monkeypatch.setitem(service._DATABASES, "varz", open_database(folder))
    verdicts: dict[str, Any] = {}
    for day in ("2027-01-14", "2027-01-15"):
        event, _ = make_event(date=datetime.date.fromisoformat(day))
        checked = service.check_deck(event, KAGURA)
        verdicts[day] = (
            checked.legal,
            [d["code"] for d in checked.diagnostics() if d["severity"] == "error"],
        )
    assert verdicts == {"2027-01-14": (True, []), "2027-01-15": (False, ["V115"])}


def test_an_event_without_a_date_is_checked_as_of_today_there(service, make_event) -> None:
    event, _ = make_event()
    assert service.check_deck(event, LEGAL).report.date == service.check_date(event)
