""" "Did you mean": the card names closest to a reference that matches none.

difflib's ratio is the measure of closeness (cutoff 0.6, as `difflib.get_close_matches`). It
costs about a microsecond per name compared, so against a big database (100,000 cards, each with
its translations) comparing every name would cost about a second per unknown reference. A
database of more than `FULL_SCAN` names is therefore indexed by trigrams (runs of three
characters of the name padded with a space at each end): the candidates are the names that share
the most of the reference's rarer trigrams, and only those few are compared. A typo changes at
most three trigrams of a name, so the name meant keeps most of its trigrams and is found.

The index is built with NumPy the first time a big database is asked for a suggestion: one sorted
array of (trigram hash, name number) pairs, searched with `searchsorted`. A database read from
the card index has the same names and hashes stored there, and searches them the same way in
plain Python (core/cards/nameindex.py).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FULL_SCAN = 2_000  # up to this many names, every name is compared (exactly difflib's answer)
CANDIDATES = 16  # names compared with difflib, from the index, in a bigger database
POSTINGS = 12_000  # index entries read per reference (the rarest trigrams first)
INDEXED = 62  # characters of a name (and of a reference) the index looks at
CUTOFF = 0.6
_CHUNK = 8_192  # names hashed at a time (bounds the memory the index takes to build)


class CloseNames(Protocol):
    """Where "did you mean" looks: the names closest to a normalized reference."""

    def close(self, wanted: str, limit: int = 3) -> list[str]: ...


class NameIndex:
    """Normalized names (and the form to show for each), searchable for close matches."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.shown = dict(names)
        self.names = list(self.shown)
        self._sorted: tuple[NDArray[np.uint32], NDArray[np.int64]] | None = None

    def close(self, wanted: str, limit: int = 3) -> list[str]:
        """Up to `limit` names (as shown) whose ratio with `wanted` is at least CUTOFF, best
        first (ties: as difflib orders them)."""
        pool = self.names if len(self.names) <= FULL_SCAN else self._candidates(wanted)
        found = difflib.get_close_matches(wanted, pool, n=limit, cutoff=CUTOFF)
        return [self.shown[name] for name in found]

    def _index(self) -> tuple[NDArray[np.uint32], NDArray[np.int64]]:
        """Trigram hashes, sorted, and the number of the name each comes from."""
        import numpy as np

        if self._sorted is None:
            parts = []
            for start in range(0, len(self.names), _CHUNK):
                codes, rows = _trigram_codes(self.names[start : start + _CHUNK])
                keys = (codes.astype(np.uint64) << np.uint64(32)) | (rows + start).astype(np.uint64)
                parts.append(keys)
            keys = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
            keys.sort()
            self._sorted = (
                (keys >> np.uint64(32)).astype(np.uint32),
                (keys & np.uint64(0xFFFFFFFF)).astype(np.int64),
            )
        return self._sorted

    def _candidates(self, wanted: str) -> list[str]:
        """The names sharing the most trigrams with `wanted`, reading at most POSTINGS index
        entries: the rarest trigrams first (a trigram every tenth name has says little)."""
        import numpy as np

        codes, numbers = self._index()
        mine, _ = _trigram_codes([wanted])
        mine = np.unique(mine)
        starts = np.searchsorted(codes, mine, side="left")
        ends = np.searchsorted(codes, mine, side="right")
        spans = sorted(
            (int(e - s), int(s), int(e))
            for s, e in zip(starts.tolist(), ends.tolist(), strict=True)
            if e > s
        )
        picked = []
        read = 0
        for size, start, end in spans:
            if read + size > POSTINGS:
                break
            picked.append(numbers[start:end])
            read += size
        if not picked:
            return []
        found, counts = np.unique(np.concatenate(picked), return_counts=True)
        best = found[np.argsort(-counts, kind="stable")[: CANDIDATES * 2]]
        return within_reach((self.names[number] for number in best.tolist()), wanted)


def within_reach(names: Iterable[str], wanted: str) -> list[str]:
    """The first CANDIDATES of `names` whose length lets their ratio with `wanted` reach CUTOFF."""
    low, high = len(wanted) * 3 // 7, len(wanted) * 7 // 3 + 1
    out = []
    for name in names:
        if low <= len(name) <= high:
            out.append(name)
            if len(out) == CANDIDATES:
                break
    return out


def trigrams(text: str) -> list[int]:
    """`_trigram_codes` of one text in plain Python: the 32-bit hash of each of its trigrams."""
    chars = [ord(c) for c in f" {text[:INDEXED]} "]
    return [
        ((a * 2654435761) ^ (b * 40503) ^ c) & 0xFFFFFFFF
        for a, b, c in zip(chars, chars[1:], chars[2:], strict=False)
    ]


def _trigram_codes(names: list[str]) -> tuple[NDArray[np.uint32], NDArray[np.int64]]:
    """A 32-bit hash of every trigram of each name (padded with a space at each end, cut to
    INDEXED characters), and the position in `names` of the name each comes from."""
    import numpy as np

    padded = [f" {name[:INDEXED]} " for name in names]
    width = max(map(len, padded))
    chars = np.array(padded, dtype=f"<U{width}").view(np.uint32).reshape(len(padded), width)
    hashes = (
        (chars[:, :-2] * np.uint32(2654435761)) ^ (chars[:, 1:-1] * np.uint32(40503)) ^ chars[:, 2:]
    )
    lengths = np.fromiter(map(len, padded), dtype=np.int64, count=len(padded)) - 2
    inside = np.arange(width - 2)[None, :] < lengths[:, None]
    rows = np.repeat(np.arange(len(padded), dtype=np.int64), lengths)
    return hashes[inside], rows
