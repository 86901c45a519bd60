"""`--lang` before the command is the same as after it (`varz-deck --lang ja --help`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from varz_deck.cli.main import _lang_after_command

ROOT = Path(__file__).resolve().parent.parent
KAGURA = "examples/red-kagura-festival.yaml"


@pytest.mark.parametrize(
    ("given", "run"),
    [
        (["--lang", "ja", "check", KAGURA], ["check", KAGURA, "--lang", "ja"]),
        (["--lang=zh", "rules", "V101"], ["rules", "V101", "--lang=zh"]),
        (["--lang", "ja", "--lang", "zh", "check", "-"], ["check", "-", "--lang", "zh"]),
        (
            ["--lang", "ja", "cards", "lint", "--", "-x"],
            ["cards", "lint", "--lang", "ja", "--", "-x"],
        ),
        (["--lang", "ja", "--help"], ["--help"]),
        (["--lang", "ja"], []),
        (["check", KAGURA, "--lang", "ja"], ["check", KAGURA, "--lang", "ja"]),
    ],
)
def test_the_language_goes_after_the_command(given: list[str], run: list[str]) -> None:
    assert _lang_after_command(given) == run


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, encoding="utf-8",
    )  # fmt: skip


def test_help_in_japanese_with_the_language_first() -> None:
    done = _run("--lang", "ja", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("使い方：varz-deck")
    assert "--lang" in done.stdout


def test_a_check_in_chinese_with_the_language_first() -> None:
    done = _run("--lang", "zh", "check", KAGURA)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("✓ 合法")


def test_completion_is_the_whole_commands_not_a_subcommands() -> None:
    """`varz-deck check --help` offers no completion script (it would name `check`); the root's
    completes `varz-deck`."""
    sub = _run("check", "--help")
    assert sub.returncode == 0 and "completion" not in sub.stdout
    script = _run("--show-completion", "bash")
    assert script.returncode == 0, script.stderr
    assert "varz-deck" in script.stdout and "_check_completion" not in script.stdout
