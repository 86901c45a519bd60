"""Row 13: a card-database cache file of the wrong shape.

`CASES` maps a name to the bytes written over a cache file: JSON that is not a cache document
(`[]`, `null`, a string, deep nesting that exhausts the recursion limit), a document with
missing or mistyped parts, cut-short JSON, and bytes that are not UTF-8. Each must be ignored
and the cache rebuilt: never AttributeError, RecursionError or a wrong database.
"""

from __future__ import annotations

DEPTH = 200_000

CARD = (
    '{"id": "VZ01-001", "name": "X", "type": "hero", "set": "VZ01", "file": "sets/vz01.yaml", '
    '"line": 1, "names": {}}'
)


def _one_card(line: str) -> bytes:
    """A document whose one card has `line` in place of `"line": 1`."""
    card = CARD.replace('"line": 1', line)
    return b'{"version": "0.1.0", "game": "varz", "cards": [' + card.encode() + b'], "formats": {}}'


BODIES = {
    "empty_list": b"[]",
    "null": b"null",
    "string": b'"cards"',
    "deep_lists": b"[" * DEPTH + b"]" * DEPTH,
    "deep_mappings": b'{"a":' * DEPTH + b"1" + b"}" * DEPTH,
    "cards_not_a_list": b'{"version": "0.1.0", "game": "varz", "cards": 5, "formats": {}}',
    "card_not_a_mapping": b'{"version": "0.1.0", "game": "varz", "cards": [[]], "formats": {}}',
    "card_field_mistyped": _one_card('"line": "one"'),
    # an optional field (`int | None`, `str | None`) holding neither of its types
    "optional_field_a_string": _one_card('"line": 1, "cost": "3"'),
    "optional_field_a_bool": _one_card('"line": 1, "cost": true'),
    "optional_field_a_number": _one_card('"line": 1, "color": 7'),
    "card_field_unknown": _one_card('"line": 1, "colour": "red"'),
    "formats_mistyped": (
        b'{"version": "0.1.0", "game": "varz", "cards": [' + CARD.encode() + b"], "
        b'"formats": {"standard": {"key": "standard", "name": 7}}}'
    ),
    "cut_short": b'{"version": "0.1.0", "game": "varz", "cards": [' + CARD.encode()[:40],
    "not_utf8": b"\xff\xfe\x00[",
}


def with_header(body: bytes, key: str) -> bytes:
    """The body behind a header that names the key with a correct checksum (the layout
    varz_deck/core/cards/cachedoc.py documents), so that the document itself is what is checked."""
    import hashlib

    digest = hashlib.blake2b(body, digest_size=20).hexdigest()
    return f"varz-deck-cache 3 {key} {digest}\n".encode() + body
