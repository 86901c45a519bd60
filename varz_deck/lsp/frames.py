"""LSP's base protocol read from a byte stream: header lines, a blank line, a JSON body.

The frames come from whatever writes to the server's stdin, so this reader stays ours rather
than pygls's: pygls's loop (`start_io`) takes only `Content-Length: N` spelled exactly so, reads
lines without a bound, allocates whatever length a header announces, and after one malformed
frame swallows every later header. `FrameReader` takes header names in any case and spacing
(HTTP-style headers, MAX_LINE bytes of them at most), never holds more than one frame of at most
MAX_FRAME bytes, and after anything that is not a frame looks for the next `Content-Length`
line. Such a line cannot stand inside a JSON body (a raw line break cannot stand in a JSON
string, and the bare word cannot stand outside one), so a body that holds one is not a body: the
reader starts again there.

`FrameStream` hands those frames to pygls: a binary stream that carries each frame in the one
spelling pygls's loop takes (`Content-Length: N`, a blank line, the body). `FrameStdin`, a
subclass of pygls's `StdinAsyncReader`, is what pygls's loop (`pygls.io_.run_async`) reads it
with: pygls's own reader waits in a thread for each header line and each body, three threads'
round trips a message, which made diagnostics after a change four times slower on a busy
machine (benchmarks/bench_lsp.py); this one waits in a thread only for the next frame, and hands
out the rest of a frame at once.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, BinaryIO, cast

from pygls.io_ import StdinAsyncReader

from varz_deck.core.files.source import CARD_FILE_LIMIT

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

MAX_FRAME = 4 * CARD_FILE_LIMIT  # a card file at its limit fits, JSON-escaped, in one didOpen
MAX_LINE = 4096  # bytes: a longer header line is not one, nor a longer block of header lines
CHUNK = 64 * 1024
_DIGITS = 12  # a longer length is over MAX_FRAME without converting it

_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([0-9]+)[ \t]*\r?\n", re.IGNORECASE)
_HEADER = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*:[^\r\n]*\r?\n")
_BLANK = re.compile(rb"\r?\n")

END = object()  # what `next` returns at the end of the stream
log = logging.getLogger("varz_deck.lsp")


class FrameReader:
    """The JSON values of the frames a stream carries; `skipped` counts the bytes passed over."""

    def __init__(self, read: Callable[[int], bytes], limit: int = MAX_FRAME) -> None:
        self._read = read
        self._limit = limit
        self._buffer = bytearray()
        self._eof = False
        self._header = 0  # bytes of the last frame's header lines
        self.skipped = 0

    def next(self) -> object:
        """The next frame's JSON value, or END when the stream ends."""
        body = self.body()
        return END if body is None else json.loads(body)

    def body(self) -> bytes | None:
        """The next frame's body (JSON), or None when the stream ends."""
        while True:
            body = self._frame()
            if body is None:
                return None
            try:
                json.loads(body)
                return body
            except (ValueError, RecursionError):
                # not a body (cut short, or a length too short): look for a header inside it
                self._buffer[:0] = body
                self.skipped += self._header

    def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = self._read(CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._buffer += chunk
        return True

    def _drop(self, count: int) -> None:
        del self._buffer[:count]
        self.skipped += count

    def _seek(self) -> re.Match[bytes] | None:
        """A Content-Length line at the start of the buffer, what was before it dropped."""
        while True:
            found = _LENGTH.search(self._buffer)
            if found is not None:
                self._drop(found.start())
                return _LENGTH.match(self._buffer)
            if len(self._buffer) > MAX_LINE:
                self._drop(len(self._buffer) - MAX_LINE)
            if not self._fill():
                return None

    def _line_end(self, start: int) -> int | None:
        """Where the line from start ends (after its LF); None past MAX_LINE or the stream."""
        while True:
            newline = self._buffer.find(b"\n", start, start + MAX_LINE)
            if newline >= 0:
                return newline + 1
            if len(self._buffer) - start >= MAX_LINE or not self._fill():
                return None

    def _frame(self) -> bytes | None:
        """The next frame's body, or None at the end of the stream."""
        while True:
            found = self._seek()
            if found is None:
                return None
            digits = found.group(1)
            length = int(digits) if len(digits) <= _DIGITS else self._limit + 1
            if not 1 <= length <= self._limit:
                self._drop(1)  # not this header: the next one
                continue
            start = self._headers(found.end())
            if start is not None and self._body(start, start + length):
                body = bytes(self._buffer[start : start + length])
                del self._buffer[: start + length]
                self._header = start
                return body

    def _headers(self, start: int) -> int | None:
        """Where the body starts after the header lines from start; None (the frame's start
        dropped) when they are not header lines, hold another Content-Length line, or run past
        MAX_LINE bytes (the buffer starts with the frame's Content-Length line)."""
        while True:
            end = self._line_end(start)
            if end is None or end > MAX_LINE:
                self._drop(1)
                return None
            line = self._buffer[start:end]
            other = _LENGTH.search(line)
            if other is not None:
                self._drop(start + other.start())
                return None
            if _BLANK.fullmatch(line):
                return end
            if not _HEADER.fullmatch(line):
                self._drop(1)
                return None
            start = end

    def _body(self, start: int, end: int) -> bool:
        """Wait for the body's bytes; False when a Content-Length line turns up in them
        (dropped up to it) or the stream ends."""
        scanned = start
        while True:
            other = _LENGTH.search(self._buffer, scanned, end)
            if other is not None:
                self._drop(other.start())
                return False
            if len(self._buffer) >= end:
                return True
            scanned = max(start, len(self._buffer) - MAX_LINE)
            if not self._fill():
                self._drop(len(self._buffer))
                return False


class FrameStream(io.RawIOBase):
    """The frames a FrameReader finds in `read`'s bytes, each as `Content-Length: N` and a blank
    line before its body; then the end of the stream."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        super().__init__()
        self.frames = FrameReader(read)
        self._out = b""
        self._at = 0

    def readable(self) -> bool:
        return True

    @property
    def pending(self) -> bool:
        """Whether bytes of the current frame are left (to read without waiting)."""
        return self._at < len(self._out)

    def _next(self) -> bool:
        """Make sure there are bytes to hand out; False at the end of the stream."""
        if self._at < len(self._out):
            return True
        body = self.frames.body()
        if self.frames.skipped:
            log.warning("skipped %d bytes that were not an LSP message", self.frames.skipped)
            self.frames.skipped = 0
        if body is None:
            self._out, self._at = b"", 0
            return False
        self._out, self._at = b"Content-Length: %d\r\n\r\n" % len(body) + body, 0
        return True

    def readline(self, size: int | None = -1) -> bytes:
        if not self._next():
            return b""
        end = self._out.find(b"\n", self._at) + 1 or len(self._out)
        if size is not None and size >= 0:
            end = min(end, self._at + size)
        line, self._at = self._out[self._at : end], end
        return line

    def readinto(self, buffer: WriteableBuffer) -> int:
        if not self._next():
            return 0
        view = memoryview(buffer).cast("B")
        count = min(len(view), len(self._out) - self._at)
        view[:count] = self._out[self._at : self._at + count]
        self._at += count
        return count


class FrameStdin(StdinAsyncReader):
    """pygls's reader of a stream, on a FrameStream: a thread waits for the next frame; the rest
    of a frame (its blank line, its body) is handed out at once."""

    def __init__(self, frames: FrameStream, executor: ThreadPoolExecutor | None = None) -> None:
        super().__init__(cast(BinaryIO, frames), executor)
        self.frames = frames

    def readline(self) -> Awaitable[bytes]:
        if self.frames.pending:
            return _done(self.frames.readline())
        return super().readline()

    def readexactly(self, n: int) -> Awaitable[bytes]:
        if self.frames.pending:
            return _done(self.frames.read(n) or b"")
        return super().readexactly(n)


async def _done(value: bytes) -> bytes:
    return value
