"""The console samples of the README and the documentation site are the tool's real output, so
they cannot drift.

Each ```console block in README.md and docs/**/*.md is preceded by a marker:
  <!-- sample: varz-deck COMMAND ARGS -->   the block is `$ varz-deck COMMAND ARGS` and its output,
                                            run here with COLUMNS=80 from the repository root; a
                                            last line `…` means the block shows the output's start
  <!-- sample: illustrative -->             a made-up or shell-only example, not run
`python tests/test_readme_samples.py` rewrites the marked blocks from the tool (read the diff).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
COLUMNS = "80"
MARKER = re.compile(r"<!-- sample: (.+?) -->\n```console\n(.*?)```", re.S)
ILLUSTRATIVE = "illustrative"


def samples(pages: list[Path] = PAGES) -> list[tuple[str, str]]:
    return [
        (m.group(1).strip(), m.group(2))
        for page in pages
        for m in MARKER.finditer(page.read_text("utf-8"))
    ]


def run(command: str) -> str:
    """The command's stdout, as a user at an 80-column terminal sees it (no colour)."""
    from varz_deck.cli import main

    args = shlex.split(command)
    assert args[0] == "varz-deck"
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "VARZ_DECK_LANG", "VARZ_DECK_CARDS")}
    cwd = Path.cwd()
    out = io.StringIO()
    try:
        os.environ["COLUMNS"] = COLUMNS
        os.environ.pop("VARZ_DECK_LANG", None)
        os.environ.pop("VARZ_DECK_CARDS", None)
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(args[1:])
    finally:
        os.chdir(cwd)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return out.getvalue()


def expected(command: str, block: str) -> tuple[str, bool]:
    """The output the block shows, and whether it is only the start (a last line `…`)."""
    first, _, shown = block.partition("\n")
    assert first == f"$ {command}", f"the block under the marker runs {first!r}, not {command!r}"
    if shown.endswith("…\n"):
        return shown[: -len("…\n")], True
    return shown, False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_console_block_is_marked(page: Path) -> None:
    blocks = page.read_text("utf-8").count("```console")
    assert blocks == len(samples([page])), f"a ```console block in {page} has no marker"


def test_the_readme_and_the_site_show_real_output() -> None:
    assert sum(1 for command, _ in samples([README]) if command != ILLUSTRATIVE) >= 2
    assert sum(1 for command, _ in samples() if command != ILLUSTRATIVE) >= 12


@pytest.mark.parametrize(
    "command", sorted({c for c, _ in samples() if c != ILLUSTRATIVE}), ids=lambda c: c[10:60]
)
def test_readme_sample_is_the_real_output(command: str) -> None:
    block = next(b for c, b in samples() if c == command)
    shown, partial = expected(command, block)
    out = run(command)
    if partial:
        assert out.startswith(shown), f"README sample for {command!r} no longer matches"
        assert len(shown.splitlines()) >= 3
    else:
        assert out == shown, f"README sample for {command!r} no longer matches"


def _rewrite() -> None:
    """Refresh every marked block from the tool (keeping a partial block's length)."""
    for page in PAGES:
        _rewrite_page(page)


def _rewrite_page(page: Path) -> None:
    text = page.read_text("utf-8")

    def fresh(match: re.Match[str]) -> str:
        command, block = match.group(1).strip(), match.group(2)
        if command == ILLUSTRATIVE:
            return match.group(0)
        shown, partial = expected(command, block)
        out = run(command)
        if partial:
            out = "".join(out.splitlines(keepends=True)[: len(shown.splitlines())]) + "…\n"
        return f"<!-- sample: {command} -->\n```console\n$ {command}\n{out}```"

    page.write_text(MARKER.sub(fresh, text), "utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    _rewrite()
