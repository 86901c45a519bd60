"""Reading untrusted files into text: size limit, UTF-8 only, one error type."""

from __future__ import annotations

from pathlib import Path

from varz_deck.core.diagnostics import Mark
from varz_deck.core.i18n import English, Message, Quoted, msg

MIB = 1024 * 1024
DECK_FILE_LIMIT = 1 * MIB
CARD_FILE_LIMIT = 16 * MIB


class LoadError(Exception):
    """A file could not be turned into data; carries the diagnostic code, message and place.

    `message` is kept as English text; made from a Message, it is an `English` string that
    carries the Message along, so `diag(err.code, err.message, ...)` stays translatable.
    """

    def __init__(self, code: str, message: str | Message, mark: Mark | None = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message: str = English(message) if isinstance(message, Message) else message
        self.mark = mark


def read_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes, or F001 for anything that is not a readable file under the limit."""
    try:
        if path.is_dir():
            raise LoadError("F001", msg("F001", "is a folder, not a file; give a deck file"))
        size = path.stat().st_size
        if size > limit:
            raise LoadError(
                "F001",
                msg("F001", "is {size:,} bytes; files over {limit:,} bytes are not read")(
                    size=size, limit=limit
                ),
            )
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except LoadError:
        raise
    except FileNotFoundError:
        raise LoadError("F001", msg("F001", "no such file; check the path")) from None
    except PermissionError:
        raise LoadError("F001", msg("F001", "cannot be read: permission denied")) from None
    except (OSError, ValueError) as exc:
        raise LoadError(
            "F001", msg("F001", "cannot be read: {error}")(error=Quoted(exc.__class__.__name__))
        ) from None
    if len(data) > limit:
        raise LoadError(
            "F001",
            msg("F001", "is over {limit:,} bytes; files that large are not read")(limit=limit),
        )
    return data


def decode(data: bytes) -> str:
    """UTF-8 text (a leading BOM is dropped); UTF-16/32 and broken UTF-8 are F001."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        len(data) >= 2 and (data[0] == 0 or data[1] == 0)
    ):
        raise LoadError("F001", msg("F001", "is UTF-16 or UTF-32 text; save it as UTF-8"))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        raise LoadError(
            "F001",
            msg("F001", "is not valid UTF-8 (byte 0x{byte:02x}); save it as UTF-8")(
                byte=data[exc.start]
            ),
            Mark(line, column),
        ) from None


def read_text(path: Path, limit: int) -> str:
    """Read and decode one untrusted file."""
    return decode(read_bytes(path, limit))
