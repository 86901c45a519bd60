"""Row 10: counts of 4,301+ digits in every deck form (list, mapping, .txt; VARZ and Azuki)."""

from __future__ import annotations

from pathlib import Path

DIGITS = 4400
N = "9" * DIGITS

# (file name, text, line and column of the count)
DECKS = [
    ("varz.txt", f"Hero: Shizuku Minase\nSpells:\n{N} Tide Sprite\n", (3, 1)),
    ("varz_list.yaml", f"hero: Shizuku Minase\nspells:\n  - {N} Tide Sprite\n", (3, 5)),
    ("varz_map.yaml", f"hero: Shizuku Minase\nspells:\n  Tide Sprite: {N}\n", (3, 16)),
    ("azuki_list.yaml", f"leader: STT01-001\nmain:\n  - {N} Alley Guy\n", (3, 5)),
    ("azuki.txt", f"Leader: STT01-001\nMain:\n{N} Alley Guy\n", (3, 1)),
    ("azuki_map.yaml", f"leader: STT01-001\nmain:\n  Alley Guy: {N}\n", (3, 14)),
]


def write(folder: Path) -> list[tuple[Path, tuple[int, int]]]:
    out = []
    for name, text, place in DECKS:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        out.append((path, place))
    return out
