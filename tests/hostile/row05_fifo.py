"""Row 5: a FIFO given as a deck, and a FIFO named like a card file in a database."""

from __future__ import annotations

import os
from pathlib import Path


def write(folder: Path) -> Path:
    """A FIFO named deck.yaml (nobody ever writes to it: reading it would wait forever)."""
    path = folder / "deck.yaml"
    os.mkfifo(path)
    return path
