"""A registered list's figures on the server: the private link and the published lists link to
`varz-deck report`'s page for that list, with the same figures as the command (same seed, games
and date), in the page's language; an unreadable list says so; nothing before publication."""

from __future__ import annotations

import re
from typing import Any

import pytest
from harness import ROOT, run_cli
from test_pages import CSRF_FIELD, csrf, signed_in

KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
VALUE = re.compile(r'data-value="([^"]*)"')


def _submit(server: Any, event: dict[str, Any], player: str, text: str) -> str:
    client = server.client()
    form = client.get(event["submit_url"])
    stored = client.post(
        event["submit_url"],
        form={"player": player, "deck": text, "lang": "en", CSRF_FIELD: csrf(form)},
    )
    assert stored.status == 303
    return str(stored.header("Location")).split("?")[0]


def _cli_page(deck: Any, date: str, lang: str) -> str:
    done = run_cli(["report", str(deck), "--date", date, "--lang", lang], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


@pytest.mark.parametrize("deck,game", [(KAGURA, None), (RAIZAN, "azuki")])
def test_private_and_public_figures_are_the_reports(
    server: Any, make_event: Any, deck: Any, game: str | None
) -> None:
    event = make_event(game=game)
    private = _submit(server, event, "Aoi Tanaka", deck.read_text(encoding="utf-8"))
    stranger = server.client()
    own = stranger.get(private)
    assert own.status == 200 and 'id="figures"' in own.text
    figures = stranger.get(private + "/report?lang=ja")
    assert figures.status == 200 and figures.header("Content-Type").startswith("text/html")
    assert '<html lang="ja">' in figures.text and "<script" not in figures.text
    state = server.get(f"/api/v1/events/{event['event']}", headers=event["headers"]).json()
    expected = _cli_page(deck, state["date"], "ja")
    assert VALUE.findall(figures.text) == VALUE.findall(expected)
    again = stranger.get(private + "/report?lang=ja")
    assert again.text == figures.text
    # the public lists: nothing before publication, then the same page
    number = private.split("/")[2]
    public = f"/events/{event['event']}/public/{number}"
    assert stranger.get(public).status == 404
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{event['event']}/dashboard")
    assert (
        organiser.post(
            f"/events/{event['event']}/publish", form={CSRF_FIELD: csrf(dashboard)}
        ).status
        == 303
    )
    listed = stranger.get(f"/events/{event['event']}/public")
    assert f'href="{public}?lang=' in listed.text
    shown = stranger.get(public + "?lang=ja")
    assert shown.status == 200 and VALUE.findall(shown.text) == VALUE.findall(expected)
    assert stranger.get(f"/events/{event['event']}/public/999999").status == 404


def test_an_unreadable_list_has_no_figures(server: Any, event: dict[str, Any]) -> None:
    private = _submit(server, event, "Ren Sato", "hero: [unclosed\n")
    answer = server.client().get(private + "/report")
    assert answer.status == 422 and "No figures for this list" in answer.text
    assert server.client().get(private[:-3] + "xyz/report").status == 404
