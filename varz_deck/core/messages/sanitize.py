"""The one sanitising layer every output goes through.

- Text: `safe()` escapes a value put into a message or a table; `quoted()` also shortens it.
- JSON: `json_dumps()` is the only JSON writer; C0 and C1 controls, DEL and bidi/zero-width
  controls come out as `\\uXXXX` escapes (json.dumps alone escapes C0 only).
- Streams: `SafeStream` wraps stdout/stderr at the entry point, so nothing a renderer missed
  reaches the terminal raw: controls other than newline and tab are escaped; ESC survives only
  as the colour (SGR) sequences the tool's own styling writes when colour is on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, TextIO

# C0 and C1 controls (ESC, CSI U+009B, OSC …), DEL, zero-width and bidi controls (U+061C, U+200E/F,
# U+202A–U+202E, U+2066–U+2069), line/paragraph separators, invisible operators, BOM.
UNSAFE_CHARS = "\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff"
_UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: object) -> str:
    """Text with control characters, terminal escapes and bidi overrides made visible."""
    return _UNSAFE.sub(_escape, str(text))


MAX_QUOTED = 80


def quoted(text: object) -> str:
    """A user-supplied value for a message: escaped, cut to a readable length, in quotes."""
    shown = safe(text)
    if len(shown) > MAX_QUOTED:
        shown = shown[: MAX_QUOTED - 1] + "…"
    return f"'{shown}'"


# json.dumps escapes C0 inside strings and writes only newlines and spaces between tokens.
_JSON_UNSAFE = re.compile(f"[{UNSAFE_CHARS.replace(chr(92) + 'x00-' + chr(92) + 'x1f', '')}]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def json_dumps(payload: object, *, indent: int | None = 2, **kwargs: Any) -> str:
    """A JSON document (no trailing newline) with every control and bidi character as `\\u`.

    json.dumps(ensure_ascii=False) already escapes C0 inside strings; any character left in the
    pattern can only stand inside a string, where `\\uXXXX` means the same character.
    """
    text = json.dumps(payload, ensure_ascii=False, indent=indent, **kwargs)
    return _JSON_UNSAFE.sub(_json_escape, text)


# What a stream may carry raw: newline and tab, and (with colour) SGR sequences such as ESC[1;31m.
_STREAM_UNSAFE = re.compile(f"\x1b\\[[0-9;]*m|[{UNSAFE_CHARS}]")
_STREAM_UNSAFE_NO_SGR = re.compile(f"[{UNSAFE_CHARS}]")


def _stream_escape(match: re.Match[str]) -> str:
    text = match.group(0)
    if len(text) > 1 or text in "\n\t":
        return text
    code = ord(text)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean_output(text: str, allow_sgr: bool = False) -> str:
    """Output text with every raw control and bidi character escaped (newline and tab kept)."""
    pattern = _STREAM_UNSAFE if allow_sgr else _STREAM_UNSAFE_NO_SGR
    return pattern.sub(_stream_escape, text)


class SafeStream:
    """A text stream that passes everything written through `clean_output`."""

    def __init__(self, stream: TextIO, allow_sgr: bool) -> None:
        self._stream = stream
        self._allow_sgr = allow_sgr

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click probes for binary streams with write(b"")
            raise TypeError("SafeStream takes text")
        self._stream.write(clean_output(text, self._allow_sgr))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:
        return getattr(self._stream, "errors", None)

    @property
    def closed(self) -> bool:
        return bool(getattr(self._stream, "closed", False))

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    @property
    def wrapped(self) -> TextIO:
        return self._stream
