"""The requests anyone may repeat that cost real work or storage, limited per client (see
docs/guides/organiser.md, "Run it on a server"): the anonymous live check and the submissions.

A client is its browser (the session or CSRF cookie the pages set) where it has one, else its
address (`client_address`: behind trusted proxies, the address the nearest one saw). A browser
has its own allowance, and all the browsers of one address share a far larger one (a venue's
300 players behind one address: each checks and submits as if alone, while one client flooding,
with or without cookies, is held back). The buckets live in Django's cache `varz-deck-limits`:
this process's memory unless $VARZ_DECK_LIMITS_CACHE names a shared one (every worker and
machine then counts together).
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse

from varz_deck.core.messages.i18n import msg
from varz_deck.server.security import TOO_LARGE, error_response, request_language

if TYPE_CHECKING:
    from django.core.cache.backends.base import BaseCache

# every address (True), or the trusted proxies' networks
Trusted = tuple[bool, tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]]


def _trusted(spec: str) -> Trusted:
    """Every address (`*`), or the networks of a comma-separated FORWARDED_ALLOW_IPS."""
    networks = []
    for part in spec.split(","):
        text = part.strip()
        if text == "*":
            return True, ()
        try:
            networks.append(ipaddress.ip_network(text, strict=False))
        except ValueError:
            continue
    return False, tuple(networks)


# gunicorn's `forwarded_allow_ips` reads the same variable, with the same default; the settings'
# VARZ_DECK_TRUSTED_PROXIES (config.trusted_proxies) replace it where Django is configured
TRUSTED = _trusted(os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1"))


def _is_trusted(address: str, trusted: Trusted) -> bool:
    anyone, networks = trusted
    if anyone:
        return True
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(found in network for network in networks)


def client_address(request: HttpRequest, trusted: Trusted = TRUSTED) -> str:
    """The client's address: the connection's, or, from a trusted proxy, the last address of
    X-Forwarded-For that is not a trusted proxy's (the one the nearest proxy saw; the earlier
    ones the client may have written itself)."""
    address = str(request.META.get("REMOTE_ADDR") or "")
    if not _is_trusted(address, trusted):
        return address
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop[:64]
    return hops[0][:64] if hops else address


LIVE_CHECK = re.compile(r"/(?:api/v1/)?events/[^/]+/check")
# what stores a list: a new one (the API, the submission page, a personal link) or a new version
# (the private link's form; the API's PUT, below)
SUBMISSION = re.compile(
    r"/api/v1/events/[^/]+/decklists|/events/[^/]+/submit|/decklists/[^/]+/[^/]+|/p/[^/]+"
)
REPLACEMENT = re.compile(r"/api/v1/decklists/[^/]+")
LIVE_CHECK_LIMIT = 32 * 1024  # bytes of a live check's body; a real deck is under 4 KiB
BURST = 30  # live checks one client address may make at once (in each worker process)
RATE = 3.0  # … and then each second (the page's script sends one after each 350 ms pause)
# lists one address may submit at once, then each second (in each worker process): a venue's
# players behind one address submit a few a minute; a flood of lists is held to one a second
SUBMIT_BURST = 60
SUBMIT_RATE = 1.0
# the browsers behind one address (a venue's network, a hosted deployment's proxy) share this
# many times one browser's allowance: 300 players at 2 live checks a second at the rush's peak
VENUE_FACTOR = 20
LIMITS_CACHE = "varz-deck-limits"  # the Django cache the buckets live in (config.caches)
_BROWSER = re.compile(r"[A-Za-z0-9]{32,64}")
TOO_MANY = msg("serve", "too many checks from this address; try again in {seconds} s")
TOO_MANY_LISTS = msg("serve", "too many lists from this address; try again in {seconds} s")


class TokenBuckets:
    """A token bucket per client in a Django cache: `take` spends a token, or says how many
    seconds until one is there. A bucket left alone until full is forgotten (the cache entry
    expires); without a cache given, a private one in this process keeps at most `most`. Two
    threads taking at the same moment may both get the last token (the cache has no atomic
    update): a limit, not an account."""

    def __init__(
        self,
        burst: int = BURST,
        rate: float = RATE,
        most: int = 4096,
        *,
        cache: BaseCache | None = None,
        prefix: str = "bucket",
    ) -> None:
        from django.core.cache.backends.locmem import LocMemCache

        self.burst, self.rate, self.most = burst, rate, most
        self.prefix = prefix
        self.ttl = math.ceil(burst / rate) + 1  # seconds until a bucket left alone is full
        options = {"OPTIONS": {"MAX_ENTRIES": most}}
        self.cache = cache if cache is not None else LocMemCache(f"varz-deck-{id(self)}", options)

    def take(self, client: str, now: float) -> float:
        name = f"varz-deck:{self.prefix}:{client}"
        tokens, then = self.cache.get(name) or (float(self.burst), now)
        tokens = min(float(self.burst), tokens + max(0.0, now - then) * self.rate)
        if tokens < 1.0:
            self.cache.set(name, (tokens, now), self.ttl)
            return (1.0 - tokens) / self.rate
        self.cache.set(name, (tokens - 1.0, now), self.ttl)
        return 0.0


def limited_kind(method: str, path: str) -> str | None:
    """The limit a request counts against: "check" (the live check), "submit" (a list or a new
    version stored), or None (not limited)."""
    if method == "POST" and LIVE_CHECK.fullmatch(path):
        return "check"
    if (method == "POST" and SUBMISSION.fullmatch(path)) or (
        method == "PUT" and REPLACEMENT.fullmatch(path)
    ):
        return "submit"
    return None


class RequestLimits:
    """The requests anyone may repeat that cost real work or storage: the anonymous live check
    (`POST /events/E/check`, and the API's) and the submissions (`limited_kind`), 429 with
    Retry-After; a refused request reaches no session, no view and no database. A live check's
    body is also limited to LIVE_CHECK_LIMIT (413, by its length, before it is parsed).

    A browser (`browser_key`) spends from its own bucket, then from its address's venue bucket
    (VENUE_FACTOR times larger); a client without cookies spends from its address's own bucket
    (BURST, RATE), as one browser. The buckets are in Django's cache LIMITS_CACHE."""

    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponse],
        clock: Callable[[], float] = time.time,
    ) -> None:
        from django.conf import settings
        from django.core.cache import caches

        self.get_response = get_response
        cache = caches[LIMITS_CACHE] if LIMITS_CACHE in settings.CACHES else None
        self.buckets = {
            "check": TokenBuckets(BURST, RATE, cache=cache, prefix="check"),
            "submit": TokenBuckets(SUBMIT_BURST, SUBMIT_RATE, cache=cache, prefix="submit"),
            "check-venue": TokenBuckets(
                BURST * VENUE_FACTOR, RATE * VENUE_FACTOR, cache=cache, prefix="check-venue"
            ),
            "submit-venue": TokenBuckets(
                SUBMIT_BURST * VENUE_FACTOR,
                SUBMIT_RATE * VENUE_FACTOR,
                cache=cache,
                prefix="submit-venue",
            ),
        }
        spec = getattr(settings, "VARZ_DECK_TRUSTED_PROXIES", None)
        self.trusted = _trusted(spec) if spec is not None else TRUSTED
        self.clock = clock

    def wait(self, kind: str, client: str) -> float:
        """Seconds before `client` may make a request of this kind (0: now, and it is counted)."""
        return self.buckets[kind].take(client, self.clock())

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = limited_kind(str(request.method), request.path_info)
        if kind is None:
            return self.get_response(request)
        address = client_address(request, self.trusted)
        browser = browser_key(request)
        if browser is None:
            wait = self.wait(kind, address)
        else:
            wait = self.wait(kind, "browser:" + browser) or self.wait(kind + "-venue", address)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            said = TOO_MANY if kind == "check" else TOO_MANY_LISTS
            text = said(seconds=seconds).render(request_language(request))
            response = error_response(429, "too_many_requests", text)
            response["Retry-After"] = str(seconds)
            return response
        length = str(request.META.get("CONTENT_LENGTH") or "0")
        if kind == "check" and (not length.isdigit() or int(length) > LIVE_CHECK_LIMIT):
            text = TOO_LARGE(limit=LIVE_CHECK_LIMIT).render(request_language(request))
            return error_response(413, "too_large", text)
        return self.get_response(request)


def browser_key(request: HttpRequest) -> str | None:
    """The browser a request comes from: its session cookie, else its CSRF cookie (the pages set
    one; the live check's script sends it); None without either (an API client)."""
    from django.conf import settings

    for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
        value = request.COOKIES.get(name, "")
        if _BROWSER.fullmatch(value):
            return f"{name[:1]}{value}"
    return None
