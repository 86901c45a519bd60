"""A content hash for cache keys without hashlib's start-up cost (it initialises OpenSSL)."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython we support builds _blake2
    from hashlib import blake2b

__all__ = ["blake2b"]
