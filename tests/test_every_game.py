"""Every command × every installed game this table knows, on its example decks (SPEC §8,
issue 10).

Each command runs for each game and exits as SPEC §3 says; each option either works or is refused
with exit 2 naming the game, never silently ignored. The games come from the registry: every
bundled game must be in the table, and an installed plugin it knows (the third game,
examples/third-game) is held to the same table; other installed games are not its business.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.games import OWN_DISTRIBUTION, game_keys, game_origin, get_game, open_database

ROOT = Path(__file__).resolve().parent.parent
THIRD = ROOT / "examples" / "third-game" / "decks"
LEGAL = {
    "varz": [ROOT / "examples" / "red-kagura-festival.yaml", ROOT / "examples" / "blue-list.txt"],
    "azuki": sorted((ROOT / "examples" / "azuki").glob("*.yaml")),
    "tidewright": [THIRD / "legal-ilse-harbor.yaml", THIRD / "legal-oren-south-west.txt"],
}
GAMES = [key for key in game_keys() if key in LEGAL]
BUNDLED = [key for key in game_keys() if game_origin(key).startswith(f"{OWN_DISTRIBUTION} ")]
DATABASE = {key: get_game(key).card_data for key in GAMES}


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def game_args(game: str) -> list[str]:
    return ["--game", game]


def test_every_bundled_game_is_in_this_table() -> None:
    assert set(BUNDLED) == {"varz", "azuki"}
    assert set(BUNDLED) <= set(GAMES)
    assert DATABASE["varz"] == ROOT / "card_data" / "varz"


@pytest.mark.parametrize("game", GAMES)
def test_check(game: str) -> None:
    for output in ("text", "json", "github", "sarif"):
        code, out, _ = run("check", *LEGAL[game], *game_args(game), "--output", output)
        assert code == 0, out
    code, out, _ = run("check", *LEGAL[game], "--output", "json")  # the game is found from the deck
    assert code == 0, out
    assert [d["legal"] for d in json.loads(out)["decks"]] == [True] * len(LEGAL[game])


@pytest.mark.parametrize("game", GAMES)
def test_a_deck_against_another_game_s_database_is_one_f010(game: str) -> None:
    other = next(g for g in GAMES if g != game)
    code, out, _ = run("check", LEGAL[game][0], "--cards", DATABASE[other], "--output", "json")
    assert code == 1
    diagnostics = json.loads(out)["decks"][0]["diagnostics"]
    assert [d["code"] for d in diagnostics] == ["F010"]
    assert f"--game {game}" in diagnostics[0]["message"]


@pytest.mark.parametrize("game", GAMES)
def test_cards_lint_show_search(game: str) -> None:
    for output in ("text", "json", "github", "sarif"):
        code, out, _ = run("cards", "lint", DATABASE[game], "--output", output)
        assert code == 0, out
    database = open_database(DATABASE[game])
    card = sorted(database.cards.values(), key=lambda c: c.id)[0]
    code, out, _ = run("cards", "show", card.id, *game_args(game))
    assert code == 0, out
    assert card.id in out
    code, out, _ = run("cards", "search", card.name.split()[0], *game_args(game))
    assert code == 0, out
    code, _, _ = run("cards", "search", "zzzz-no-such-card-zzzz", *game_args(game))
    assert code == 1


@pytest.mark.parametrize("game", GAMES)
def test_rules_and_schema(game: str) -> None:
    code, out, _ = run("rules")
    assert code == 0
    for rule in get_game(game).rules():
        assert rule in out
    for name in (get_game(game).card_schema, get_game(game).deck_schema):
        code, out, _ = run("schema", name)
        assert code == 0
        assert json.loads(out)["$schema"].startswith("https://json-schema.org/")


@pytest.mark.parametrize("game", GAMES)
def test_sim_with_every_option(game: str, tmp_path: Path) -> None:
    deck, other = LEGAL[game][0], LEGAL[game][-1]
    base = ["sim", deck, *game_args(game), "--games", "500", "--turns", "5"]
    if get_game(game).goldfish is None:  # a game with no simulator says so
        code, out, err = run(*base)
        assert code == 2 and get_game(game).name in out + err
        return
    for extra in ([], ["--on", "draw"], ["--mulligan", "none"], ["--output", "json"]):
        code, out, err = run(*base, *extra)
        assert code == 0, out + err
    code, out, err = run(*base, "--vs", other, "--output", "json")
    assert code == 0, out + err
    assert json.loads(out)
    plot = tmp_path / "chart.svg"
    code, out, err = run(*base, "--plot", plot)
    assert code == 0, out + err
    assert plot.read_text(encoding="utf-8").lstrip().startswith(("<svg", "<?xml"))


@pytest.mark.parametrize("game", GAMES)
def test_register_verify_diff_code(game: str) -> None:
    deck, other = LEGAL[game][0], LEGAL[game][-1]
    code, out, _ = run("register", *LEGAL[game], *game_args(game), "--output", "json")
    assert code == 0, out
    registered = json.loads(out)
    entries = registered["registrations"]
    deck_hash = entries[0]["deck_hash"]
    assert re.fullmatch(r"v1-[a-z2-7]{10}", deck_hash)
    code, out, _ = run("verify", deck, "--hash", deck_hash, *game_args(game))
    assert code == 0, out
    code, out, _ = run("diff", deck, deck, *game_args(game))
    assert code == 0, out
    if deck != other:
        code, out, _ = run("diff", deck, other, *game_args(game))
        assert code == 1, out
    code, out, _ = run("code", deck, *game_args(game))
    assert code == 0, out
    deck_code = out.strip()
    code, out, _ = run("verify", deck_code, "--hash", deck_hash, *game_args(game))
    assert code == 0, out  # the code stands for the same deck
    code, out, _ = run("check", deck_code, *game_args(game))
    assert code == 0, out
