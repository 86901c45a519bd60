"""Row 7: a 1 MB card file in which one 300,000-character text is aliased by 8,000 cards:
2.4 billion characters once expanded (the cache, the reports and every command pay for them).

`write(folder)` writes it as `folder/big.yaml`; `alias_line(n)` is the line of the n-th alias
(1-based), `alias_column()` its column.
"""

from __future__ import annotations

from pathlib import Path

LENGTH = 300_000
ALIASES = 8_000
FIRST = 8  # the aliasing cards start on line 8 (after `cards:` and the 6 lines of the first)


def _card(n: int) -> str:
    return f"  - {{id: VZ01-{n:04d}, name: Copy {n:04d}, type: command, color: red, cost: 1, text: "


def text() -> str:
    lines = [
        "cards:",
        "  - id: VZ01-0000",
        "    name: Long Text",
        "    type: command",
        "    color: red",
        "    cost: 1",
        "    text: &long " + "x" * LENGTH,
    ]
    lines += [_card(n) + "*long}" for n in range(1, ALIASES + 1)]
    return "\n".join(lines) + "\n"


def alias_line(n: int) -> int:
    return FIRST + n - 1


def alias_column(n: int) -> int:
    return len(_card(n)) + 1


def write(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "big.yaml").write_text(text(), encoding="utf-8")
    return folder / "big.yaml"
