"""A game with no Python: Lantern Court (examples/yaml-game) is declared in its card-data folder's
game.yaml, and `check`, `cards lint`, `rules`, `register`, `code` and the language server work for
its decks, with `--cards` naming the folder or found above a deck file (docs/reference/
game-yaml.md). A game.yaml that declares no usable game is a clear error (exit 2, the file and
place named), never a traceback. Expected verdicts are written here by hand from the game's files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig
from test_lsp import SERVER, open_doc, start, stop
from typer.testing import CliRunner

from varz_deck.cli import app

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "yaml-game"
CARDS = GAME / "card_data"
DECKS = GAME / "decks"
COPIES = DECKS / "illegal-copies.yaml"
SHORT = DECKS / "illegal-court-size.yaml"
MOTH = DECKS / "legal-old-moth.yaml"
HERON = DECKS / "legal-river-heron.txt"


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def checked(*args: object) -> tuple[int, dict[str, list[tuple[str, int | None, str]]]]:
    """check's exit code and each deck's diagnostics as (code, line, message), by file name."""
    status, out, err = run("check", "-o", "json", *args)
    assert status in (0, 1), err
    return status, {
        Path(d["path"]).name: [(x["code"], x["line"], x["message"]) for x in d["diagnostics"]]
        for d in json.loads(out)["decks"]
    }


# The verdicts, from the game's files: a court is exactly 24 cards, 3 copies at most of a
# card that is not a basic lantern; illegal-copies.yaml has 4 Paper Crane (line 7), and
# illegal-court-size.yaml a court of 10 + 3 = 13 cards (the key `court:` on line 3).
VERDICTS = {
    "illegal-copies.yaml": [
        (
            "D103",
            7,
            "4 copies of 'Paper Crane' in Court; at most 3 (all printings together): remove 1",
        )
    ],
    "illegal-court-size.yaml": [("D102", 3, "Court has 13 cards; it needs exactly 24 (add 11)")],
    "legal-old-moth.yaml": [],
    "legal-river-heron.txt": [],
}


@pytest.mark.parametrize("named", [True, False], ids=["--cards", "found above the decks"])
def test_check_gives_the_declared_game_s_verdicts(named: bool) -> None:
    status, found = checked(*(("--cards", CARDS) if named else ()), COPIES, SHORT, MOTH, HERON)
    assert found == VERDICTS
    assert status == 1


def test_json_counts_the_declared_sections() -> None:
    status, out, _ = run("check", "-o", "json", "--cards", CARDS, MOTH)
    (deck,) = json.loads(out)["decks"]
    assert (status, deck["counts"], deck["hero"]) == (
        0,
        {"court": 10 + 2 + 3 + 3 + 3 + 3, "wishes": 1},
        {"id": "LC01-001", "name": "Old Moth"},
    )


def test_the_format_s_ban_release_and_announced_change_are_the_core_s() -> None:
    # first-light: sets [LC01], Ember Fox banned, Paper Crane banned from 2027-03-01.
    _, found = checked("--cards", CARDS, "--format", "first-light", "--date", "2027-03-01", MOTH)
    assert found["legal-old-moth.yaml"] == [
        ("D115", 8, "'Paper Crane' is banned in First Light since 2027-03-01; replace it")
    ]
    _, found = checked("--cards", CARDS, "--format", "first-light", "--date", "2027-02-28", MOTH)
    assert [c for c, _, _ in found["legal-old-moth.yaml"]] == ["D203"]  # a day ahead: warned
    status, found = checked("--cards", CARDS, "--date", "2026-05-31", MOTH)  # LC01: 2026-06-01
    assert status == 1
    assert {c for c, _, _ in found["legal-old-moth.yaml"]} == {"D118"}


def test_a_format_of_the_game_found_above_the_decks_is_known() -> None:
    """--format names a format of the game.yaml game the decks are read with, no --cards."""
    _, found = checked("--format", "first-light", "--date", "2027-03-02", MOTH)
    assert found == {
        MOTH.name: [
            ("D115", 8, "'Paper Crane' is banned in First Light since 2027-03-01; replace it")
        ]
    }


def test_cards_lint_is_clean() -> None:
    status, out, err = run("cards", "lint", "-o", "json", CARDS)
    assert (status, err) == (0, "")
    files = json.loads(out)["files"]
    assert [Path(f["path"]).name for f in files] == ["formats.yaml", "lc01.yaml", "lc02.yaml"]
    assert all(f["diagnostics"] == [] for f in files)  # game.yaml is the game, not card data


def test_rules_lists_the_checks_the_game_reports_under() -> None:
    status, out, _ = run("rules")
    assert status == 0
    for code in ("D101", "D102", "D103", "D115", "D116", "D117", "D118", "D203"):
        assert code in out.split(), code
    status, out, _ = run("rules", "D103")
    assert status == 0 and "D103" in out


def test_register_and_code_round_trip(tmp_path: Path) -> None:
    status, out, err = run("code", MOTH)
    code = out.strip()
    assert (status, err) == (0, "") and code.startswith("LC1")
    _, found = checked("--cards", CARDS, code)
    assert list(found.values()) == [[]]  # the code reads back as the legal deck
    sheets = tmp_path / "sheets"
    status, out, err = run(
        "register", MOTH, "--player", "Aki", "--event", "Lantern Night", "--sheet", sheets
    )
    assert status == 0, err
    assert "patron: Old Moth (LC01-001)" in out
    (sheet,) = sheets.iterdir()
    page = sheet.read_text(encoding="utf-8")
    assert "Old Moth" in page and "Amber Lantern" in page and "Aki" in page


# --------------------------------------------------------------------------- a broken game.yaml


def _copy(tmp_path: Path, game_yaml: str | bytes | None) -> Path:
    """The example game's card data in tmp_path, its game.yaml replaced; and one of its decks."""
    cards = tmp_path / "card_data"
    shutil.copytree(CARDS, cards)
    shutil.copyfile(MOTH, tmp_path / MOTH.name)
    if isinstance(game_yaml, bytes):
        (cards / "game.yaml").write_bytes(game_yaml)
    elif game_yaml is not None:
        (cards / "game.yaml").write_text(game_yaml, encoding="utf-8")
    return cards


GOOD = (CARDS / "game.yaml").read_text(encoding="utf-8")
BROKEN = {
    "wrong types": (GOOD.replace("    size: {exact: 24}", "    size: twenty"), "C001", 17),
    "a section that is no list": (
        GOOD.replace("sections:\n", "sections: 3\nunused:\n"),
        "C001",
        None,
    ),
    "too deep": (GOOD + "rulebook: " + "[" * 200 + "]" * 200 + "\n", "F002", None),
    "a YAML error": (GOOD + "types: [\n", "F002", None),
    "not UTF-8": (GOOD.encode() + b"\xff\xfe", "F001", None),
    "a type going nowhere": (GOOD.replace("goes: wishes", "goes: dreams"), "C001", 38),
    "a field named as a card's own key": (
        GOOD.replace("  glow: {kind: word", "  type: {kind: integer}\n  glow: {kind: word"),
        "C001",
        29,
    ),
    "a word field without words": (
        GOOD.replace("glow: {kind: word, words: [amber, jade, violet]}", "glow: {kind: word}"),
        "C001",
        29,
    ),
    "a field's min above its max": (GOOD.replace("min: 0, max: 6", "min: 9, max: 1"), "C001", 30),
    "an installed game's key": (GOOD.replace("key: lantern", "key: varz"), "C001", 4),
    "an installed game's prefix": (GOOD.replace("prefix: L ", "prefix: V "), "C001", 6),
    "an installed game's deck codes": (
        GOOD.replace("code_family: LC", "code_family: AZ"),
        "C001",
        7,
    ),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_a_broken_game_yaml_is_exit_2_naming_it(tmp_path: Path, case: str) -> None:
    text, code, line = BROKEN[case]
    cards = _copy(tmp_path, text)
    status, out, err = run("cards", "lint", "-o", "json", cards)
    assert status == 2, (out, err)
    (shown,) = json.loads(out)["files"]
    assert Path(shown["path"]).name == "game.yaml"
    assert {d["code"] for d in shown["diagnostics"]} == {code}
    if line is not None:
        assert line in {d["line"] for d in shown["diagnostics"]}
    for args in (["--cards", cards, tmp_path / MOTH.name], [tmp_path / MOTH.name]):
        status, out, err = run("check", *args)
        assert (status, out) == (2, ""), args
        assert "game.yaml" in err and code in err and "Traceback" not in err, err


def test_a_game_yaml_over_the_size_limit_is_exit_2(tmp_path: Path) -> None:
    cards = _copy(tmp_path, None)
    with open(cards / "game.yaml", "r+b") as file:
        file.truncate(16 * 1024 * 1024 + 1)  # over the card files' limit, 16 MiB
    status, out, err = run("cards", "lint", cards)
    assert status == 2
    assert "game.yaml" in out and "F001" in out
    status, _, err = run("check", "--cards", cards, tmp_path / MOTH.name)
    assert status == 2 and "F001" in err


def test_a_changed_game_yaml_is_read_again(tmp_path: Path) -> None:
    cards = _copy(tmp_path, GOOD)
    deck = tmp_path / MOTH.name
    assert checked("--cards", cards, deck)[1][MOTH.name] == []
    (cards / "game.yaml").write_text(GOOD.replace("exact: 24", "exact: 25"), encoding="utf-8")
    found = checked("--cards", cards, deck)[1][MOTH.name]
    assert found == [("D102", 3, "Court has 24 cards; it needs exactly 25 (add 1)")]


# --------------------------------------------------------------------------- the language server


def _lsp(found: list[t.Diagnostic]) -> list[tuple[str, int, str]]:
    """(code, 1-based line, message), as check's JSON gives them."""
    return sorted((str(d.code), d.range.start.line + 1, d.message) for d in found)


@pytest.mark.parametrize("named", [True, False], ids=["cards setting", "found above the decks"])
@pytest.mark.asyncio
async def test_the_language_server_gives_check_s_verdicts(named: bool) -> None:
    client = await ClientServerConfig(server_command=SERVER).start()
    try:
        await start(client, **({"cards": str(CARDS)} if named else {}))
        for deck in (COPIES, SHORT, MOTH, HERON):
            assert _lsp(await open_doc(client, deck)) == sorted(VERDICTS[deck.name]), deck
        await client.shutdown_session()
    finally:
        await stop(client)


@pytest.mark.asyncio
async def test_the_language_server_names_a_broken_game_yaml(tmp_path: Path) -> None:
    cards = _copy(tmp_path, GOOD.replace("goes: wishes", "goes: dreams"))
    client = await ClientServerConfig(server_command=SERVER).start()
    try:
        await start(client)
        (said,) = await open_doc(client, tmp_path / MOTH.name)
        assert said.code == "F001"
        assert "game.yaml:38" in said.message and "C001" in said.message, said.message
        found = await open_doc(client, cards / "game.yaml")
        assert [(d.code, d.range.start.line + 1) for d in found] == [("C001", 38)]
        await client.shutdown_session()
    finally:
        await stop(client)


def test_a_game_whose_cards_are_their_ids_reads_a_shared_name_as_ambiguous(tmp_path: Path) -> None:
    """With `identity: id`, Paper Crane's two printings (LC01-010, LC02-002) are two cards: the
    name is F006 (it once raised a KeyError in `code` and `register`)."""
    cards = _copy(tmp_path, GOOD + "identity: id\n")
    deck = tmp_path / MOTH.name
    f006 = (
        "F006",
        8,
        "'Paper Crane' can mean 2 different cards: LC01-010 'Paper Crane'; LC02-002 "
        "'Paper Crane'; use the id",
    )
    assert checked("--cards", cards, deck) == (1, {MOTH.name: [f006]})
    for command in ("code", "register"):
        status, _, err = run(command, "--cards", cards, deck)
        assert status == 1 and "Traceback" not in err, (command, err)


def test_a_changed_field_is_checked_with_the_new_card_schema(tmp_path: Path) -> None:
    """One process (the language server's, say) reads game.yaml, then the file drops the word
    `violet`: the card files are checked against the card schema made from the new file."""
    cards = _copy(tmp_path, GOOD)
    assert run("cards", "lint", cards)[0] == 0
    (cards / "game.yaml").write_text(
        GOOD.replace("words: [amber, jade, violet]", "words: [amber, jade]"), encoding="utf-8"
    )
    status, out, _ = run("cards", "lint", "-o", "json", cards)
    found = {
        (Path(f["path"]).name, d["code"], d["line"])
        for f in json.loads(out)["files"]
        for d in f["diagnostics"]
    }
    # lc01.yaml: Violet Lantern (line 11) and Moon Hare (line 15); lc02.yaml: Plum Blossom (7)
    assert (status, found) == (
        1,
        {("lc01.yaml", "C001", 11), ("lc01.yaml", "C001", 15), ("lc02.yaml", "C001", 7)},
    )


def test_schema_prints_the_game_yaml_schema() -> None:
    status, out, err = run("schema", "game")
    assert (status, err) == (0, "")
    document = json.loads(out)
    assert document["$id"] == "urn:varz-deck:schema:game:1"
    assert set(document["required"]) == {
        "key",
        "name",
        "prefix",
        "code_family",
        "sections",
        "types",
    }
