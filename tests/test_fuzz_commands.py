"""Time-bounded fuzzing of every command and output format (issue 11).

Hypothesis feeds deck texts (YAML and plain text, VARZ and Azuki, mutated from the examples or
made up), card files (a small database in a temporary folder with one fuzzed file) and deck codes
(a valid code, mutated). Every command runs in-process; none may raise or exit 3, and no output
may carry a raw control (C0 but newline and tab, DEL, C1) or bidi character.

CI runs about 90 seconds in all. FUZZ_EXAMPLES=N multiplies the number of examples by N for a
longer run (`FUZZ_EXAMPLES=20 pytest tests/test_fuzz_commands.py`); FUZZ_REPORT=1 prints how many
inputs each test tried.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.txt"))
AZUKI = sorted((ROOT / "examples" / "azuki").glob("*.yaml"))
SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
TRIED: dict[str, int] = {}

# Characters a hostile file likes: controls, escapes, bidi marks, YAML syntax, digits, CJK.
NASTY = (
    "\x00\x07\x08\x1b\x7f\x85\x9b\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069\ufeff\u3000:-[]{}#&*!|>'\"%@`,?\t\n 0123456789x×語"
)
nasty_text = st.text(alphabet=st.sampled_from(NASTY) | st.characters(), max_size=40)


def settings_for(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,  # CI: the same inputs every run; longer runs explore
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


def run(*args: str) -> tuple[int, str]:
    """The app in-process: (exit status, stdout + stderr); raises on an escaped exception."""
    out, err = io.StringIO(), io.StringIO()
    code: int = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    text = out.getvalue() + err.getvalue()
    assert code != 3, (args, text[-2000:])
    assert RAW.findall(text) == [], (args, RAW.findall(text)[:5], text[-2000:])
    return code, text


def mutate(data: st.DataObject, text: str) -> str:
    """Insert, delete or replace a few pieces of text anywhere."""
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 12)))
        text = text[:i] + data.draw(nasty_text) + text[j:]
    return text


def count(name: str) -> None:
    TRIED[name] = TRIED.get(name, 0) + 1


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if os.environ.get("FUZZ_REPORT"):
        sys.__stderr__.write(f"\nfuzz inputs tried: {TRIED}\n")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def valid_code() -> str:
    code, text = run("code", str(ROOT / "examples" / "blue-list.txt"))
    assert code == 0
    return text.strip().splitlines()[0]


# --------------------------------------------------------------------------- decks


@settings_for(10)
@given(data=st.data())
def test_fuzz_deck_every_command(data: st.DataObject, work: Path) -> None:
    source = data.draw(st.sampled_from(EXAMPLES + AZUKI))
    original = source.read_text(encoding="utf-8")
    text = mutate(data, original) if data.draw(st.booleans()) else data.draw(nasty_text)
    suffix = data.draw(st.sampled_from([".yaml", ".txt", source.suffix]))
    deck = work / f"deck{suffix}"
    deck.write_text(text, encoding="utf-8", errors="surrogatepass")
    count("deck")
    other = str(source)
    for output in ("text", "json", "github", "sarif"):
        run("check", "--output", output, str(deck))
    for output in ("text", "json"):
        run("sim", "--games", "200", "--output", output, str(deck))
    for output in ("text", "json", "csv"):
        run("register", "--output", output, str(deck))
    run("verify", "--hash", "v1-aaaaaaaaaaaa", str(deck))
    run("diff", str(deck), other)
    run("diff", "--output", "json", other, str(deck))
    run("code", str(deck))


# --------------------------------------------------------------------------- deck codes


@settings_for(15)
@given(data=st.data())
def test_fuzz_deck_codes(data: st.DataObject, valid_code: str) -> None:
    code = mutate(data, valid_code)
    if data.draw(st.booleans()):
        code = code[: data.draw(st.integers(0, len(code)))]
    if data.draw(st.booleans()):
        code += data.draw(st.sampled_from([".", ",", "。", " ", "\u202e", "\x1b[2J"]))
    if not code.strip() or "\x00" in code:
        code = valid_code + "."  # an argument cannot be empty or carry NUL
    count("code")
    for output in ("text", "json"):
        run("check", "--output", output, code)
    run("register", "--output", "json", code)
    run("diff", "--output", "json", valid_code, code)
    run("code", code)
    run("verify", "--hash", "v1-aaaaaaaaaaaa", code)


# --------------------------------------------------------------------------- card files


@pytest.fixture(scope="module")
def small_db(work: Path) -> Path:
    """A copy of the bundled VARZ database (without the nested Azuki one)."""
    db = work / "db"
    shutil.copytree(ROOT / "card_data", db, ignore=shutil.ignore_patterns("azuki"))
    return db


@settings_for(5)
@given(data=st.data())
def test_fuzz_card_files(data: st.DataObject, small_db: Path, work: Path) -> None:
    sets = sorted((small_db / "sets").glob("*.yaml"))
    target = data.draw(st.sampled_from([*sets, small_db / "formats.yaml"]))
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(mutate(data, original), encoding="utf-8", errors="surrogatepass")
        count("card file")
        for output in ("text", "json", "github", "sarif"):
            run("cards", "lint", str(small_db), "--output", output)
        deck = str(ROOT / "examples" / "blue-list.txt")
        run("check", "--cards", str(small_db), "--output", "json", deck)
        run("sim", "--cards", str(small_db), "--games", "200", deck)
        run("register", "--cards", str(small_db), deck)
        query = data.draw(nasty_text.filter(lambda q: q.strip() != "" and "\x00" not in q))
        run("cards", "show", "--cards", str(small_db), query)
        run("cards", "search", "--cards", str(small_db), query)
        run("cards", "show", "--cards", str(small_db), "VZ01-002")
    finally:
        target.write_text(original, encoding="utf-8")


@settings_for(6)
@given(query=nasty_text.filter(lambda q: q.strip() != "" and "\x00" not in q))
def test_fuzz_lookups(query: str) -> None:
    count("lookup")
    run("cards", "show", query)
    run("cards", "search", query)
    run("rules", query)
    run("rules")
