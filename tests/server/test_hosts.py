"""The Host a request names, and the links the server builds (issue 24 row 15).

A request naming any host (`Host: attacker.example`) was answered, and that host was written
into the player's private link (the one carrying the edit token), the organiser's copy of it and
the dashboard's submission link. Now, as SPEC §9 (the organiser's day) says:
- links are built from the server's public address: `serve --public-url URL`, by default
  `http://HOST:PORT` of the address it listens on, never from the request's Host;
- a request naming another host is refused with 400 (what Django's ALLOWED_HOSTS does), before
  any view runs. Accepted: the public URL's host, the address listened on, the loopback names;
  listening on every address (0.0.0.0), also any IP address literal (a player typing the
  laptop's address; an address cannot be a DNS-rebinding name) and the machine's own name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from harness import LiveServer
from test_pages import CSRF_FIELD, LEGAL, csrf, signed_in

DECK = LEGAL.read_text(encoding="utf-8")
ATTACKER = "attacker.example"


# --- the policy ---------------------------------------------------------------------------------


@pytest.fixture
def hosts() -> Any:
    from varz_deck.server import hosts

    return hosts


def test_a_server_on_one_address_accepts_that_address_and_loopback_only(hosts):
    policy = hosts.policy("127.0.0.1", 8000, None)
    assert policy.public_url == "http://127.0.0.1:8000"
    for host in ("127.0.0.1:8000", "127.0.0.1", "localhost:8000", "LOCALHOST", "[::1]:8000"):
        assert policy.allows(host), host
    for host in (ATTACKER, f"{ATTACKER}:8000", "10.0.0.5:8000", "", "127.0.0.1:8000@evil", "[::1"):
        assert not policy.allows(host), host


def test_a_public_url_is_the_base_of_links_and_its_host_is_accepted(hosts):
    policy = hosts.policy("127.0.0.1", 8000, "https://Decks.Example.org/")
    assert policy.public_url == "https://decks.example.org"
    assert policy.link("/decklists/1/abc") == "https://decks.example.org/decklists/1/abc"
    assert policy.allows("decks.example.org") and policy.allows("decks.example.org:443")
    assert policy.allows("127.0.0.1:8000")  # the address it listens on, still
    assert not policy.allows(ATTACKER) and not policy.allows("example.org")
    assert hosts.policy("127.0.0.1", 8000, "http://[2001:db8::1]:8080").allows("[2001:db8::1]")
    assert hosts.policy("my_laptop", 8000, None).allows("my_laptop:8000")  # a machine's name


def test_a_server_on_every_address_accepts_ip_literals_and_the_machines_name(hosts):
    policy = hosts.policy("0.0.0.0", 8000, None)
    for host in ("192.168.1.20:8000", "10.1.2.3", "[fe80::1]:8000", "localhost"):
        assert policy.allows(host), host
    assert policy.allows(hosts.machine_name())
    assert not policy.allows(ATTACKER) and not policy.allows("192.168.1.20.attacker.example")
    assert re.fullmatch(r"http://[^/]+:8000", policy.public_url), policy.public_url
    assert "0.0.0.0" not in policy.public_url  # a link a player can open


@pytest.mark.parametrize(
    "url",
    [
        "ftp://decks.example.org",
        "decks.example.org",
        "https://",
        "https://decks.example.org/registration",
        "https://decks.example.org/?x=1",
        "https://decks.example.org/#top",
        "https://user:pw@decks.example.org",
        "https://decks.example.org:99999",
        "https://exa mple.org",
    ],
)
def test_a_public_url_that_is_not_the_root_of_an_http_server_is_refused(hosts, url):
    assert hosts.public_url_problem(url) is not None
    assert hosts.public_url_problem("https://decks.example.org:8443/") is None


# --- a live server --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plain(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(make_database("sqlite", "hosts"))


@pytest.fixture(scope="module")
def public(make_database: Callable[..., Any], live_server: Callable[..., LiveServer]) -> LiveServer:
    return live_server(
        make_database("sqlite", "public"), extra_args=["--public-url", "https://decks.example.org"]
    )


def _links(server: LiveServer, headers: dict[str, str]) -> list[str]:
    """The absolute links the pages show: the player's private link, the organiser's copy of a
    list they added, the dashboard's submission link; each request naming `headers`' Host."""
    event = server.create_event("Host Open")
    player = server.client()
    form_page = player.get(event["submit_url"], headers=headers)
    assert form_page.status == 200, form_page
    stored = player.post(
        event["submit_url"],
        form={"player": "Aoi", "deck": DECK, CSRF_FIELD: csrf(form_page)},
        headers=headers,
    )
    assert stored.status == 303, stored
    result = player.get(stored.header("Location"), headers=headers)
    organiser = signed_in(server, event)
    dashboard = organiser.get(f"/events/{event['event']}/dashboard", headers=headers)
    add_page = organiser.get(f"/events/{event['event']}/add", headers=headers)
    added = organiser.post(
        f"/events/{event['event']}/add",
        form={"player": "Ren", "deck": DECK, CSRF_FIELD: csrf(add_page)},
        headers=headers,
    )
    assert added.status == 303, added
    shown = organiser.get(added.header("Location"), headers=headers)
    found = [
        *re.findall(r'id="private-link" readonly value="([^"]+)"', result.text),
        *re.findall(r'id="private-link" readonly value="([^"]+)"', shown.text),
        *re.findall(  # the link wraps after its slashes (a <wbr> after each)
            r'<code class="link">(https?://[^<]+/submit)</code>',
            dashboard.text.replace("<wbr>", ""),
        ),
    ]
    assert len(found) == 3, (result.text[:500], shown.text[:500])
    return found


def test_links_are_built_from_the_address_listened_on(plain: LiveServer) -> None:
    for link in _links(plain, {}):
        assert link.startswith(f"http://127.0.0.1:{plain.port}/"), link
    for link in _links(plain, {"Host": f"localhost:{plain.port}"}):  # not from the request's
        assert link.startswith(f"http://127.0.0.1:{plain.port}/"), link


def test_links_are_built_from_the_public_url(public: LiveServer) -> None:
    for headers in ({}, {"Host": "decks.example.org"}):
        for link in _links(public, headers):
            assert link.startswith("https://decks.example.org/"), link


@pytest.mark.parametrize("fixture", ["plain", "public"])
@pytest.mark.parametrize("host", [ATTACKER, f"{ATTACKER}:80", "decks.example.org.attacker.example"])
def test_a_request_for_another_host_is_refused_with_400(
    request: pytest.FixtureRequest, fixture: str, host: str
) -> None:
    server: LiveServer = request.getfixturevalue(fixture)
    event = server.create_event("Poisoned Open")
    key = event["event"]
    for method, path, extra in (
        ("GET", event["submit_url"], {}),
        ("GET", event["organiser_url"], {}),
        ("GET", f"/api/v1/events/{key}", {}),
        ("POST", f"/api/v1/events/{key}/decklists", {"json": {"player": "Mal", "deck": DECK}}),
        ("GET", "/healthz", {}),
    ):
        answer = server.request(method, path, headers={"Host": host}, **extra)
        assert answer.status == 400, (method, path, answer)
        assert ATTACKER not in answer.text, answer
        assert "Set-Cookie" not in answer.headers, answer  # no session was signed in
    listed = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"])
    assert listed.json() == []  # nothing was stored
    api = server.request("GET", f"/api/v1/events/{key}", headers={"Host": host})
    assert set(api.json()) == {"error"} and api.json()["error"]["code"] == "bad_host", api


def test_serve_with_a_bad_public_url_exits_2(tmp_path, server_stack):
    from harness import free_port, run_cli

    done = run_cli(
        ["serve", "--port", str(free_port()), "--public-url", "ftp://decks.example.org"],
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert "ftp://decks.example.org" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "varz-deck.sqlite3").exists()  # refused before anything is written
