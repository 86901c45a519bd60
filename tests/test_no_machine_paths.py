"""No absolute path of a developer's machine in what the repository ships or shows: the docs,
the examples, the README, the card data and the package. Placeholders read as such
(`/path/to/…`); the system's own paths a reader may have too (`/usr/…`, `/etc/…`) are fine."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a home folder, a checkout or a temporary folder of somebody's machine (POSIX, macOS, Windows)
MACHINE = re.compile(
    r"(?<![\w.])(/home/\w|/Users/\w|/root/|/work/|/tmp/pytest|/private/var/|[A-Z]:\\\\Users\\\\)"
)
SHOWN = ("docs/", "examples/", "card_data/", "schemas/", "varz_deck/", "README.md", ".ci/")


def _shipped() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", *SHOWN], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [ROOT / n for n in names if not n.endswith((".mo", ".png", ".ico", ".woff2"))]


def test_no_machine_path_in_the_docs_examples_or_package() -> None:
    found = []
    for path in _shipped():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if MACHINE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_the_pattern_finds_what_it_should() -> None:
    for bad in ("/home/aoi/decks", "file:///work/main/x", "/Users/ann/x", "/tmp/pytest-of-root/x"):
        assert MACHINE.search(bad), bad
    for fine in ("/path/to/decks", "/usr/bin/chromium", "~/.cache/varz-deck", "examples/home/x"):
        assert not MACHINE.search(fine), fine


def test_every_install_line_of_a_published_package_says_it_is_not_yet() -> None:
    """`pip install varz-deck…` works only once the package is on an index: each line that
    says it names that, or a clone's install, beside it."""
    line_install = re.compile(r"pip install ['\"]?varz-deck")
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line_install.search(line) and not re.search(
                r"published|package index|once it is", line
            ):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_no_example_names_a_tag_the_repository_does_not_have() -> None:
    tags = subprocess.run(
        ["git", "tag", "-l"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    named = re.compile(r"(?:rev: |@)(v\d+\.\d+\.\d+)\b")
    found = []
    for path in [ROOT / ".pre-commit-hooks.yaml", *sorted((ROOT / "docs").rglob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found += [f"{path.name}:{number}: {m}" for m in named.findall(line) if m not in tags]
    assert not found, "\n".join(found)
