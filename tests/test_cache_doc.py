"""core/cachedoc.py on its own (issue 24, mutation testing): the header a read accepts, exactly
as written, and which records `fits_fields` checks."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest

from varz_deck.core import cachedoc

KEY = "0123456789abcdef0123456789abcdef01234567"
DOCUMENT = {"version": "9.9", "game": "varz", "cards": [{"file": "a.yaml"}], "formats": {}}


def test_encode_then_decode() -> None:
    text = cachedoc.encode(KEY, DOCUMENT)
    body = '{"version": "9.9", "game": "varz", "cards": [{"file": "a.yaml"}], "formats": {}}'
    digest = hashlib.blake2b(body.encode(), digest_size=20).hexdigest()
    assert text == f"varz-deck-cache 3 {KEY} {digest}\n{body}"
    assert cachedoc.decode(text, KEY, "9.9", "varz") == DOCUMENT


@pytest.mark.parametrize(
    "header",
    [
        "varz-deck-cache  3 {key} {sum}",  # two spaces
        "varz-deck-cache\t3 {key} {sum}",
        "varz-deck-cache 3 {key} {sum} ",
        " varz-deck-cache 3 {key} {sum}",
        "varz-deck-cache 3 {key} {sum} extra",
        "varz-deck-cache 2 {key} {sum}",
        "varz-deck-cachf 3 {key} {sum}",
    ],
)
def test_a_header_not_exactly_as_written_is_not_read(header: str) -> None:
    text = cachedoc.encode(KEY, DOCUMENT)
    _, _, body = text.partition("\n")
    digest = hashlib.blake2b(body.encode(), digest_size=20).hexdigest()
    assert (
        cachedoc.decode(f"{header.format(key=KEY, sum=digest)}\n{body}", KEY, "9.9", "varz") is None
    )


@pytest.mark.parametrize(
    ("version", "game"), [("9.8", "varz"), ("9.9", "azuki")], ids=["version", "game"]
)
def test_another_version_or_game_is_not_read(version: str, game: str) -> None:
    assert cachedoc.decode(cachedoc.encode(KEY, DOCUMENT), KEY, version, game) is None


def test_a_name_that_is_not_utf8_is_written_as_an_escape_and_read_back() -> None:
    document = {**DOCUMENT, "cards": [{"file": "sets/v\udcffz01.yaml"}]}
    text = cachedoc.encode(KEY, document)
    assert text.isascii() and "\\udcff" in text
    assert cachedoc.decode(text, KEY, "9.9", "varz") == document


@dataclass
class Record:
    count: int
    name: str | None


def test_fits_fields_checks_dataclass_records_only() -> None:
    assert cachedoc.fits_fields(Record(1, None))
    assert cachedoc.fits_fields(Record(1, "x"))
    assert not cachedoc.fits_fields(Record("1", None))  # type: ignore[arg-type]
    assert not cachedoc.fits_fields(Record(True, None))  # a bool is not a whole number here
    assert not cachedoc.fits_fields(Record(1, 2))  # type: ignore[arg-type]
    assert cachedoc.fits_fields(Record)  # the class itself: nothing to check
    assert cachedoc.fits_fields(object())  # not a dataclass: nothing declared to check
    assert cachedoc.fits_fields({"count": "x"})


def test_rebuild_is_none_when_making_fails_or_the_record_does_not_fit() -> None:
    assert cachedoc.rebuild(lambda: Record(1, None)) == Record(1, None)
    assert cachedoc.rebuild(lambda: Record("x", None)) is None  # type: ignore[arg-type]
    for error in (TypeError, ValueError, KeyError, AttributeError, RecursionError):

        def fails(error: type[Exception] = error) -> None:
            raise error("no")

        assert cachedoc.rebuild(fails) is None
