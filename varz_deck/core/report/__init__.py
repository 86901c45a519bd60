"""Reporters: pure functions from results to a string, one module per output format."""

from __future__ import annotations

import re

from varz_deck.core.messages.sanitize import json_dumps, safe

# A lone surrogate is a byte of a file name that is not UTF-8 (os.fsdecode's surrogate escape):
# no encoder can write it, so it is shown as Python's backslashreplace shows it, `\udcff`.
_SURROGATE = re.compile("[\ud800-\udfff]")


def shown(text: object) -> str:
    """safe() text, with a lone surrogate as `\\udcff`: the text can be written as UTF-8."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", safe(text))


def json_document(payload: object) -> str:
    """A JSON document and newline (sanitize.json_dumps); a lone surrogate in a string becomes
    the text `\\udcff` (a backslash and five letters), as the text output shows it, since a
    JSON `\\udcff` escape would stand for a character no UTF-8 reader accepts."""
    text = json_dumps(payload)
    return _SURROGATE.sub(lambda m: f"\\\\u{ord(m[0]):04x}", text) + "\n"
