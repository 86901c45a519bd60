"""Row 1: the formats file under another name than formats.yaml.

`write(folder, *names)` copies the bundled VARZ card files into `folder` and writes the same
formats file under each of `names` at its root: `formats.yml` must be read (it bans Cinder Hound,
VZ01-008, which examples/red-kagura-festival.yaml plays three of); a near miss such as
`Formats.yaml`, `format.yaml` or `formats.yaml.txt`, or formats.yaml and formats.yml together, must
be an error (C007), never a silent fallback to the built-in formats.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
BANNED = "VZ01-008"
FORMATS = f"""formats:
  standard:
    name: Standard
    max_effect_portals: 2
    banned: [{BANNED}]
  pioneer:
    name: Pioneer
    portals: pooled
"""
NEAR_MISSES = ("Formats.yaml", "format.yaml", "formats.yaml.txt", "FORMATS.YML", "fromats.yml")


def write(folder: Path, *names: str) -> Path:
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", folder / "sets")
    for name in names:
        (folder / name).write_text(FORMATS, encoding="utf-8")
    return folder


def write_azuki(folder: Path) -> Path:
    """The bundled Azuki database with its formats file (which says `game: azuki`) renamed
    formats.yml: it must still be read as an Azuki database."""
    shutil.copytree(ROOT / "card_data" / "azuki", folder)
    (folder / "formats.yaml").rename(folder / "formats.yml")
    return folder
