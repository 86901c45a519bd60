"""varz_deck.server.hosts in this process: the Hosts a request may name, the public URL's
problems, the links' base (values written out here)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest


@pytest.fixture
def hosts() -> Any:
    from varz_deck.server import hosts

    return hosts


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("Example.ORG", "example.org"),
        ("example.org.", "example.org"),
        ("example.org.:80", "example.org"),
        (" example.org ", "example.org"),
        ("my_box:8000", "my_box"),
        ("10.0.0.1:80", "10.0.0.1"),
        ("[::1]", "::1"),
        ("[::1]:8000", "::1"),
        ("[FE80::1]:1", "fe80::1"),
        ("[::1", None),
        ("[::1]x", None),
        ("[::1]:", None),
        ("[::1]:123456", None),
        ("[1.2.3.4]", None),
        ("[a:b]", None),
        ("[]:80", None),
        ("example.org:x", None),
        ("exa mple.org", None),
        ("-bad.org", None),
        ("", None),
        (".", None),
    ],
)
def test_host_of(hosts, header, host) -> None:
    assert hosts._host_of(header) == host


def test_allows(hosts) -> None:
    one = hosts.Hosts("http://box:8000", frozenset({"box", "::1"}))
    assert one.allows("box:8000") and one.allows("BOX.") and one.allows("[::1]:8000")
    assert not one.allows("10.1.2.3") and not one.allows("other") and not one.allows("[::1")
    every = hosts.Hosts("http://10.0.0.1:8000", frozenset({"box"}), any_address=True)
    assert every.allows("10.1.2.3:8000") and every.allows("[fe80::1]:8000")
    assert every.allows("box") and not every.allows("other.example")
    assert one.link("/a/b") == "http://box:8000/a/b"


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://decks.example.org", None),
        (" https://decks.example.org:8443/ ", None),
        ("http://[2001:db8::1]:8080", None),
        ("http://decks.example.org:99999", "port"),
        ("http://decks.example.org:port", "port"),
        ("ftp://decks.example.org", "scheme"),
        ("decks.example.org", "scheme"),
        ("http://", "host"),
        ("http://:8000", "host"),
        ("http://bad_host!/", "host"),
        ("http://user@decks.example.org", "credentials"),
        ("http://user:pw@decks.example.org", "credentials"),
        ("http://:pw@decks.example.org", "credentials"),
        ("http://decks.example.org/app", "path"),
        ("http://decks.example.org/?x=1", "path"),
        ("http://decks.example.org/#top", "path"),
    ],
)
def test_public_url_problem(hosts, url, problem) -> None:
    assert hosts.public_url_problem(url) == problem


@pytest.mark.parametrize(
    ("host", "port", "scheme", "netloc"),
    [
        ("box", 80, "http", "box"),
        ("box", 8000, "http", "box:8000"),
        ("box", 443, "https", "box"),
        ("box", 80, "https", "box:80"),
        ("box", 443, "http", "box:443"),
        ("::1", 80, "http", "[::1]"),
        ("::1", 8000, "http", "[::1]:8000"),
    ],
)
def test_netloc(hosts, host, port, scheme, netloc) -> None:
    assert hosts._netloc(host, port, scheme) == netloc


def test_netloc_is_http_by_default(hosts) -> None:
    assert hosts._netloc("box", 80) == "box" and hosts._netloc("box", 443) == "box:443"


def test_policy_on_one_address(hosts) -> None:
    policy = hosts.policy("Box.Lan", 8000, None)
    assert policy.public_url == "http://box.lan:8000"
    assert policy.names == frozenset({"box.lan", "localhost", "127.0.0.1", "::1"})
    assert policy.any_address is False
    six = hosts.policy("[::1]", 80, None)
    assert six.public_url == "http://[::1]" and "::1" in six.names


@pytest.mark.parametrize("wildcard", ["0.0.0.0", "::", "[::]", ""])
def test_policy_on_every_address(hosts, monkeypatch, wildcard) -> None:
    monkeypatch.setattr(hosts, "machine_name", lambda: "box")
    monkeypatch.setattr(hosts, "machine_address", lambda: "10.9.8.7")
    policy = hosts.policy(wildcard, 8000, None)
    assert policy.public_url == "http://10.9.8.7:8000"
    assert policy.names == frozenset({"box", "box.local", "localhost", "127.0.0.1", "::1"})
    assert policy.any_address is True


@pytest.mark.parametrize(
    ("url", "base", "name"),
    [
        ("https://Decks.Example.org/", "https://decks.example.org", "decks.example.org"),
        ("http://decks.example.org:8080", "http://decks.example.org:8080", "decks.example.org"),
        ("https://decks.example.org:443", "https://decks.example.org", "decks.example.org"),
        ("http://decks.example.org", "http://decks.example.org", "decks.example.org"),
        ("HTTPS://decks.example.org:80", "https://decks.example.org:80", "decks.example.org"),
        (" http://decks.example.org. ", "http://decks.example.org.", "decks.example.org"),
        ("http://[2001:db8::1]:8080", "http://[2001:db8::1]:8080", "2001:db8::1"),
    ],
)
def test_policy_with_a_public_url(hosts, url, base, name) -> None:
    policy = hosts.policy("127.0.0.1", 8000, url)
    assert policy.public_url == base
    assert policy.names == frozenset({name, "127.0.0.1", "localhost", "::1"})


def test_machine_name_is_lower_case(hosts, monkeypatch) -> None:
    monkeypatch.setattr(hosts.socket, "gethostname", lambda: "My-Laptop")
    assert hosts.machine_name() == "my-laptop"


class _Probe:
    """A UDP socket that records what it is asked (nothing is sent)."""

    made: ClassVar[list[tuple[Any, ...]]] = []
    fail = False

    def __init__(self, *args: Any) -> None:
        _Probe.made.append(("socket", *args))

    def __enter__(self) -> _Probe:
        return self

    def __exit__(self, *exc: Any) -> None:
        _Probe.made.append(("closed",))

    def connect(self, address: Any) -> None:
        _Probe.made.append(("connect", address))
        if _Probe.fail:
            raise OSError("no route")

    def getsockname(self) -> tuple[str, int]:
        return ("10.9.8.7", 5555)


def test_machine_address_asks_the_route_out(hosts, monkeypatch) -> None:
    import socket

    _Probe.made, _Probe.fail = [], False
    monkeypatch.setattr(hosts.socket, "socket", _Probe)
    monkeypatch.setattr(hosts.socket, "gethostname", lambda: "Box")
    assert hosts.machine_address() == "10.9.8.7"
    assert _Probe.made == [
        ("socket", socket.AF_INET, socket.SOCK_DGRAM),
        ("connect", ("192.0.2.1", 9)),
        ("closed",),
    ]
    _Probe.fail = True
    assert hosts.machine_address() == "box"


def test_current_and_link(hosts) -> None:
    before = hosts.current()
    try:
        chosen = hosts.policy("127.0.0.1", 8000, None)
        hosts.use(chosen)
        assert hosts.current() is chosen
        assert hosts.link("/x") == "http://127.0.0.1:8000/x"
        hosts.use(None)
        assert hosts.current() is None and hosts.link("/x") == "/x"
    finally:
        hosts.use(before)


def test_policy_keeps_every_letter_of_the_address(hosts) -> None:
    assert hosts.policy("XENIA", 8000, None).public_url == "http://xenia:8000"
    assert "xenia" in hosts.policy("[XENIA]", 80, None).names
