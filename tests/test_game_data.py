"""A game owns its data (issue 25): its bundled cards, its schemas, the words its reports use, and
its messages' translations, all under its own package; the core's reports name no game."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from varz_deck.core.decks.check import DeckReport, DeckWords
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.report import text as text_report
from varz_deck.games import get_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "varz_deck" / "games"

# Each bundled game's catalogue names, as `varz-deck schema NAME` and the examples' `$schema`
# comments have always used them.
SCHEMA_NAMES = {"varz": {"card", "deck"}, "azuki": {"azuki-card", "azuki-deck"}}


def test_each_game_ships_its_card_data_at_the_top_in_its_own_folder() -> None:
    """A clone's top-level card_data/KEY (the design card's layout), no copy in the package."""
    for key in ("varz", "azuki"):
        folder = get_game(key).card_data
        assert folder == ROOT / "card_data" / key
        assert (folder / "formats.yaml").is_file()
        assert any((folder / "sets").glob("*.yaml"))
    assert not list(GAMES.rglob("card_data"))
    assert not list(GAMES.rglob("*.schema.json"))


def test_each_game_declares_its_schemas_in_the_top_schemas_folder() -> None:
    for key, names in SCHEMA_NAMES.items():
        game = get_game(key)
        assert set(game.schemas) == names
        assert {game.card_schema, game.deck_schema} == names
        for path in game.schemas.values():
            assert path.parent == ROOT / "schemas" / key
            assert json.loads(path.read_text(encoding="utf-8"))["$schema"].endswith(
                "2020-12/schema"
            )


@pytest.mark.parametrize("name", ["card", "deck", "formats", "azuki-card", "azuki-deck"])
def test_the_schema_command_prints_each_catalogue_entry_as_shipped(name: str) -> None:
    files = {
        "card": ROOT / "schemas" / "varz" / "card-file.schema.json",
        "deck": ROOT / "schemas" / "varz" / "deck.schema.json",
        "formats": ROOT / "varz_deck" / "core" / "files" / "formats.schema.json",
        "azuki-card": ROOT / "schemas" / "azuki" / "card-file.schema.json",
        "azuki-deck": ROOT / "schemas" / "azuki" / "deck.schema.json",
    }
    done = subprocess.run(
        [sys.executable, "-m", "varz_deck", "schema", name], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == files[name].read_bytes()


TOY = '''
"""A toy game that brings its own deck schema."""

from pathlib import Path
from typing import ClassVar

from varz_deck.core.decks.check import DeckWords
from varz_deck.core.messages.i18n import Message
from varz_deck.core.files.resources import register_schemas


class Toy:
    key = "toyschema"
    name = "Toy"
    card_schema = "toyschema-card"
    deck_schema = "toyschema-deck"
    schemas = {
        "toyschema-card": Path(__file__).with_name("toy-card.schema.json"),
        "toyschema-deck": Path(__file__).with_name("toy-deck.schema.json"),
    }
    words = DeckWords(Message("report", "captain {name}"), Message("page", "Captain"), "hero")


GAME = Toy()
register_schemas(GAME.schemas)
'''


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    from varz_deck import games

    (tmp_path / "toy_schema_game.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    for kind in ("card", "deck"):
        document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": kind}
        (tmp_path / f"toy-{kind}.schema.json").write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    games.register_game("toyschema", "toy_schema_game")
    try:
        yield "toyschema"
    finally:
        if hasattr(games, "unregister_game"):
            games.unregister_game("toyschema")
        else:  # the registry before entry points
            games.GAME_MODULES.pop("toyschema", None)
            games.GAMES.pop("toyschema", None)
        sys.modules.pop("toy_schema_game", None)


def test_the_schema_catalogue_is_made_from_the_registry(toy_game: str) -> None:
    import varz_deck.cli.rules as rules

    try:
        reloaded = importlib.reload(rules)
        names = [member.value for member in reloaded.SchemaName]
        assert names[:5] == ["card", "deck", "formats", "azuki-card", "azuki-deck"]
        assert {"card", "deck", "azuki-card", "azuki-deck", "toyschema-card"} <= set(names)
        assert "toyschema-deck" in names
        from varz_deck.core.files.resources import schema

        assert schema("toyschema-deck")["title"] == "deck"
    finally:
        importlib.reload(rules)


def test_the_catalogue_lists_no_name_twice() -> None:
    from varz_deck.cli.rules import SchemaName

    names = [member.value for member in SchemaName]
    assert len(names) == len(set(names))
    assert set(names) >= {"card", "deck", "formats", "azuki-card", "azuki-deck"}


# --------------------------------------------------------------------------- reports


class _Card:
    id = "T-1"
    name = "Toy Captain"
    names: ClassVar[dict[str, str]] = {}


WORDS = DeckWords(
    lead_named=Message("report", "captain {name}"),
    lead_title=Message("page", "Captain"),
    lead_json="captain",
)


def _report() -> DeckReport:
    return DeckReport("toy.yaml", None, "casual", _Card(), {"main": 1}, (), game="toy", words=WORDS)


def test_the_text_report_names_the_lead_card_in_the_games_words() -> None:
    out = text_report.render_check([_report()])
    assert out.splitlines()[0] == "✓ legal  toy.yaml  (casual · captain Toy Captain)"


def test_the_json_report_keys_the_lead_card_by_the_games_word() -> None:
    data = _report().to_json()
    assert list(data) == [
        "path",
        "name",
        "format",
        "date",
        "legal",
        "captain",
        "counts",
        "diagnostics",
    ]
    assert data["captain"] == {"id": "T-1", "name": "Toy Captain"}


def test_both_bundled_games_keep_the_json_key_of_version_1() -> None:
    for key in ("varz", "azuki"):
        assert get_game(key).words.lead_json == "hero"


# --------------------------------------------------------------------------- no game words

# Files outside the games' packages whose code, docstrings and comments name no game (issue 25).
NEUTRAL = [
    "varz_deck/core/report",
    "varz_deck/core/registration",
    "varz_deck/core/files/resources.py",
    "varz_deck/core/files/schemas.py",
    "varz_deck/core/files/fastschema.py",
    "varz_deck/core/messages/i18n.py",
    "varz_deck/core/decks/check.py",
    "varz_deck/core/analysis/tuning.py",
    "varz_deck/cli/cards.py",
    "varz_deck/cli/check.py",
    "varz_deck/cli/serve.py",
    "varz_deck/cli/main.py",
    "varz_deck/cli/rules.py",
]
GAME_WORDS = re.compile(r"\b(varz|azuki|hero(es)?|portals?|leaders?|ikz)\b", re.IGNORECASE)


def _neutral_files() -> list[Path]:
    found = []
    for name in NEUTRAL:
        path = ROOT / name
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


@pytest.mark.parametrize("path", _neutral_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_game_word_outside_the_games(path: Path) -> None:
    bad = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        cleaned = re.sub(r"varz[-_]deck|VARZ_DECK_\w+", "", line)  # the tool, not the game
        if GAME_WORDS.search(cleaned) and "# lead-json-key:" not in line:  # JSON version 1's key
            bad.append(f"{number}: {line.strip()}")
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------- translations


def test_each_game_ships_its_own_catalogues() -> None:
    for key in ("varz", "azuki"):
        for lang in ("ja", "zh"):
            assert (GAMES / key / "locale" / lang / "LC_MESSAGES" / f"{key}.po").is_file()


def test_a_games_message_is_translated_from_its_own_catalogue() -> None:
    get_game("varz")
    get_game("azuki")
    assert msg("report", "hero {name}")(name="X").render("ja") == "ヒーロー X"
    assert msg("report", "leader {name}")(name="X").render("ja").endswith("X")
    assert msg("report", "leader {name}")(name="X").render("ja") != "leader X"
    assert (
        msg(
            "report",
            "{n} error",
        )(n=1).render("en")
        == "1 error"
    )


# --------------------------------------------------------------------------- the wheel


def test_the_wheel_ships_each_games_data_schemas_and_catalogues(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source)
    for name in ("card_data", "schemas"):
        shutil.copytree(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "varz_deck",
        source / "varz_deck",
        ignore=shutil.ignore_patterns("__pycache__", "*.mo"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path / "dist")],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for key, sets in (("varz", "vz01"), ("azuki", "stt01")):
        assert f"varz_deck/_bundled/card_data/{key}/formats.yaml" in names
        assert f"varz_deck/_bundled/card_data/{key}/sets/{sets}.yaml" in names
        assert f"varz_deck/_bundled/schemas/{key}/deck.schema.json" in names
        assert f"varz_deck/_bundled/schemas/{key}/card-file.schema.json" in names
        for lang in ("ja", "zh"):
            assert f"varz_deck/games/{key}/locale/{lang}/LC_MESSAGES/{key}.mo" in names
    assert "varz_deck/core/files/formats.schema.json" in names
    for lang in ("ja", "zh"):
        assert f"varz_deck/locale/{lang}/LC_MESSAGES/varz_deck.mo" in names
    assert not [n for n in names if n.endswith(".po")]
    assert not [n for n in names if n.startswith(("card_data/", "schemas/"))]  # no top-level folder
