"""One deck, one set of diagnostics, whatever its form (SPEC §4, "one problem, one diagnostic"):
a section left out, written empty (`{}`, `[]`, nothing after its key), a plain-text header with
no cards under it, and the deck code of the same cards all give the same codes. Each example
deck of both bundled games is checked with each of its sections emptied in each form."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
DECKS = {
    "varz": (ROOT / "examples" / "red-kagura-festival.yaml", ("spells", "skills", "portals")),
    "azuki": (ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml", ("main", "ikz")),
}
DAY = "2026-12-01"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(list(args))
        except SystemExit as done:
            code = int(done.code or 0)
    return code, out.getvalue()


def codes(deck: str) -> list[str]:
    status, out = run("check", "--output", "json", "--date", DAY, deck)
    assert status in (0, 1), out
    return sorted(d["code"] for report in json.loads(out)["decks"] for d in report["diagnostics"])


def without(text: str, section: str) -> str:
    """The deck's YAML with one section (its key and the lines under it) taken out."""
    return re.sub(rf"(?m)^{section}:.*\n(?:(?:[ \t]+.*|[ \t]*)\n)*", "", text)


def as_text_list(text: str) -> str:
    """The YAML deck (mapping form, `Card: count`) as a plain-text list (SPEC §2)."""
    out = []
    for line in text.splitlines():
        line = line.split("#")[0].rstrip()
        top = re.fullmatch(r"([a-z]+):\s*(.*)", line)
        entry = re.fullmatch(r"\s+(.+):\s*([0-9]+)", line)
        if top and top.group(2):
            out.append(f"{top.group(1).capitalize()}: {top.group(2)}")
        elif top:
            out.append(f"{top.group(1).capitalize()}:")
        elif entry:
            out.append(f"{entry.group(2)} {entry.group(1)}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("game", "section"),
    [(game, section) for game, (_, sections) in DECKS.items() for section in sections],
)
def test_an_empty_section_gives_the_same_codes_in_every_form(
    tmp_path: Path, game: str, section: str
) -> None:
    deck, _ = DECKS[game]
    base = without(deck.read_text(encoding="utf-8"), section)
    forms = {
        "left out": base,
        "{}": base + f"{section}: {{}}\n",
        "[]": base + f"{section}: []\n",
        "nothing": base + f"{section}:\n",
    }
    found = {}
    for name, text in forms.items():
        path = tmp_path / f"{len(found)}.yaml"
        path.write_text(text, encoding="utf-8")
        found[name] = codes(str(path))
    listed = tmp_path / "list.txt"
    listed.write_text(as_text_list(base) + f"{section.capitalize()}:\n", encoding="utf-8")
    found["text header"] = codes(str(listed))
    status, deck_code = run("code", str(tmp_path / "0.yaml"))
    assert status == 0, deck_code
    found["deck code"] = codes(deck_code.strip())
    assert len(set(map(tuple, found.values()))) == 1, found
    assert found["deck code"] and len(set(found["deck code"])) == 1  # one problem, one code
