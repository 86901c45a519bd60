"""Open documents as the editor has them, and the places in their text the features work on.

The server keeps its own copy of each open buffer, because pygls's (its workspace's text
documents, which pygls fills from the same notifications) applies incremental changes to the
wrong text: it splits lines with `str.splitlines`, which also breaks at form feeds, vertical
tabs, U+001C-U+001E, NEL, U+2028 and U+2029, so a change below such a character lands on another
line; and it clamps a column past the end of a line without a line break to one character
before its end ("cd", column 5: "cXd", where LSP says "cdX"). Here LSP lines end at CR LF, CR or
LF only, and columns are counted in the negotiated unit (UTF-16 unless the client asked for
another); full and incremental changes are both taken.

The checkers count lines their own way (libyaml also breaks at NEL, U+2028 and U+2029; a text
list at every `str.splitlines` break), so a diagnostic's place is turned into an offset by the
reader's rule first, then into the LSP position of that offset.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_SPLITLINES_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

DECK_SUFFIXES = (".yaml", ".yml", ".txt")


def line_starts(text: str, breaks: re.Pattern[str] = _LSP_BREAK) -> list[int]:
    """The offset where each line starts."""
    return [0, *(m.end() for m in breaks.finditer(text))]


class Units:
    """How the client counts columns: "utf-16" (LSP's default), "utf-8" or "utf-32"."""

    def __init__(self, encoding: str = "utf-16") -> None:
        self.encoding = encoding

    def count(self, text: str) -> int:
        if self.encoding == "utf-32":
            return len(text)
        if self.encoding == "utf-8":
            return len(text.encode("utf-8", "surrogatepass"))
        if text.isascii():
            return len(text)
        return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)

    def index(self, line: str, units: int) -> int:
        """The code-point index in line of a column given in client units (clamped)."""
        if units <= 0:
            return 0
        if self.encoding == "utf-32" or line.isascii():
            return min(units, len(line))
        seen = 0
        for i, ch in enumerate(line):
            if seen >= units:
                return i
            seen += self.count(ch)
        return len(line)


@dataclass
class Document:
    """One open buffer: its text, version, and what kind of file it is."""

    uri: str
    path: Path
    text: str
    version: int | None = None
    language_id: str = ""
    _starts: list[int] | None = field(default=None, repr=False)
    _checker_starts: list[int] | None = field(default=None, repr=False)

    @property
    def is_text_list(self) -> bool:
        return self.path.suffix.lower() == ".txt"

    def set_text(self, text: str) -> None:
        self.text = text
        self._starts = self._checker_starts = None

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line break; "" past the end."""
        starts = self.starts
        if not 0 <= number < len(starts):
            return ""
        end = starts[number + 1] if number + 1 < len(starts) else len(self.text)
        return self.text[starts[number] : end].rstrip("\r\n")

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def offset(self, line: int, units: int, codec: Units) -> int:
        """The offset of an LSP position (clamped to the text)."""
        starts = self.starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.text)
        return starts[line] + codec.index(self.line(line), units)

    def position(self, offset: int, codec: Units) -> tuple[int, int]:
        """The LSP (line, column in client units) of an offset."""
        offset = max(0, min(offset, len(self.text)))
        starts = self.starts
        number = bisect.bisect_right(starts, offset) - 1
        # an offset between CR and LF belongs to the line the CR ends
        return number, codec.count(self.text[starts[number] : offset])

    def apply(self, start: tuple[int, int] | None, end: tuple[int, int] | None, new: str,
              codec: Units) -> None:  # fmt: skip
        """Apply one content change (a whole new text when start is None)."""
        if start is None or end is None:
            self.set_text(new)
            return
        a = self.offset(*start, codec)
        b = max(a, self.offset(*end, codec))
        self.set_text(self.text[:a] + new + self.text[b:])

    def checker_offset(self, line: int | None, column: int | None) -> int:
        """The offset of a checker's 1-based (line, column), counted the reader's way."""
        bom = 1 if self.text.startswith("\ufeff") else 0  # the reader drops a leading BOM
        if not line:
            return bom
        if self._checker_starts is None:
            breaks = _SPLITLINES_BREAK if self.is_text_list else _YAML_BREAK
            self._checker_starts = line_starts(self.text[bom:], breaks)
        starts = self._checker_starts
        if line > len(starts):
            return len(self.text)
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text) - bom
        return bom + min(start + max((column or 1) - 1, 0), end)
