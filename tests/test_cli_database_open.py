"""A card database folder opened by a command (cli/common.py): `database_folder` and
`open_or_exit`, which `check`, `cards lint` and `cards diff` share, each called on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from varz_deck.cli.common import database_folder, open_or_exit


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VARZ_DECK_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "VARZ_DECK_CARDS"):
        monkeypatch.delenv(name, raising=False)


def _exit(capsys: pytest.CaptureFixture[str], call: object) -> tuple[int, str]:
    with pytest.raises(typer.Exit) as done:
        assert callable(call)
        call()
    out, err = capsys.readouterr()
    assert out == ""
    return done.value.exit_code, err


def _broken(tmp_path: Path) -> Path:
    root = tmp_path / "cards"
    (root / "sets").mkdir(parents=True)
    (root / "sets" / "broken.yaml").write_bytes(b"cards: [\n")
    return root


def test_a_folder_passes_and_anything_else_exits_2_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database_folder(tmp_path, "en")
    assert capsys.readouterr() == ("", "")
    missing, file = tmp_path / "nope", tmp_path / "cards.yaml"
    file.write_text("cards: []\n", encoding="utf-8")
    tail = "; give the folder that holds the card files\n"
    assert _exit(capsys, lambda: database_folder(missing, "en")) == (
        2,
        f"varz-deck: card database {missing} does not exist{tail}",
    )
    assert _exit(capsys, lambda: database_folder(file, "en", "old at HEAD")) == (
        2,
        f"varz-deck: card database old at HEAD is not a folder{tail}",
    )


def test_an_invalid_database_exits_2_with_its_first_problem_and_cards_lint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = _broken(tmp_path)
    code, err = _exit(capsys, lambda: open_or_exit(root, "en", progress=False))
    assert code == 2
    assert err.startswith(f"varz-deck: card database {root} is invalid: 1 problem (first: ")
    assert f"(first: {root / 'sets' / 'broken.yaml'}:" in err
    assert err.endswith(f"; run `varz-deck cards lint {root}` to see them all\n")


def test_a_copy_at_a_revision_is_named_by_its_label_with_its_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = _broken(tmp_path)
    code, err = _exit(capsys, lambda: open_or_exit(root, "en", False, "card_data at HEAD"))
    assert code == 2
    assert err.startswith("varz-deck: card database card_data at HEAD is invalid: 1 problem ")
    assert "(first: card_data at HEAD/sets/broken.yaml:" in err and str(root) not in err
    assert err.endswith(
        "; to see them all, check that revision out (git worktree add) and run "
        "`varz-deck cards lint` there\n"
    )


def test_a_valid_database_opens(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parent.parent / "card_data" / "azuki"
    database_folder(root, "en")
    database = open_or_exit(root, "en", progress=False)
    assert (database.game, bool(database.cards)) == ("azuki", True)
    assert capsys.readouterr() == ("", "")
