"""Every command's text fits the terminal (issue 12, item 1): golden files at 80 and 120 columns in
English, Japanese and Chinese (tests/golden/width/), no line wider than the width in terminal cells (CJK
counts 2, rich.cells.cell_len), and 40 columns does not crash.

The golden files were written by the commands and read by eye: tables wrap by words or split into
narrower tables, never cut a cell to `T…`. Refresh them with UPDATE_GOLDEN=1 after a deliberate
change, and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.cells import cell_len

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "width"
SPLASH = "examples/yellow-amane-red-splash.yaml"
AZUKI = "examples/azuki/stt01-raizan-lightning.yaml"

COMMANDS = {
    "rules": ["rules"],
    "rules-v105": ["rules", "V105"],
    "check": ["check", "examples/illegal.yaml"],
    "sim": ["sim", SPLASH, "--games", "2000"],
    "sim-vs": ["sim", SPLASH, "--games", "2000", "--vs", "examples/red-kagura-festival.yaml"],
    "sim-azuki": ["sim", "--game", "azuki", AZUKI, "--games", "2000"],
    "stats": ["stats", SPLASH],
    "cards-show": ["cards", "show", "VZ01-001"],
    "cards-search": ["cards", "search", "Kagura"],
    "register": ["register", "examples/red-kagura-festival.yaml"],
    "diff": ["diff", "examples/red-kagura-festival.yaml", "examples/illegal.yaml"],
}


def run(
    args: list[str],
    columns: int,
    lang: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[str, int]:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    with pytest.raises(SystemExit) as exited:
        main([*args, "--lang", lang])
    out, _err = capsys.readouterr()
    code = exited.value.code
    return out, code if isinstance(code, int) else 0


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_fits_the_width_and_matches_its_golden_file(
    name: str,
    columns: int,
    lang: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, code = run(COMMANDS[name], columns, lang, monkeypatch, capsys)
    assert code in (0, 1), out
    wide = [line for line in out.splitlines() if cell_len(line) > columns]
    assert not wide, f"{len(wide)} lines wider than {columns}: {wide[:3]}"
    assert "…" not in out  # no cell cut short
    golden = GOLDEN / f"{name}.{columns}.{lang}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_40_columns_does_not_crash(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out, code = run(COMMANDS[name], 40, lang, monkeypatch, capsys)
    assert code in (0, 1), out
    assert out.strip()


def test_width_honours_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    from varz_deck.cli.common import width

    monkeypatch.setenv("COLUMNS", "57")
    assert width() == 57
    monkeypatch.setenv("COLUMNS", "nonsense")
    assert width() == 80  # not a terminal under pytest's capture: the default


def test_rules_wraps_its_summary_by_words_at_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 12 row `rules`: the description column was 5 characters wide, 598 lines."""
    from varz_deck.games import all_codes

    out, code = run(["rules"], 80, "en", monkeypatch, capsys)
    assert code == 0
    words = {w for info in all_codes().values() for w in info.summary.split()}
    tokens = set(out.split())
    # every word of every summary appears whole: nothing is broken letter by letter
    assert words <= tokens
    assert len(out.splitlines()) <= 4 * len(all_codes())  # it was 598 lines


def test_sim_at_80_columns_cuts_no_cell(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 12 row `sim`: cells cut to `T…`, `±0.…`; it needed 93 columns."""
    for lang in ("en", "ja"):
        out, _ = run(COMMANDS["sim"], 80, lang, monkeypatch, capsys)
        assert "…" not in out
        assert max(cell_len(line) for line in out.splitlines()) <= 80
        assert "±0.014" in out  # turn 1's VAZ spent interval, whole
