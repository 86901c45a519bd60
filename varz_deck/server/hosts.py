"""The server's public address and the Hosts a request may name.

Links that leave the page (the player's private link, which carries the edit token; the
dashboard's submission link) are built from the public URL: `serve --public-url URL`, else
`http://HOST:PORT` of the address listened on (on every address, 0.0.0.0: this machine's address
on its network). Never from the request's Host, which the client chooses.

A request naming another host is refused (400) before any view runs, as Django's ALLOWED_HOSTS
would refuse it: the public URL's host, the address listened on and the loopback names are
accepted; on every address, also any IP address literal (a player typing the laptop's address;
an address is no name a DNS-rebinding attack can point) and this machine's name. Standard
library only: the CLI checks `--public-url` before Django is imported.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

WILDCARDS = frozenset({"", "0.0.0.0", "::"})
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
# a host name's labels (an underscore too: machines are named so, though DNS names are not)
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?")
EXAMPLE = "https://decks.example.org"


@dataclass(frozen=True)
class Hosts:
    """The public URL (`scheme://host[:port]`, no trailing slash) and the hosts accepted."""

    public_url: str
    names: frozenset[str]  # lower case; an IPv6 address without its brackets
    any_address: bool = False  # listening on every address: any IP literal too

    def link(self, path: str) -> str:
        """The absolute URL of a path of this server."""
        return self.public_url + path

    def allows(self, header: str) -> bool:
        """Whether a request's Host header (`name`, `name:port`, `[v6]:port`) is this server."""
        host = _host_of(header)
        if host is None:
            return False
        if host in self.names:
            return True
        return self.any_address and _is_address(host)


def _host_of(header: str) -> str | None:
    """The host of a Host header, lower case, IPv6 without brackets; None when malformed."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not re.fullmatch(r":\d{1,5}", text[end + 1 :])):
            return None
        host = text[1:end]
        return host if _is_address(host) and ":" in host else None
    host, _, port = text.partition(":")
    if port and not port.isdigit():
        return None
    if _is_address(host) or _NAME.fullmatch(host):
        return host.rstrip(".")
    return None


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def public_url_problem(url: str) -> str | None:
    """Why a `--public-url` cannot be used (English, for the message), or None."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is not one)
    except ValueError:
        return "port"
    if parts.scheme not in ("http", "https"):
        return "scheme"
    if not parts.hostname or _host_of(parts.netloc.rpartition("@")[2]) is None:
        return "host"
    if parts.username is not None or parts.password is not None:
        return "credentials"
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return "path"  # the server's routes start at the root
    return None


def machine_name() -> str:
    return socket.gethostname().lower()


def machine_address() -> str:
    """This machine's address on its network (the one its route out takes; connecting a UDP
    socket sends nothing); its name when it has no route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
            return str(probe.getsockname()[0])
        except OSError:
            return machine_name()


def _netloc(host: str, port: int, scheme: str = "http") -> str:
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}[scheme]
    return shown if port == default else f"{shown}:{port}"


def policy(host: str, port: int, public_url: str | None) -> Hosts:
    """The hosts of a server listening on host:port (the port it got), with this public URL."""
    bound = host.strip("[]").lower()
    wildcard = bound in WILDCARDS
    names = set(LOOPBACK)
    if not wildcard:
        names.add(bound)
    else:
        name = machine_name()
        names.update({name, f"{name}.local"})
    if public_url:
        parts = urlsplit(public_url.strip())
        named = (parts.hostname or "").lower()
        scheme = parts.scheme.lower()
        given = parts.port or (443 if scheme == "https" else 80)
        base = f"{scheme}://{_netloc(named, given, scheme)}"
        names.add(named.rstrip("."))
    else:
        base = f"http://{_netloc(machine_address() if wildcard else bound, port)}"
    return Hosts(base, frozenset(names), any_address=wildcard)


_CURRENT: Hosts | None = None


def use(hosts: Hosts | None) -> None:
    """The hosts of this server (set by `serve` before its workers are forked)."""
    global _CURRENT
    _CURRENT = hosts


def current() -> Hosts | None:
    """This server's hosts; None where Django runs without `serve` (every host, relative links)."""
    return _CURRENT


def link(path: str) -> str:
    """The absolute URL of a path, from the public URL (the path itself without `serve`)."""
    return _CURRENT.link(path) if _CURRENT is not None else path


def url_parts(url: str) -> list[str]:
    """A URL cut after each slash and before each `?` and `&`: a page puts a <wbr> between the
    parts, so a long link wraps at a slash on a phone rather than mid-word."""
    return [part for part in re.findall(r"[?&]?[^/?&]*/*", url) if part]
