"""The HTML pages in-process (Django's test client): the player's submission and private link,
the live check, the organiser's dashboard and actions, the judge, the public lists. Expected
texts are the pages' English words, written out here."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from inprocess_data import ILLEGAL, ILLEGAL_HASH, LEGAL, LEGAL_HASH

PAST = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def _submit(client: Any, event: Any, player: str, deck: str, **extra: Any) -> Any:
    return client.post(f"/events/{event.key}/submit", {"player": player, "deck": deck, **extra})


def test_home_page(client) -> None:
    answer = client.get("/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    assert "Players: open the submission link of your event." in _html(answer)
    assert client.post("/").status_code == 405


def test_submission_page_get(client, make_event) -> None:
    event, _ = make_event("Page Cup", format="standard")
    answer = client.get(f"/events/{event.key}/submit")
    assert answer.status_code == 200
    html = _html(answer)
    assert "Submit your deck list" in html and "Submit the list" in html
    assert f'action="/events/{event.key}/submit"' in html
    assert f"/events/{event.key}/check" in html
    assert "format standard" in html and "no deadline" in html and "lists required" in html
    assert '<html lang="en"' in html
    assert client.get("/events/nosuch/submit").status_code == 404
    assert client.put(f"/events/{event.key}/submit").status_code == 405


def test_submission_stores_and_redirects_to_the_private_link(client, make_event) -> None:
    event, _ = make_event()
    answer = _submit(client, event, "  Aoi   Tanaka ", LEGAL)
    assert answer.status_code == 303
    target = answer["Location"]
    found = re.fullmatch(r"/decklists/(\d+)/([^?]+)\?saved=1&lang=en", target)
    assert found, target
    page = client.get(target)
    assert page.status_code == 200
    html = _html(page)
    assert "Your list is stored." in html
    assert "Aoi Tanaka" in html and LEGAL_HASH in html and "Legal" in html
    assert f"http://testserver/decklists/{found[1]}/{found[2]}" in html  # the link, absolute
    plain = _html(client.get(f"/decklists/{found[1]}/{found[2]}"))
    assert "Your list is stored." not in plain


def test_an_illegal_list_shows_its_errors(client, make_event) -> None:
    event, _ = make_event()
    target = _submit(client, event, "Ren", ILLEGAL)["Location"]
    html = _html(client.get(target))
    assert "Not legal · 4 errors" in html
    for code in ("V103", "V114", "V113", "V105"):
        assert code in html
    assert "12:3" in html and ILLEGAL_HASH in html


def test_submission_in_japanese(client, make_event) -> None:
    event, _ = make_event()
    answer = _submit(client, event, "Ren", ILLEGAL, lang="ja")
    assert answer["Location"].endswith("?saved=1&lang=ja")
    html = _html(client.get(answer["Location"]))
    assert 'lang="ja"' in html and "スコーチショット" in html


@pytest.mark.parametrize(
    ("player", "deck", "problem"),
    [
        ("Aoi", "   \n", "Paste your list or choose a file."),
        ("   ", LEGAL, "the player&#x27;s name is missing"),
        ("x" * 201, LEGAL, "the player&#x27;s name is over 200 characters"),
    ],
)
def test_a_bad_submission_is_shown_again(client, make_event, player, deck, problem) -> None:
    event, _ = make_event()
    answer = _submit(client, event, player, deck)
    assert answer.status_code == 422
    html = _html(answer)
    assert problem in html


def test_a_bad_submission_keeps_what_was_posted(client, make_event) -> None:
    event, _ = make_event()
    html = _html(_submit(client, event, "  Mio  Sato ", "\r\n"))
    assert 'value="Mio Sato"' in html
    rejected = _html(_submit(client, event, "", "hero: Someone\r\nspells:\r\n"))
    assert "hero: Someone\nspells:\n" in rejected


def test_upload_a_file(client, make_event) -> None:
    event, _ = make_event()
    upload = SimpleUploadedFile("deck.yaml", ("\ufeff" + LEGAL).encode("utf-8"))
    answer = client.post(
        f"/events/{event.key}/submit", {"player": "Aoi", "deck": "", "file": upload}
    )
    assert answer.status_code == 303
    assert LEGAL_HASH in _html(client.get(answer["Location"]))
    latin = SimpleUploadedFile("deck.yaml", b"hero: \xff\xfe\n")
    refused = client.post(
        f"/events/{event.key}/submit", {"player": "Aoi", "deck": "", "file": latin}
    )
    assert refused.status_code == 422
    assert "The file is not UTF-8 text" in _html(refused)
    empty = SimpleUploadedFile("deck.yaml", b"")
    kept = client.post(
        f"/events/{event.key}/submit", {"player": "Aoi", "deck": LEGAL, "file": empty}
    )
    assert kept.status_code == 303  # an empty file: the text area counts


def test_closed_event_refuses_with_409(client, make_event) -> None:
    event, _ = make_event(deadline=PAST)
    page = _html(client.get(f"/events/{event.key}/submit"))
    assert "disabled" in page  # the form is closed, with its reason
    answer = _submit(client, event, "Late", LEGAL)
    assert answer.status_code == 409
    html = _html(answer)
    assert "name: Minase Tide Control" in html  # the list posted anyway is shown back
    locked, _token = make_event()
    from varz_deck.server import service

    service.set_locked(locked, True)
    assert "disabled" in _html(client.get(f"/events/{locked.key}/submit"))
    assert _submit(client, locked, "Late", LEGAL).status_code == 409


def test_replace_on_the_private_link(client, make_event) -> None:
    event, _ = make_event()
    target = _submit(client, event, "Mio", ILLEGAL)["Location"]
    here = target.split("?")[0]
    answer = client.post(here, {"deck": LEGAL})
    assert answer.status_code == 303 and answer["Location"] == f"{here}?saved=1&lang=en"
    html = _html(client.get(here))
    assert LEGAL_HASH in html and ILLEGAL_HASH in html  # both versions are listed
    bad = client.post(here, {"deck": " "})
    assert bad.status_code == 422 and "Paste your list or choose a file." in _html(bad)
    from varz_deck.server import service

    service.set_locked(service.get_event(event.key), True)
    html = _html(client.get(here))
    assert "The organiser has locked submissions" in html
    refused = client.post(here, {"deck": ILLEGAL})
    assert refused.status_code == 409
    assert client.get(here.rsplit("/", 1)[0] + "/wrongtoken").status_code == 404
    assert client.delete(here).status_code == 405


def test_live_check_page_json(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(f"/events/{event.key}/check", {"deck": ILLEGAL})
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer["Cache-Control"] == "no-store"
    body = json.loads(answer.content)
    assert (body["legal"], body["deck_hash"]) == (False, ILLEGAL_HASH)
    assert body["summary"] == "Not legal · 4 errors"
    first = body["diagnostics"][0]
    assert first == {
        "where": "12:3",
        "line": "12",
        "column": "3",
        "code": "V103",
        "severity": "error",
        "severity_label": "error",
        "text": "4 copies of 'Scorch Shot'; at most 3 (all printings together): remove 1",
    }
    legal = json.loads(client.post(f"/events/{event.key}/check", {"deck": LEGAL}).content)
    assert legal["summary"] == "Legal" and legal["diagnostics"] == []
    missing = client.post("/events/nosuch/check", {"deck": LEGAL})
    assert missing.status_code == 404
    assert json.loads(missing.content)["error"]["code"] == "not_found"
    assert client.get(f"/events/{event.key}/check").status_code == 405


def test_live_check_json_escapes_markup(client, make_event) -> None:
    event, _ = make_event()
    answer = client.post(f"/events/{event.key}/check", {"deck": "hero: <b>&</b>\n"})
    text = answer.content.decode()
    assert "<" not in text and ">" not in text and "&" not in text
    assert text.isascii()


def test_public_page(client, make_event) -> None:
    event, _ = make_event("Public Cup")
    _submit(client, event, "Aoi", LEGAL)
    assert client.get(f"/events/{event.key}/public").status_code == 404
    from varz_deck.server import service

    service.publish(service.get_event(event.key))
    answer = client.get(f"/events/{event.key}/public")
    assert answer.status_code == 200
    html = _html(answer)
    assert "Published deck lists" in html and "Aoi" in html and LEGAL_HASH in html
    assert "Shizuku Minase" in html
    assert client.get("/events/nosuch/public").status_code == 404


def test_language_cookie(client, make_event) -> None:
    event, _ = make_event()
    answer = client.get(f"/events/{event.key}/submit?lang=ja")
    assert answer.cookies["varzdeck_lang"].value == "ja"
    again = client.get(f"/events/{event.key}/submit")
    assert 'lang="ja"' in _html(again)
    assert "varzdeck_lang" not in again.cookies
    html = _html(client.get(f"/events/{event.key}/submit?lang=zh&saved=1"))
    assert 'lang="zh-Hans"' in html
    assert f'/events/{event.key}/submit?lang=en"' in html  # the language links drop `saved`


# --- the organiser ------------------------------------------------------------------------------


def test_sign_in_link(client, make_event) -> None:
    event, token = make_event()
    answer = client.get(f"/o/{token}")
    assert answer.status_code == 302
    assert answer["Location"] == f"/events/{event.key}/dashboard"
    assert answer["Cache-Control"] == "no-store" and answer["Referrer-Policy"] == "no-referrer"
    assert client.get(f"/events/{event.key}/dashboard").status_code == 200
    assert client.get("/o/not-a-token").status_code == 404
    assert client.get("/o/" + "x" * 201).status_code == 404


def test_dashboard_needs_the_organiser(client, make_event, organiser_client) -> None:
    event, _token = make_event()
    _other, other_token = make_event()
    refused = client.get(f"/events/{event.key}/dashboard")
    assert refused.status_code == 403 and "Sign in first" in _html(refused)
    signed = organiser_client(other_token)
    assert signed.get(f"/events/{event.key}/dashboard").status_code == 403
    assert signed.get("/events/nosuch/dashboard").status_code == 404
    for route in ("sheets", "export.csv", "judge", "add", "decklists/1"):
        assert client.get(f"/events/{event.key}/{route}").status_code == 403
        assert client.get(f"/events/nosuch/{route}").status_code == 404
    for action in ("lock", "unlock", "publish"):
        assert client.post(f"/events/{event.key}/{action}").status_code == 403


def test_dashboard_lists_and_metagame(client, make_event, organiser_client) -> None:
    event, token = make_event("Dash Cup", format="standard")
    a = _submit(client, event, "Aoi", LEGAL)["Location"]
    _submit(client, event, "Ren", ILLEGAL)
    _submit(client, event, "Kai", ILLEGAL)
    signed = organiser_client(token)
    html = _html(signed.get(f"/events/{event.key}/dashboard"))
    assert "3 lists · 1 legal" in html
    assert '<tr class="legal">' in html and html.count('<tr class="illegal">') == 2
    assert "V103 V114 V113 V105" in html
    assert "http://testserver/events/" + event.key + "/submit" in html.replace("<wbr>", "")
    number = re.search(r"/decklists/(\d+)/", a)[1]
    assert f'href="/events/{event.key}/decklists/{number}"' in html
    assert re.search(
        r"<td>Hibiki Kagura</td><td class=\"num\">2</td><td class=\"num\">66.7</td><td class=\"num\">0</td>",
        html,
    )
    assert re.search(
        r"<td>Shizuku Minase</td><td class=\"num\">1</td><td class=\"num\">33.3</td><td class=\"num\">1</td>",
        html,
    )
    assert "badge open" in html and "Lock submissions" in html and "Publish the lists" in html


def test_dashboard_empty(make_event, organiser_client) -> None:
    event, token = make_event(deadline=PAST)
    html = _html(organiser_client(token).get(f"/events/{event.key}/dashboard"))
    assert "No list has been submitted yet." in html
    assert "badge closed" in html and "badge open" not in html


def test_lock_unlock_publish_pages(make_event, organiser_client) -> None:
    event, token = make_event()
    signed = organiser_client(token)
    base = f"/events/{event.key}"
    locked = signed.post(f"{base}/lock")
    assert locked.status_code == 303
    assert locked["Location"] == f"{base}/dashboard?done=locked&lang=en"
    html = _html(signed.get(locked["Location"]))
    assert "Submissions are locked." in html and "badge locked" in html
    assert "Unlock submissions" in html and "badge open" not in html
    unlocked = signed.post(f"{base}/unlock")
    assert unlocked["Location"] == f"{base}/dashboard?done=unlocked&lang=en"
    assert "Submissions are open again." in _html(signed.get(unlocked["Location"]))
    published = signed.post(f"{base}/publish", {"lang": "ja"})
    assert published["Location"] == f"{base}/dashboard?done=published&lang=ja"
    html = _html(signed.get(f"{base}/dashboard?done=published"))
    assert "The lists are published." in html and "badge published" in html
    assert f'href="{base}/public"' in html and "Publish the lists" not in html
    confirm = signed.get(f"{base}/lock")  # the confirmation page
    assert confirm.status_code == 200 and f'action="{base}/lock"' in _html(confirm)
    from varz_deck.server import service

    actions = [e.action for e in service.audit_log(service.get_event(event.key))]
    assert actions == ["lock", "unlock", "publish"]


def test_sheets_and_csv_pages(client, make_event, organiser_client) -> None:
    event, token = make_event("Print Cup")
    _submit(client, event, "Aoi", LEGAL)
    signed = organiser_client(token)
    sheets = signed.get(f"/events/{event.key}/sheets")
    assert sheets.status_code == 200 and sheets["Cache-Control"] == "no-store"
    assert sheets["Content-Type"] == "text/html; charset=utf-8"
    assert "Print Cup" in _html(sheets) and "Aoi" in _html(sheets)
    exported = signed.get(f"/events/{event.key}/export.csv")
    assert exported["Content-Type"] == "text/csv; charset=utf-8"
    assert exported["Content-Disposition"] == f'attachment; filename="{event.key}.csv"'
    assert exported["Cache-Control"] == "no-store"
    lines = exported.content.decode().splitlines()
    assert lines[0].startswith("path,player,event,")
    assert f",Aoi,Print Cup,Shizuku Minase,standard,true,,,{LEGAL_HASH}," in lines[1]
    assert lines[1].endswith("+00:00")  # the times in the event's zone (UTC here)


def test_add_for_a_player(make_event, organiser_client) -> None:
    event, token = make_event(deadline=PAST)
    signed = organiser_client(token)
    base = f"/events/{event.key}"
    form = _html(signed.get(f"{base}/add"))
    assert "Submit a list for a player" in form and "Submit for this player" in form
    assert f'action="{base}/add"' in form
    bad = signed.post(f"{base}/add", {"player": "", "deck": LEGAL})
    assert bad.status_code == 422
    answer = signed.post(f"{base}/add", {"player": "Late Player", "deck": LEGAL})
    assert answer.status_code == 303
    found = re.fullmatch(rf"{base}/decklists/(\d+)\?saved=1&lang=en", answer["Location"])
    assert found
    shown = _html(signed.get(answer["Location"]))
    assert "The player&#x27;s private link (shown once; give it to the player):" in shown
    assert f"http://testserver/decklists/{found[1]}/" in shown
    again = _html(signed.get(answer["Location"]))
    assert "http://testserver/decklists/" not in again  # shown once
    from varz_deck.server import service

    [entry] = service.audit_log(service.get_event(event.key))
    assert (entry.action, entry.decklist_id) == ("submit", int(found[1]))


def test_organiser_fixes_a_list(client, make_event, organiser_client) -> None:
    event, token = make_event()
    target = _submit(client, event, "Mio", ILLEGAL)["Location"]
    number = re.search(r"/decklists/(\d+)/", target)[1]
    from varz_deck.server import service

    service.set_locked(service.get_event(event.key), True)
    signed = organiser_client(token)
    here = f"/events/{event.key}/decklists/{number}"
    page = _html(signed.get(here))
    assert "Mio" in page and "Back to the dashboard" in page
    assert f'href="/events/{event.key}/dashboard"' in page
    fixed = signed.post(here, {"deck": LEGAL})
    assert fixed.status_code == 303 and fixed["Location"] == f"{here}?saved=1&lang=en"
    html = _html(signed.get(here))
    assert "(by the organiser)" in html and LEGAL_HASH in html
    assert signed.post(here, {"deck": ""}).status_code == 422
    other, other_token = make_event()
    assert signed.get(f"/events/{event.key}/decklists/999999").status_code == 404
    mine = organiser_client(other_token)
    assert mine.get(f"/events/{other.key}/decklists/{number}").status_code == 404


def test_judge_page(client, make_event, organiser_client) -> None:
    event, token = make_event()
    _submit(client, event, "Aoi Tanaka", LEGAL)
    _submit(client, event, "Aoi Sato", ILLEGAL)
    _submit(client, event, "Ren", ILLEGAL)
    signed = organiser_client(token)
    base = f"/events/{event.key}/judge"
    empty = _html(signed.get(base))
    assert empty.count("<option") >= 3
    several = _html(signed.get(base, {"hash": "aoi"}))
    assert "Several lists match; choose the player." in several
    none = _html(signed.get(base, {"hash": "Nobody"}))
    assert "No list matches Nobody." in none
    one = _html(signed.get(base, {"hash": "  REN "}))
    assert ILLEGAL_HASH in one and "Not legal · 4 errors" in one
    by_hash = _html(signed.get(base, {"hash": LEGAL_HASH.upper()}))
    assert "Shizuku Minase" in by_hash and "Aoi Tanaka" in by_hash
    same = _html(signed.post(base, {"hash": LEGAL_HASH, "presented": LEGAL}))
    assert "Same deck: the presented list is the registered one." in same
    differs = _html(signed.post(base, {"hash": "Ren", "presented": LEGAL}))
    assert "Different deck: see every difference below." in differs
    broken = _html(signed.post(base, {"hash": "Ren", "presented": "spells: [\n"}))
    assert "F002" in broken and "Same deck" not in broken and "Different deck" not in broken
    blank = _html(signed.post(base, {"hash": "Ren", "presented": "  "}))
    assert "Same deck" not in blank and "Different deck" not in blank


def test_judge_says_why_a_list_cannot_be_compared(client, make_event, organiser_client) -> None:
    event, token = make_event()
    _submit(client, event, "Ren", ILLEGAL)
    signed = organiser_client(token)
    broken = signed.post(f"/events/{event.key}/judge", {"hash": "Ren", "presented": "spells: [\n"})
    assert "The presented list cannot be compared; its problems:" in _html(broken)
