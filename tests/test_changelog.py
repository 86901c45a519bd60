"""CHANGELOG.md in Keep a Changelog form: Unreleased first, then versions with dates, newest
first, each with Added/Changed/Fixed/Removed groups of short bullets, no issue numbers."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_versions_in_order_with_dates() -> None:
    heads = re.findall(r"(?m)^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", TEXT)
    assert heads[0] == ("Unreleased", "")
    versions = [tuple(int(n) for n in v.split(".")) for v, _ in heads[1:]]
    assert versions and versions == sorted(versions, reverse=True)
    assert all(date for _, date in heads[1:])
    from varz_deck import __version__

    assert heads[1][0] == __version__  # the package says the newest version


def test_groups_are_keep_a_changelog_ones() -> None:
    groups = set(re.findall(r"(?m)^### (.+)$", TEXT))
    assert groups <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_bullets_are_short_and_name_no_issue() -> None:
    bullets = [line for line in TEXT.splitlines() if line.startswith("- ")]
    assert len(bullets) > 50
    for line in bullets:
        assert len(line) <= 202, line
        assert not re.search(r"\bissues? \d+|#\d+\b|§\d", line), line
    assert not [line for line in TEXT.splitlines() if line.startswith("  ")]  # no paragraphs
