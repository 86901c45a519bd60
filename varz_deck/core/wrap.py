"""Text wrapped to a width in terminal cells (a CJK character takes two).

English and other spaced text breaks at spaces; text without spaces (Japanese, Chinese) breaks
between characters, never inside a word shorter than the width.
"""

from __future__ import annotations


def cells(text: str) -> int:
    """The columns `text` takes in a terminal."""
    from rich.cells import cell_len

    return cell_len(text)


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` cells (a single unbreakable word longer than the width
    is cut); no line starts or ends with a space."""
    lines: list[str] = []
    current = ""
    for ch in text:
        if current and cells(current + ch) > width:
            cut = current.rfind(" ")
            if ch != " " and cut > 0:
                lines.append(current[:cut].rstrip())
                current = current[cut + 1 :] + ch
            else:
                lines.append(current.rstrip())
                current = ch.lstrip()
        else:
            current += ch
    if current.strip():
        lines.append(current.rstrip())
    return lines
