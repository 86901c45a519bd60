"""The organiser's confirmation pages, the closed submission forms and the pages' texts (SPEC §9
"The organiser's whole day", issue 26 points 5 and 10), over real HTTP with no script, on SQLite
and on PostgreSQL.

- Lock, publish, unpublish and withdraw: the dashboard leads to a confirmation page (a GET, which
  changes nothing) whose form (with its CSRF token) does the action; unlock and restore are one
  click. Publishing an open event warns on its confirmation page.
- After the lock, the deadline or a withdrawal, the forms are disabled with the reason; a list
  posted anyway (a stale page) is refused and shown back in the text area, never lost.
- The organiser's form for a player asks for the player's name; F010 on the web names the two
  games and no command-line option; a list stored but not legal is not greeted in green.
"""

from __future__ import annotations

import datetime
import html
import re
import time
from typing import Any

from harness import ROOT
from test_pages import CSRF_FIELD, csrf, parse, signed_in, text_of

EXAMPLES = ROOT / "examples"
KAGURA = (EXAMPLES / "red-kagura-festival.yaml").read_text(encoding="utf-8")
MINASE = (EXAMPLES / "blue-minase-tide.yaml").read_text(encoding="utf-8")
ILLEGAL = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")  # 4 errors
OTHER_GAME = (EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml").read_text(encoding="utf-8")


def _api(server: Any, event: dict[str, Any], tail: str = "") -> Any:
    path = f"/api/v1/events/{event['event']}{tail}"
    answer = server.get(path, headers=event["headers"])
    assert answer.status == 200, answer
    return answer.json()


def _audit(server: Any, event: dict[str, Any]) -> list[str]:
    return [entry["action"] for entry in _api(server, event, "/audit")]


def _confirm_form(page: Any, action: str) -> dict[str, Any]:
    """The one form of a confirmation page: it posts to `action` with a CSRF token."""
    forms = [f for f in parse(page.text).forms if f["method"] == "post"]
    assert len(forms) == 1, page.text
    names = [f.get("name") for f in forms[0]["fields"]]
    assert CSRF_FIELD in names
    assert f'action="{action}"' in page.text
    return forms[0]


def test_each_confirmation_page_changes_nothing_and_its_post_acts(server, make_event):
    event = make_event("Ōsaka Open")
    key = event["event"]
    junk = server.post(
        f"/api/v1/events/{key}/decklists", json={"player": "Junk Entry", "deck": ILLEGAL}
    ).json()
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{key}/dashboard")
    base = f"/events/{key}"
    withdraw = f"{base}/decklists/{junk['id']}/withdraw"
    for target in (f"{base}/lock", f"{base}/publish", withdraw):  # links, not forms that act
        assert f'href="{target}' in dashboard.text, target
    assert f'action="{base}/lock"' not in dashboard.text
    assert f'action="{base}/publish"' not in dashboard.text

    # every confirmation page, asked for (twice), changes nothing
    pages = {}
    for name, path in (("lock", f"{base}/lock"), ("publish", f"{base}/publish"), ("w", withdraw)):
        for _ in range(2):
            pages[name] = organiser.get(path)
            assert pages[name].status == 200, (path, pages[name])
        _confirm_form(pages[name], path)
        assert f'href="{base}/dashboard' in pages[name].text  # Cancel
    assert "Publish every list of Ōsaka Open? Everyone with the link will see them." in text_of(
        pages["publish"]
    )
    assert "Submissions are still open" in text_of(pages["publish"])  # the warning
    assert "Lock submissions of Ōsaka Open?" in text_of(pages["lock"])
    assert "Withdraw the list of Junk Entry?" in text_of(pages["w"])
    state = _api(server, event)
    assert state["locked"] is False and state["published"] is False
    assert [r["withdrawn"] for r in _api(server, event, "/decklists")] == [False]
    assert _audit(server, event) == []

    # a POST without the CSRF token is refused; with it, it acts
    for path in (f"{base}/lock", withdraw, f"{base}/publish"):
        assert organiser.post(path, form={}).status == 403, path
    assert _audit(server, event) == []
    token = csrf(pages["lock"])
    locked = organiser.post(f"{base}/lock", form={CSRF_FIELD: token})
    assert locked.status == 303 and "done=locked" in locked.header("Location")
    assert _api(server, event)["locked"] is True
    # once locked, the publish page no longer warns
    assert "Submissions are still open" not in text_of(organiser.get(f"{base}/publish"))

    gone = organiser.post(withdraw, form={CSRF_FIELD: token})
    assert gone.status == 303
    assert [r["withdrawn"] for r in _api(server, event, "/decklists")] == [True]
    assert "Junk Entry" not in organiser.get(f"{base}/judge").text  # out of the judge's look-up
    after = organiser.get(gone.header("Location"))
    restore = f"{base}/decklists/{junk['id']}/restore"
    assert "Junk Entry" in text_of(after) and f'action="{restore}"' in after.text  # one click
    assert organiser.post(restore, form={}).status == 403
    assert organiser.post(restore, form={CSRF_FIELD: token}).status == 303
    assert [r["withdrawn"] for r in _api(server, event, "/decklists")] == [False]

    assert organiser.post(f"{base}/publish", form={CSRF_FIELD: token}).status == 303
    assert server.get(f"{base}/public").status == 200
    dashboard = organiser.get(f"{base}/dashboard")
    assert f'href="{base}/unpublish' in dashboard.text
    confirm = organiser.get(f"{base}/unpublish")
    assert confirm.status == 200 and "Unpublish the lists of Ōsaka Open?" in text_of(confirm)
    _confirm_form(confirm, f"{base}/unpublish")
    assert server.get(f"{base}/public").status == 200  # the GET changed nothing
    assert organiser.post(f"{base}/unpublish", form={}).status == 403
    assert organiser.post(f"{base}/unpublish", form={CSRF_FIELD: token}).status == 303
    assert server.get(f"{base}/public").status == 404
    assert _audit(server, event) == ["lock", "withdraw", "restore", "publish", "unpublish"]
    # in Japanese too
    japanese = organiser.get(f"{base}/publish?lang=ja")
    assert "Ōsaka Open のすべてのリストを公開しますか？" in text_of(japanese)


def _fields(page: Any) -> dict[str, dict[str, Any]]:
    """The submission form's fields by name (the button as "button")."""
    forms = [f for f in parse(page.text).forms if f["method"] == "post"]
    assert forms, page.text
    found = {}
    for field in forms[-1]["fields"]:
        name = field.get("name") or ("button" if field.get("type") == "submit" else None)
        if name and name != CSRF_FIELD:
            found[name] = field
    return found


def test_the_closed_submission_form_is_disabled_and_a_posted_list_is_kept(server, make_event):
    event = make_event("Lock Day")
    player = server.client()
    open_page = player.get(event["submit_url"])
    assert not any("disabled" in f for f in _fields(open_page).values())
    assert server.post(f"/api/v1/events/{event['event']}/lock", headers=event["headers"]).status
    # a stale page posts anyway: refused, the list and the name shown back with the reason
    refused = player.post(
        event["submit_url"],
        form={"player": "Late Larry", "deck": MINASE, CSRF_FIELD: csrf(open_page)},
    )
    assert refused.status == 409
    assert "The organiser has locked submissions" in text_of(refused)
    shown = re.search(r"<textarea[^>]*>(.*?)</textarea>", refused.text, re.S)
    assert shown and html.unescape(shown.group(1)).strip() == MINASE.strip()
    assert 'value="Late Larry"' in refused.text
    assert "disabled" in _fields(refused)["button"]
    closed = player.get(event["submit_url"])
    fields = _fields(closed)
    assert all("disabled" in fields[n] for n in ("player", "deck", "file", "button")), fields
    assert "The organiser has locked submissions" in text_of(closed)
    assert _api(server, event, "/decklists") == []

    # a deadline already past is refused at creation: one that passes in a few seconds
    soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=4)
    late = make_event("Late Day", deadline=soon.isoformat(), extra_args=["--timezone", "UTC"])
    time.sleep(max(0.0, (soon - datetime.datetime.now(datetime.timezone.utc)).total_seconds()))
    closed = server.get(late["submit_url"])
    assert f"Submissions closed at {soon:%Y-%m-%d %H:%M} (UTC+00:00, UTC)" in text_of(closed)
    assert "disabled" in _fields(closed)["button"]


def test_the_closed_replace_form_is_disabled_and_a_posted_list_is_kept(server, make_event):
    event = make_event("Replace Day")
    key, headers = event["event"], event["headers"]
    stored = server.post(
        f"/api/v1/events/{key}/decklists", json={"player": "Ann", "deck": KAGURA}
    ).json()
    private = stored["private_url"]
    player = server.client()
    open_page = player.get(private)
    assert "disabled" not in _fields(open_page)["button"]
    assert server.post(f"/api/v1/events/{key}/lock", headers=headers).status == 200
    closed = player.get(private)
    assert "disabled" in _fields(closed)["button"]
    assert "The organiser has locked submissions" in text_of(closed)
    refused = player.post(private, form={"deck": MINASE, CSRF_FIELD: csrf(open_page)})
    assert refused.status == 409
    shown = re.search(r'<textarea[^>]*id="deck"[^>]*>(.*?)</textarea>', refused.text, re.S)
    assert shown and html.unescape(shown.group(1)).strip() == MINASE.strip()
    assert "The organiser has locked submissions" in text_of(refused)
    # withdrawn by the organiser (the event open again): said on the page; a post is kept too
    assert server.post(f"/api/v1/events/{key}/unlock", headers=headers).status == 200
    assert server.request("DELETE", f"/api/v1/decklists/{stored['id']}", headers=headers).status
    withdrawn = player.get(private)
    assert "This list was withdrawn by the organiser." in text_of(withdrawn)
    assert "disabled" in _fields(withdrawn)["button"]
    refused = player.post(private, form={"deck": MINASE, CSRF_FIELD: csrf(open_page)})
    assert refused.status == 409 and "withdrawn by the organiser" in text_of(refused)
    shown = re.search(r'<textarea[^>]*id="deck"[^>]*>(.*?)</textarea>', refused.text, re.S)
    assert shown and html.unescape(shown.group(1)).strip() == MINASE.strip()
    versions = server.get(f"/api/v1/decklists/{stored['id']}", headers=headers).json()["versions"]
    assert len(versions) == 1


def test_the_organisers_form_asks_for_the_players_name(server, make_event):
    event = make_event("Label Cup")
    organiser = signed_in(server, event)
    add = organiser.get(f"/events/{event['event']}/add")
    label = re.search(r'<label for="player">([^<]*)</label>', add.text)
    assert label and label.group(1) == "Player&#x27;s name", add.text
    own = server.get(event["submit_url"])
    label = re.search(r'<label for="player">([^<]*)</label>', own.text)
    assert label and label.group(1) == "Your name"


def test_f010_on_the_web_names_both_games_and_no_option(server, make_event):
    event = make_event("Wrong Game Cup")
    answer = server.post(
        f"/api/v1/events/{event['event']}/decklists",
        json={"player": "Mixed", "deck": OTHER_GAME, "lang": "ja"},
    ).json()
    assert [(d["code"], d["message"]) for d in answer["diagnostics"]] == [
        ("F010", "this list is for Azuki TCG; this event is for VARZ")
    ]
    assert "--" not in answer["diagnostics"][0]["message_localized"]
    player = server.client()
    form_page = player.get(event["submit_url"])
    stored = player.post(
        event["submit_url"],
        form={"player": "Mixed Page", "deck": OTHER_GAME, CSRF_FIELD: csrf(form_page)},
    )
    result = text_of(player.get(stored.header("Location")))
    assert "this list is for Azuki TCG; this event is for VARZ" in result
    assert "--game" not in result and "--cards" not in result


def test_the_stored_banner_says_whether_the_list_is_legal(server, make_event):
    event = make_event("Banner Cup")
    player = server.client()
    banners = {}
    for name, deck in (("Good", KAGURA), ("Bad", ILLEGAL)):
        form_page = player.get(event["submit_url"])
        stored = player.post(
            event["submit_url"], form={"player": name, "deck": deck, CSRF_FIELD: csrf(form_page)}
        )
        assert stored.status == 303
        result = player.get(stored.header("Location"))
        banners[name] = re.search(r'<p class="notice (\w+)" role="status">([^<]*)</p>', result.text)
    assert banners["Good"] and banners["Good"].groups() == ("ok", "Your list is stored.")
    assert banners["Bad"] and banners["Bad"].groups() == (
        "error",
        "Your list is stored, but it is not legal: 4 errors.",
    )
