"""The LSP frame reader (varz_deck/lsp/frames.py), in this process: every valid frame is read
whatever garbage comes before it, in whatever pieces the stream delivers it, and the reader never
holds much more than one frame (issue 24, rows 8 and 9). tests/test_lsp_frames.py drives the real
process with the same kinds of bytes."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.lsp.frames import CHUNK, END, MAX_FRAME, MAX_LINE, FrameReader


def frame(value: Any, header: str = "Content-Length: {n}\r\n\r\n") -> bytes:
    body = json.dumps(value).encode("utf-8")
    return header.format(n=len(body)).encode("ascii") + body


def reader_of(data: bytes, sizes: Iterator[int] | None = None) -> FrameReader:
    stream = io.BytesIO(data)

    def read(n: int) -> bytes:
        return stream.read(min(n, next(sizes)) if sizes is not None else n)

    return FrameReader(read)


def read_all(reader: FrameReader) -> list[Any]:
    out = []
    while (value := reader.next()) is not END:
        out.append(value)
    return out


def is_subsequence(wanted: list[Any], got: list[Any]) -> bool:
    found = iter(got)
    return all(any(x == w for x in found) for w in wanted)


# --------------------------------------------------------------------------- examples


def test_frames_back_to_back_are_read_in_order() -> None:
    data = frame({"id": 1}) + frame({"id": 2, "text": "スコーチ \U0001f525"}) + frame([3])
    assert read_all(reader_of(data)) == [{"id": 1}, {"id": 2, "text": "スコーチ \U0001f525"}, [3]]


@pytest.mark.parametrize(
    "header",
    [
        "content-length: {n}\r\n\r\n",
        "CONTENT-LENGTH: {n}\r\n\r\n",
        "Content-Length:{n}\r\n\r\n",
        "Content-Length : {n}\r\n\r\n",
        "Content-Length:\t{n}\t\r\n\r\n",
        "Content-Length: {n}\n\n",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: {n}\r\n\r\n",
        "Content-Length: {n}\r\nContent-Type: application/vscode-jsonrpc\r\nX-A: b\r\n\r\n",
        "Content-Length: 0{n}\r\n\r\n",
    ],
)
def test_header_spellings_that_http_allows_are_read(header: str) -> None:
    assert read_all(reader_of(frame({"id": 1}, header) + frame({"id": 2}))) == [
        {"id": 1},
        {"id": 2},
    ]


BAD = {
    "length abc": b"Content-Length: abc\r\n\r\n" + b'{"id": 0}',
    "length -5": b"Content-Length: -5\r\n\r\n" + b'{"id": 0}',
    "length 0": b"Content-Length: 0\r\n\r\n" + b'{"id": 0}',
    "length 1.5": b"Content-Length: 1.5\r\n\r\n" + b'{"id": 0}',
    "length 99999999999999": b"Content-Length: 99999999999999\r\n\r\n{}",
    "length of 5000 digits": b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}",
    "length one over the limit": f"Content-Length: {MAX_FRAME + 1}\r\n\r\n{{}}".encode(),
    "2 bytes short": b"Content-Length: 7\r\n\r\n" + b'{"id": 0}',
    "2 bytes long": b"Content-Length: 10\r\n\r\n" + b'{"id": 0}',
    "far too long": b"Content-Length: 5000\r\n\r\n" + b'{"id": 0}',
    "no blank line": b"Content-Length: 9\r\n" + b'{"id": 0}',
    "a header line that is not one": b"Content-Length: 9\r\nnot a header\r\n\r\n" + b'{"id": 0}',
    "a header line too long": b"Content-Length: 9\r\nX: "
    + b"y" * (MAX_LINE + 10)
    + b"\r\n\r\n"
    + b'{"id": 0}',
    "header lines too long together": b"Content-Length: 9\r\n"
    + b"X: y\r\n" * (MAX_LINE // 6 + 1)
    + b"\r\n"
    + b'{"id": 0}',
    "a header cut off": b"Content-Len",
    "a length cut off": b"Content-Length: 5",
    "a body that is not JSON": b"Content-Length: 9\r\n\r\nnot json!",
    "a body that is not UTF-8": b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
    "a body nested too deep": b"Content-Length: 200000\r\n\r\n" + b"[" * 200000,
    "an HTTP request": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "NUL bytes": b"\x00" * 100,
}


@pytest.mark.parametrize("piece", [None, 7], ids=["at once", "7 bytes a read"])
@pytest.mark.parametrize("kind", sorted(BAD))
def test_after_a_bad_frame_the_next_frame_is_read(kind: str, piece: int | None) -> None:
    sizes = iter(lambda: piece, None) if piece is not None else None
    got = read_all(reader_of(BAD[kind] + frame({"id": 1}) + frame({"id": 2}), sizes))
    assert got[-2:] == [{"id": 1}, {"id": 2}]
    assert {"id": 0} not in got


@pytest.mark.parametrize(
    "data",
    [
        # another Content-Length line among the header lines: the frame starts there
        b"Content-Length: 9\r\nContent-Length: 10\r\n\r\n" + b'{"id": 10}',
        b"Content-Length: 9\r\nX-A: content-length: 10\r\n\r\n" + b'{"id": 10}',
    ],
)
def test_a_content_length_line_among_the_headers_starts_the_frame(data: bytes) -> None:
    assert read_all(reader_of(data + frame({"id": 2}))) == [{"id": 10}, {"id": 2}]


def test_a_one_byte_body_is_read() -> None:
    assert read_all(reader_of(b"Content-Length: 1\r\n\r\n7" + frame({"id": 2}))) == [7, {"id": 2}]


def test_every_byte_passed_over_is_counted() -> None:
    junk = b"g" * (CHUNK + 10)  # longer than a read: most of it dropped before the frame comes
    reader = reader_of(junk + frame({"id": 1}))
    assert reader.next() == {"id": 1}
    assert reader.skipped == len(junk)
    cut = b"Content-Length: 7\r\n\r\n" + b'{"id": 0}'  # too short: not JSON, passed over
    reader = reader_of(b"junk" + cut + frame({"id": 1}))
    assert reader.next() == {"id": 1}
    assert reader.skipped == len(b"junk" + cut)


def test_skipped_bytes_are_counted() -> None:
    reader = reader_of(b"garbage!" + frame({"id": 1}))
    assert reader.next() == {"id": 1}
    assert reader.skipped == len(b"garbage!")
    reader = reader_of(b"Content-Length: 7\r\n\r\n" + b'{"id": 0}' + frame({"id": 1}))
    assert reader.next() == {"id": 1}
    assert reader.skipped == len(b"Content-Length: 7\r\n\r\n" + b'{"id": 0}')


def test_the_end_of_the_stream_ends_the_reader_even_mid_frame() -> None:
    for tail in (b"", b"Content-Length: 20\r\n\r\n{", b"Content-Length: 20\r\n", b"Content"):
        reader = reader_of(frame({"id": 1}) + tail)
        assert reader.next() == {"id": 1}
        assert reader.next() is END
        assert reader.next() is END


def test_a_body_split_across_many_reads_is_read_whole() -> None:
    data = frame({"id": 1, "text": "x" * 100_000}) + frame({"id": 2})
    got = read_all(reader_of(data, iter(lambda: 7, None)))
    assert got == [{"id": 1, "text": "x" * 100_000}, {"id": 2}]


def test_a_frame_at_the_limit_is_read_and_one_over_is_not() -> None:
    body_at = b'"' + b"a" * (MAX_FRAME - 2) + b'"'
    data = f"Content-Length: {MAX_FRAME}\r\n\r\n".encode() + body_at
    assert read_all(reader_of(data + frame({"id": 1}))) == ["a" * (MAX_FRAME - 2), {"id": 1}]
    over = b'"' + b"a" * (MAX_FRAME - 1) + b'"'
    data = f"Content-Length: {MAX_FRAME + 1}\r\n\r\n".encode() + over
    assert read_all(reader_of(data + frame({"id": 1}))) == [{"id": 1}]


class Watched:
    """A stream of `total` bytes of filler after a header, then a frame; records how large the
    reader's buffer grows."""

    def __init__(self, header: bytes, total: int, reader_box: list[FrameReader]) -> None:
        self.parts = [header]
        self.left = total
        self.tail = frame({"id": 1})
        self.box = reader_box
        self.peak = 0
        self.filler = b"1,"

    def read(self, n: int) -> bytes:
        if self.box:
            self.peak = max(self.peak, len(self.box[0]._buffer))
        if self.parts:
            return self.parts.pop()
        if self.left > 0:
            size = min(n, self.left)
            self.left -= size
            return (self.filler * (size // len(self.filler) + 1))[:size]
        out, self.tail = self.tail, b""
        return out


@pytest.mark.parametrize("length", [99_999_999_999_999, MAX_FRAME + 1])
def test_an_oversized_frame_is_skipped_without_holding_it(length: int) -> None:
    box: list[FrameReader] = []
    stream = Watched(f"Content-Length: {length}\r\n\r\n[".encode(), 8 * 1024 * 1024, box)
    reader = FrameReader(stream.read)
    box.append(reader)
    assert read_all(reader) == [{"id": 1}]
    assert stream.peak <= MAX_LINE + CHUNK


def test_endless_header_lines_are_skipped_without_holding_them() -> None:
    """A header block that never ends (8 MiB of `X: y` lines): not a frame; the reader holds
    a bounded part of it, then reads the frame after it."""
    box: list[FrameReader] = []
    stream = Watched(b"Content-Length: 5\r\n", 8 * 1024 * 1024, box)
    stream.filler = b"X: y\r\n"
    reader = FrameReader(stream.read)
    box.append(reader)
    assert read_all(reader) == [{"id": 1}]
    assert stream.peak <= 2 * MAX_LINE + CHUNK


# --------------------------------------------------------------------------- property

PIECES = [
    b"Content-Length: ", b"content-length:", b"CONTENT-LENGTH :", b"Content-Length: 0",
    b"Content-Length: 1", b"Content-Length: 5", b"Content-Length: 30", b"Content-Length: 4000",
    b"Content-Length: 99999999999999", b"Content-Length: -5", b"Content-Length: abc",
    b"Content-Type: x", b"X-A: b", b": b", b"\r\n", b"\r\n\r\n", b"\n", b"\r", b"{", b"}", b"[",
    b'{"id": -1}', b'"', b"0", b"12", b" ", b"\t", b"\xff", b"\x00",
]  # fmt: skip
garbage = st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=8)), max_size=8).map(
    b"".join
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(garbage, st.sampled_from(list(range(4)))), min_size=1, max_size=6),
    st.lists(st.integers(1, 40), min_size=1, max_size=20),
)
def test_every_valid_frame_after_any_garbage_is_read(
    items: list[tuple[bytes, int]], sizes: list[int]
) -> None:
    """Garbage (pieces of headers and bodies, random bytes) then a valid frame, several times,
    delivered in random-sized reads: every valid frame comes out, in order."""
    spellings = [
        "Content-Length: {n}\r\n\r\n",
        "content-length:{n}\r\n\r\n",
        "Content-Length: {n}\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n",
        "Content-Type: x\r\nCONTENT-LENGTH:  {n}\r\n\r\n",
    ]
    wanted = [{"jsonrpc": "2.0", "id": 1000 + i, "x": "\U0001f525"} for i in range(len(items))]
    data = b"".join(
        junk + frame(value, spellings[kind])
        for (junk, kind), value in zip(items, wanted, strict=True)
    )
    cycle: Callable[[], int] = iter(sizes * (len(data) + 1)).__next__
    got = read_all(reader_of(data, iter(cycle, None)))
    assert is_subsequence(wanted, got), (data, got)


# --------------------------------------------------------------------------- pygls's stream


def test_the_stream_pygls_reads_carries_each_frame_in_one_spelling() -> None:
    """pygls's `start_io` reads a header line at a time, then the body with read(n)."""
    from varz_deck.lsp.frames import FrameStream

    data = b"junk" + frame({"id": 1}, "content-length:{n}\n\n") + frame({"id": "\u00e9"})
    stream = FrameStream(io.BytesIO(data).read)
    assert stream.readable()
    assert stream.readline() == b"Content-Length: 9\r\n"
    assert stream.readline() == b"\r\n"
    assert stream.read(9) == b'{"id": 1}'
    body = json.dumps({"id": "\u00e9"}).encode()
    assert stream.readline(0) == b""
    assert stream.readline(4) == b"Cont"  # a size bounds the line
    assert stream.readline() == f"ent-Length: {len(body)}\r\n".encode()
    assert stream.readline() == b"\r\n"
    assert stream.read(3) + stream.read(100) == body  # a body in two reads: one frame's bytes each
    assert stream.readline() == b""
    assert stream.read(10) == b""


def test_the_stream_logs_what_it_skipped(caplog: pytest.LogCaptureFixture) -> None:
    from varz_deck.lsp.frames import FrameStream

    stream = FrameStream(io.BytesIO(b"garbage!" + frame({"id": 1})).read)
    with caplog.at_level("WARNING", logger="varz_deck.lsp"):
        stream.readline()
        stream.readline()
        stream.read(9)
        assert stream.readline() == b""
    assert [r.getMessage() for r in caplog.records] == [
        "skipped 8 bytes that were not an LSP message"
    ]
    assert stream.frames.skipped == 0


def test_pyglss_reader_waits_in_a_thread_only_for_the_next_frame() -> None:
    """A thread's round trip for each frame (and the end), none for a frame's blank line or
    body: pygls's loop reads the header line, the blank line, then the body."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from varz_deck.lsp.frames import FrameStdin, FrameStream

    class Counting(ThreadPoolExecutor):
        submitted = 0

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            Counting.submitted += 1
            return super().submit(*args, **kwargs)

    data = frame({"id": 1}) + frame({"id": 2})

    async def read_all_frames() -> list[bytes]:
        reader = FrameStdin(FrameStream(io.BytesIO(data).read), Counting(1))
        out = []
        for _ in range(2):
            header = await reader.readline()
            assert await reader.readline() == b"\r\n"
            out.append(await reader.readexactly(int(header.split(b":")[1])))
        assert await reader.readline() == b""
        assert await reader.readexactly(5) == b""
        return out

    assert asyncio.run(read_all_frames()) == [b'{"id": 1}', b'{"id": 2}']
    assert Counting.submitted == 4  # two frames, then the end (a header line, then a body)
