"""The roster in-process: the CSV reader line by line, the upload through the API, the roster's
statuses, the mail merge's links and a player's personal link. Expected values written out here."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from inprocess_data import ILLEGAL, LEGAL


@pytest.fixture
def roster(django_db: Any) -> Any:
    from varz_deck.server import roster

    return roster


def _problems(roster: Any, data: bytes) -> list[tuple[int, str]]:
    with pytest.raises(roster.RosterError) as refused:
        roster.read_roster(data)
    return [(p.line, p.message.render("en")) for p in refused.value.problems]


def test_read_a_roster(roster) -> None:
    data = '\ufeffPlayer ID , NAME, Email \r\n\r\nP1,  Aoi   Tanaka ,aoi@example.org\r\n"P 2","Ren, Jr", \n'.encode()
    players = roster.read_roster(data)
    assert [(p.line, p.name, p.player_id, p.email) for p in players] == [
        (3, "Aoi Tanaka", "P1", "aoi@example.org"),
        (4, "Ren, Jr", "P 2", ""),
    ]


def test_a_quoted_field_over_two_lines_counts_its_lines(roster) -> None:
    players = roster.read_roster(b'name,player_id\n"A\nB",1\nC,2\n')
    assert [(p.line, p.name) for p in players] == [(2, "A B"), (4, "C")]


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        (
            b"",
            [(0, "the roster is empty: its first line is the header name,player_id (and email)")],
        ),
        (
            b" \n\n",
            [(0, "the roster is empty: its first line is the header name,player_id (and email)")],
        ),
        (b"name,player_id\n\xff\n", [(2, "line 2 is not UTF-8 text: save the file as CSV UTF-8")]),
        (
            b"name,player_id\nA,1\nB\x00,2\n",
            [(3, "line 3 holds a NUL character: this is no CSV text; export the roster as CSV")],
        ),
        (
            b"name,player_id,age\n",
            [(1, "line 1: unknown column 'age'; the columns are name, player_id and email")],
        ),
        (b"name,name,player_id\n", [(1, "line 1: the column 'name' is named twice; name it once")]),
        (
            b"name\n",
            [
                (
                    1,
                    "line 1: the header has no player_id column; the columns are name, player_id and email",
                )
            ],
        ),
        (
            b"player_id\n",
            [
                (
                    1,
                    "line 1: the header has no name column; the columns are name, player_id and email",
                )
            ],
        ),
    ],
)
def test_roster_refusals(roster, data, problems) -> None:
    assert _problems(roster, data) == problems


def test_a_header_alone_is_an_empty_roster(roster) -> None:
    assert roster.read_roster(b"name,player_id\n") == []


def test_every_wrong_line_is_named(roster) -> None:
    data = (
        "name,player_id,email\n"
        "A,1,a@example.org\n"
        ",2,\n"
        f"{'n' * 201},3,\n"
        "D,,\n"
        f"E,{'i' * 65},\n"
        "F,x\u202ey,\n"
        "G,1,\n"
        "H,8,not-an-email\n"
        "I,9,x,extra\n"
        f"{'n' * 200},10,\n"
        f"J,{'i' * 64},\n"
    ).encode()
    assert _problems(roster, data) == [
        (3, "line 3: the name is empty; give each player a name"),
        (4, "line 4: the name is over 200 characters; shorten it"),
        (5, "line 5: the player id is empty; give each player an id"),
        (6, "line 6: the player id is over 64 characters; shorten it"),
        (7, "line 7: the player id holds a control character; type it again"),
        (8, "line 8: player id '1' is already on line 2; give each player one line"),
        (9, "line 9: 'not-an-email' is not an email address; correct it or leave the field empty"),
        (
            10,
            "line 10 has 4 fields but the header has 3: put a name that holds a comma in double quotes",
        ),
        (10, "line 10: 'x' is not an email address; correct it or leave the field empty"),
    ]


def test_an_unclosed_quote(roster) -> None:
    assert _problems(roster, b'name,player_id\nA,1\n"B,2\nC,3\n') == [
        (
            3,
            "line 3 cannot be read as CSV: a quote is not closed; put a field that holds a comma or a quote in double quotes, doubling its quotes",
        )
    ]


def test_at_most_20_problems(roster) -> None:
    data = ("name,player_id\n" + ",x\n" * 30).encode()
    found = _problems(roster, data)
    assert len(found) == 20 and found[0][0] == 2 and found[-1][0] == 21


def test_at_most_the_row_limit(roster, monkeypatch) -> None:
    monkeypatch.setattr(roster, "ROW_LIMIT", 2)
    assert len(roster.read_roster(b"name,player_id\nA,1\nB,2\n")) == 2
    assert _problems(roster, b"name,player_id\nA,1\nB,2\nC,3\n") == [
        (4, "line 4: the roster has more than 2 players; upload at most 2")
    ]


def test_an_email_over_254_characters(roster) -> None:
    ok = "a@" + "b" * 60 + ".org"
    assert roster._email_ok(ok)
    assert not roster._email_ok("a@b")
    too_long = "a" * 60 + "@" + ".".join(["b" * 60] * 4) + ".org"
    assert len(too_long) > 254 and not roster._email_ok(too_long)


def test_id_problem_and_words(roster) -> None:
    assert roster.id_problem("i" * 64) is None
    assert roster.id_problem("i" * 65) == "long"
    assert roster.id_problem("a\x1bb") == "control"
    assert roster.words("  a \t b\n") == "a b"


def test_links_csv_is_formula_safe(roster) -> None:
    text = roster.links_csv(
        [("=A", "-1", "+x@example.org", "http://h/p/t"), ("B\x1b", "2", "", "")]
    )
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "player_id", "email", "link"],
        ["'=A", "'-1", "'+x@example.org", "http://h/p/t"],
        [roster.csv_cell("B\x1b"), "2", "", ""],
    ]
    assert "\x1b" not in text and text.endswith("\n") and "\r" not in text
    assert roster.csv_cell("@sum") == "'@sum"


# --- through the server ----------------------------------------------------------------------


def _upload(client: Any, event: Any, token: str, text: str, kind: str = "text/csv") -> Any:
    return client.post(
        f"/api/v1/events/{event.key}/roster",
        text.encode("utf-8"),
        content_type=kind,
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_upload_and_the_rosters_statuses(client, make_event) -> None:
    from varz_deck.server import service
    from varz_deck.server.models import RosterEntry

    event, token = make_event()
    first = _upload(
        client, event, token, "name,player_id,email\nAoi,P1,aoi@example.org\nRen,P2,\nMio,P3,\n"
    )
    assert first.status_code == 200
    assert first.json() == {"players": 3, "new": 3, "updated": 0, "not_in_file": 0}
    again = _upload(
        client, event, token, "name,player_id,email\nAoi Tanaka,P1,aoi@example.org\nRen,P2,\n"
    )
    assert again.json() == {"players": 2, "new": 0, "updated": 1, "not_in_file": 1}
    service.submit(event, "Aoi Tanaka", LEGAL, player_id="P1", by_organiser=True)
    ren = next(e for e in RosterEntry.objects.filter(event=event) if e.player_id == "P2")
    newest, _, _, _ = service.submit_for_entry(ren, LEGAL)
    again, version, token_again, _ = service.submit_for_entry(ren, ILLEGAL)  # the same list
    assert (again.pk, version.number, token_again) == (newest.pk, 2, "")
    stranger, _, _, _ = service.submit(event, "Kai", LEGAL)
    rows = client.get(
        f"/api/v1/events/{event.key}/roster", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert [(r["name"], r["player_id"], r["email"], r["status"], r["on_roster"]) for r in rows] == [
        ("Aoi Tanaka", "P1", "aoi@example.org", "legal", True),
        ("Ren", "P2", None, "illegal", True),
        ("Mio", "P3", None, "missing", True),
        ("Kai", None, None, "legal", False),
    ]
    assert (
        rows[1]["list"] == newest.pk and rows[2]["list"] is None and rows[3]["list"] == stranger.pk
    )
    assert rows[2]["submitted_at"] is None and rows[1]["submitted_at"].endswith("+00:00")
    assert rows[0]["link"].startswith("http://testserver/p/") and rows[3]["link"] is None
    log = client.get(
        f"/api/v1/events/{event.key}/audit", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert [e["action"] for e in log] == ["roster", "roster", "submit"]
    links = client.get(
        f"/api/v1/events/{event.key}/roster.csv", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert links.status_code == 200
    table = list(csv.reader(io.StringIO(links.content.decode())))
    assert table[0] == ["name", "player_id", "email", "link"]
    assert [row[:3] for row in table[1:]] == [
        ["Aoi Tanaka", "P1", "aoi@example.org"],
        ["Ren", "P2", ""],
        ["Mio", "P3", ""],
    ]
    assert table[1][3] == rows[0]["link"]


def test_a_wrong_roster_is_422_with_every_line(client, make_event) -> None:
    event, token = make_event()
    answer = _upload(client, event, token, "name,player_id\n,1\nB,\n")
    assert answer.status_code == 422
    body = answer.json()["error"]
    assert body["problems"] == [
        {"line": 2, "message": "line 2: the name is empty; give each player a name"},
        {"line": 3, "message": "line 3: the player id is empty; give each player an id"},
    ]
    assert _upload(client, event, token, "name,player_id\nA,1\n", "text/plain").status_code == 415
    assert (
        client.get(
            f"/api/v1/events/{event.key}/roster", HTTP_AUTHORIZATION=f"Bearer {token}"
        ).json()
        == []
    )


def test_a_personal_link(client, make_event) -> None:
    from varz_deck.server import service

    event, token = make_event()
    _upload(client, event, token, "name,player_id\nAoi Tanaka,P1\n")
    [row] = service.roster_rows(event)
    path = row.link.removeprefix("http://testserver")
    page = client.get(path)
    assert page.status_code == 200 and "Aoi Tanaka" in page.content.decode()
    sent = client.post(path, {"deck": ILLEGAL})
    assert sent.status_code == 303 and sent["Location"].startswith("/decklists/")
    again = client.post(path, {"deck": LEGAL})
    assert again.status_code == 303 and again["Location"] == f"{path}?saved=1&lang=en"
    [row] = service.roster_rows(event)
    assert row.status == "legal" and row.player_id == "P1"
    assert len(service.versions(service.entry_list(service.roster_entry_for_token(path[3:])))) == 2
    assert client.get("/p/not-a-token").status_code == 404
    assert service.roster_entry_for_token("") is None
    assert service.roster_entry_for_token("x" * 201) is None


def test_the_refusal_counts_the_other_problems(client, make_event) -> None:
    event, token = make_event()
    one = _upload(client, event, token, "name,player_id\n,1\n").json()["error"]
    two = _upload(client, event, token, "name,player_id\n,1\n,2\n").json()["error"]
    three = _upload(client, event, token, "name,player_id\n,1\n,2\n,3\n").json()["error"]
    assert one["code"] == two["code"] == "invalid_roster"
    assert "1 more" in two["message"] and "2 more" in three["message"]
    assert "more" not in one["message"]


def test_a_short_row_lacks_its_id(roster) -> None:
    assert _problems(roster, b"name,player_id\nAoi\n") == [
        (2, "line 2: the player id is empty; give each player an id")
    ]
    with pytest.raises(roster.RosterError) as refused:
        roster.read_roster(b"name,player_id\n,1\n")
    assert str(refused.value) == "line 2: the name is empty; give each player a name"


def test_personal_links_are_signed_with_the_servers_key(make_event, client) -> None:
    from django.conf import settings

    from varz_deck.server import service, tokens
    from varz_deck.server.models import RosterEntry

    event, token = make_event()
    _upload(client, event, token, "name,player_id\nAoi,P1\n")
    entry = RosterEntry.objects.get(event=event)
    expected = tokens.roster_token(str(settings.SECRET_KEY), event.key, entry.salt)
    assert service.roster_link(event, entry) == f"http://testserver/p/{expected}"
    assert tokens.roster_token("None", event.key, entry.salt) != expected


def test_a_roster_at_the_body_limit(make_event) -> None:
    from varz_deck.server import service
    from varz_deck.server.config import BODY_LIMIT

    event, _ = make_event()
    head = b"name,player_id\nAoi,P1\n"
    exact = head + b"\n" * (BODY_LIMIT - len(head))
    assert len(exact) == BODY_LIMIT
    assert service.upload_roster(event, exact).players == 1
    with pytest.raises(service.TooLarge):
        service.upload_roster(event, exact + b"\n")


def test_an_illegal_list_off_the_roster_and_counts_over_events(client, make_event) -> None:
    from varz_deck.server import service
    from varz_deck.server.models import Version

    event, token = make_event()
    _upload(client, event, token, "name,player_id\nAoi,P1\n")
    service.submit(event, "Kai", ILLEGAL)
    assert [(r.name, r.status, r.on_roster) for r in service.roster_rows(event)] == [
        ("Aoi", "missing", True),
        ("Kai", "illegal", False),
    ]
    other, _ = make_event()
    service.submit(other, "Ren", LEGAL)
    stale = [v.pk for v in Version.objects.filter(decklist__event__in=[event, other])]
    Version.objects.filter(pk__in=stale).update(cards="old")
    assert service.recheck_current() == 2  # one list in each event


def _html(answer: Any) -> str:
    return answer.content.decode("utf-8")


def test_the_roster_pages(client, make_event, organiser_client) -> None:
    from varz_deck.server import service
    from varz_deck.server.views import texts

    event, token = make_event()
    signed = organiser_client(token)
    base = f"/events/{event.key}"
    answer = signed.post(
        f"{base}/roster", {"roster": "name,player_id\nAoi,P1\nRen,P2\n", "from": "dashboard"}
    )
    assert answer.status_code == 303 and answer["Location"] == f"{base}/dashboard?lang=en"
    dashboard = _html(signed.get(answer["Location"]))
    assert texts.ROSTER_STORED(n=2, new=2).render("en") in dashboard
    assert "2 players (2 new)" in dashboard  # the audit log's line
    kai, version, _, _ = service.submit(event, "Kai", ILLEGAL)
    service.submit(event, "Aoi", LEGAL, player_id="P1", by_organiser=True)
    iso = version.submitted_at.isoformat()
    shown = f"{iso[:10]} {iso[11:16]} (UTC+00:00, UTC)"
    dashboard = _html(signed.get(f"{base}/dashboard"))
    assert (  # Kai: not on the roster
        f'<tr class="illegal"><td><a href="{base}/decklists/{kai.pk}">Kai</a></td>'
        f'<td>Not legal</td><td>—</td><td><time datetime="{iso}">{shown}</time></td></tr>'
    ) in dashboard
    again = signed.post(f"{base}/roster", {"roster": "name,player_id\nAoi,P1\n"})
    assert again.status_code == 303 and again["Location"] == f"{base}/roster?lang=en"
    assert texts.ROSTER_STORED_KEPT(n=1, new=0, kept=1).render("en") in _html(
        signed.get(again["Location"])
    )
    refused = signed.post(f"{base}/roster", {"roster": "name,player_id\n,1\n"})
    assert refused.status_code == 422 and "line 2: the name is empty" in _html(refused)
    empty = signed.post(f"{base}/roster", {"roster": "  "})
    assert empty.status_code == 422 and texts.NO_ROSTER_GIVEN.render("en") in _html(empty)


def test_roster_form_file_limit(django_db) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from varz_deck.server.config import BODY_LIMIT
    from varz_deck.server.views.forms import RosterForm

    exact = RosterForm({}, {"file": SimpleUploadedFile("r.csv", b"\n" * BODY_LIMIT)})
    assert exact.is_valid() and len(exact.csv) == BODY_LIMIT
    over = RosterForm({}, {"file": SimpleUploadedFile("r.csv", b"\n" * (BODY_LIMIT + 1))})
    assert not over.is_valid()
    text = RosterForm({"roster": "name,player_id\nÅsa,1\n"})
    assert text.is_valid() and text.csv == "name,player_id\nÅsa,1\n".encode()


def test_the_first_nul_and_blank_cells_only(roster) -> None:
    assert _problems(roster, b"name,player_id\nA\x00,1\nB\x00,2\n") == [
        (2, "line 2 holds a NUL character: this is no CSV text; export the roster as CSV")
    ]
    assert _problems(roster, b",,\n , \n") == [
        (0, "the roster is empty: its first line is the header name,player_id (and email)")
    ]


def test_the_audit_detail_cell(make_event, organiser_client) -> None:
    event, token = make_event()
    signed = organiser_client(token)
    signed.post(f"/events/{event.key}/roster", {"roster": "name,player_id\nAoi,P1\n"})
    assert "<td>1 player (1 new)</td>" in _html(signed.get(f"/events/{event.key}/dashboard"))
