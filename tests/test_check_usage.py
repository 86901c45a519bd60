"""`check` usage errors and --strict (issue 12, item 5): an unknown --format is exit 2 with "did
you mean" in the user's language (a format named inside a deck stays F007), and ✓/✗ agree with the
exit code under --strict."""

from __future__ import annotations

from pathlib import Path

import pytest

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
ILLEGAL = ROOT / "examples" / "illegal.yaml"
LEGAL = ROOT / "examples" / "red-kagura-festival.yaml"
WARNING = ROOT / "tests" / "cases" / "W201" / "bad_cost_3_two_vaz.yaml"
ALTDB = ROOT / "tests" / "data" / "altdb"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_unknown_format_option_is_a_usage_error_with_did_you_mean(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    code, out, err = run(["check", LEGAL, ILLEGAL, "--format", "standrd", "--lang", "en"], capsys)
    assert code == 2
    assert out == ""  # no deck report, no F007 per deck
    assert "F007" not in err
    assert "did you mean 'standard'" in err


def test_unknown_format_option_far_from_every_name_lists_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    code, _out, err = run(["check", LEGAL, "--format", "xyz", "--lang", "en"], capsys)
    assert code == 2
    assert "xyz" in err and "standard" in err and "pioneer" in err


def test_unknown_format_option_speaks_the_users_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    code, _out, err = run(["check", LEGAL, "--format", "standrd", "--lang", "ja"], capsys)
    assert code == 2
    assert "のことですか" in err


def test_format_option_ignores_case(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    code, out, _err = run(["check", LEGAL, "--format", "Standard", "--lang", "en"], capsys)
    assert code == 0, out
    assert "F007" not in out


def test_a_format_named_in_the_deck_file_stays_f007(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    deck = tmp_path / "d.yaml"
    deck.write_text(
        LEGAL.read_text(encoding="utf-8").replace("format: standard", "format: xyz"),
        encoding="utf-8",
    )
    assert "format: xyz" in deck.read_text(encoding="utf-8")
    code, out, _err = run(["check", deck, "--lang", "en"], capsys)
    assert code == 1
    assert "F007" in out


def test_strict_marks_a_legal_deck_with_warnings_as_failing_and_says_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    args = ["check", "--cards", ALTDB, WARNING, "--lang", "en"]
    code, out, _ = run(args, capsys)
    assert code == 0
    assert out.startswith("✓ legal")
    assert "0 errors, 1 warning" in out
    code, out, _ = run([*args, "--strict"], capsys)
    assert code == 1
    first, *_, last = out.splitlines()
    assert first.startswith("✗ legal, fails --strict")  # ✗ agrees with exit 1
    assert "exit 1: --strict treats warnings as errors (1 legal deck has warnings)" in last


def test_strict_without_warnings_changes_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_CARDS", raising=False)
    code, out, _ = run(["check", LEGAL, "--strict", "--lang", "en"], capsys)
    assert code == 0
    assert out.startswith("✓ legal") and "--strict" not in out
