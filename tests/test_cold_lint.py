"""A cold `cards lint` pauses the cycle collector for the whole lint, and gives it back as it
found it, also when the lint fails; a generated database like bench_lint's lints clean."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.lint import run as lint_package
from varz_deck.core.lint.database import lint_database
from varz_deck.games import get_game

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"


def _spy(monkeypatch: pytest.MonkeyPatch, seen: list[bool], fail: bool = False) -> None:
    whole = lint_package._whole_database

    def spied(*args: object, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("boom")
        whole(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lint_package, "_whole_database", spied)


def test_a_lint_runs_without_the_collector_and_restores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    seen: list[bool] = []
    _spy(monkeypatch, seen)
    assert gc.isenabled()
    assert not lint_database(BUNDLED, get_game("varz")).errors
    assert seen == [False]
    assert gc.isenabled()
    gc.disable()
    try:
        lint_database(BUNDLED, get_game("varz"))
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_a_failing_lint_gives_the_collector_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    seen: list[bool] = []
    _spy(monkeypatch, seen, fail=True)
    with pytest.raises(ValueError, match="boom"):
        lint_database(BUNDLED, get_game("varz"))
    assert seen == [False]
    assert gc.isenabled()


def test_a_generated_database_lints_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_lint", ROOT / "benchmarks" / "bench_lint.py"
    )
    assert spec is not None and spec.loader is not None
    bench_lint = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_lint)
    bench_lint.generate(tmp_path, cards=300, files=3)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["cards", "lint", "."])
    assert (result.exit_code, result.stdout) == (0, ".: 4 files linted, clean\n")
