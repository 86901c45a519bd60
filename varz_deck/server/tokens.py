"""Tokens: 192 random bits from `secrets`, shown once, stored only as their SHA-256, compared in
constant time (docs/guides/organiser.md). A roster entry's personal token is derived (`roster_token`), so its link can
be shown again."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits; 32 URL-safe characters
EVENT_KEY_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read aloud, typed
EVENT_KEY_LENGTH = 10  # 50 bits: event ids are not secrets, only hard to guess


def new_token() -> str:
    """A fresh token for a URL or a header."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored: str) -> bool:
    """Whether a token given by a client is the one whose hash is stored (constant time)."""
    if not token or not stored:
        return False
    return hmac.compare_digest(token_hash(token), stored)


def new_event_key() -> str:
    """An event's public id, e.g. `k3m9q2x7ab`."""
    return "".join(secrets.choice(EVENT_KEY_ALPHABET) for _ in range(EVENT_KEY_LENGTH))


def new_salt() -> str:
    """A random per-entry salt (128 bits, hex) for a derived token."""
    return secrets.token_hex(16)


def roster_token(key: str, event: str, salt: str) -> str:
    """A roster entry's personal token: an HMAC-SHA256 of the server's key over the event and the
    entry's salt, cut to 192 bits. Rebuilt whenever the link is shown again: nothing but its hash
    is stored, and without the key the salt gives nothing away."""
    message = f"varz-deck roster link\x00{event}\x00{salt}".encode()
    digest = hmac.new(key.encode("utf-8", "surrogatepass"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode("ascii")
