"""The date a deck is checked on (docs/guides/card-data.md): one place decides what "today" is."""

from __future__ import annotations

import datetime as dt
import os

TODAY_VARIABLE = "VARZ_DECK_TODAY"


def on_date(date: dt.date | None = None) -> dt.date:
    """The date given, else today in local time.

    `$VARZ_DECK_TODAY` (YYYY-MM-DD) stands in for today: a test hook that keeps outputs carrying
    the date byte-for-byte stable; a value that is not a date is ignored.
    """
    if date is not None:
        return date
    fixed = parse_date(os.environ.get(TODAY_VARIABLE, ""))
    return fixed if fixed is not None else dt.date.today()


def parse_date(text: str) -> dt.date | None:
    """A YYYY-MM-DD date (exactly that form), or None."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-" or not text.replace("-", "").isdigit():
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None
