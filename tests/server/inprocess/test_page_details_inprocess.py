"""What the pages show, cell by cell: the canonical list (in English and Japanese), the
versions, the dashboard's rows and actions, the judge's comparison, the diagnostics' rows, the
forms' refusals. The cards and counts are those the example decks list (examples/illegal.yaml:
4 Scorch Shot, 3 Ember Imp...), with their ids in the bundled card data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from inprocess_data import ILLEGAL, ILLEGAL_HASH, LEGAL, LEGAL_HASH


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def _submit(client: Any, event: Any, player: str, deck: str) -> str:
    answer = client.post(f"/events/{event.key}/submit", {"player": player, "deck": deck})
    assert answer.status_code == 303
    return str(answer["Location"]).split("?")[0]


def _when(iso: str) -> str:
    """A time of a UTC event as the pages show it, worked out here."""
    assert iso.endswith("+00:00")
    return f"{iso[:10]} {iso[11:16]} (UTC+00:00, UTC)"


def test_public_page_shows_the_canonical_list(client, make_event) -> None:
    event, _ = make_event()
    _submit(client, event, "Ren", ILLEGAL)
    from varz_deck.server import service

    service.publish(service.get_event(event.key))
    html = _html(client.get(f"/events/{event.key}/public"))
    assert (
        '<p class="slot"><span class="label">hero</span> Hibiki Kagura <code>VZ01-001</code></p>'
        in html
    )
    assert "<h3>spells (30)</h3>" in html and "<h3>skills (9)</h3>" in html
    assert (
        '<tr><td class="qty">4</td><td>Scorch Shot</td><td><code>VZ01-010</code></td></tr>' in html
    )
    japanese = _html(client.get(f"/events/{event.key}/public?lang=ja"))
    assert '<span class="label">ヒーロー</span> 神楽 響 <code>VZ01-001</code>' in japanese
    assert "<td>スコーチショット</td>" in japanese  # the name alone, no quotes


def test_the_versions_table(client, make_event, organiser_client) -> None:
    event, token = make_event()
    here = _submit(client, event, "Mio", ILLEGAL)
    number = re.search(r"/decklists/(\d+)/", here)[1]
    organiser_client(token).post(f"/events/{event.key}/decklists/{number}", {"deck": LEGAL})
    from varz_deck.server import service

    first, second = service.versions(service.get_decklist(number, organiser_token=token)[0])
    html = _html(client.get(here))
    for version, status, state in (
        (first, "Not legal", "illegal"),
        (second, "Legal (by the organiser)", "legal"),
    ):
        iso = version.submitted_at.isoformat()
        assert f'<time datetime="{iso}">{_when(iso)}</time>' in html
        assert f'<td class="{state}">{status}</td>' in html
    assert f"<code>{ILLEGAL_HASH}</code>" in html and f"<code>{LEGAL_HASH}</code>" in html


def test_the_submission_page_words(client, make_event) -> None:
    event, _ = make_event("Words <Cup>")
    html = _html(client.get(f"/events/{event.key}/submit"))
    assert "<h1>Submit your deck list</h1>" in html
    assert '<button type="submit">Submit the list</button>' in html
    assert '<span class="event-name">Words &lt;Cup&gt;</span>' in html
    from varz_deck import __version__

    assert f"varz-deck {__version__}</footer>" in html
    japanese = _html(client.get(f"/events/{event.key}/submit?lang=ja"))
    assert "<h1>Submit your deck list</h1>" not in japanese


def test_the_dashboard_rows_and_actions(client, make_event, organiser_client) -> None:
    event, token = make_event()
    _submit(client, event, "Aoi", LEGAL)
    _submit(client, event, "Ren", "spells: [\n")
    from varz_deck.server import service

    service.set_locked(service.get_event(event.key), True)
    html = _html(organiser_client(token).get(f"/events/{event.key}/dashboard"))
    base = f"/events/{event.key}"
    assert f'"{base}/unlock' in html and f'"{base}/publish' in html
    assert f'href="{base}/sheets"' in html and f'href="{base}/export.csv"' in html
    assert f'href="{base}/judge"' in html and f'href="{base}/add"' in html
    assert f"<td>Shizuku Minase</td><td><code>{LEGAL_HASH}</code></td>" in html
    assert "<td></td><td><code>—</code></td>" in html  # no lead card, no hash
    assert '<td class="codes">F002</td>' in html


def test_the_dashboards_language_links_drop_done(make_event, organiser_client) -> None:
    event, token = make_event()
    html = _html(organiser_client(token).get(f"/events/{event.key}/dashboard?done=locked&x=1"))
    assert "Submissions are locked." in html
    assert f"/events/{event.key}/dashboard?x=1&amp;lang=ja" in html
    assert "done=locked&amp;lang" not in html


def test_the_judge_in_japanese_and_the_comparison(client, make_event, organiser_client) -> None:
    event, token = make_event()
    _submit(client, event, "Ren", ILLEGAL)
    signed = organiser_client(token)
    base = f"/events/{event.key}/judge"
    japanese = _html(signed.get(base, {"hash": "Ren", "lang": "ja"}))
    assert "「スコーチショット」が 4 枚あります" in japanese
    html = _html(signed.post(base, {"hash": "Ren", "presented": LEGAL, "lang": "en"}))
    assert '<th class="num">Registered</th><th class="num">Presented</th>' in html
    assert '<p class="note">hero: Hibiki Kagura (VZ01-001) → Shizuku Minase (VZ01-002)</p>' in html
    assert (
        '<tr class="removed"><td class="qty">-4</td><td>Scorch Shot</td>'
        '<td><code>VZ01-010</code></td><td class="qty">4</td><td class="qty">0</td></tr>'
    ) in html
    assert '<tr class="added"><td class="qty">+3</td><td>Tide Sprite</td>' in html


def test_a_nul_is_kept_in_a_posted_list(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(f"/events/{event.key}/submit", {"player": "A\x00B", "deck": "x\x00"})
    assert answer.status_code == 303
    from varz_deck.server import service

    decklist, _ = service.get_decklist(
        re.search(r"/decklists/(\d+)/", answer["Location"])[1],
        edit_token=answer["Location"].split("/")[3].split("?")[0],
    )
    assert decklist.player == "A\ufffdB" and decklist.current.deck == "x\ufffd"


def test_deck_form_refusals_in_the_language(django_db) -> None:
    from varz_deck.server.config import BODY_LIMIT
    from varz_deck.server.views import texts
    from varz_deck.server.views.forms import DeckForm, JudgeForm, PlayerDeckForm

    big = SimpleUploadedFile("big.yaml", b"x" * (BODY_LIMIT + 1))
    form = DeckForm({"deck": ""}, {"file": big}, lang="ja")
    assert not form.is_valid()
    assert form.problem == texts.TOO_LONG(limit=BODY_LIMIT).render("ja")
    assert "1,048,576" in form.problem and not form.problem.startswith("The list")
    english = DeckForm(
        {"deck": ""}, {"file": SimpleUploadedFile("b.yaml", b"x" * (BODY_LIMIT + 1))}
    )
    assert not english.is_valid()
    assert english.problem == "The list is over 1,048,576 bytes; a deck list is far smaller."
    crlf = DeckForm({"deck": "a\r\nb\rc"})
    assert crlf.is_valid() and crlf.text == "a\nb\nc" and crlf.shown_deck == "a\nb\nc"
    player = PlayerDeckForm({"player": " Aoi \n Tanaka ", "deck": "x"}, lang="ja")
    assert player.is_valid() and player.cleaned_data["player"] == "Aoi Tanaka"
    assert player.shown_player == "Aoi Tanaka"
    nameless = PlayerDeckForm({"player": " ", "deck": " "}, lang="ja")
    assert not nameless.is_valid()
    assert nameless.problem == texts.NO_DECK.render("ja") != texts.NO_DECK.render("en")
    judge = JudgeForm({"entry": " 12 ", "hash": "  a \n b " + "c" * 100})
    assert judge.is_valid()
    assert judge.cleaned_data["entry"] == "12"
    assert judge.cleaned_data["hash"] == "a b " + "c" * 100
    long = JudgeForm({"hash": "x" * 5000})
    assert long.is_valid() and long.cleaned_data["hash"] == "x" * 4096


def test_diagnostic_rows(django_db) -> None:
    from varz_deck.server.views.viewmodels import diagnostic_rows, verdict

    rows = diagnostic_rows(
        [
            {"code": "V1", "severity": "warning", "message": "m", "line": 3},
            {"message_localized": "訳", "message": "m", "line": 2, "column": 5},
            {"code": "X<", "severity": "info"},
        ],
        "en",
    )
    assert rows == [
        {
            "where": "3:1",
            "line": "3",
            "column": "",
            "code": "V1",
            "severity": "warning",
            "severity_label": "warning",
            "text": "m",
        },
        {
            "where": "2:5",
            "line": "2",
            "column": "5",
            "code": "",
            "severity": "error",
            "severity_label": "error",
            "text": "訳",
        },
        {
            "where": "—",
            "line": "",
            "column": "",
            "code": "X<",
            "severity": "error",
            "severity_label": "info",
            "text": "",
        },
    ]
    assert verdict(
        False, [{"severity": "error"}, {"severity": "warning"}, {"severity": "warning"}], "en"
    ) == ("Not legal · 1 error, 2 warnings")
    assert verdict(True, [{"severity": "warning"}], "en") == "Legal · 1 warning"
    assert verdict(True, [], "en") == "Legal"


@pytest.mark.parametrize(
    ("zone", "moment", "shown", "iso"),
    [
        (
            "UTC",
            (2027, 1, 15, 0, 30),
            "2027-01-15 00:30 (UTC+00:00, UTC)",
            "2027-01-15T00:30:00+00:00",
        ),
        (
            "Asia/Tokyo",
            (2027, 1, 15, 0, 30),
            "2027-01-15 09:30 (UTC+09:00, Asia/Tokyo)",
            "2027-01-15T09:30:00+09:00",
        ),
        (
            "America/New_York",
            (2027, 1, 15, 3, 5),
            "2027-01-14 22:05 (UTC-05:00, America/New_York)",
            "2027-01-14T22:05:00-05:00",
        ),
        (
            "Asia/Kathmandu",
            (2027, 1, 15, 0, 0),
            "2027-01-15 05:45 (UTC+05:45, Asia/Kathmandu)",
            "2027-01-15T05:45:00+05:45",
        ),
        (
            "America/St_Johns",
            (2027, 7, 1, 12, 0),
            "2027-07-01 09:30 (UTC-02:30, America/St_Johns)",
            "2027-07-01T09:30:00-02:30",
        ),
        (
            "No/Such_Zone",
            (2027, 1, 15, 0, 30),
            "2027-01-15 00:30 (UTC+00:00, No/Such_Zone)",
            "2027-01-15T00:30:00+00:00",
        ),
    ],
)
def test_times_in_the_events_zone(django_db, zone, moment, shown, iso) -> None:
    import datetime
    from types import SimpleNamespace

    from varz_deck.server import service
    from varz_deck.server.views import viewmodels

    event = SimpleNamespace(timezone=zone)
    at = datetime.datetime(*moment, tzinfo=datetime.timezone.utc)
    assert viewmodels.when(event, at) == service.shown_time(event, at) == shown
    assert viewmodels.iso(event, at) == service.iso_time(event, at) == iso
    assert service.iso_time(event, None) is None


def test_offset_text(django_db) -> None:
    import datetime

    from varz_deck.server import service

    def at(minutes: int) -> datetime.datetime:
        zone = datetime.timezone(datetime.timedelta(minutes=minutes))
        return datetime.datetime(2027, 1, 1, tzinfo=zone)

    assert service.offset_text(at(0)) == "UTC+00:00"
    assert service.offset_text(at(9 * 60)) == "UTC+09:00"
    assert service.offset_text(at(-4 * 60)) == "UTC-04:00"
    assert service.offset_text(at(-(3 * 60 + 30))) == "UTC-03:30"
    assert service.offset_text(at(5 * 60 + 45)) == "UTC+05:45"
    assert service.offset_text(at(-1)) == "UTC-00:01"
    assert service.offset_text(datetime.datetime(2027, 1, 1)) == "UTC+00:00"


def test_event_view_and_texts(django_db) -> None:
    from types import SimpleNamespace

    from varz_deck.core.messages.sanitize import safe
    from varz_deck.server.views import texts
    from varz_deck.server.views.texts import Texts
    from varz_deck.server.views.viewmodels import event_view

    shown = event_view(SimpleNamespace(key="k1", name="A\u202eB"))
    assert shown == {"key": "k1", "name": safe("A\u202eB")} and "\u202e" not in shown["name"]
    words = Texts("ja")
    assert words["legal"] == texts.LEGAL.render("ja") != "Legal"
    assert Texts("en")["legal"] == "Legal" and len(Texts("en")) == len(list(Texts("en")))


def test_page_language_order(django_db) -> None:
    from django.test import RequestFactory

    from varz_deck.server.views.render import LANG_COOKIE, page_language

    factory = RequestFactory()
    cookie = factory.get("/", HTTP_ACCEPT_LANGUAGE="zh")
    cookie.COOKIES[LANG_COOKIE] = "ja"
    assert page_language(cookie) == "ja"
    bad = factory.get("/", HTTP_ACCEPT_LANGUAGE="zh")
    bad.COOKIES[LANG_COOKIE] = "xx"
    assert page_language(bad) == "zh"
    query = factory.get("/?lang=en")
    query.COOKIES[LANG_COOKIE] = "ja"
    assert page_language(query) == "en"
    posted = factory.post("/?lang=ja", {"lang": "zh"})
    assert page_language(posted) == "zh"


def test_api_language_from_the_browser(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(
        f"/api/v1/events/{event.key}/check",
        json.dumps({"deck": ILLEGAL}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.json()["diagnostics"][0]["message_localized"].startswith("「スコーチショット」")


def test_api_service_errors_in_the_payloads_language(client, make_event) -> None:
    from varz_deck.server import service

    event, _ = make_event()
    service.set_locked(event, True)
    answer = client.post(
        f"/api/v1/events/{event.key}/decklists",
        json.dumps({"player": "Aoi", "deck": LEGAL, "lang": "ja"}),
        content_type="application/json",
    )
    assert answer.status_code == 409
    message = answer.json()["error"]["message"]
    assert message != "the organiser has locked this event; submissions are closed"
    assert message == service.LOCKED.render("ja")


def test_api_json_is_compact(client) -> None:
    answer = client.get("/healthz")
    assert b"\n" not in answer.content and answer.content.startswith(b'{"status": "ok"')
    api = client.get("/api/v1/events/nosuch")
    assert b"\n" not in api.content


def test_japanese_form_button_and_comparison(client, make_event, organiser_client) -> None:
    from varz_deck.server.views import texts

    event, token = make_event()
    page = _html(client.get(f"/events/{event.key}/submit?lang=ja"))
    assert f'<button type="submit">{texts.SUBMIT_BUTTON.render("ja")}</button>' in page
    assert texts.SUBMIT_BUTTON.render("ja") != "Submit the list"
    _submit(client, event, "Ren", ILLEGAL)
    signed = organiser_client(token)
    html = _html(
        signed.post(f"/events/{event.key}/judge", {"hash": "Ren", "presented": LEGAL, "lang": "ja"})
    )
    assert '<tr><th colspan="5" scope="rowgroup">スペルデッキ</th></tr>' in html


def test_decklist_view(make_event) -> None:
    from varz_deck.server import service
    from varz_deck.server.views.viewmodels import decklist_view

    event, _ = make_event()
    decklist, version, _, _ = service.submit(event, "Mio", "spells: [\r\n")
    shown = decklist_view(decklist, "en")
    iso = version.submitted_at.isoformat()
    assert (shown["legal"], shown["deck_hash"], shown["deck"]) == (False, None, "spells: [\n")
    assert (shown["submitted_iso"], shown["submitted"]) == (iso, _when(iso))
    assert shown["player"] == "Mio" and shown["check_url"] == f"/events/{event.key}/check"
    good, good_version, _, _ = service.submit(event, "Aoi", LEGAL)
    good.current = None  # only while the first version is being written: the last one counts
    fallback = decklist_view(good, "en")
    assert (fallback["legal"], fallback["deck_hash"]) == (True, LEGAL_HASH)
    assert fallback["submitted_iso"] == good_version.submitted_at.isoformat()
    from varz_deck.server.models import Decklist

    empty = Decklist.objects.create(event=event, player="Nobody", edit_token_hash="1" * 64)
    nothing = decklist_view(empty, "en")
    assert (nothing["legal"], nothing["deck_hash"], nothing["deck"]) == (False, None, "")
    assert (nothing["submitted_iso"], nothing["submitted"], nothing["versions"]) == ("", "—", [])


def test_judge_entry_time_and_presented_text(client, make_event, organiser_client) -> None:
    from varz_deck.server import service

    event, token = make_event()
    _submit(client, event, "Ren", ILLEGAL)
    [(_, version)] = service.current_versions(event)
    iso = version.submitted_at.isoformat()
    signed = organiser_client(token)
    html = _html(
        signed.post(f"/events/{event.key}/judge", {"hash": "Ren", "presented": "hero: <x>"})
    )
    assert f'<time datetime="{iso}">{_when(iso)}</time>' in html
    assert "hero: &lt;x&gt;</textarea>" in html


def test_dashboard_status_words_and_japanese_titles(client, make_event, organiser_client) -> None:
    from varz_deck.server import service

    event, token = make_event()
    _submit(client, event, "Aoi", LEGAL)
    _submit(client, event, "Ren", ILLEGAL)
    signed = organiser_client(token)
    html = _html(signed.get(f"/events/{event.key}/dashboard"))
    assert "<td>Legal</td>" in html and "<td>Not legal</td>" in html
    japanese = _html(signed.get(f"/events/{event.key}/dashboard?lang=ja"))
    title = service.game_of(event).words.lead_title.render("ja")
    assert title != service.game_of(event).words.lead_title.render("en")
    assert f"<th>{title}</th>" in japanese
    compared = _html(
        signed.post(f"/events/{event.key}/judge", {"hash": "Ren", "presented": LEGAL, "lang": "ja"})
    )
    from varz_deck.server.views import texts

    assert f'<th class="num">{texts.PRESENTED_COUNT.render("ja")}</th>' in compared
    assert texts.PRESENTED_COUNT.render("ja") != "Presented"


def test_message_pages_are_errors_and_the_cookie_lasts_a_year(client) -> None:
    html = _html(client.get("/events/nosuch/submit"))
    assert '<section class="card notice error">' in html
    answer = client.get("/?lang=zh")
    assert answer.cookies["varzdeck_lang"]["max-age"] == 365 * 24 * 3600


def test_a_canonical_list_without_its_lead_card(make_event) -> None:
    from varz_deck.server import service
    from varz_deck.server.views.viewmodels import canonical_view

    event, _ = make_event()
    canonical = service.check_deck(event, "spells:\n  Tide Sprite: 3\n").registration.canonical
    assert canonical is not None
    shown = canonical_view(canonical, "en")
    assert shown["slots"] == [{"label": "hero", "name": "(none)", "id": ""}]
    assert shown["sections"][0]["cards"][0]["name"] == "Tide Sprite"


def test_more_cells(client, make_event, organiser_client) -> None:
    from varz_deck.server import service

    event, token = make_event("Cells Cup")
    good = _submit(client, event, "Aoi", LEGAL)
    bad = _submit(client, event, "Ren", ILLEGAL)
    assert '<span class="event-name">Cells Cup</span>' in _html(client.get(good))
    for _ in range(2):
        client.post(bad, {"deck": ILLEGAL})
    signed = organiser_client(token)
    _html(signed.get(f"/events/{event.key}/dashboard"))
    judged = _html(signed.get(f"/events/{event.key}/judge", {"hash": "Aoi"}))
    assert ">Legal<" in judged and "Not legal" not in judged
    same = _html(signed.post(f"/events/{event.key}/judge", {"hash": "Aoi", "presented": LEGAL}))
    assert '<p class="verdict legal" id="diff-verdict">' in same
    japanese = _html(
        signed.post(
            f"/events/{event.key}/judge", {"hash": "Aoi", "presented": "spells: [\n", "lang": "ja"}
        )
    )
    problem = service.check_deck(event, "spells: [\n").diagnostics("ja")[0]["message_localized"]
    from django.utils.html import escape

    assert escape(problem) in japanese


def test_vary_names_accept_language(client) -> None:
    answer = client.get("/api/v1/events/nosuch")
    assert "Accept-Language" in [v.strip() for v in answer["Vary"].split(",")]
