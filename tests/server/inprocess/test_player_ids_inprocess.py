"""A player id names one current list per event (docs/guides/organiser.md, "The roster"),
in-process: a rostered player's id is claimed only through their personal link or by the
organiser; a second list for an id is refused, pointing to the private link, in the player's
language; the personal link always shows and stores its own player's list; the database keeps
one current list per id (a partial unique index) and the loser of a race gets the existing list.
Expected texts are written out here by hand."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from inprocess_data import ILLEGAL, ILLEGAL_HASH, LEGAL, LEGAL_HASH

ROSTER = b"name,player_id\nAnn Lee,P1\nBo Chen,P2\n"
ROSTERED_EN = (
    "player id 'P1' is on this event's roster: submit your list through your personal link "
    "(the organiser sent it to you), or ask the organiser"
)
ROSTERED_JA = (
    "プレイヤー ID 「P1」 はこのイベントの名簿に載っています。主催者から届いた個人用リンクから"
    "リストを提出するか、主催者に問い合わせてください"
)
ROSTERED_ZH = "选手 ID 「P1」 在本活动的名单上：请通过主办方发给您的个人链接提交列表，或询问主办方"
TAKEN_EN = (
    "player id 'P7' already has a list in this event: open the private link you got when you "
    "submitted it to see or replace it, or ask the organiser"
)
TAKEN_JA = (
    "プレイヤー ID 「P7」 のリストはこのイベントに提出済みです。提出したときに受け取った"
    "あなた専用のリンクを開いて確認・差し替えをするか、主催者に問い合わせてください"
)
TAKEN_ZH = (
    "选手 ID 「P7」 在本活动中已有一份列表：请打开提交时获得的私人链接查看或替换它，或询问主办方"
)


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def _api_submit(client: Any, event: Any, **body: Any) -> Any:
    return client.post(
        f"/api/v1/events/{event.key}/decklists", json.dumps(body), content_type="application/json"
    )


def _bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def _rostered(service: Any, make_event: Any) -> tuple[Any, str, dict[str, str]]:
    """An event with Ann (P1) and Bo (P2) on its roster: (event, organiser token, links by id)."""
    event, token = make_event()
    service.upload_roster(event, ROSTER)
    links = {
        row.player_id: row.link.removeprefix("http://testserver")
        for row in service.roster_rows(event)
    }
    return event, token, links


def _roster(client: Any, event: Any, token: str) -> dict[str | None, dict[str, Any]]:
    rows = client.get(f"/api/v1/events/{event.key}/roster", **_bearer(token)).json()
    return {row["player_id"] if row["on_roster"] else f"off:{row['list']}": row for row in rows}


def _lists(client: Any, event: Any, token: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/events/{event.key}/decklists", **_bearer(token))
    assert answer.status_code == 200
    rows: list[dict[str, Any]] = answer.json()
    return rows


# --- row 1: a stranger cannot claim a rostered player's id ---------------------------------------


@pytest.mark.parametrize(
    ("lang", "expected"), [("en", ROSTERED_EN), ("ja", ROSTERED_JA), ("zh", ROSTERED_ZH)]
)
def test_a_stranger_naming_a_rostered_id_on_the_api_is_refused(
    client, make_event, service, lang, expected
) -> None:
    event, token, _ = _rostered(service, make_event)
    answer = _api_submit(client, event, player="Mallory", deck=ILLEGAL, player_id=" P1 ", lang=lang)
    assert answer.status_code == 409
    assert answer.json() == {"error": {"code": "player_id_rostered", "message": expected}}
    assert _lists(client, event, token) == []  # nothing stored
    assert _roster(client, event, token)["P1"]["status"] == "missing"


def test_a_stranger_naming_a_rostered_id_on_the_page_is_refused_and_keeps_the_list(
    client, make_event, service
) -> None:
    event, token, _ = _rostered(service, make_event)
    answer = client.post(
        f"/events/{event.key}/submit",
        {"player": "Mallory", "player_id": "P1", "deck": ILLEGAL, "lang": "ja"},
    )
    assert answer.status_code == 409
    html = _html(answer)
    assert ROSTERED_JA in html
    assert "Mallory" in html and 'value="P1"' in html  # the form as posted, to fix
    assert "Scorch Shot: 4" in html  # the list shown back, never lost
    assert " disabled" not in html  # the form is still open: another id may be given
    assert _lists(client, event, token) == []


def test_the_personal_link_shows_and_stores_its_own_players_list(
    client, make_event, service
) -> None:
    from django.test import Client

    event, token, links = _rostered(service, make_event)
    refused = _api_submit(client, event, player="Mallory", deck=ILLEGAL, player_id="P1")
    assert refused.status_code == 409
    ann = Client()
    page = ann.get(links["P1"])
    assert page.status_code == 200
    html = _html(page)
    assert "Submit your deck list" in html and 'value="Ann Lee"' in html
    assert ILLEGAL_HASH not in html
    first = ann.post(links["P1"], {"deck": LEGAL})
    assert first.status_code == 303 and first["Location"].startswith("/decklists/")
    number = int(first["Location"].split("/")[2])
    again = ann.post(links["P1"], {"deck": ILLEGAL})  # replaced through the same link
    assert again.status_code == 303 and again["Location"] == f"{links['P1']}?saved=1&lang=en"
    shown = _html(ann.get(links["P1"]))
    assert "Ann Lee" in shown and ILLEGAL_HASH in shown and "Mallory" not in shown
    rows = _lists(client, event, token)
    assert [(r["id"], r["player"], r["versions"], r["deck_hash"]) for r in rows] == [
        (number, "Ann Lee", 2, ILLEGAL_HASH)
    ]
    assert (_roster(client, event, token)["P1"]["list"], len(rows)) == (number, 1)


def test_a_list_claiming_an_id_before_the_roster_never_reaches_the_personal_link(
    client, make_event, service
) -> None:
    """An id that was on no roster when the stranger submitted: the list is matched by its id
    until the rostered player submits through the personal link, which then takes the id; the
    stranger's list stays theirs, flagged to the organiser, and never holds the player's."""
    from django.test import Client

    event, token = make_event()
    stranger = _api_submit(client, event, player="Mallory", deck=ILLEGAL, player_id="P1").json()
    service.upload_roster(event, ROSTER)
    link = service.roster_rows(event)[0].link.removeprefix("http://testserver")
    assert _roster(client, event, token)["P1"]["list"] == stranger["id"]  # matched by its id
    ann = Client()
    page = _html(ann.get(link))
    assert "Submit your deck list" in page and ILLEGAL_HASH not in page and "Mallory" not in page
    mine = ann.post(link, {"deck": LEGAL})
    assert mine.status_code == 303
    number = int(mine["Location"].split("/")[2])
    assert number != stranger["id"]
    roster = _roster(client, event, token)
    assert (roster["P1"]["list"], roster["P1"]["status"]) == (number, "legal")
    off = roster[f"off:{stranger['id']}"]
    assert (off["name"], off["player_id"], off["status"]) == ("Mallory", None, "illegal")
    assert (off["claimed_player_id"], roster["P1"]["claimed_player_id"]) == ("P1", None)
    theirs = client.get(
        f"/api/v1/decklists/{stranger['id']}", HTTP_X_EDIT_TOKEN=stranger["edit_token"]
    ).json()
    assert (theirs["deck_hash"], len(theirs["versions"])) == (ILLEGAL_HASH, 1)
    assert LEGAL_HASH in _html(ann.get(link))
    signed = Client()
    assert signed.get(f"/o/{token}").status_code == 302
    dashboard = _html(signed.get(f"/events/{event.key}/dashboard"))
    assert "claimed P1 without the personal link" in dashboard


def test_the_organiser_submits_for_a_rostered_player_and_the_link_shows_it(
    client, make_event, service, organiser_client
) -> None:
    from django.test import Client

    event, token, links = _rostered(service, make_event)
    signed = organiser_client(token)
    added = signed.post(
        f"/events/{event.key}/add", {"player": "Bo Chen", "player_id": "P2", "deck": ILLEGAL}
    )
    assert added.status_code == 303
    number = int(re.search(r"/decklists/(\d+)", added["Location"])[1])
    bo = Client()
    assert ILLEGAL_HASH in _html(bo.get(links["P2"]))
    assert bo.post(links["P2"], {"deck": LEGAL})["Location"] == f"{links['P2']}?saved=1&lang=en"
    rows = _lists(client, event, token)
    assert [(r["id"], r["versions"], r["deck_hash"]) for r in rows] == [(number, 2, LEGAL_HASH)]


# --- row 9: a second list for an id is refused, pointing to the private link ---------------------


@pytest.mark.parametrize(
    ("lang", "expected"), [("en", TAKEN_EN), ("ja", TAKEN_JA), ("zh", TAKEN_ZH)]
)
def test_a_second_list_for_an_id_on_the_api_is_refused(client, make_event, lang, expected) -> None:
    event, token = make_event()
    first = _api_submit(client, event, player="Kai", deck=ILLEGAL, player_id="P7")
    assert first.status_code == 201
    again = _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7", lang=lang)
    assert again.status_code == 409
    assert again.json() == {"error": {"code": "player_id_taken", "message": expected}}
    rows = _lists(client, event, token)
    assert [(r["id"], r["deck_hash"]) for r in rows] == [(first.json()["id"], ILLEGAL_HASH)]
    metagame = client.get(f"/api/v1/events/{event.key}/metagame", **_bearer(token)).json()
    assert sum(row["lists"] for row in metagame) == 1
    # the private link replaces it, as before
    body = first.json()
    replaced = client.put(
        f"/api/v1/decklists/{body['id']}",
        json.dumps({"deck": LEGAL}),
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=body["edit_token"],
    )
    assert replaced.status_code == 200 and replaced.json()["version"] == 2


def test_a_second_list_for_an_id_on_the_page_is_refused_in_the_pages_language(
    client, make_event
) -> None:
    event, token = make_event()
    first = client.post(
        f"/events/{event.key}/submit", {"player": "Kai", "player_id": "P7", "deck": ILLEGAL}
    )
    assert first.status_code == 303
    again = client.post(
        f"/events/{event.key}/submit?lang=zh", {"player": "Kai", "player_id": "P7", "deck": LEGAL}
    )
    assert again.status_code == 409
    html = _html(again)
    assert TAKEN_ZH in html and "Blue Minase" not in html
    assert "Tide Sprite" in html  # the list shown back in the text area
    assert len(_lists(client, event, token)) == 1


def test_ids_are_per_event_and_a_list_without_an_id_is_never_refused(client, make_event) -> None:
    event, _ = make_event()
    other, _ = make_event()
    assert _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7").status_code == 201
    assert _api_submit(client, other, player="Kai", deck=LEGAL, player_id="P7").status_code == 201
    for _ in range(2):
        assert _api_submit(client, event, player="Kai", deck=LEGAL).status_code == 201
        assert (
            _api_submit(client, event, player="Kai", deck=LEGAL, player_id=" ").status_code == 201
        )


def test_the_organiser_submitting_for_a_taken_id_replaces_its_list(
    client, make_event, organiser_client
) -> None:
    event, token = make_event()
    first = _api_submit(client, event, player="Kai", deck=ILLEGAL, player_id="P7").json()
    signed = organiser_client(token)
    added = signed.post(
        f"/events/{event.key}/add", {"player": "Kai S.", "player_id": "P7", "deck": LEGAL}
    )
    assert added.status_code == 303
    assert added["Location"] == f"/events/{event.key}/decklists/{first['id']}?saved=1&lang=en"
    page = _html(signed.get(added["Location"]))
    assert "Your private link" not in page  # no new link: the player keeps theirs
    rows = _lists(client, event, token)
    assert [(r["id"], r["player"], r["versions"], r["deck_hash"]) for r in rows] == [
        (first["id"], "Kai", 2, LEGAL_HASH)
    ]
    log = client.get(f"/api/v1/events/{event.key}/audit", **_bearer(token)).json()
    assert [(e["action"], e["decklist"], e["detail"]) for e in log] == [
        ("replace", first["id"], "version 2")
    ]


def test_a_withdrawn_list_frees_its_id_and_cannot_be_restored_over_a_new_one(
    client, make_event
) -> None:
    event, token = make_event()
    old = _api_submit(client, event, player="Kai", deck=ILLEGAL, player_id="P7").json()
    gone = client.delete(f"/api/v1/decklists/{old['id']}", **_bearer(token))
    assert gone.status_code == 200
    new = _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7")
    assert new.status_code == 201
    back = client.post(f"/api/v1/decklists/{old['id']}/restore", **_bearer(token))
    assert back.status_code == 409
    assert back.json()["error"] == {
        "code": "player_id_taken",
        "message": "player id 'P7' has another list in this event now: withdraw that list "
        "first, then restore this one",
    }
    rows = {r["id"]: r["withdrawn"] for r in _lists(client, event, token)}
    assert rows == {old["id"]: True, new.json()["id"]: False}
    log = client.get(f"/api/v1/events/{event.key}/audit", **_bearer(token)).json()
    assert [(e["action"], e["decklist"]) for e in log] == [("withdraw", old["id"])]  # no restore


def test_the_restore_page_says_why_it_cannot_restore(client, make_event, organiser_client) -> None:
    event, token = make_event()
    old = _api_submit(client, event, player="Kai", deck=ILLEGAL, player_id="P7").json()
    client.delete(f"/api/v1/decklists/{old['id']}", **_bearer(token))
    _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7")
    signed = organiser_client(token)
    answer = signed.post(f"/events/{event.key}/decklists/{old['id']}/restore?lang=ja")
    assert answer.status_code == 409
    html = _html(answer)
    assert (
        "プレイヤー ID 「P7」 には現在このイベントの別のリストがあります。先にそのリストを取り下げてから、"
        "このリストを元に戻してください"
    ) in html


# --- row 8: one current list per id, held by the database -----------------------------------------


def test_the_database_holds_one_current_list_per_player_id(make_event, service) -> None:
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    from varz_deck.server.models import Decklist

    event, _ = make_event()
    Decklist.objects.create(event=event, player="A", player_id="P1", edit_token_hash="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        Decklist.objects.create(event=event, player="B", player_id="P1", edit_token_hash="b")
    # a withdrawn list and a list without an id hold no id
    Decklist.objects.create(
        event=event, player="C", player_id="P1", edit_token_hash="c", withdrawn_at=timezone.now()
    )
    Decklist.objects.create(event=event, player="D", player_id="", edit_token_hash="d")
    Decklist.objects.create(event=event, player="E", player_id="", edit_token_hash="e")


def test_the_loser_of_a_race_on_the_personal_link_gets_the_existing_list(
    client, make_event, service, monkeypatch
) -> None:
    """Two posts at the same moment both found no list: the second insert breaks the unique
    index, and its list becomes a new version of the one the first stored (no second list)."""
    event, token, links = _rostered(service, make_event)
    first, _, edit_token, _ = service.submit_for_entry(
        service.roster_entry_for_token(links["P1"][3:]), ILLEGAL
    )
    assert edit_token
    real = service._holder
    missed: list[int] = []

    def stale(*args: Any) -> Any:  # what the second post saw before the first one committed
        if not missed:
            missed.append(1)
            return None
        return real(*args)

    monkeypatch.setattr("varz_deck.server.services.lists._holder", stale)
    answer = client.post(links["P1"], {"deck": LEGAL})
    assert answer.status_code == 303 and answer["Location"] == f"{links['P1']}?saved=1&lang=en"
    assert missed == [1]
    rows = _lists(client, event, token)
    assert [(r["id"], r["versions"], r["deck_hash"]) for r in rows] == [(first.pk, 2, LEGAL_HASH)]


def test_the_loser_of_a_race_on_the_public_page_is_refused(
    client, make_event, service, monkeypatch
) -> None:
    event, token = make_event()
    assert _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7").status_code == 201
    monkeypatch.setattr("varz_deck.server.services.lists._holder", lambda *args: None)
    again = _api_submit(client, event, player="Kai", deck=LEGAL, player_id="P7")
    assert again.status_code == 409 and again.json()["error"]["code"] == "player_id_taken"
    assert len(_lists(client, event, token)) == 1


def test_the_loser_of_a_race_for_the_organiser_replaces_the_list(
    client, make_event, service, monkeypatch
) -> None:
    event, _ = make_event()
    first = _api_submit(client, event, player="Kai", deck=ILLEGAL, player_id="P7").json()
    real = service._holder
    calls: list[int] = []

    def stale(*args: Any) -> Any:
        calls.append(1)
        return None if len(calls) == 1 else real(*args)

    monkeypatch.setattr("varz_deck.server.services.lists._holder", stale)
    decklist, version, token_given, _ = service.submit(
        event, "Kai", LEGAL, by_organiser=True, player_id="P7"
    )
    assert (decklist.pk, version.number, token_given, len(calls)) == (first["id"], 2, "", 2)


def test_a_withdrawn_list_is_no_longer_the_personal_links(
    client, make_event, service, organiser_client
) -> None:
    from django.test import Client

    event, token, links = _rostered(service, make_event)
    ann = Client()
    first = int(ann.post(links["P1"], {"deck": ILLEGAL})["Location"].split("/")[2])
    assert client.delete(f"/api/v1/decklists/{first}", **_bearer(token)).status_code == 200
    page = _html(ann.get(links["P1"]))
    assert "Submit your deck list" in page and ILLEGAL_HASH not in page
    again = ann.post(links["P1"], {"deck": LEGAL})
    assert again.status_code == 303 and again["Location"].startswith("/decklists/")
    second = int(again["Location"].split("/")[2])
    assert second != first
    assert _roster(client, event, token)["P1"]["list"] == second


def test_the_personal_link_keeps_a_nul_storable_and_is_closed_first(
    client, make_event, service
) -> None:
    event, token, links = _rostered(service, make_event)
    sent = client.post(links["P2"], {"deck": LEGAL + "# a NUL: \x00\n"})
    assert sent.status_code == 303
    number = int(sent["Location"].split("/")[2])
    stored = client.get(f"/api/v1/decklists/{number}", **_bearer(token)).json()
    assert stored["deck"].endswith("# a NUL: \ufffd\n")
    service.set_locked(event, True)
    over = LEGAL + "".join(f"  Extra Portal {k}: 1\n" for k in range(25))  # also far too large
    late = client.post(links["P1"], {"deck": over})
    assert late.status_code == 409  # closed, said before its size
    assert "The organiser has locked submissions" in _html(late)
    api = _api_submit(client, event, player="Kai", deck=over)
    assert api.status_code == 409 and api.json()["error"]["code"] == "locked"


def test_each_personal_link_shows_only_its_own_players_list(client, make_event, service) -> None:
    _, _, links = _rostered(service, make_event)
    assert client.post(links["P1"], {"deck": ILLEGAL}).status_code == 303  # Ann's list
    bo = _html(client.get(links["P2"]))
    assert "Submit your deck list" in bo and ILLEGAL_HASH not in bo and "Ann Lee" not in bo


def test_withdraw_and_restore_are_logged_once_each(make_event, service) -> None:
    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Kai", LEGAL, player_id="P7")
    first = service.withdraw(decklist).withdrawn_at
    assert service.withdraw(decklist).withdrawn_at == first  # again: kept as it was
    service.restore(decklist)
    service.restore(decklist)
    assert [(e.action, e.decklist_id) for e in service.audit_log(event)] == [
        ("withdraw", decklist.pk),
        ("restore", decklist.pk),
    ]


def test_a_list_withdrawn_since_it_was_read_is_not_replaced(make_event, service) -> None:
    from varz_deck.server.models import Decklist

    event, _ = make_event()
    decklist, _, _, _ = service.submit(event, "Kai", LEGAL)
    stale = Decklist.objects.select_related("event").get(pk=decklist.pk)  # read before
    service.withdraw(decklist)
    with pytest.raises(service.Closed) as refused:
        service.replace_deck(stale, ILLEGAL)
    assert refused.value.code == "withdrawn"
    assert len(service.versions(decklist)) == 1
