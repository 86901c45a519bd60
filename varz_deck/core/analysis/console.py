"""The console `sim`, `stats` and `tune` render their text reports into: rich, writing into memory,
with colour only when asked and the width given."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def report_console(color: bool, width: int) -> Console:
    """A console writing into memory (read it back with `printed`): standard colours or none,
    no highlighting, emoji or soft wrapping."""
    from rich.console import Console

    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        soft_wrap=False,
    )


def printed(console: Console) -> str:
    """What a console of `report_console` printed."""
    written = console.file
    assert isinstance(written, io.StringIO)
    return written.getvalue()
