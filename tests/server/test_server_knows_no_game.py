"""The registration server names no game (issue 25): its code, templates, scripts and style sheet
hold no game's key or game words, and the pages take the lead card's title from the game itself,
so a game the server has never heard of gets its own words on the dashboard."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from harness import ROOT

SERVER = ROOT / "varz_deck" / "server"
# a bundled game's key or its words; `varz-deck`, `varz_deck`, `VARZ_DECK_…`, `varzdeck_…` are the
# tool's own name
GAME_WORDS = re.compile(
    r"(?<![\w-])(varz|azuki|heroe?s?|leaders?|portals?|ikz)(?![\w-])", re.IGNORECASE
)
SHIPPED = (".py", ".html", ".js", ".css")


def _shipped_files() -> list[Path]:
    return sorted(
        p
        for p in SERVER.rglob("*")
        if p.suffix in SHIPPED and "migrations" not in p.parts and "__pycache__" not in p.parts
    )


def test_no_file_of_the_server_names_a_game_or_its_words() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _shipped_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_WORDS.search(line) or "DEFAULT_GAME" in line
    ]
    assert found == []


def test_the_game_words_pattern_finds_game_words_and_spares_the_tools_name() -> None:
    assert GAME_WORDS.search("the hero (VARZ)") and GAME_WORDS.search("Leader for Azuki")
    assert GAME_WORDS.search("portals: 4") and GAME_WORDS.search('key == "varz"')
    assert not GAME_WORDS.search("varz-deck serve · varz_deck.server · $VARZ_DECK_CARDS")
    assert not GAME_WORDS.search("varzdeck_lang, the lead card, leadership")


def test_the_pages_are_included_without_a_guard() -> None:
    """The pages always ship with the server: urls.py includes them unconditionally."""
    urls = (SERVER / "urls.py").read_text(encoding="utf-8")
    assert "find_spec" not in urls and "importlib" not in urls


# A game the server has never heard of: only its key, name and deck words (it needs nothing else
# for an empty dashboard); the lead card's title is the game's own.
TOY_DASHBOARD = textwrap.dedent(
    """
    import json, sys
    from types import SimpleNamespace
    from varz_deck.server.app import prepare
    prepare(sys.argv[1])
    from django.test import Client
    from varz_deck.core.decks.check import DeckWords
    from varz_deck.core.messages.i18n import msg
    from varz_deck.games import register_game
    from varz_deck.server import service

    words = DeckWords(
        lead_named=msg("report", "captain {name}"),
        lead_title=msg("page", "Captain of the ship"),
        lead_json="captain",
    )
    TOY = SimpleNamespace(key="toy", name="Toy Game", words=words)
    register_game("toy", "__main__:TOY")
    event, token = service.create_event("Toy Night", game="toy")
    client = Client()
    signed = client.get(f"/o/{token}")
    page = client.get(signed["Location"])
    print(json.dumps({"status": page.status_code, "text": page.content.decode()}))
    """
)


def test_the_dashboard_titles_the_lead_card_with_the_games_own_words(
    tmp_path: Path, server_stack: None
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", TOY_DASHBOARD, str(tmp_path / "toy.sqlite3")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["status"] == 200
    page = answer["text"]
    assert "Toy Game · each deck&#x27;s own format" in page
    # the lists' column and the metagame's column (shown once there are lists)
    assert "<th>Captain of the ship</th>" in page
    assert "<th>Hero</th>" not in page and "<th>Leader</th>" not in page
