"""The pages' parts a visit shows but no other in-process test read: the confirmation page's
button, value, warning and Cancel link, the dashboard's links, roster counts, audit words and
withdrawn lists, the roster page's e-mails, a refused form's list, the figures of an unreadable
list, the page words and section names in Japanese, the saved banner in Japanese, the event's
name over a message page. Expected texts are the pages' words, written out here."""

from __future__ import annotations

import re
from typing import Any

from inprocess_data import ILLEGAL, LEGAL


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def test_the_publish_confirmation_page(make_event, organiser_client, service) -> None:
    event, token = make_event("Confirm Cup")
    signed = organiser_client(token)
    page = _html(signed.get(f"/events/{event.key}/publish"))
    assert '<button type="submit" name="action" value="publish">Publish the lists</button>' in page
    assert f'<a href="/events/{event.key}/dashboard?lang=en" id="cancel">Cancel</a>' in page
    assert "Submissions are still open: a list submitted or replaced from now on is public" in page
    service.set_locked(event, True)
    locked = _html(signed.get(f"/events/{event.key}/publish"))
    assert "Submissions are still open" not in locked


def test_the_dashboards_links_roster_counts_audit_and_withdrawn_lists(
    client, make_event, organiser_client, service
) -> None:
    event, token = make_event("Dashboard Cup")
    service.upload_roster(event, b"name,player_id,email\nAoi,P1,aoi@example.org\nRen,P2,\n")
    kept, _, _, _ = service.submit(event, "Kai", LEGAL)
    gone, _, _, _ = service.submit(event, "Mio", ILLEGAL)
    service.withdraw(gone)
    signed = organiser_client(token)
    page = _html(signed.get(f"/events/{event.key}/dashboard"))
    base = f"/events/{event.key}"
    assert f'<a class="button" href="{base}/lock" id="lock">Lock submissions</a>' in page
    assert f'<a class="button" href="{base}/roster" id="roster-page">' in page
    assert "2 missing · 0 legal · 0 illegal · 1 not on the roster" in page
    assert "<td>Roster uploaded</td>" in page and "<td>List withdrawn</td>" in page
    withdrawn = page[page.index('id="withdrawn"') :]
    at = service.withdrawn_times(event)[gone.pk]
    iso = service.local_time(event, at).isoformat()
    assert f'<a href="{base}/decklists/{gone.pk}">Mio</a></td><td><time datetime="{iso}">' in (
        withdrawn
    )
    assert f"{base}/decklists/{kept.pk}/withdraw" in page
    roster = _html(signed.get(f"{base}/roster"))
    assert "<td>aoi@example.org</td>" in roster


def test_the_roster_pages_are_the_organisers(client, make_event) -> None:
    event, _ = make_event()
    for path in ("roster", "roster.csv"):
        answer = client.get(f"/events/{event.key}/{path}")
        assert answer.status_code == 403, path
        assert "Sign in first" in _html(answer)


def test_a_list_posted_to_a_locked_event_is_shown_back(client, make_event, service) -> None:
    event, _ = make_event()
    service.set_locked(event, True)
    answer = client.post(f"/events/{event.key}/submit", {"player": "Kai", "deck": LEGAL})
    assert answer.status_code == 409
    html = _html(answer)
    assert "Tide Sprite: 3" in html  # in the text area, kept
    assert "Your list was not stored; it is kept below, so you can copy it." in html


def test_an_uploaded_list_posted_to_a_locked_event_is_shown_back(
    client, make_event, service
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    event, _ = make_event()
    decklist, _, token, _ = service.submit(event, "Kai", ILLEGAL)
    service.set_locked(event, True)
    upload = SimpleUploadedFile("deck.yaml", LEGAL.encode())
    answer = client.post(f"/events/{event.key}/submit", {"player": "Kai", "file": upload})
    assert answer.status_code == 409 and "Tide Sprite: 3" in _html(answer)  # the file's list
    replaced = client.post(f"/decklists/{decklist.pk}/{token}", {"deck": LEGAL})
    assert replaced.status_code == 409
    assert "Tide Sprite: 3" in _html(replaced) and "Scorch Shot: 4" not in _html(replaced)


def test_the_figures_of_an_unreadable_list(client, make_event, service) -> None:
    event, _ = make_event()
    decklist, _, token, _ = service.submit(event, "Kai", "spells: [\n")
    answer = client.get(f"/decklists/{decklist.pk}/{token}/report")
    assert answer.status_code == 422
    html = _html(answer)
    assert "<h1>No figures for this list</h1>" in html
    assert "The list cannot be read as a deck, so there are no figures. Fix the list first." in html


def test_a_japanese_page_has_japanese_words_sections_and_banner(client, make_event) -> None:
    event, _ = make_event()
    stored = client.post(
        f"/events/{event.key}/submit", {"player": "Kai", "deck": LEGAL, "lang": "ja"}
    )
    page = _html(client.get(stored["Location"]))
    assert '<label for="deck">デッキリスト</label>' in page
    assert "<h3>ポータルデッキ (8)</h3>" in page
    assert "リストを保存しました。" in page
    assert '<script src="/static/live-check.js" defer></script>' in page
    assert '<link rel="stylesheet" href="/static/serve.css">' in page


def test_the_judge_page_marks_a_legal_list(make_event, organiser_client, service) -> None:
    event, token = make_event()
    decklist, _, _, _ = service.submit(event, "Aoi", LEGAL)
    page = _html(organiser_client(token).get(f"/events/{event.key}/judge?entry={decklist.pk}"))
    assert re.search(r'<p class="verdict legal">Legal</p>', page)


def test_a_message_page_of_an_event_names_it(client, make_event, organiser_client) -> None:
    import json

    event, token = make_event("Restore Cup")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    url = f"/api/v1/events/{event.key}/decklists"
    body = json.dumps({"player": "Kai", "deck": LEGAL, "player_id": "P7"})
    old = client.post(url, body, content_type="application/json").json()
    client.delete(f"/api/v1/decklists/{old['id']}", **bearer)
    client.post(url, body, content_type="application/json")
    answer = organiser_client(token).post(f"/events/{event.key}/decklists/{old['id']}/restore")
    assert answer.status_code == 409
    html = _html(answer)
    assert '<span class="event-name">Restore Cup</span>' in html
    assert "<h1>The list was not restored</h1>" in html
    assert f'<a href="/events/{event.key}/dashboard?lang=en">Back</a>' in html


def test_the_roster_forms_problems(django_db) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from varz_deck.server.config import BODY_LIMIT
    from varz_deck.server.views.forms import RosterForm

    over = RosterForm({}, {"file": SimpleUploadedFile("r.csv", b"\n" * (BODY_LIMIT + 1))})
    assert not over.is_valid()
    assert over.problem == "The roster is over 1,048,576 bytes."


def _many_unknown(n: int) -> str:
    """The legal list with n unknown cards more (n problems more): up to 90 in its spells
    section, the rest in its portals section (each within 4 times its size)."""
    head, _, rest = LEGAL.partition("spells:\n")
    spells = "".join(f"  Nobody Knows {k}: 1\n" for k in range(min(n, 90)))
    portals = "".join(f"  Nowhere Gate {k}: 1\n" for k in range(n - min(n, 90)))
    return head + "spells:\n" + spells + rest + portals


def test_a_players_page_in_japanese(client, make_event, service) -> None:
    from varz_deck.server.models import Version

    event, _ = make_event()
    decklist, version, token, _ = service.submit(event, "Kai", _many_unknown(85))
    service.replace_deck(decklist, LEGAL, by_organiser=True)
    service.withdraw(decklist)
    page = _html(client.get(f"/decklists/{decklist.pk}/{token}?lang=ja"))
    assert "VARZ · 各デッキのフォーマット · 締め切りなし · リスト提出必須" in page
    assert '<p class="verdict legal" id="verdict">使用可能</p>' in page
    assert '<td class="illegal">使用不可</td>' in page  # the first version
    assert '<td class="legal">使用可能（主催者による）</td>' in page
    assert "このリストは主催者によって取り下げられました。" in page
    assert f'action="/decklists/{decklist.pk}/{token}"' in page
    assert f'href="/decklists/{decklist.pk}/{token}/report?lang=ja"' in page
    assert "more problems" not in page and "ほか" not in page  # nothing cut: no note
    service.restore(decklist)
    many, _, many_token, _ = service.submit(event, "Mio", _many_unknown(110))
    long_page = _html(client.get(f"/decklists/{many.pk}/{many_token}?lang=ja"))
    assert '<span class="sev">エラー</span>' in long_page
    assert re.search(r'<p class="more">ほか \d+ 件の問題（表示していません）</p>', long_page)
    Version.objects.filter(pk=many.current_id).update(changed_at=version.submitted_at)
    changed = _html(client.get(f"/decklists/{many.pk}/{many_token}?lang=ja"))
    assert "あなたのリストのエラーが " in changed and " に変わりました：" in changed
    assert "提出後にカードデータまたはイベントの日付が変わりました。" in changed


def test_the_judge_page_in_japanese(make_event, organiser_client, service) -> None:
    event, token = make_event()
    kept, _, _, _ = service.submit(event, "Aoi Tanaka", _many_unknown(110))
    signed = organiser_client(token)
    base = f"/events/{event.key}/judge"
    page = _html(signed.get(base, {"entry": str(kept.pk), "lang": "ja"}))
    assert "<h2>Aoi Tanaka</h2>" in page
    assert f'<option value="{kept.pk}" selected>Aoi Tanaka</option>' in page
    assert f'<input type="hidden" name="entry" value="{kept.pk}">' in page
    assert '<p class="verdict illegal">使用不可 · エラー' in page
    assert "<h3>ポータルデッキ (28)</h3>" in page  # 8 + 20 unknown portals
    assert re.search(r'<p class="more">ほか \d+ 件の問題（表示していません）</p>', page)
    same = _html(
        signed.post(f"{base}?lang=ja", {"entry": str(kept.pk), "presented": _many_unknown(110)})
    )
    assert "同じデッキです。提示されたリストは登録されたものと一致します。" in same
    broken = _html(
        signed.post(f"{base}?lang=ja", {"entry": str(kept.pk), "presented": "spells: [\n"})
    )
    assert "提示されたリストは比較できません。問題点：" in broken
    assert '<span class="sev">エラー</span>' in broken


def test_a_refusal_on_a_closed_or_claimed_form_in_japanese(client, make_event, service) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    event, _ = make_event()
    service.submit(event, "Kai", LEGAL, player_id="P7")
    upload = SimpleUploadedFile("deck.yaml", ILLEGAL.encode())
    taken = client.post(
        f"/events/{event.key}/submit?lang=ja", {"player": "Kai", "player_id": "P7", "file": upload}
    )
    assert taken.status_code == 409 and "Scorch Shot: 4" in _html(taken)  # the file's list
    service.set_locked(event, True)
    closed = _html(
        client.post(f"/events/{event.key}/submit?lang=ja", {"player": "Kai", "deck": LEGAL})
    )
    assert '<p class="notice error" id="closed">主催者が提出をロックしました。' in closed
    assert "リストは保存されていません。下に残してあるので、コピーして保管してください。" in closed


def test_the_roster_page_rows(make_event, organiser_client, service) -> None:
    event, token = make_event()
    early, _, _, _ = service.submit(event, "Mallory", ILLEGAL, player_id="P1")  # before the roster
    service.upload_roster(event, b"name,player_id\nAnn,P1\nBo,P2\n")
    entry = service.roster_entry_for_token(
        service.roster_rows(event)[0].link.removeprefix("http://testserver/p/")
    )
    service.submit_for_entry(entry, LEGAL)
    signed = organiser_client(token)
    page = _html(signed.get(f"/events/{event.key}/roster?lang=ja"))
    links = [row.link for row in service.roster_rows(event) if row.on_roster]
    shown = page.replace("<wbr>", "")  # a link may wrap after each of its slashes
    assert all(f'<td><code class="link">{link}</code></td>' in shown for link in links)
    assert "個人用リンクを使わずに P1 を名乗りました" in page
    mallory = page[page.index("<td>Mallory</td>") :]
    assert mallory.startswith(
        f'<td>Mallory</td><td><a href="/events/{event.key}/decklists/{early.pk}">'
    )
    assert "<td>個人用リンクを使わずに P1 を名乗りました</td><td></td><td>—</td></tr>" in mallory
    assert all(row.link is None for row in service.roster_rows(event, links=False))
