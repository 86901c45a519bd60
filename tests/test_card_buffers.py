"""An editor's unsaved card-file buffers reach `cards lint` as an explicit value (issue 25): a
buffer is read instead of its file, through the same limits and checks, and nothing of it is
left behind for the next read."""

from __future__ import annotations

from pathlib import Path

import pytest

from varz_deck.core.files.source import CARD_FILE_LIMIT
from varz_deck.games import lint_database, open_database

CARD = "cards:\n  - {id: A-1, name: A, type: skill, skill_class: generic}\n"
FORMATS = "formats:\n  standard:\n    name: Standard\n"


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A clean one-card database with a formats file."""
    folder = tmp_path / "db"
    folder.mkdir()
    (folder / "a.yaml").write_text(CARD, encoding="utf-8")
    (folder / "formats.yaml").write_text(FORMATS, encoding="utf-8")
    return folder


def found(diagnostics: list) -> list[tuple[str, str]]:
    return [(Path(d.file or "").name, d.code) for d in diagnostics]


def test_a_buffer_is_linted_instead_of_its_file(root: Path) -> None:
    assert lint_database(root).diagnostics == []
    result = lint_database(root, buffers={root / "a.yaml": "cards: 7\n"})
    assert found(result.diagnostics) == [("a.yaml", "C001")]
    assert (root / "a.yaml").read_text(encoding="utf-8") == CARD  # the file is not touched


def test_a_buffer_is_not_remembered_after_the_lint(root: Path) -> None:
    lint_database(root, buffers={root / "a.yaml": "cards: 7\n"})
    assert lint_database(root).diagnostics == []
    assert sorted(open_database(root).cards) == ["A-1"]


def test_a_buffer_for_a_card_file_gives_its_cards(root: Path) -> None:
    second = CARD + "  - {id: A-2, name: B, type: skill, skill_class: generic}\n"
    result = lint_database(root, buffers={root / "a.yaml": second})
    assert result.diagnostics == []
    assert result.database is not None and sorted(result.database.cards) == ["A-1", "A-2"]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("\ufeff" + CARD, []),  # a byte order mark is dropped, as in a file
        ("cards: [\n", ["F002"]),
        ("cards:\n  - {id: A-1, name: \udc80, type: skill}\n", ["F001"]),  # not UTF-8
        (CARD + "  - {id: A-1, name: B, type: skill, skill_class: generic}\n", ["C002"]),
    ],
)
def test_a_buffer_lints_as_its_file_saved_with_that_text(
    root: Path, text: str, codes: list[str]
) -> None:
    buffered = lint_database(root, buffers={root / "a.yaml": text}).diagnostics
    (root / "a.yaml").write_bytes(text.encode("utf-8", "surrogatepass"))
    saved = lint_database(root).diagnostics
    assert [d.code for d in buffered] == codes
    assert [(d.code, d.message, d.file, d.line, d.column) for d in buffered] == [
        (d.code, d.message, d.file, d.line, d.column) for d in saved
    ]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("#" * (16 * 1024 * 1024 + 1), "16,777,217"),
        ("茉" * 5_592_406, "16,777,218"),  # three bytes each in UTF-8: bytes count, not letters
    ],
)
def test_an_oversized_buffer_is_f001_as_an_oversized_file_is(
    root: Path, text: str, size: str
) -> None:
    assert CARD_FILE_LIMIT == 16 * 1024 * 1024
    result = lint_database(root, buffers={root / "a.yaml": text})
    [problem] = result.diagnostics
    assert (Path(problem.file or "").name, problem.code) == ("a.yaml", "F001")
    assert problem.message == f"is {size} bytes; files over 16,777,216 bytes are not read"


def test_the_formats_buffer_is_read_and_names_the_game(root: Path) -> None:
    result = lint_database(root, buffers={root / "formats.yaml": "game: nope\n" + FORMATS})
    [problem] = result.diagnostics
    assert (Path(problem.file or "").name, problem.code) == ("formats.yaml", "C001")
    assert "(got 'nope')" in problem.message


def test_the_formats_buffer_chooses_the_game_whose_rules_apply(root: Path) -> None:
    azuki = lint_database(root, buffers={root / "formats.yaml": "game: azuki\n" + FORMATS})
    assert azuki.errors  # a card of the default game is not a valid card of the other game
    assert lint_database(root).diagnostics == []


def test_a_buffer_named_by_a_relative_path_is_read(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(root.parent)
    result = lint_database(root, buffers={Path("db") / "sets" / ".." / "a.yaml": "cards: 7\n"})
    assert found(result.diagnostics) == [("a.yaml", "C001")]


def test_a_buffer_for_a_file_not_on_disk_adds_no_file(root: Path) -> None:
    result = lint_database(root, buffers={root / "new.yaml": "cards: 7\n"})
    assert result.diagnostics == []  # the database is its files; an unsaved new one is not yet
