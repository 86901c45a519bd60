"""What bounds the server's work and pages, in-process: a list far over its game's section sizes
is refused (as `sim` and `tune` refuse it), submissions are limited per client address as the
live check is, every page shows a long stored list cut, and a deck code too long for a QR code
leaves its sheet without one (every other sheet keeps its own). Also the roster's `Player-ID`
header, and the dashboard's escaping and the export's formula-safe `@` seen in-process.
Expected values are written out here by hand."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from inprocess_data import LEGAL, ROOT

UNKNOWN = "".join(f"  Unknown Card {n}: 1\n" for n in range(10_000))  # in the portals section
HUGE = LEGAL + UNKNOWN  # ~0.2 MB: portals 8 + 10,000 cards, on 5 + 10,000 lines
TOO_LARGE_EN = (
    "the portals section has 33 cards, far over the 8 it needs; a list takes at most 32 "
    "(4 × 8): remove cards (F003 marks a card listed on more than one line)"
)


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def _api_submit(client: Any, event: Any, **body: Any) -> Any:
    return client.post(
        f"/api/v1/events/{event.key}/decklists", json.dumps(body), content_type="application/json"
    )


def _portals_plus(n: int) -> str:
    """The legal list with n more unknown cards in its portals section (its last section)."""
    return LEGAL + "".join(f"  Extra Portal {k}: 1\n" for k in range(n))


# --- row 11: a list far over its sections' sizes is refused -----------------------------------


def test_a_list_over_four_times_a_sections_size_is_refused(client, make_event) -> None:
    event, token = make_event()
    at_most = _api_submit(client, event, player="Kai", deck=_portals_plus(24))  # 8 + 24 = 32
    assert at_most.status_code == 201 and at_most.json()["legal"] is False
    over = _api_submit(client, event, player="Kai", deck=_portals_plus(25))  # 33
    assert over.status_code == 413
    assert over.json() == {"error": {"code": "deck_too_large", "message": TOO_LARGE_EN}}
    japanese = _api_submit(client, event, player="Kai", deck=_portals_plus(25), lang="ja")
    assert japanese.json()["error"]["message"] == (
        "ポータルデッキが 33 枚あり、必要な 8 枚を大きく超えています。リストは最大 32 枚"
        "（4 × 8）までです。カードを減らしてください（F003 は複数の行に書かれたカードを示します）"
    )
    replaced = client.put(
        f"/api/v1/decklists/{at_most.json()['id']}",
        json.dumps({"deck": _portals_plus(25)}),
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=at_most.json()["edit_token"],
    )
    assert replaced.status_code == 413 and replaced.json()["error"]["code"] == "deck_too_large"
    rows = client.get(
        f"/api/v1/events/{event.key}/decklists", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert [r["versions"] for r in rows] == [1]


def test_the_pages_refuse_a_list_over_its_size_and_keep_it(client, make_event, service) -> None:
    event, _ = make_event()
    page = client.post(f"/events/{event.key}/submit", {"player": "Kai", "deck": _portals_plus(25)})
    assert page.status_code == 413
    html = _html(page)
    assert TOO_LARGE_EN in html and "Extra Portal 24" in html  # shown back in the text area
    service.upload_roster(event, b"name,player_id\nAnn,P1\n")
    link = service.roster_rows(event)[0].link.removeprefix("http://testserver")
    personal = client.post(link, {"deck": _portals_plus(25)})
    assert personal.status_code == 413 and TOO_LARGE_EN in _html(personal)
    assert service.counted_lists(event) == []


def test_a_game_without_section_sizes_has_no_such_limit(
    client, make_event, service, monkeypatch
) -> None:
    """A game (a plugin) that names no section sizes: its lists are bounded by the body limit
    only."""
    from varz_deck.games import get_game

    event, _ = make_event()
    real = get_game("varz")

    class Sizeless:
        def __getattr__(self, name: str) -> Any:
            if name == "section_sizes":
                raise AttributeError(name)
            return getattr(real, name)

    monkeypatch.setattr("varz_deck.server.services.lists.game_of", lambda event: Sizeless())
    answer = _api_submit(client, event, player="Kai", deck=_portals_plus(25))
    assert answer.status_code == 201


# --- row 11: submissions are limited per address, as the live check is -------------------------


def test_submissions_from_one_address_are_limited(client, make_event) -> None:
    from varz_deck.server.limits import SUBMIT_BURST

    event, _ = make_event()
    url = f"/api/v1/events/{event.key}/decklists"
    answers = [client.post(url, "{}", content_type="application/json") for _ in range(SUBMIT_BURST)]
    assert {a.status_code for a in answers} == {422}  # every one reached the view
    refused = next(
        a
        for a in (client.post(url, "{}", content_type="application/json") for _ in range(3))
        if a.status_code == 429
    )
    assert int(refused["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "too_many_requests"
    assert refused.json()["error"]["message"].startswith("too many lists from this address; ")
    other = client.post(url, "{}", content_type="application/json", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert other.status_code == 422  # another address has its own allowance


@pytest.mark.parametrize(
    ("method", "path", "kind"),
    [
        ("POST", "/api/v1/events/E1/decklists", "submit"),
        ("PUT", "/api/v1/decklists/12", "submit"),
        ("POST", "/events/E1/submit", "submit"),
        ("POST", "/decklists/12/TOKEN", "submit"),
        ("POST", "/p/TOKEN", "submit"),
        ("POST", "/api/v1/events/E1/check", "check"),
        ("POST", "/events/E1/check", "check"),
        ("GET", "/api/v1/events/E1/decklists", None),
        ("GET", "/events/E1/submit", None),
        ("GET", "/p/TOKEN", None),
        ("PUT", "/api/v1/events/E1/decklists", None),
        ("POST", "/events/E1/add", None),
        ("POST", "/events/E1/decklists/12", None),
        ("POST", "/decklists/12/TOKEN/report", None),
        ("POST", "/api/v1/decklists/12/restore", None),
        ("DELETE", "/api/v1/decklists/12", None),
    ],
)
def test_which_requests_are_limited(django_db, method, path, kind) -> None:
    from varz_deck.server.limits import limited_kind

    assert limited_kind(method, path) == kind


def test_each_kind_has_its_own_allowance(django_db) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory

    from varz_deck.server.limits import BURST, SUBMIT_BURST, SUBMIT_RATE, RequestLimits

    assert (SUBMIT_BURST, SUBMIT_RATE) == (60, 1.0)
    now = [100.0]
    guard = RequestLimits(lambda request: HttpResponse("ok"), clock=lambda: now[0])
    factory = RequestFactory()

    def post(path: str, **extra: Any) -> Any:
        return guard(factory.post(path, "{}", content_type="application/json", **extra))

    assert all(post("/events/E/submit").status_code == 200 for _ in range(SUBMIT_BURST))
    refused = post("/events/E/submit", HTTP_ACCEPT_LANGUAGE="ja")
    assert (refused.status_code, refused["Retry-After"]) == (429, "1")
    assert json.loads(refused.content)["error"]["message"] == (
        "このアドレスからのリストの送信が多すぎます。1 秒後にもう一度お試しください"
    )
    assert all(post("/events/E/check").status_code == 200 for _ in range(BURST))  # its own
    assert post("/events/E/check").status_code == 429
    check = post("/events/E/check", HTTP_ACCEPT_LANGUAGE="en")
    message = json.loads(check.content)["error"]["message"]
    assert message == "too many checks from this address; try again in 1 s"
    now[0] += 1.0  # one more submission a second
    assert post("/events/E/submit").status_code == 200
    assert post("/events/E/submit").status_code == 429
    assert guard(factory.get("/events/E/submit")).status_code == 200  # a page is never limited
    now[0] += 2.5  # 2.5 more: two lists now, and a wait of half a second, said as 1 s
    assert [post("/p/T").status_code for _ in range(3)] == [200, 200, 429]
    assert post("/p/T")["Retry-After"] == "1"


def test_a_refused_live_check_no_longer_says_submitting_is_not_limited(django_db) -> None:
    from varz_deck.server.limits import TOO_MANY

    assert TOO_MANY(seconds=3).render("en") == "too many checks from this address; try again in 3 s"


# --- row 11: every page shows a long stored list cut --------------------------------------------


@pytest.fixture
def huge_list(make_event, service, monkeypatch) -> tuple[Any, str, Any, str]:
    """An event with a list of 10,000 unknown cards stored before lists were bounded (the check
    that refuses it today switched off to store it), and the organiser's token."""
    event, token = make_event("Flood Open")
    with monkeypatch.context() as patched:
        patched.setattr("varz_deck.server.services.lists.ensure_sane_size", lambda *args: None)
        decklist, _, edit_token, _ = service.submit(event, "Flood", HUGE)
    service.submit(event, "Aoi", LEGAL)
    return event, token, decklist, edit_token


LONG = 300_000  # bytes: a page over this did not cut the list (the whole list is ~0.8 MB)


def test_the_public_page_shows_a_long_list_cut(client, service, huge_list) -> None:
    event, _, _, _ = huge_list
    service.publish(event)
    answer = client.get(f"/events/{event.key}/public")
    assert answer.status_code == 200
    html = _html(answer)
    assert len(answer.content) < LONG
    assert html.count("<td>Unknown Card ") == 100  # 100 of the 10,005 portals lines
    assert "<td>Unknown Card 0</td>" in html and "Unknown Card 9999" not in html
    assert "and 9,905 more lines, not shown" in html
    assert html.count("Tide Sprite") == 2  # the other list in full
    japanese = _html(client.get(f"/events/{event.key}/public?lang=ja"))
    assert "ほか 9,905 行（表示していません）" in japanese


def test_the_private_and_organiser_pages_show_a_long_list_cut(
    client, service, huge_list, organiser_client
) -> None:
    event, token, decklist, edit_token = huge_list
    private = client.get(f"/decklists/{decklist.pk}/{edit_token}")
    assert private.status_code == 200 and len(private.content) < LONG
    html = _html(private)
    assert "and 9,905 more lines, not shown" in html
    assert re.search(r"and [\d,]+ more problems, not shown", html)
    assert f"This list is {len(HUGE.encode()):,} bytes, too long to show here" in html
    assert "Unknown Card 9999" not in html
    signed = organiser_client(token)
    for path in (
        f"/events/{event.key}/decklists/{decklist.pk}",
        f"/events/{event.key}/judge?entry={decklist.pk}",
    ):
        page = signed.get(path)
        assert page.status_code == 200 and len(page.content) < LONG, path
        assert "and 9,905 more lines, not shown" in _html(page), path
    assert len(signed.get(f"/events/{event.key}/dashboard").content) < LONG


def test_a_list_over_what_the_live_check_takes_is_not_put_in_the_text_area(django_db) -> None:
    from varz_deck.server.views.viewmodels import deck_view

    exact = "x" * (32 * 1024 - 2) + "é"  # 32 KiB in UTF-8: what the live check takes
    assert deck_view(exact, "en") == {"deck": exact, "deck_note": ""}
    over = deck_view(exact + "x", "ja")
    assert over["deck"] == ""
    assert over["deck_note"] == (
        "このリストは 32,769 バイトあり、ここに表示するには長すぎます。"
        "差し替えるリストを貼り付けるかアップロードしてください。"
    )


def test_a_submission_is_not_held_to_the_live_checks_size(client, make_event) -> None:
    event, _ = make_event()
    padded = LEGAL + "# " + "x" * (40 * 1024) + "\n"  # 40 KiB: a long comment, still legal
    stored = _api_submit(client, event, player="Kai", deck=padded)
    assert stored.status_code == 201 and stored.json()["legal"] is True
    checked = client.post(
        f"/api/v1/events/{event.key}/check",
        json.dumps({"deck": padded}),
        content_type="application/json",
    )
    assert checked.status_code == 413


def test_a_short_list_is_shown_whole(service, django_db) -> None:
    from varz_deck.server.views.viewmodels import cut_rows

    assert cut_rows(list(range(100)), 100) == (list(range(100)), 0)
    assert cut_rows(list(range(101)), 100) == (list(range(100)), 1)
    assert cut_rows([], 100) == ([], 0)


# --- row 10: a deck code too long for a QR code --------------------------------------------------


def test_a_code_too_long_for_a_qr_code_gives_none(django_db) -> None:
    from varz_deck.server.qr import qr_svg

    assert qr_svg("VZ1" + "a" * 2328).startswith("<svg ")  # 2,331 bytes: the largest QR code
    assert qr_svg("VZ1" + "a" * 2329) == ""


def _long_id_cards(folder: Path) -> list[str]:
    """A card folder: the bundled VARZ cards and a set of 130 commands whose ids are 20 random
    letters long (a deck code spells each id out: 120 of them make a code of 3,000 characters)."""
    import shutil

    shutil.copytree(ROOT / "card_data" / "varz", folder)
    draw = random.Random(10)
    ids = sorted(
        "LQ-" + "".join(draw.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(20))
        for _ in range(130)
    )
    cards = "".join(
        f"  - id: {card}\n    name: Long Command {n}\n    type: command\n    color: red\n"
        f"    cost: 1\n    text: Draw 1 card.\n    rarity: C\n"
        for n, card in enumerate(ids)
    )
    set_file = "set:\n  code: LQ\n  name: Long Ids\n  released: 2025-01-01\ncards:\n" + cards
    (folder / "sets" / "lq.yaml").write_text(set_file, encoding="utf-8")
    return ids


def test_every_sheet_prints_though_one_deck_code_is_too_long_for_a_qr_code(
    client, make_event, service, organiser_client, tmp_path
) -> None:
    ids = _long_id_cards(tmp_path / "cards")
    service.use_cards(tmp_path / "cards")
    event, token = make_event("Long Code Cup")
    try:
        spells = "".join(f"  {card}: 1\n" for card in ids[:120])  # 120 = 4 × 30: not refused
        long_deck = "format: standard\nhero: VZ01-001\nspells:\n" + spells
        _api_submit(client, event, player="Aoi", deck=LEGAL)
        stored = _api_submit(client, event, player="Long", deck=long_deck)
        assert stored.status_code == 201 and stored.json()["legal"] is False
        api = client.get(f"/api/v1/events/{event.key}/sheets", HTTP_AUTHORIZATION=f"Bearer {token}")
        page = organiser_client(token).get(f"/events/{event.key}/sheets")
        for answer in (api, page):
            assert answer.status_code == 200
            html = _html(answer)
            sheets = html.split('class="sheet')[1:]
            assert len(sheets) == 2
            assert "Aoi" in sheets[0] and 'class="qr-code"' in sheets[0]
            assert "Long" in sheets[1] and 'class="qr-code"' not in sheets[1]
            code = re.search(r'class="code"><span>[^<]*</span><code>([^<]+)</code>', sheets[1])
            assert code and len(code[1]) > 2331 and code[1].startswith("VZ1")
    finally:
        service.use_cards(None)
        event.delete()  # its lists' verdicts are of these cards: no other test re-checks them


# --- the roster's header, the dashboard's escaping, the export's cells ---------------------------


def test_a_roster_header_written_player_hyphen_id(django_db) -> None:
    """A spreadsheet's `Player-ID` (or `Player ID`) header names the player_id column: case,
    spaces around, a hyphen or a space for the underscore do not matter."""
    from varz_deck.server.roster import RosterError, read_roster

    for header in (b"Name,Player-ID", b"name , Player ID ", b"NAME,player_id", b"Name,PLAYER-id"):
        players = read_roster(header + b"\nAoi,P1\n")
        assert [(p.name, p.player_id) for p in players] == [("Aoi", "P1")], header
    with pytest.raises(RosterError) as refused:
        read_roster(b"name,player--id\nAoi,P1\n")
    assert str(refused.value) == (
        "line 1: unknown column 'player--id'; the columns are name, player_id and email"
    )


def test_the_dashboard_escapes_what_players_typed(
    client, make_event, organiser_client, service
) -> None:
    event, token = make_event()
    service.upload_roster(event, b'name,player_id\n"<i>Ann</i> & Co",P1\n')
    _api_submit(client, event, player='<script>alert("x")</script>', deck=LEGAL, player_id="<b>1")
    html = _html(organiser_client(token).get(f"/events/{event.key}/dashboard"))
    assert "<script>alert" not in html and "<b>1" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "<td>&lt;i&gt;Ann&lt;/i&gt; &amp; Co</td>" in html  # who is missing
    assert "<td>&lt;b&gt;1</td>" in html  # the list not on the roster: its player id


def test_the_export_guards_a_cell_starting_with_an_at_sign(client, make_event) -> None:
    event, token = make_event()
    _api_submit(client, event, player='@HYPERLINK("http://x")', deck=LEGAL)
    answer = client.get(
        f"/api/v1/events/{event.key}/export.csv", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8"))))
    assert rows[1][1] == '\'@HYPERLINK("http://x")'
