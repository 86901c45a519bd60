"""Text wrapped to a width in terminal cells (a CJK character takes two).

Spaced text (English) breaks at spaces. Between two CJK characters a line may break anywhere,
but never inside a run of Latin letters and digits ("0.0", "VAZ", "T0"), which stays whole
unless it alone is longer than the width.
"""

from __future__ import annotations


def cells(text: str) -> int:
    """The columns `text` takes in a terminal."""
    from rich.cells import cell_len

    return cell_len(text)


def _wide(ch: str) -> bool:
    return cells(ch) == 2


def _break_at(line: str) -> int:
    """Where to cut a line that is one character too long: after its last space, or between two
    characters one of which is wide; 0 when neither exists."""
    for i in range(len(line) - 1, 0, -1):
        if line[i] == " " or line[i - 1] == " " or _wide(line[i]) or _wide(line[i - 1]):
            return i
    return 0


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` cells (a single unbreakable word longer than the width
    is cut); no line starts or ends with a space."""
    lines: list[str] = []
    current = ""
    for ch in text:
        if current and cells(current + ch) > width:
            cut = (
                len(current) if ch == " " or _wide(ch) or _wide(current[-1]) else _break_at(current)
            )
            if cut == 0:
                cut = len(current)
            lines.append(current[:cut].rstrip())
            current = (current[cut:] + ch).lstrip()
        else:
            current += ch
    if current.strip():
        lines.append(current.rstrip())
    return lines
