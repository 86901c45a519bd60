"""Row 15: one unreadable deck among several. The tests run as root, which reads any file, so
`unreadable(monkeypatch, path)` makes the operating system refuse that one path as it would
for a normal user on a chmod 000 file: os.access says no, opening raises PermissionError."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any


def unreadable(monkeypatch: Any, path: Path) -> None:
    real_access, real_open = os.access, os.open
    denied = os.fspath(path)

    def access(p: Any, mode: int, *args: Any, **kwargs: Any) -> bool:
        if os.fspath(p) == denied:
            return False
        return real_access(p, mode, *args, **kwargs)

    def open_(p: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(p) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", denied)
        return real_open(p, flags, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "open", open_)
    path.chmod(0)  # what a normal user would meet
