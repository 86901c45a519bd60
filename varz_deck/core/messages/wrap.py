"""Text wrapped to a width in terminal cells (a CJK character takes two).

English breaks at spaces. Japanese and Chinese break at phrase boundaries, as BudouX (Google's
small phrase segmenter, made for exactly this) finds them, and at spaces; a phrase longer than
the width is the only thing cut inside. Strings given as `keep` (card names) are never broken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from budoux import Parser

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
CLOSING = "、。，．：；！？）」』】》〉”’・ー,.:;!?)"  # never at the start of a line (kinsoku)
KANA = re.compile(r"[\u3040-\u30ff]")
LATIN = re.compile(r"[!-~’]{2,}")  # a run of ASCII with no space: a word, a number, "P(cast)"


def cells(text: str) -> int:
    """The columns `text` takes in a terminal."""
    from rich.cells import cell_len

    return cell_len(text)


@lru_cache(maxsize=2)
def _parser(japanese: bool) -> Parser:
    import budoux  # imported only when Japanese or Chinese text is wrapped

    if japanese:
        return budoux.load_default_japanese_parser()
    return budoux.load_default_simplified_chinese_parser()


def break_points(text: str, keep: Iterable[str] = ()) -> list[int]:
    """The offsets a line may start at: after each space, and between two phrases of Japanese or
    Chinese text; none inside a string of `keep`."""
    cuts: set[int] = set()
    if CJK.search(text):
        at = 0
        for phrase in _parser(bool(KANA.search(text))).parse(text):
            at += len(phrase)
            cuts.add(at)
    cuts.update(
        i + 1
        for i, ch in enumerate(text)
        if ch == " "
        and not (0 < i < len(text) - 1 and text[i - 1].isdigit() and CJK.match(text[i + 1]))
    )  # a number stays with its counter ("3 枚", "4 张")
    for i in [c for c in cuts if c < len(text) and text[c] in CLOSING and text[c - 1] != " "]:
        cuts.discard(i)  # kinsoku: the break moves past the closing marks, they end the line
        while i < len(text) and text[i] in CLOSING:
            i += 1
        cuts.add(i)
    for word in LATIN.finditer(text):  # a Latin word or number inside Japanese stays whole
        cuts.difference_update(range(word.start() + 1, word.end()))
    for name in {k for k in keep if k}:
        for m in re.finditer(re.escape(name), text):
            cuts.difference_update(range(m.start() + 1, m.end()))
    return sorted(c for c in cuts if 0 < c < len(text))


def spans(
    text: str, width: int, keep: Iterable[str] = (), first: int | None = None
) -> list[tuple[int, int]]:
    """Where each line of the wrapped text starts and ends (spaces at a break dropped); the first
    line may have its own width."""
    cuts = break_points(text, keep)
    out: list[tuple[int, int]] = []
    start, n = 0, len(text)
    while start < n:
        while start < n and text[start] == " ":
            start += 1
        if start >= n:
            break
        room = max(1, first if first is not None and not out else width)
        if cells(text[start:].rstrip()) <= room:
            out.append((start, len(text[start:].rstrip()) + start))
            break
        best = None
        for c in cuts:
            if c <= start:
                continue
            if cells(text[start:c].rstrip()) > room:
                break
            best = c
        if best is None:  # one phrase or word longer than the line: cut it by cells
            best = start + 1
            while best < n and cells(text[start : best + 1]) <= room:
                best += 1
            while best - 1 > start and best < n and text[best] in CLOSING:
                best -= 1  # kinsoku: the character before a closing mark goes down with it
        end = best
        while end > start and text[end - 1] == " ":
            end -= 1
        out.append((start, end))
        start = best
    return out


def wrap(text: str, width: int, keep: Iterable[str] = ()) -> list[str]:
    """`text` in lines of at most `width` cells, broken at spaces and phrase boundaries."""
    return [text[a:b] for a, b in spans(text, width, keep)]
