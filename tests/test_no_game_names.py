"""No file of the package outside a game's own folder names a game or speaks its words (issue 25):
the core, the command line, the language server and the registration server reach every game
through its `Game` object, so a third game is one installable package and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from varz_deck.games import game_keys, get_game

PACKAGE = Path(__file__).resolve().parent.parent / "varz_deck"
GAMES = PACKAGE / "games"
SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".po", ".cfg", ".txt", ".md", ".yaml"}
# The bundled games' keys and names, and their words the issue lists (and VARZ's resource and
# its milestone): "varz-deck"/"varz_deck" is the tool, not the game, also where a catalogue's
# line wrapping splits it after the hyphen ("varz-"\n"deck").
WORDS = re.compile(
    r"\b(varz|azuki|heroe?s?|portals?|leaders?|ikz|vaz|v-sync)\b(?![-_]deck|-\"\n\"deck)",
    re.IGNORECASE,
)


ALLOWED = "# lead-json-key:"  # the one line that names check's JSON key of every game's lead card


def _outside_games() -> list[Path]:
    own = {GAMES / key for key in ("varz", "azuki")}
    return sorted(
        path
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix in SUFFIXES
        and "__pycache__" not in path.parts
        and not any(folder in path.parents for folder in own)
    )


def test_the_probe_sees_a_game_word() -> None:
    assert WORDS.search("the Hero of the deck") and WORDS.search("AZUKI") is not None
    assert WORDS.search("varz-deck check") is None and WORDS.search("VARZ_DECK_CARDS") is None
    assert WORDS.search("pip install 'varz-\"\n\"deck[server]'") is None
    assert WORDS.search('the varz-"\n"rules') is not None


@pytest.mark.parametrize("path", _outside_games(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_file_outside_a_game_names_one(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    text = "\n".join("" if ALLOWED in line else line for line in text.split("\n"))
    found = [
        f"{path.relative_to(PACKAGE)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for m in WORDS.finditer(text)
    ]
    assert not found, "\n".join(found)


def test_only_the_json_key_line_is_allowed() -> None:
    lines = [
        str(path.relative_to(PACKAGE))
        for path in _outside_games()
        if ALLOWED in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert lines == ["core/decks/check.py"]


def test_the_bundled_games_are_the_words_the_probe_knows() -> None:
    """If a bundled game is added or renamed, the probe's words must follow."""
    names = {get_game(key).name.split()[0].lower() for key in game_keys() if key in WORDS.pattern}
    assert {"varz", "azuki"} <= set(game_keys()) and names == {"varz", "azuki"}
