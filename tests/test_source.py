"""Reading untrusted files: UTF-8 only, a size limit, and F001 for everything else (SPEC §4)."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from varz_decks import read_deck

from varz_deck.cli import app
from varz_deck.core.files.source import (
    DECK_FILE_LIMIT,
    DeckSource,
    LoadError,
    decode,
    read_bytes,
    read_text,
)
from varz_deck.core.messages.diagnostics import Mark

src = DeckSource.from_path

DECK = "hero: Matsuri\nspells:\n  茉莉: 3\n"


def f001(call, *args) -> LoadError:
    with pytest.raises(LoadError) as caught:
        call(*args)
    assert caught.value.code == "F001"
    return caught.value


# --------------------------------------------------------------------------- decoding


def test_plain_utf8_is_read() -> None:
    assert decode(DECK.encode("utf-8")) == DECK


def test_utf8_bom_is_accepted_and_dropped() -> None:
    assert decode(b"\xef\xbb\xbf" + DECK.encode("utf-8")) == DECK


def test_an_empty_file_is_empty_text() -> None:
    assert decode(b"") == ""


@pytest.mark.parametrize(
    "encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]
)
def test_utf16_and_utf32_with_or_without_bom_are_f001_naming_utf8(encoding: str) -> None:
    err = f001(decode, DECK.encode(encoding))
    assert "UTF-8" in err.message


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_starting_with_a_non_ascii_character_is_f001_naming_utf8(encoding: str) -> None:
    err = f001(decode, "茉莉: 3\n".encode(encoding))
    assert "UTF-8" in err.message


def test_invalid_utf8_is_f001_with_line_and_column() -> None:
    err = f001(decode, b"hero: Matsuri\nspells:\n  Ember \xffImp: 3\n")
    assert "UTF-8" in err.message
    assert "0xff" in err.message
    assert err.mark == Mark(3, 9)


def test_latin1_text_is_f001_at_the_first_bad_byte() -> None:
    err = f001(decode, "Hero: Matsuri\nSpells:\n3 Café Imp\n".encode("latin-1"))
    assert err.mark == Mark(3, 6)


def test_truncated_multibyte_sequence_at_the_end_is_f001() -> None:
    err = f001(decode, "hero: 茉".encode()[:-1])
    assert err.mark == Mark(1, 7)


def test_invalid_utf8_column_counts_characters_like_every_other_diagnostic() -> None:
    err = f001(decode, "spells:\n  茉莉 ".encode() + b"\xff: 3\n")
    assert err.mark == Mark(2, 6)


# --------------------------------------------------------------------------- reading files


def test_a_deck_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + DECK.encode())
    assert read_text(path, DECK_FILE_LIMIT) == DECK


def test_a_missing_file_is_f001(tmp_path: Path) -> None:
    err = f001(read_bytes, tmp_path / "nope.yaml", DECK_FILE_LIMIT)
    assert err.mark is None


def test_a_folder_is_f001(tmp_path: Path) -> None:
    err = f001(read_bytes, tmp_path, DECK_FILE_LIMIT)
    assert "folder" in err.message


def test_a_file_over_the_size_limit_is_f001(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * 101)
    err = f001(read_bytes, path, 100)
    assert "100" in err.message


def test_a_file_exactly_at_the_size_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "edge.yaml"
    path.write_bytes(b"#" * 100)
    assert read_bytes(path, 100) == b"#" * 100


def test_the_deck_size_limit_applies_to_deck_files(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"# padding\n" * (DECK_FILE_LIMIT // 10 + 1))
    deck, problems = read_deck(src(path))
    assert [d.code for d in problems] == ["F001"]
    assert not deck.readable


def test_a_file_that_grows_past_the_limit_while_read_is_f001(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"#" * 10)
    real_open = os.open

    def open_grown(file, *args, **kwargs):  # the file grows between the size check and the read
        fd = real_open(file, *args, **kwargs)
        if os.fspath(file) == os.fspath(path):
            with open(path, "ab") as handle:
                handle.write(b"#" * 1000)
        return fd

    monkeypatch.setattr(os, "open", open_grown)
    f001(read_bytes, path, 100)


def test_permission_denied_is_f001(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.yaml"
    path.write_text(DECK, encoding="utf-8")

    def denied(file, *args, **kwargs):
        raise PermissionError(13, "Permission denied", os.fspath(file))

    monkeypatch.setattr(os, "open", denied)
    err = f001(read_bytes, path, DECK_FILE_LIMIT)
    assert "permission" in err.message.lower()


def test_other_os_errors_are_f001(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "io.yaml"
    path.write_text(DECK, encoding="utf-8")

    def broken(file, *args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "open", broken)
    f001(read_bytes, path, DECK_FILE_LIMIT)


def test_a_path_with_a_nul_byte_is_f001() -> None:
    f001(read_bytes, Path("deck\x00.yaml"), DECK_FILE_LIMIT)


@pytest.mark.parametrize(
    ("payload", "mark"),
    [
        ("missing", None),
        ("folder", None),
        (b"\xff\xfeh\x00", None),
        (b"hero: \xc3\x28\n", Mark(1, 7)),
    ],
)
def test_read_deck_turns_every_f001_into_one_placed_diagnostic(
    tmp_path: Path, payload: object, mark: Mark | None
) -> None:
    path = tmp_path / "deck.yaml"
    if payload == "folder":
        path.mkdir()
    elif isinstance(payload, bytes):
        path.write_bytes(payload)
    from dataclasses import replace

    deck, problems = read_deck(replace(src(path), name="decks/deck.yaml"))
    [problem] = problems
    assert problem.code == "F001"
    assert problem.file == "decks/deck.yaml"
    assert (problem.line, problem.column) == ((mark.line, mark.column) if mark else (None, None))
    assert not deck.readable


# --------------------------------------------------------------------------- editor buffers


def test_a_buffer_over_the_limit_is_f001_counting_its_utf8_bytes() -> None:
    source = DeckSource.from_text("deck.yaml", "茉" * 34, limit=100)  # 102 bytes
    assert source.text is None and source.problem is not None
    assert source.problem.code == "F001"
    assert source.problem.message == "is 102 bytes; files over 100 bytes are not read"


def test_a_buffer_with_a_lone_surrogate_is_f001_as_its_saved_bytes_are() -> None:
    source = DeckSource.from_text("deck.yaml", "hero: \udc80\n")
    assert source.problem is not None and source.problem.code == "F001"
    assert source.problem.message == "is not valid UTF-8 (byte 0xed); save it as UTF-8"
    assert source.problem.mark == Mark(1, 7)


def test_a_buffer_at_the_limit_is_read_and_its_bom_dropped() -> None:
    text = "\ufeff" + "#" * 97  # 3 + 97 bytes
    assert DeckSource.from_text("deck.yaml", text, limit=100).text == "#" * 97


# --------------------------------------------------------------------------- read once


@pytest.mark.parametrize(
    "example", ["red-kagura-festival.yaml", "azuki/stt01-raizan-lightning.yaml", "blue-list.txt"]
)
def test_check_opens_a_deck_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    """Issue 25: the game is found from the text read, not from a peek at the file first."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    deck = tmp_path / Path(example).name
    deck.write_bytes((examples / example).read_bytes())
    opened: list[str] = []
    real_os_open, real_io_open = os.open, io.open

    def noted(file: object) -> None:
        if not isinstance(file, (str, bytes, os.PathLike)):
            return  # a file descriptor
        if os.path.abspath(os.fsdecode(file)) == str(deck):
            opened.append(os.fsdecode(file))

    def counting_os_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        noted(file)
        return real_os_open(file, *args, **kwargs)

    def counting_io_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        noted(file)
        return real_io_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_os_open)
    monkeypatch.setattr(io, "open", counting_io_open)
    monkeypatch.setattr(builtins, "open", counting_io_open)
    result = CliRunner().invoke(app, ["check", str(deck)])
    assert result.exit_code == 0, result.output
    assert len(opened) == 1
