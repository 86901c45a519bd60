"""The contributor's page is true: every path it names exists, and it names every part of the
package and every room of the core."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "project" / "contributing.md"
PACKAGE = ROOT / "varz_deck"


def _named() -> set[str]:
    return set(re.findall(r"`((?:varz_deck|core|tests|docs|scripts)/[^`\s<>]*)`", PAGE.read_text()))


def test_every_path_it_names_exists() -> None:
    missing = []
    for name in sorted(_named()):
        path = ROOT / name if not name.startswith("core/") else PACKAGE / name
        if not path.exists():
            missing.append(name)
    assert not missing


def test_it_names_every_part_and_every_room() -> None:
    text = PAGE.read_text()
    parts = [p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()]
    parts += ["plugin.py"]
    rooms = [p.name for p in (PACKAGE / "core").iterdir() if (p / "__init__.py").exists()]
    assert [p for p in parts if f"`varz_deck/{p}" not in text] == []
    assert [r for r in rooms if f"`core/{r}/`" not in text] == []


def test_each_command_module_it_names_is_a_command() -> None:
    cli = {p.stem for p in (PACKAGE / "cli").glob("*.py")}
    for name in re.findall(r"`(\w+)\.py`", PAGE.read_text()):
        if name in {"check", "cards", "rules", "sim", "tune", "register", "report", "explain"}:
            assert name in cli


def test_comments_point_to_the_docs_not_to_a_spec_or_an_issue() -> None:
    """A maintainer has the docs; the SPEC and the issue tracker's numbers are not theirs."""
    cited = re.compile(r"SPEC\b|§\s*\d|\b[Ii]ssue #?\d+")
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in {".py", ".html", ".txt", ".cfg", ".js", ".css"} or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if cited.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
