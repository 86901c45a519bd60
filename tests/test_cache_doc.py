"""core/cards/cachedoc.py on its own (issue 24, mutation testing): which records `fits_fields` checks,
and what `rebuild` makes of a card or format row of the card index (issue 27: the JSON cache
file and its header are gone; the index's own checks are in test_card_index.py and
test_cache_integrity.py)."""

from __future__ import annotations

from dataclasses import dataclass

from varz_deck.core.cards import cachedoc


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
