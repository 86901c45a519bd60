"""Row 4: a `--sheet` folder (or a `--plot` path) holding a symlink named like the output."""

from __future__ import annotations

from pathlib import Path

SECRET = "do not overwrite me\n"


def write(folder: Path, sheet_name: str) -> tuple[Path, Path]:
    """A sheets folder whose `sheet_name` is a symlink to a file outside it; (folder, target)."""
    target = folder / "victim.txt"
    target.write_text(SECRET, encoding="utf-8")
    sheets = folder / "sheets"
    sheets.mkdir()
    (sheets / sheet_name).symlink_to(target)
    return sheets, target
