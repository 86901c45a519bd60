"""`check DIR` on a folder that holds card data as well as decks (`examples/`, or a card-data
repository laid out as docs/guides/card-data.md says: `card_data/` and `decks/`): card files and
formats files are not decks. They are skipped, and named on stderr (one line per database), so a
file taken for card data is never dropped unseen; every output format stays valid."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from varz_deck.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
AZUKI_DATA = ROOT / "card_data" / "azuki"
VARZ_DATA = ROOT / "card_data" / "varz"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
TIDEWRIGHT_DATA = EXAMPLES / "third-game" / "tidewright" / "card_data"
LANTERN_DATA = EXAMPLES / "yaml-game" / "card_data"  # a game declared in its game.yaml


def run(*args: object) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, [str(a) for a in args])
    return done.exit_code, done.stdout, done.stderr


def paths(out: str) -> list[str]:
    return [d["path"] for d in json.loads(out)["decks"]]


def test_check_examples_checks_decks_not_card_data() -> None:
    status, out, err = run("check", EXAMPLES, "-o", "json")
    assert status == 1, err
    found = paths(out)
    card_data = sorted(str(p) for p in TIDEWRIGHT_DATA.rglob("*.yaml"))
    card_data += sorted(str(p) for p in LANTERN_DATA.rglob("*.yaml"))  # game.yaml included
    assert len(card_data) == 3 + 4 and not set(card_data) & set(found)
    assert str(KAGURA) in found and str(EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml") in found
    assert str(EXAMPLES / "yaml-game" / "decks" / "legal-old-moth.yaml") in found
    assert len(found) == 27  # 34 files, 7 of them card data
    assert err.splitlines() == [
        f"varz-deck: {folder}: skipped {n} files of card data (not decks; "
        "`varz-deck cards lint` checks card data)"
        for folder, n in ((TIDEWRIGHT_DATA, 3), (LANTERN_DATA, 4))
    ]


def test_every_output_stays_valid_and_names_no_card_file() -> None:
    for output in ("json", "sarif"):
        status, out, _ = run("check", EXAMPLES, "-o", output)
        assert status == 1
        assert "tidewright/card_data" not in json.dumps(json.loads(out))
    status, out, _ = run("check", EXAMPLES, "-o", "github")
    assert status == 1 and "tidewright/card_data" not in out


def _repository(tmp_path: Path) -> Path:
    """A card-data repository as the guide lays it out: the database (Azuki's, with its
    formats.yaml naming the game) in card_data/, and decks of both games in decks/."""
    repo = tmp_path / "repo"
    shutil.copytree(AZUKI_DATA, repo / "card_data")
    (repo / "decks").mkdir()
    for deck in [*sorted((EXAMPLES / "azuki").glob("*.yaml")), KAGURA]:
        shutil.copy(deck, repo / "decks" / deck.name)
    return repo


def test_check_dot_in_a_card_data_repository_finds_each_decks_game(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    status, out, err = run("check", repo, "-o", "json")
    assert status == 0, (out, err)
    decks = json.loads(out)["decks"]
    assert [d["path"] for d in decks] == [str(p) for p in sorted((repo / "decks").iterdir())]
    assert all(d["legal"] for d in decks)
    sections = {Path(d["path"]).name: {"spells", "main"} & set(d["counts"]) for d in decks}
    assert sections.pop(KAGURA.name) == {"spells"}  # checked as VARZ's
    assert list(sections.values()) == [{"main"}] * 4  # as Azuki's
    database = repo / "card_data"
    n = len(list(database.rglob("*.yaml")))
    assert f"{database}: skipped {n} files of card data" in err


def test_card_files_are_known_by_their_cards_key_without_a_formats_file(tmp_path: Path) -> None:
    shutil.copytree(VARZ_DATA / "sets", tmp_path / "sets")
    shutil.copy(KAGURA, tmp_path / "deck.yaml")
    status, out, err = run("check", tmp_path, "-o", "json")
    assert status == 0, err
    assert paths(out) == [str(tmp_path / "deck.yaml")]
    assert f"{tmp_path / 'sets'}: skipped 3 files of card data" in err


def test_a_folder_of_card_data_only_says_so(tmp_path: Path) -> None:
    database = tmp_path / "card_data"
    shutil.copytree(VARZ_DATA, database)
    status, out, err = run("check", database)
    assert (status, out) == (2, "")
    assert f"{database} holds card data, not decks" in err
    assert f"varz-deck cards lint {database}" in err


def test_a_deck_is_a_deck_whatever_else_it_holds(tmp_path: Path) -> None:
    """A deck with a stray `cards:` key, and a deck named formats.yaml: a game reads each as its
    deck, so each is checked (the stray key is the deck's own F004)."""
    text = KAGURA.read_text(encoding="utf-8")
    (tmp_path / "stray.yaml").write_text(text + "cards:\n  - id: X\n", encoding="utf-8")
    (tmp_path / "formats.yaml").write_text(text, encoding="utf-8")
    status, out, err = run("check", tmp_path, "-o", "json")
    assert status == 1 and err == ""
    decks = json.loads(out)["decks"]
    assert [d["path"] for d in decks] == [str(tmp_path / n) for n in ("formats.yaml", "stray.yaml")]
    assert [d["code"] for d in decks[1]["diagnostics"]] == ["F004"]


def test_what_a_yaml_file_is_to_a_card_database() -> None:
    from varz_deck.core.cards.discovery import card_data_kind

    assert card_data_kind("formats.yaml", b"") == "formats"
    assert card_data_kind("formats.yml", b"name: x\n") == "formats"
    assert card_data_kind("Formats.yaml", b"game: azuki\nformats:\n  standard: {}\n") == "formats"
    assert card_data_kind("vz01.yaml", b"set:\n  code: VZ01\ncards:\n  - id: VZ01-001\n") == "cards"
    assert card_data_kind("x.yaml", b"cards :\n") == "cards"
    assert card_data_kind("x.yaml", b"formats\t: {}\n") == "formats"
    for head in (b"hero: X\nspells:\n  cards: 3\n", b"  cards:\n", b"# cards:\n", b"format: x\n"):
        assert card_data_kind("deck.yaml", head) is None, head
    assert card_data_kind("formats.yaml.bak", b"hero: X\n") is None


def test_the_head_of_a_file_whatever_its_size(tmp_path: Path) -> None:
    import os

    from varz_deck.core.cards.discovery import HEAD, read_head

    big = tmp_path / "big.yaml"
    big.write_bytes(b"cards:\n" + b"x" * (3 * HEAD))
    assert read_head(big) == (b"cards:\n" + b"x" * HEAD)[:HEAD]
    assert read_head(big, 6) == b"cards:"
    assert read_head(tmp_path) is None  # a folder
    assert read_head(tmp_path / "none.yaml") is None
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.yaml")
        assert read_head(tmp_path / "fifo.yaml") is None  # at once, never waited on


def _only_card_data(folder: Path, n: int, noun: str) -> str:
    return (
        f"varz-deck: {folder} holds card data, not decks ({n} {noun}); lint it with "
        f"`varz-deck cards lint {folder}`, or check decks against it with --cards {folder}\n"
    )


def test_a_folder_of_card_data_only_is_said_in_one_line_in_each_language(tmp_path: Path) -> None:
    """The whole message, one file and several, and in Japanese; no "skipped" line before it."""
    one = tmp_path / "one"
    one.mkdir()
    (one / "cards.yaml").write_text("cards:\n  - {id: X-1}\n", encoding="utf-8")
    assert run("check", one)[::2] == (2, _only_card_data(one, 1, "file"))
    several = tmp_path / "several"
    shutil.copytree(VARZ_DATA, several)  # formats.yaml and three set files
    assert run("check", several)[::2] == (2, _only_card_data(several, 4, "files"))
    status, _, err = run("check", several, "--lang", "ja")
    assert (status, err) == (
        2,
        f"varz-deck: {several} にあるのはカードデータで、デッキではありません（4 ファイル）。"
        f"`varz-deck cards lint {several}` で検査するか、--cards {several} を付けてデッキを"
        "このデータで検査してください\n",
    )


def test_one_card_file_skipped_among_decks_is_said_in_the_singular(tmp_path: Path) -> None:
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: X-1}\n", encoding="utf-8")
    shutil.copy(KAGURA, tmp_path / "deck.yaml")
    status, out, err = run("check", tmp_path, "-o", "json")
    assert (status, paths(out)) == (0, [str(tmp_path / "deck.yaml")])
    assert err == (
        f"varz-deck: {tmp_path}: skipped 1 file of card data (not a deck; "
        "`varz-deck cards lint` checks card data)\n"
    )


def test_a_folder_without_decks_is_said_in_the_language_asked(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("no deck here\n", encoding="utf-8")
    assert run("check", tmp_path)[::2] == (
        2,
        f"varz-deck: {tmp_path} holds no deck file (*.yaml, *.yml, *.txt, *.dek)\n",
    )
    assert run("check", tmp_path, "--lang", "ja")[::2] == (
        2,
        f"varz-deck: {tmp_path} にデッキファイルがありません（*.yaml, *.yml, *.txt, *.dek）\n",
    )


def test_standard_input_twice_is_said_in_the_language_asked() -> None:
    done = CliRunner().invoke(app, ["check", "-", "-", "--lang", "ja"], input="hero: X\n")
    assert (done.exit_code, done.stderr) == (2, "varz-deck: 標準入力（-）は一度しか読めません\n")


def test_a_name_too_long_for_a_path_is_kept_as_given() -> None:
    """Too long to be a file (the system says so): a deck code most likely, never a folder."""
    from varz_deck.cli.common import deck_arguments

    code = Path("A" * 300)
    assert deck_arguments([code, Path("B" * 300)]) == [code, Path("B" * 300)]


def test_card_data_known_by_its_name_or_written_in_latin1_is_skipped(tmp_path: Path) -> None:
    """A formats.yml with no `formats:` yet is card data by its name; a card file in Latin-1
    (not UTF-8) by its `cards:` key, read with replacement characters. Neither is a deck."""
    (tmp_path / "formats.yml").write_text("# the formats come later\n", encoding="utf-8")
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "cafe.yaml").write_bytes(b"cards:\n  - {id: X-1, name: Caf\xe9}\n")
    shutil.copy(KAGURA, tmp_path / "deck.yaml")
    status, out, err = run("check", tmp_path, "-o", "json")
    assert (status, paths(out)) == (0, [str(tmp_path / "deck.yaml")]), err
    assert err == (
        f"varz-deck: {tmp_path}: skipped 2 files of card data (not decks; "
        "`varz-deck cards lint` checks card data)\n"
    )
