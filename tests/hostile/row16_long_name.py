"""Row 16: deck files whose names make sheet names too long for the file system (255 bytes)."""

from __future__ import annotations

import shutil
from pathlib import Path

# 251 characters of name + ".txt" = 255 bytes: the longest name a deck file can have.
LONG_ASCII = "a" * 251 + ".txt"
# 83 CJK characters (3 bytes each) = 249 bytes + ".txt".
LONG_CJK = "山" * 83 + ".txt"


def write(folder: Path, example: Path) -> list[Path]:
    paths = []
    for name in (LONG_ASCII, LONG_CJK):
        path = folder / name
        shutil.copyfile(example, path)
        paths.append(path)
    return paths
