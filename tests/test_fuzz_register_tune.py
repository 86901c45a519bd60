"""Time-bounded fuzzing of `sim`, `tune`, `stats`, `code` and `register` with huge repeated counts
(issue 24, rows 7 and 12): a card on line after line, in a `.txt` list or a YAML list, VARZ and
Azuki, in any section.

Every command runs in-process and must answer within seconds, never exit 3, and never print a deck
code that `check` then rejects (F009); a code it prints decodes to the deck's canonical counts.
CI runs about 30 seconds; FUZZ_EXAMPLES=N multiplies the examples by N, as in
tests/test_fuzz_commands.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from varz_deck.cli import main
from varz_deck.core.analysis.tuning import SIZE_FACTOR

SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
SECONDS = 10  # the bound for one command
# (game, section, its size, a card of it, the file's head before that section)
VARZ = ("varz", "spells", 30, "Ember Imp", "Hero: Hibiki Kagura\n")
VARZ_SKILLS = ("varz", "skills", 9, "Crimson VAZ", "Hero: Hibiki Kagura\n")
AZUKI = ("azuki", "main", 50, "Crate Rat Kurobo", "Leader: STT01-001\nGate: Surge Gate\n")
HEADERS = {"spells": "Spells:", "skills": "Skills:", "main": "Main Deck:"}
YAML_KEYS = {"Hero": "hero", "Leader": "leader", "Gate": "gate"}


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


def run(*args: str) -> tuple[int, str, str, float]:
    """The app in-process: exit status, stdout, stderr and seconds; exit 3 fails the test."""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    seconds = time.perf_counter() - started
    assert status != 3, (args, err.getvalue()[-2000:])
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue(), seconds


def write_deck(
    folder: Path, kind: tuple[str, str, int, str, str], lines: int, count: int, as_yaml: bool
) -> Path:
    """`lines` lines of `count card` under the section, as a .txt list or a YAML list."""
    _, section, _, card, head = kind
    if as_yaml:
        slots = "".join(
            f"{YAML_KEYS[k]}: {v}\n" for k, v in (line.split(": ") for line in head.splitlines())
        )
        text = slots + f"{section}:\n" + f"  - {count} {card}\n" * lines
        path = folder / "deck.yaml"
    else:
        text = head + HEADERS[section] + "\n" + f"{count} {card}\n" * lines
        path = folder / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-register-tune")


KINDS = st.sampled_from([VARZ, VARZ_SKILLS, AZUKI])
LINES = st.integers(1, 3) | st.integers(1, 80) | st.integers(300, 5_000)


@fuzz_settings(8)
@given(kind=KINDS, lines=LINES, count=st.integers(1, 99), as_yaml=st.booleans())
@example(kind=VARZ, lines=315, count=99, as_yaml=False)  # the 4 KB file
@example(kind=VARZ_SKILLS, lines=37, count=1, as_yaml=True)  # one over the bound
@example(kind=AZUKI, lines=2, count=99, as_yaml=False)  # under it
def test_fuzz_sim_and_tune_answer_fast_or_refuse(
    work: Path, kind: tuple[str, str, int, str, str], lines: int, count: int, as_yaml: bool
) -> None:
    game, _, size, _, _ = kind
    deck = write_deck(work, kind, lines, count, as_yaml)
    too_large = lines * count > SIZE_FACTOR * size
    for command in (
        ["tune", "--game", game, str(deck)],
        ["sim", "--game", game, "-n", "2000", "--mulligan", "none", str(deck)],
    ):
        status, out, err, seconds = run(*command)
        assert seconds < SECONDS, (command, lines, count, seconds)
        if too_large:
            assert (status, out) == (2, ""), (command, err)
            assert f"{lines * count:,}" in err and "F003" in err
        else:
            assert status in (0, 1), (command, err[-500:])
    status, out, _, seconds = run("stats", "--game", game, "-o", "json", str(deck))
    assert status == 0 and seconds < SECONDS  # stats only counts: it never refuses


@fuzz_settings(8)
@given(kind=KINDS, lines=LINES, count=st.integers(1, 99), as_yaml=st.booleans())
@example(kind=VARZ, lines=700, count=99, as_yaml=False)  # the row 12: 69,300 copies
@example(kind=AZUKI, lines=662, count=99, as_yaml=True)  # 65,538: just over what a code holds
@example(kind=VARZ_SKILLS, lines=3, count=50, as_yaml=False)
def test_fuzz_code_prints_only_codes_that_decode(
    work: Path, kind: tuple[str, str, int, str, str], lines: int, count: int, as_yaml: bool
) -> None:
    game = kind[0]
    deck = write_deck(work, kind, lines, count, as_yaml)
    status, out, err, seconds = run("code", "--game", game, str(deck))
    assert seconds < SECONDS
    if status != 0:
        assert status == 1 and out == "" and "has no deck code" in err
        assert lines * count > 65_535 or "F00" in err, err[-500:]
        return
    code = out.strip()
    status, out, err, _ = run("check", "--game", game, "-o", "json", code)
    codes = {d["code"] for deck_ in json.loads(out)["decks"] for d in deck_["diagnostics"]}
    assert "F009" not in codes, err
    status, out, _, _ = run("register", "--game", game, "-o", "json", code)
    cards = json.loads(out)["registrations"][0]["cards"]
    section = kind[1]
    assert sum(c["count"] for c in cards[section]) == lines * count
    again = run("code", "--game", game, code)[1].strip()
    assert again == code


@fuzz_settings(4)
@given(lines=st.integers(1, 2_000), count=st.integers(1, 99))
def test_fuzz_register_sheets_of_huge_counts(work: Path, lines: int, count: int) -> None:
    deck = write_deck(work, VARZ, lines, count, as_yaml=False)
    sheets = work / "sheets"
    status, _, err, seconds = run("register", str(deck), "--sheet", str(sheets), "-o", "csv")
    assert status in (1, 2) and seconds < SECONDS, err[-500:]
    page = (sheets / "deck.html").read_text(encoding="utf-8")
    assert f">{lines * count}</b>" in page  # the section's true total, marked
