"""Fuzzing card databases with file and folder names made of arbitrary bytes (issue 24 row 5).

Hypothesis draws names from any bytes a POSIX file system allows in a name (no '/', no NUL; not
'.' or '..'; at most 255 bytes): invalid UTF-8, controls, escapes, bidi marks. A copy of the
bundled database gets one more card file under such a name (in a folder with such a name, or
not), either a valid card file or a broken one. `cards lint` and `check --cards` (twice, so the
second is served from the cache) run in-process through the entry point, on a byte stream as a
terminal's would be: none may exit 3 or show a traceback, and the output must be valid UTF-8 with
no raw control or bidi character. A broken file is never skipped: lint exits 1 and check 2.

FUZZ_EXAMPLES=N multiplies the number of examples (as in tests/test_fuzz_commands.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"  # legal in the bundled database
SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
BROKEN = "cards:\n  - id: FZ-001\n    name: 5\n"  # C001: no type, a name that is not a string
NAME_MAX = 255

# Bytes a hostile name likes (controls, ESC, DEL, C1 and bidi in UTF-8, Latin-1 bytes, a lone
# UTF-8 lead byte), then any byte at all; never '/' or NUL.
NASTY = [b"\n", b"\r", b"\t", b"\x1b[31m", b"\x7f", b"\xc2\x9b", b"\xe2\x80\xae", b"\xff", b"\xe9"]
name_byte = st.sampled_from(NASTY) | st.binary(min_size=1, max_size=1).filter(
    lambda b: b not in (b"/", b"\x00")
)
stem = st.lists(name_byte, min_size=1, max_size=12).map(b"".join)
# a leading dot hides a file or folder from the database (SPEC §1): those are left out here
visible = stem.filter(lambda s: not s.startswith(b"."))


def run(*args: str) -> tuple[int, str]:
    """The app in-process on byte streams: (exit status, stdout + stderr as strict UTF-8)."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    code: int = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    text = out.getvalue().decode("utf-8") + err.getvalue().decode("utf-8")  # strict
    assert code != 3, (args, text[-2000:])
    assert "Traceback" not in text, (args, text[-2000:])
    assert RAW.findall(text) == [], (args, RAW.findall(text)[:5], text[-2000:])
    return code, text


@settings(
    max_examples=25 * SCALE,
    deadline=None,
    derandomize=SCALE == 1,  # CI: the same names every run; longer runs explore
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(
    name=st.tuples(visible, st.sampled_from([b".yaml", b".yml"]))
    .map(b"".join)
    .filter(lambda n: n not in (b"formats.yaml", b"formats.yml")),  # those start a database
    folder=st.none() | visible,
    broken=st.booleans(),
)
def test_card_files_with_any_byte_in_their_names(
    name: bytes, folder: bytes | None, broken: bool
) -> None:
    assert len(name) <= NAME_MAX and (folder is None or len(folder) <= NAME_MAX)
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / "db"
        shutil.copytree(ROOT / "card_data" / "varz" / "sets", cards / "sets")
        shutil.copy(ROOT / "card_data" / "varz" / "formats.yaml", cards)
        where = cards / "sets" if folder is None else cards / "sets" / os.fsdecode(folder)
        where.mkdir(exist_ok=True)
        card_file = where / os.fsdecode(name)
        if broken:
            card_file.write_text(BROKEN, encoding="utf-8")
        else:
            shutil.move(cards / "sets" / "vz01.yaml", card_file)  # unread, the deck is illegal
        lint, _ = run("cards", "lint", str(cards))
        assert lint == (1 if broken else 0)
        for _ in range(2):  # built, then from the cache
            checked, _ = run("check", str(DECK), "--cards", str(cards))
            assert checked == (2 if broken else 0)
