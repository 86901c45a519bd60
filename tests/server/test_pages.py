"""The HTML pages of `varz-deck serve` (SPEC §9), over real HTTP to a real server on SQLite and on
PostgreSQL, with no JavaScript at all (plain form posts, as a browser without scripts sends them).

- Every form that changes data is refused (403) without its CSRF token.
- Hostile player names and deck text (script tags, terminal escapes, bidi controls) come out
  escaped on every page; no page has an inline script or an event-handler attribute (parsed), or
  loads anything from another origin; each answer has the Content-Security-Policy.
- The player's flow and the organiser's flow work end to end without scripts.

Expected diagnostics and deck hashes come from the command line (`check --lang`, `register`) on the
same files, not from the server.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
import re
import time
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
import yaml
from harness import ROOT, Client, LiveServer, run_cli

EXAMPLES = ROOT / "examples"
LEGAL = EXAMPLES / "red-kagura-festival.yaml"
OTHER_LEGAL = EXAMPLES / "blue-minase-tide.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
CSRF_FIELD = "csrfmiddlewaretoken"
# What must never reach a page raw: C0/C1 controls but newline and tab (CR neither), DEL, bidi and
# zero-width controls, separators, BOM (the set core/messages/sanitize.py escapes).
RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)
HOSTILE_PLAYER = (
    "<script>alert('player')</script>\x1b[31mRed\x1b]0;title\x07\u202eevil\u2066 <b>x</b>"
)
# An unknown card whose name is hostile (F005 quotes it) and a hostile comment (the deck text is
# shown back in the replace form's text area).
HOSTILE_DECK = (
    "# <img src=x onerror=alert(1)> </textarea><script>alert('comment')</script>\n"
    "hero: VZ01-001\n"
    "spells:\n"
    "  \"<script>alert('card')</script>\\e[31m\\u202e\\u2067\": 3\n"
    "skills: {VZ01-067: 1}\n"
    "portals: {VZ01-104: 4}\n"
)
ATTACKS = ("<script>alert", "<img src=x", "</textarea><script", "<b>x</b>")


def _cli_json(*args: str) -> Any:
    done = run_cli([*args, "--output", "json"], cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def site(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    """One SQLite server for the tests whose subject is the pages, not the database (the flows
    and the hostile-text test run on SQLite and PostgreSQL through `server`)."""
    return live_server(make_database("sqlite", "pages"))


@pytest.fixture(scope="module")
def illegal_ja() -> dict[str, Any]:
    """`varz-deck check examples/illegal.yaml --lang ja --output json`: the deck's entry."""
    deck: dict[str, Any] = _cli_json("check", str(ILLEGAL), "--lang", "ja")["decks"][0]
    assert not deck["legal"] and deck["diagnostics"]
    return deck


@pytest.fixture(scope="module")
def legal_hash() -> str:
    found: str = _cli_json("register", str(LEGAL))["registrations"][0]["deck_hash"]
    assert found.startswith("v1-")
    return found


class Page(HTMLParser):
    """What a page holds that matters here: scripts, event handlers, outside URLs, forms."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[dict[str, str | None]] = []
        self.inline_script = ""
        self.handlers: list[tuple[str, str]] = []
        self.urls: list[str] = []
        self.forms: list[dict[str, Any]] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.handlers.append((tag, name))
            if name in ("src", "href", "action", "formaction") and value is not None:
                self.urls.append(value)
            if value and value.strip().lower().startswith("javascript:"):
                self.handlers.append((tag, name))
        if tag == "script":
            self.scripts.append(found)
            self._in_script = True
        if tag == "form":
            self.forms.append({"method": (found.get("method") or "get").lower(), "fields": []})
        if tag in ("input", "textarea", "select", "button") and self.forms:
            self.forms[-1]["fields"].append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline_script += data
        else:
            self.text.append(data)


def parse(body: str) -> Page:
    page = Page()
    page.feed(body)
    page.close()
    return page


def assert_safe_page(response: Any, *, html_page: bool = True) -> Page | None:
    """No raw control or bidi character, no hostile markup unescaped, the CSP present; for HTML:
    no inline script, no event handler, nothing from another origin."""
    assert response.status < 500, response
    csp = response.header("Content-Security-Policy") or ""
    assert "script-src 'self'" in csp and "default-src 'self'" in csp, csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
    body = response.text
    assert not RAW_CONTROL.search(body), RAW_CONTROL.search(body)
    for attack in ATTACKS:
        assert attack not in body, (attack, response)
    if not html_page:
        return None
    page = parse(body)
    assert page.inline_script.strip() == "", page.inline_script[:200]
    assert all(s.get("src", "").startswith("/static/") for s in page.scripts), page.scripts
    assert page.handlers == [], page.handlers
    outside = [u for u in page.urls if re.match(r"^(https?:)?//", u)]
    assert outside == [], outside
    for form in page.forms:
        if form["method"] == "post":
            names = [f.get("name") for f in form["fields"]]
            assert CSRF_FIELD in names, form
    return page


def csrf(response: Any) -> str:
    found = re.search(rf'name="{CSRF_FIELD}" value="([^"]+)"', response.text)
    assert found, response
    return found.group(1)


def text_of(response: Any) -> str:
    """The page's visible text (entities decoded), whitespace runs made one space."""
    return " ".join(" ".join(parse(response.text).text).split())


def signed_in(server: Any, event: dict[str, Any]) -> Client:
    organiser = server.client()
    answer = organiser.get(event["organiser_url"])
    assert (
        answer.status == 302 and answer.header("Location") == f"/events/{event['event']}/dashboard"
    )
    assert event["organiser_token"] not in answer.header("Location")
    return organiser


def submit_form(
    player_client: Client, event: dict[str, Any], player: str, deck: str, lang: str = "en"
) -> Any:
    form_page = player_client.get(event["submit_url"])
    assert form_page.status == 200
    return player_client.post(
        event["submit_url"],
        form={"player": player, "deck": deck, "lang": lang, CSRF_FIELD: csrf(form_page)},
    )


# --- CSRF ------------------------------------------------------------------------------------


def test_every_data_changing_form_without_its_csrf_token_is_403(site: LiveServer) -> None:
    server, event = site, site.create_event("CSRF Cup")
    player = server.client()
    stored = submit_form(player, event, "Aoi Tanaka", LEGAL.read_text(encoding="utf-8"))
    assert stored.status == 303
    private = stored.header("Location").split("?")[0]
    organiser = signed_in(server, event)
    key = event["event"]
    deck = LEGAL.read_text(encoding="utf-8")
    posts = [
        (player, event["submit_url"], {"player": "Mallory", "deck": deck}),
        (player, private, {"deck": deck}),
        (player, f"/events/{key}/check", {"deck": deck}),
        (organiser, f"/events/{key}/lock", {}),
        (organiser, f"/events/{key}/unlock", {}),
        (organiser, f"/events/{key}/publish", {}),
        (organiser, f"/events/{key}/add", {"player": "Mallory", "deck": deck}),
        (organiser, f"/events/{key}/judge", {"presented": deck}),
    ]
    for client, path, form in posts:
        assert client.post(path, form=form).status == 403, path
        wrong = client.post(path, form={**form, CSRF_FIELD: "x" * 64})
        assert wrong.status == 403, path
    # nothing was changed: one list, one version, the event neither locked nor published
    dashboard = organiser.get(f"/events/{key}/dashboard")
    assert dashboard.status == 200
    assert "Mallory" not in dashboard.text
    state = server.get(f"/api/v1/events/{key}").json()
    assert state["locked"] is False and state["published"] is False
    mine = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"]).json()
    assert [row["player"] for row in mine] == ["Aoi Tanaka"]


# --- Hostile text ------------------------------------------------------------------------------


def test_hostile_names_and_deck_text_are_escaped_on_every_page(
    server: Any, event: dict[str, Any]
) -> None:
    key = event["event"]
    player = server.client()
    stored = submit_form(player, event, HOSTILE_PLAYER, HOSTILE_DECK, lang="ja")
    assert stored.status == 303, stored
    private = stored.header("Location")
    result = player.get(private)
    assert_safe_page(result)
    shown = text_of(result)
    # the name is shown, escaped: markup as text, controls as visible escapes
    assert "<script>alert('player')</script>\\x1b[31mRed" in shown
    assert "\\u202eevil\\u2066" in shown
    assert "F005" in shown  # the hostile card is reported as unknown, its name escaped
    # the deck text comes back in the text area as text (not markup)
    assert "&lt;/textarea&gt;&lt;script&gt;alert(&#x27;comment&#x27;)" in result.text
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{key}/dashboard")
    entry = re.search(rf"/events/{key}/decklists/(\d+)", dashboard.text)
    assert entry
    token = csrf(organiser.get(f"/events/{key}/add"))  # the dashboard's actions are links
    pages = [
        result,
        player.get(event["submit_url"]),
        dashboard,
        organiser.get(entry.group(0)),
        organiser.get(f"/events/{key}/judge?entry={entry.group(1)}"),
        organiser.get(f"/events/{key}/judge?hash=" + "%3Cscript%3E%1B%E2%80%AE"),
        organiser.post(
            f"/events/{key}/judge",
            form={"entry": entry.group(1), "presented": HOSTILE_DECK, CSRF_FIELD: token},
        ),
        organiser.get(f"/events/{key}/add"),
        organiser.get(f"/events/{key}/decklists/{entry.group(1)}/withdraw"),  # its confirmation
        organiser.get(f"/events/{key}/sheets"),
    ]
    changed = HOSTILE_DECK.replace('": 3\n', '": 2\n')
    assert changed != HOSTILE_DECK
    compared = organiser.post(
        f"/events/{key}/judge",
        form={"entry": entry.group(1), "presented": changed, CSRF_FIELD: token},
    )
    ((sign, name, card, registered, presented),) = _diff_rows(compared.text)
    assert name.startswith("<script>alert('card')</script>"), name  # escaped on the page
    assert (sign, card, registered, presented) == ("-1", "unknown", 3, 2)
    pages.append(compared)
    publish = organiser.post(f"/events/{key}/publish", form={CSRF_FIELD: token})
    assert publish.status == 303
    pages.append(server.get(f"/events/{key}/public"))
    for page in pages:
        assert page.status == 200, page
        assert_safe_page(page)
    check = player.post(
        f"/events/{key}/check",
        form={"deck": HOSTILE_DECK, "lang": "zh", CSRF_FIELD: csrf(result)},
        headers={"X-CSRFToken": csrf(result)},
    )
    assert check.status == 200 and check.header("Content-Type").startswith("application/json")
    assert_safe_page(check, html_page=False)
    assert not RAW_CONTROL.search(json.dumps(check.json(), ensure_ascii=False))
    csv_answer = organiser.get(f"/events/{key}/export.csv")
    assert csv_answer.status == 200 and not RAW_CONTROL.search(csv_answer.text.replace("\r", ""))
    for row in csv.reader(io.StringIO(csv_answer.text)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")), cell  # formula-safe cells


def test_player_name_is_escaped_in_the_sheets_and_public_page(site: LiveServer) -> None:
    server, event = site, site.create_event("Escape Cup")
    """Each page of a signed-in organiser and the public page show the hostile name as text."""
    key = event["event"]
    stored = submit_form(server.client(), event, HOSTILE_PLAYER, LEGAL.read_text(encoding="utf-8"))
    assert stored.status == 303
    organiser = signed_in(server, event)
    confirm = organiser.get(f"/events/{key}/publish")  # the confirmation page
    assert organiser.post(f"/events/{key}/publish", form={CSRF_FIELD: csrf(confirm)}).status == 303
    for path, client in (
        (f"/events/{key}/dashboard", organiser),
        (f"/events/{key}/public", server),
    ):
        answer = client.get(path)
        assert_safe_page(answer)
        assert "<script>alert('player')</script>\\x1b[31mRed" in text_of(answer), path


# --- Players without JavaScript ----------------------------------------------------------------


def test_player_flow_without_javascript(
    server: Any, event: dict[str, Any], illegal_ja: dict[str, Any], legal_hash: str
) -> None:
    player = server.client()
    form_page = player.get(event["submit_url"] + "?lang=ja")
    page = assert_safe_page(form_page)
    assert page is not None and [s["src"] for s in page.scripts] == ["/static/live-check.js"]
    assert "デッキリストの提出" in text_of(form_page)
    # an illegal list: stored, and the result page shows every diagnostic, located, in Japanese
    stored = player.post(
        event["submit_url"],
        form={"player": "Ren Sato", "deck": ILLEGAL.read_text(encoding="utf-8"), "lang": "ja",
              CSRF_FIELD: csrf(form_page)},
    )  # fmt: skip
    assert stored.status == 303
    private = stored.header("Location")
    assert re.fullmatch(r"/decklists/\d+/[A-Za-z0-9_-]{22,}\?saved=1&lang=ja", private), private
    result = player.get(private)
    assert result.status == 200
    shown = text_of(result)
    assert "使用不可" in shown
    for d in illegal_ja["diagnostics"]:
        assert f"{d['line']}:{d['column']} {d['code']}" in shown, d
        assert " ".join(d["message_localized"].split()) in shown, d
    # the private link works from another browser (no cookie), and shows the same list
    link = private.split("?")[0]
    stranger = server.client()
    again = stranger.get(link + "?lang=ja")
    assert again.status == 200 and "Ren Sato" in again.text and "使用不可" in text_of(again)
    assert stranger.get(link[:-3] + "xyz").status == 404  # a wrong token: nothing shown
    # fix it: replace through the same page; the new version is legal, with the CLI's hash
    fixed = stranger.post(
        link,
        form={"deck": LEGAL.read_text(encoding="utf-8"), "lang": "ja", CSRF_FIELD: csrf(again)},
    )
    assert fixed.status == 303
    legal = stranger.get(fixed.header("Location"))
    shown = text_of(legal)
    verdict = re.search(r'id="verdict">([^<]*)<', legal.text)
    assert verdict and verdict.group(1) == "使用可能" and legal_hash in shown
    assert shown.count("v1-") >= 3  # the current hash and both versions' hashes
    # the live check endpoint (what the script calls) stores nothing and says the same
    checked = stranger.post(
        f"/events/{event['event']}/check",
        form={"deck": ILLEGAL.read_text(encoding="utf-8"), "lang": "ja", CSRF_FIELD: csrf(legal)},
        headers={"X-CSRFToken": csrf(legal)},
    ).json()
    assert checked["legal"] is False
    assert [(d["where"], d["code"], d["text"]) for d in checked["diagnostics"]] == [
        (f"{d['line']}:{d['column']}", d["code"], d["message_localized"])
        for d in illegal_ja["diagnostics"]
    ]
    rows = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"]).json()
    assert len(rows) == 1 and rows[0]["deck_hash"] == legal_hash


def test_a_form_without_a_name_or_a_list_is_shown_again_with_the_problem(site: LiveServer) -> None:
    server, event = site, site.create_event("Form Cup")
    player = server.client()
    form_page = player.get(event["submit_url"])
    no_name = player.post(
        event["submit_url"],
        form={"player": "  ", "deck": "hero: VZ01-001\n", CSRF_FIELD: csrf(form_page)},
    )
    assert no_name.status == 422 and "hero: VZ01-001" in no_name.text
    assert_safe_page(no_name)
    no_deck = player.post(
        event["submit_url"], form={"player": "Aoi", "deck": " \n", CSRF_FIELD: csrf(form_page)}
    )
    assert no_deck.status == 422 and "Paste your list or choose a file." in text_of(no_deck)
    rows = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"]).json()
    assert rows == []


def test_the_file_upload_is_read_as_the_list(site: LiveServer, legal_hash: str) -> None:
    server, event = site, site.create_event("Upload Cup")
    player = server.client()
    form_page = player.get(event["submit_url"])
    boundary = "varzdeckboundary"
    parts = [
        (f'Content-Disposition: form-data; name="{CSRF_FIELD}"', csrf(form_page)),
        ('Content-Disposition: form-data; name="player"', "Upload Player"),
        ('Content-Disposition: form-data; name="deck"', ""),
        ('Content-Disposition: form-data; name="file"; filename="deck.yaml"\r\n'
         "Content-Type: application/x-yaml", LEGAL.read_text(encoding="utf-8")),
    ]  # fmt: skip
    body = "".join(f"--{boundary}\r\n{head}\r\n\r\n{value}\r\n" for head, value in parts)
    body += f"--{boundary}--\r\n"
    stored = player.post(
        event["submit_url"],
        body=body.encode(),
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert stored.status == 303, stored
    assert legal_hash in player.get(stored.header("Location")).text


def _multipart(fields: list[tuple[str, str | None, bytes]]) -> tuple[bytes, dict[str, str]]:
    """A multipart body of (name, file name or None, value) parts, and its Content-Type."""
    boundary = "varzdeckboundary"
    body = b""
    for name, filename, value in fields:
        head = f'Content-Disposition: form-data; name="{name}"'
        if filename is not None:
            head += f'; filename="{filename}"\r\nContent-Type: application/octet-stream'
        body += f"--{boundary}\r\n{head}\r\n\r\n".encode() + value + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def test_the_form_keeps_any_text_and_reads_a_chosen_file_only_when_it_holds_something(
    site: LiveServer, legal_hash: str
) -> None:
    """A NUL in the pasted list is no form error (the list is stored, the NUL made U+FFFD); an
    empty file leaves the text area's list; a file that is not UTF-8 is said, the form kept."""
    server, event = site, site.create_event("Form Text Cup")
    player = server.client()
    form_page = player.get(event["submit_url"])
    token = csrf(form_page)
    with_nul = player.post(
        event["submit_url"],
        form={"player": "Nul Player", "deck": "hero: VZ01-001\x00\n", CSRF_FIELD: token},
    )
    assert with_nul.status == 303, with_nul
    assert "hero: VZ01-001\ufffd" in player.get(with_nul.header("Location")).text
    legal = LEGAL.read_text(encoding="utf-8").encode()
    body, headers = _multipart(
        [(CSRF_FIELD, None, token.encode()), ("player", None, b"Empty File"),
         ("deck", None, legal), ("file", "empty.yaml", b"")]
    )  # fmt: skip
    stored = player.post(event["submit_url"], body=body, headers=headers)
    assert stored.status == 303, stored
    assert legal_hash in player.get(stored.header("Location")).text
    body, headers = _multipart(
        [(CSRF_FIELD, None, token.encode()), ("player", None, b"Latin One"),
         ("deck", None, legal), ("file", "deck.yaml", "héro: VZ01-001\n".encode("latin-1"))]
    )  # fmt: skip
    refused = player.post(event["submit_url"], body=body, headers=headers)
    assert refused.status == 422
    assert "The file is not UTF-8 text; save it as UTF-8 and upload it again." in text_of(refused)
    assert 'value="Latin One"' in refused.text  # the form is shown again as posted
    rows = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"]).json()
    assert [row["player"] for row in rows] == ["Nul Player", "Empty File"]


def test_after_the_deadline_the_forms_say_closed_and_a_post_is_409(site: LiveServer) -> None:
    # a deadline already past is refused (issue 26): one that passes in a few seconds
    soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=4)
    server, event = site, site.create_event("Late Cup", deadline=soon.isoformat())
    time.sleep(max(0.0, (soon - datetime.datetime.now(datetime.timezone.utc)).total_seconds()))
    player = server.client()
    form_page = player.get(event["submit_url"])
    assert form_page.status == 200
    assert "Submissions closed at" in text_of(form_page)
    refused = player.post(
        event["submit_url"],
        form={
            "player": "Late",
            "deck": LEGAL.read_text(encoding="utf-8"),
            CSRF_FIELD: csrf(form_page),
        },
    )
    assert refused.status == 409
    assert_safe_page(refused)
    # the organiser may still submit for a player after the deadline
    organiser = signed_in(server, event)
    add_page = organiser.get(f"/events/{event['event']}/add")
    added = organiser.post(
        f"/events/{event['event']}/add",
        form={
            "player": "Late",
            "deck": LEGAL.read_text(encoding="utf-8"),
            CSRF_FIELD: csrf(add_page),
        },
    )
    assert added.status == 303
    shown = organiser.get(added.header("Location"))
    private = re.search(r'value="(http://[^"]+(/decklists/\d+/[^"]+))"', shown.text)
    assert "Late" in shown.text and private  # the player's private link, shown once
    assert not re.search(
        r'value="http://[^"]+/decklists/', organiser.get(added.header("Location")).text
    )
    page = player.get(private.group(2))
    assert page.status == 200 and "Late" in page.text and "Submissions closed at" in text_of(page)
    replaced = player.post(
        private.group(2),
        form={"deck": OTHER_LEGAL.read_text(encoding="utf-8"), CSRF_FIELD: csrf(form_page)},
    )
    assert replaced.status == 409


# --- The organiser -----------------------------------------------------------------------------


def test_organiser_pages_need_the_sign_in_of_that_event(site: LiveServer) -> None:
    server = site
    mine, other = site.create_event("Mine"), site.create_event("Other")
    key = mine["event"]
    stranger = server.client()
    for path in ("dashboard", "sheets", "export.csv", "judge", "add"):
        answer = stranger.get(f"/events/{key}/{path}")
        assert answer.status == 403, path
        assert_safe_page(answer)
    elsewhere = signed_in(server, other)  # the organiser of another event
    assert elsewhere.get(f"/events/{key}/dashboard").status == 403
    page = elsewhere.get(f"/events/{other['event']}/add")
    assert elsewhere.post(f"/events/{key}/lock", form={CSRF_FIELD: csrf(page)}).status == 403
    assert server.get(f"/api/v1/events/{key}").json()["locked"] is False
    assert stranger.get("/events/nosuchevent/dashboard").status == 404
    assert stranger.get("/events/nosuchevent/submit").status == 404
    assert stranger.get(f"/events/{key}/public").status == 404  # not published
    assert server.get("/o/not-a-token").status == 404
    home = server.get("/", headers={"Accept-Language": "ja"})
    assert home.status == 200 and "主催者の方は" in text_of(home)
    assert_safe_page(home)


def test_organiser_flow_without_javascript(
    server: Any, event: dict[str, Any], legal_hash: str
) -> None:
    key = event["event"]
    players = {"Aoi Tanaka": LEGAL, "Ren Sato": ILLEGAL, "Mika Ito": OTHER_LEGAL}
    for name, path in players.items():
        assert (
            submit_form(server.client(), event, name, path.read_text(encoding="utf-8")).status
            == 303
        )
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{key}/dashboard")
    assert_safe_page(dashboard)
    shown = text_of(dashboard)
    for name in players:
        assert name in shown
    assert legal_hash in shown
    illegal_codes = [d["code"] for d in _cli_json("check", str(ILLEGAL))["decks"][0]["diagnostics"]]
    assert " ".join(dict.fromkeys(illegal_codes)) in shown
    assert "3 lists · 2 legal" in shown
    assert "Hibiki Kagura" in shown  # the metagame by hero
    # lock: the player can no longer replace; unlock; lock again; publish: the public page
    token = csrf(organiser.get(f"/events/{key}/lock"))  # the confirmation page's form
    locked = organiser.post(f"/events/{key}/lock", form={CSRF_FIELD: token})
    assert locked.status == 303
    after = organiser.get(locked.header("Location"))
    assert "Submissions are locked." in text_of(after) and "locked" in text_of(after)
    late = server.client()
    form_page = late.get(event["submit_url"])
    assert "locked" in text_of(form_page)
    assert (
        late.post(
            event["submit_url"],
            form={
                "player": "Late",
                "deck": LEGAL.read_text(encoding="utf-8"),
                CSRF_FIELD: csrf(form_page),
            },
        ).status
        == 409
    )
    assert organiser.post(f"/events/{key}/unlock", form={CSRF_FIELD: token}).status == 303
    assert server.get(f"/api/v1/events/{key}").json()["locked"] is False
    assert organiser.post(f"/events/{key}/lock", form={CSRF_FIELD: token}).status == 303
    assert server.get(f"/events/{key}/public").status == 404
    assert organiser.post(f"/events/{key}/publish", form={CSRF_FIELD: token}).status == 303
    public = server.get(f"/events/{key}/public")
    assert public.status == 200
    assert_safe_page(public)
    for name in players:
        assert name in text_of(public)
    # every sheet in one document; the CSV of every player
    sheets = organiser.get(f"/events/{key}/sheets")
    assert sheets.status == 200 and sheets.header("Content-Type").startswith("text/html")
    assert "'sha256-" in sheets.header("Content-Security-Policy")  # its own <style>, by hash
    for name in players:
        assert name in sheets.text
    rows = list(csv.DictReader(io.StringIO(organiser.get(f"/events/{key}/export.csv").text)))
    assert len(rows) == 3 and legal_hash in {value for row in rows for value in row.values()}


def _diff_rows(page: str) -> list[tuple[str, str, str, int, int]]:
    """The judge page's comparison table: (sign, name, id, registered, presented) per card; an
    added card's row is marked added, a removed one's removed."""
    rows = re.findall(
        r'<tr class="(added|removed)"><td class="qty">([+-]\d+)</td><td>(.*?)</td>'
        r'<td><code>(.*?)</code></td><td class="qty">(\d+)</td><td class="qty">(\d+)</td></tr>',
        page,
    )
    assert rows, page
    out = []
    for mark, sign, name, card, registered, presented in rows:
        assert mark == ("added" if sign.startswith("+") else "removed")
        out.append(
            (sign, html.unescape(name), html.unescape(card), int(registered), int(presented))
        )
    return out


def test_judge_page_finds_a_list_by_player_or_hash_and_diffs_the_presented_one(
    site: LiveServer, legal_hash: str
) -> None:
    server, event = site, site.create_event("Judge Cup")
    key = event["event"]
    assert (
        submit_form(server.client(), event, "Aoi Tanaka", LEGAL.read_text(encoding="utf-8")).status
        == 303
    )
    assert (
        submit_form(server.client(), event, "Ren Sato", ILLEGAL.read_text(encoding="utf-8")).status
        == 303
    )
    organiser = signed_in(server, event)
    judge = organiser.get(f"/events/{key}/judge?hash={legal_hash}")
    assert_safe_page(judge)
    shown = text_of(judge)
    assert "Aoi Tanaka" in shown and legal_hash in shown and "Hibiki Kagura" in shown
    entry = re.search(r'name="entry" value="(\d+)"', judge.text)
    assert entry
    same = organiser.post(
        f"/events/{key}/judge",
        form={"entry": entry.group(1), "presented": LEGAL.read_text(encoding="utf-8"),
              CSRF_FIELD: csrf(judge)},
    )  # fmt: skip
    assert "Same deck" in text_of(same)
    other = organiser.post(
        f"/events/{key}/judge",
        form={"entry": entry.group(1), "presented": ILLEGAL.read_text(encoding="utf-8"),
              CSRF_FIELD: csrf(judge)},
    )  # fmt: skip
    assert_safe_page(other)
    expected = _cli_json("diff", str(LEGAL), str(ILLEGAL))
    assert "Different deck" in text_of(other)
    assert _diff_rows(other.text) == [
        (f"{c['presented'] - c['registered']:+d}", c["name"], c["id"], c["registered"],
         c["presented"])
        for c in expected["changes"]
    ]  # fmt: skip
    assert text_of(other).count("Registered Presented") == 1  # one table, its count columns
    none = organiser.get(f"/events/{key}/judge?hash=v1-aaaaaaaaaa")
    assert "No list matches" in text_of(none)
    japanese = organiser.post(  # the page in Japanese from here on (its cookie)
        f"/events/{key}/judge?lang=ja",
        form={"entry": entry.group(1), "presented": ILLEGAL.read_text(encoding="utf-8"),
              CSRF_FIELD: csrf(judge)},
    )  # fmt: skip
    assert_safe_page(japanese)
    assert "登録 提示" in text_of(japanese)
    cards = {  # the card files themselves, read with PyYAML
        card["id"]: card
        for path in sorted((ROOT / "card_data" / "varz" / "sets").glob("*.yaml"))
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
    }
    names = {
        c["id"]: (cards[c["id"]].get("names") or {}).get("ja", c["name"])
        for c in expected["changes"]
    }
    assert any(
        name != c["name"] for c, name in zip(expected["changes"], names.values(), strict=True)
    )
    assert [(row[1], row[2]) for row in _diff_rows(japanese.text)] == [
        (name, card) for card, name in names.items()
    ]  # a table: no terminal alignment for a browser's CJK glyphs to break


def test_an_azuki_event_shows_its_leader_and_pages_follow_the_language(site: LiveServer) -> None:
    server, event = site, site.create_event("Azuki Night", game="azuki")
    azuki = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"
    expected = _cli_json("register", str(azuki), "--game", "azuki")["registrations"][0]
    chinese = server.client()
    form_page = chinese.get(event["submit_url"], headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert "提交牌组列表" in text_of(form_page) and 'lang="zh-Hans"' in form_page.text
    assert '<option value="zh" selected>' in form_page.text  # what the browser posts back
    stored = chinese.post(
        event["submit_url"],
        form={"player": "Li Wei", "deck": azuki.read_text(encoding="utf-8"), "lang": "zh",
              CSRF_FIELD: csrf(form_page)},
    )  # fmt: skip
    assert stored.status == 303
    result = chinese.get(stored.header("Location"))
    assert expected["deck_hash"] in result.text
    assert re.search(r'id="verdict">合法<', result.text)  # ?lang=zh, from the form
    organiser = signed_in(server, event)
    japanese = organiser.get(f"/events/{event['event']}/dashboard?lang=ja")
    assert "主催者ダッシュボード" in japanese.text and "<th>リーダー</th>" in japanese.text
    # ?lang= is remembered (a cookie) for the next page without it
    assert "リーダー" in organiser.get(f"/events/{event['event']}/dashboard").text
    english = organiser.get(f"/events/{event['event']}/dashboard?lang=en")
    assert "<th>Leader</th>" in english.text and "Li Wei" in english.text
