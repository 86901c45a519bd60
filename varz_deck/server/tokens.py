"""Tokens: 192 random bits from `secrets`, shown once, stored only as their SHA-256, compared in
constant time (SPEC §9)."""

from __future__ import annotations

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
