"""Reading untrusted files into text: size limit, UTF-8 only, one error type."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePath

from varz_deck.core.messages.diagnostics import Mark
from varz_deck.core.messages.i18n import English, Message, Quoted, msg

MIB = 1024 * 1024
DECK_FILE_LIMIT = 1 * MIB
CARD_FILE_LIMIT = 16 * MIB


# A deck code (two capitals, a version digit, URL-safe base64) with punctuation stuck to its end.
_STRAY_AFTER_CODE = re.compile(r"\s*[A-Z]{2}[0-9][A-Za-z0-9_-]{8,}([.,;:!?。、]+)\s*")


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


_TOO_BIG = msg("F001", "is {size:,} bytes; files over {limit:,} bytes are not read")


def buffer_bytes(text: str, limit: int) -> bytes:
    """An editor's buffer as the bytes its file would hold once saved; F001 over the limit, as
    for such a file (the bytes are decoded as a file's are, so a lone surrogate is F001 there)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > limit:
        raise LoadError("F001", _TOO_BIG(size=len(data), limit=limit))
    return data


def read_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes, or F001 for anything that is not a readable regular file under the limit.

    The file is opened without blocking and checked with fstat before a byte is read: a FIFO, a
    device or a socket is refused at once, never waited on.
    """
    try:
        if path.is_dir():
            raise LoadError("F001", msg("F001", "is a folder, not a file; give a deck file"))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise LoadError("F001", msg("F001", "is a folder, not a file; give a deck file"))
            if not stat.S_ISREG(info.st_mode):
                raise LoadError(
                    "F001",
                    msg("F001", "is not a regular file (a pipe, device or socket); give a file"),
                )
            if info.st_size > limit:
                raise LoadError("F001", _TOO_BIG(size=info.st_size, limit=limit))
            data = handle.read(limit + 1)
    except LoadError:
        raise
    except FileNotFoundError:
        stray = _STRAY_AFTER_CODE.fullmatch(str(path))
        if stray is not None:  # a deck code pasted with the sentence's full stop
            raise LoadError(
                "F009",
                msg(
                    "F009",
                    "looks like a deck code with a stray {char} at the end; remove it and try again",
                )(char=Quoted(stray.group(1))),
            ) from None
        raise LoadError("F001", msg("F001", "no such file; check the path")) from None
    except PermissionError:
        raise LoadError("F001", msg("F001", "cannot be read: permission denied")) from None
    except (OSError, ValueError) as exc:
        raise LoadError("F001", os_problem(exc)) from None
    if len(data) > limit:
        raise LoadError(
            "F001",
            msg("F001", "is over {limit:,} bytes; files that large are not read")(limit=limit),
        )
    return data


def os_problem(exc: BaseException) -> Message:
    """What an OSError reading or writing a file means, said for a person."""
    number = getattr(exc, "errno", None)
    if number == errno.ELOOP:
        return msg("F001", "cannot be read: it is a symlink loop; point the link at a real file")
    if number == errno.ENAMETOOLONG:
        return msg("F001", "cannot be read: the file name is too long")
    if number == errno.EACCES or isinstance(exc, PermissionError):
        return msg("F001", "cannot be read: permission denied")
    if number == errno.ENOTDIR:
        return msg("F001", "no such file: a part of the path is a file, not a folder")
    reason = getattr(exc, "strerror", None)
    if reason:
        return msg("F001", "cannot be read: {error}")(error=Quoted(reason))
    return msg("F001", "cannot be read: {error}")(error=Quoted(exc.__class__.__name__))


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


@dataclass(frozen=True)
class DeckSource:
    """One deck as a command received it: the name it is shown by, and its text or why it has none.

    Made from a file (`from_path`), standard input or an HTTP body (`from_bytes`), or an editor's
    buffer (`DeckSource(name, text)`). Readers take it, so each deck is read once, through the
    same limits, wherever it came from. `argument` is a DECK argument that names no file: a deck
    code, perhaps, which the game that owns its prefix reads.
    """

    name: str
    text: str | None = None
    problem: LoadError | None = None
    argument: str | None = None

    @classmethod
    def from_path(cls, path: Path, limit: int = DECK_FILE_LIMIT) -> DeckSource:
        """A deck file read (at most `limit` bytes), or the reason it cannot be."""
        try:
            return cls(str(path), read_text(path, limit))
        except LoadError as err:
            try:
                missing = not os.path.lexists(path)
            except (OSError, ValueError):
                missing = True  # a name too long for a file
            return cls(str(path), None, err, str(path) if missing else None)

    @classmethod
    def from_bytes(cls, name: str, data: bytes, limit: int = DECK_FILE_LIMIT) -> DeckSource:
        """A deck received as bytes (standard input, an upload): UTF-8 of at most `limit` bytes."""
        if len(data) > limit:
            too_big = msg("F001", "is over {limit:,} bytes; files that large are not read")
            return cls(name, None, LoadError("F001", too_big(limit=limit)))
        try:
            return cls(name, decode(data))
        except LoadError as err:
            return cls(name, None, err)

    @classmethod
    def from_text(cls, name: str, text: str, limit: int = DECK_FILE_LIMIT) -> DeckSource:
        """An editor's buffer or a form's text, read through the limits a file on disk has."""
        try:
            return cls.from_bytes(name, buffer_bytes(text, limit), limit)
        except LoadError as err:
            return cls(name, None, err)

    @property
    def suffix(self) -> str:
        """The name's suffix, lower case ("" for none): `.txt` is a text list."""
        return PurePath(self.name).suffix.lower()

    def head(self, size: int = 65536) -> str:
        """The start of the text (or of the argument), for telling whose deck it is."""
        return (self.text if self.text is not None else self.argument or "")[:size]
