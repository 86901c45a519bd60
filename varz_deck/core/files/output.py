"""Writing output files safely.

`write_file_atomic` never follows a symlink at the target name: it writes a temporary file in the
same folder and renames it into place, so a symlink planted at the name is replaced, not
followed, and a reader never sees half a file. `fit_file_name` keeps a generated file name under
the file systems' 255-byte limit.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

# Well under the 255 bytes most file systems allow, leaving room for "-2" suffixes and editors'
# backup names.
MAX_NAME_BYTES = 120
_HASH_CHARS = 10


def write_file_atomic(path: Path, data: str | bytes) -> None:
    """Write data to path through a temporary file in its folder and os.replace (OSError on
    failure; the temporary file is removed)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".varz-deck-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a written file reads as usual
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fit_file_name(name: str, max_bytes: int = MAX_NAME_BYTES) -> str:
    """name when its UTF-8 form fits in max_bytes; else a readable prefix, "-", a short hash of
    the whole name, and the original extension (names that differ keep differing)."""
    if len(name.encode("utf-8")) <= max_bytes:
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot or len(ext) > 10:
        stem, ext = name, ""
    suffix = "-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:_HASH_CHARS]
    suffix += f".{ext}" if ext else ""
    room = max_bytes - len(suffix.encode("utf-8"))
    prefix = stem.encode("utf-8")[:room].decode("utf-8", errors="ignore").rstrip("-. ")
    return prefix + suffix
