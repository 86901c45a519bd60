"""Row 6: a 92 KB card file built on merge keys: one mapping of 1,000 keys merged (`<<: *base`)
into each of 1,000 cards, a million keys once expanded.

`write(folder)` writes it as `folder/bomb.yaml`; `alias_line(n)` is the line of the n-th card's
`<<: *base` (1-based), `COLUMN` its column.
"""

from __future__ import annotations

from pathlib import Path

KEYS = 1_000
CARDS = 1_000
COLUMN = 9  # `  - <<: *base`: the alias starts at column 9


def text() -> str:
    lines = ["base: &base"]
    lines += [f"  field_{i:04d}: value_{i:04d}" for i in range(KEYS)]
    lines.append("cards:")
    for n in range(CARDS):
        lines += [
            "  - <<: *base",
            f"    id: VZ01-{n:04d}",
            f"    name: Merged Card {n:04d}",
        ]
    return "\n".join(lines) + "\n"


def alias_line(n: int) -> int:
    """The line of the n-th card's alias: after `base:`, the keys and `cards:`, 3 lines a card."""
    return 1 + KEYS + 1 + 3 * (n - 1) + 1


def write(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bomb.yaml").write_text(text(), encoding="utf-8")
    return folder / "bomb.yaml"
