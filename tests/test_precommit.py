"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit against a throwaway repository.

The hook repository is a fresh git repository made from this checkout's working tree (so the
test sees uncommitted changes too); pre-commit installs it into its own virtualenv, the way a
user's machine would. That install needs the package index for the build backend and the
dependencies.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gittools import git as _git

ROOT = Path(__file__).resolve().parent.parent
PROJECT_FILES = (
    ".pre-commit-hooks.yaml", "pyproject.toml", "README.md", "LICENSE", "varz_deck",
    "hatch_build.py", "card_data", "schemas",
)  # fmt: skip

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _commit_all(repo: Path) -> str:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-gpg-sign", "-m", "snapshot")
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout's files as a one-commit repository: (path, rev)."""
    repo = tmp_path_factory.mktemp("hooks-repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=ignore)
        else:
            shutil.copy2(source, repo / name)
    _git(repo, "init", "-q")
    return repo, _commit_all(repo)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit cache for the module: the hook environment is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _user_repo(base: Path, hooks: tuple[Path, str], config: str | None = None) -> Path:
    repo = base / "user-repo"
    shutil.copytree(ROOT / "card_data" / "varz", repo / "card_data")
    (repo / "decks").mkdir()
    shutil.copy2(ROOT / "examples" / "red-kagura-festival.yaml", repo / "decks" / "kagura.yaml")
    path, rev = hooks
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {path}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        + (
            config
            or "      - id: varz-deck-cards-lint\n"
            "        args: [card_data]\n"
            "      - id: varz-deck-check\n"
            "        args: [--cards, card_data]\n"
        ),
        encoding="utf-8",
    )
    _git(repo, "init", "-q")
    _commit_all(repo)
    return repo


def _run(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    for name in ("VARZ_DECK_CARDS", "VIRTUAL_ENV"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--show-diff-on-failure"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_hooks_pass_on_good_data_and_fail_on_bad(
    tmp_path: Path, hooks_repo: tuple[Path, str], pre_commit_home: Path
) -> None:
    repo = _user_repo(tmp_path, hooks_repo)

    good = _run(repo, pre_commit_home)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "varz-deck cards lint" in good.stdout and "varz-deck check" in good.stdout

    deck = repo / "decks" / "kagura.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "\nbogus_key: 1\n", encoding="utf-8")
    _git(repo, "add", "-A")
    bad_deck = _run(repo, pre_commit_home)
    assert bad_deck.returncode == 1, bad_deck.stdout + bad_deck.stderr
    assert "F004" in bad_deck.stdout  # the unknown deck key, from check

    _git(repo, "checkout", "HEAD", "--", "decks")
    card_file = repo / "card_data" / "sets" / "pr.yaml"
    card_file.write_text(
        card_file.read_text(encoding="utf-8").replace("id: PR-002", "id: PR-001"),
        encoding="utf-8",
    )
    _git(repo, "add", "-A")
    bad_cards = _run(repo, pre_commit_home)
    assert bad_cards.returncode == 1, bad_cards.stdout + bad_cards.stderr
    assert "C002" in bad_cards.stdout  # the duplicate id, from cards lint
    assert "varz-deck cards lint card_data" in bad_cards.stdout  # check points at the linter


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_diff_hook_names_the_decks_a_card_change_makes_illegal(
    tmp_path: Path, hooks_repo: tuple[Path, str], pre_commit_home: Path
) -> None:
    repo = _user_repo(tmp_path, hooks_repo, "      - id: varz-deck-cards-diff\n")
    shutil.copy2(ROOT / "examples" / "blue-minase-tide.yaml", repo / "decks" / "blue.yaml")
    _commit_all(repo)

    # an erratum of a card no deck plays: every deck keeps its verdict
    _edit(repo / "card_data" / "sets" / "pr.yaml", "cost: 2\n    power: 2", "cost: 3\n    power: 2")
    _git(repo, "add", "-A")
    harmless = _run(repo, pre_commit_home)
    assert harmless.returncode == 0, harmless.stdout + harmless.stderr
    _commit_all(repo)

    # Scorch Shot banned: the red deck plays three, the blue deck none
    _edit(repo / "card_data" / "formats.yaml", "banned: [VZ01-031]", "banned: [VZ01-031, VZ01-010]")
    _git(repo, "add", "-A")
    banned = _run(repo, pre_commit_home)
    assert banned.returncode == 1, banned.stdout + banned.stderr
    assert "varz-deck cards diff" in banned.stdout
    assert "  ✗ decks/kagura.yaml: legal → illegal" in banned.stdout
    assert "decks/kagura.yaml:12:3: V115 error:" in banned.stdout
    assert "blue.yaml" not in banned.stdout
    assert "decks on 2026-12-01: 1 of 2 changed, 1 changed verdict" in banned.stdout
