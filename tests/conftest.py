"""Shared fixtures: where the card databases and example decks are, and a private cache."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-12-01"  # the date every test checks on unless it gives one


@pytest.fixture(scope="session")
def bundled_db_path() -> Path:
    """The card database shipped with the package."""
    return ROOT / "card_data" / "varz"


@pytest.fixture(scope="session")
def altdb_path() -> Path:
    """An independent card database, written for the tests."""
    return ROOT / "tests" / "data" / "altdb"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The example decks (all legal in the bundled database, except illegal.yaml)."""
    return ROOT / "examples"


@pytest.fixture(scope="session", autouse=True)
def _isolated_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Never touch ~/.cache, and never pick up a card database or debug flag from the caller.

    Session-scoped so it is in place before any module- or session-scoped fixture loads a
    database.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VARZ_DECK_CACHE", str(tmp_path_factory.mktemp("varz-deck-cache")))
        for name in (
            "VARZ_DECK_CARDS",
            "VARZ_DECK_NO_CACHE",
            "VARZ_DECK_DEBUG",
            "XDG_CACHE_HOME",
            "VARZ_DECK_LANG",
            "LC_ALL",
            "LC_MESSAGES",
            "LANG",
            "COLUMNS",  # pytest-xdist's workers set COLUMNS=80 and LINES=24: output would wrap
            "LINES",
        ):
            patch.delenv(name, raising=False)
        # "Today" for every check (core/dates.py's test hook), so outputs carrying the date are
        # the same on any day; tests of today itself remove it.
        patch.setenv("VARZ_DECK_TODAY", TODAY)
        yield


@pytest.fixture(scope="session", autouse=True)
def _subprocesses_run_the_code_as_written() -> Iterator[None]:
    """Under mutation testing, while mutmut counts which tests call which function (its "stats"
    run), a process a test starts (`python -m varz_deck …`) runs the code as written: mutmut's
    counting cannot start outside its folder. With a mutant set, the process runs it too."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        yield
        return
    started = subprocess.Popen.__init__

    def start(self: subprocess.Popen, *args: Any, env: Any = None, **kwargs: Any) -> None:
        env = dict(os.environ if env is None else env)
        if env.get("MUTANT_UNDER_TEST") == "stats":
            del env["MUTANT_UNDER_TEST"]
        started(self, *args, env=env, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess.Popen, "__init__", start)
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under mutation testing (mutmut sets MUTANT_UNDER_TEST),
    leave out the property-based tests: hundreds of examples for every surviving mutant would
    take hours on two cores, and the example-based tests and case corpora are what is scored."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    kept = [item for item in items if not _is_property_test(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


def _is_property_test(item: pytest.Item) -> bool:
    function = getattr(item, "obj", None)
    return bool(getattr(function, "is_hypothesis_test", False))
