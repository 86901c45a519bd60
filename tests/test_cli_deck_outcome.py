"""The command line's shared steps of `sim`, `stats`, `tune`, `report`, `complete` (cli/common.py):
one deck opened (`open_deck`), a report's warnings and output (`warn_outcome`, `write_outcome`)
and a deck's diagnostics said (`say_diagnostics`), each called on its own."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
import typer

from varz_deck.cli.common import (
    Lang,
    TextOrJson,
    open_deck,
    say_diagnostics,
    warn_outcome,
    write_outcome,
)
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import msg

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-homura-pioneer.yaml"
AZUKI = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
DAY = datetime.date(2027, 1, 15)


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VARZ_DECK_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "VARZ_DECK_CARDS"):
        monkeypatch.delenv(name, raising=False)


# --------------------------------------------------------------------------- open_deck


def test_open_deck_gives_the_language_day_deck_database_game_and_plot_format() -> None:
    opened = open_deck(DECK, "2027-01-15", None, None, Lang.ja, plot=Path("out/curve.SVG"))
    assert opened.lang == "ja"
    assert opened.day == DAY
    assert opened.source.name == str(DECK)
    assert opened.source.text == DECK.read_text(encoding="utf-8")
    assert opened.database.game == "varz" and "Ember Imp" in opened.database.shown_names().values()
    assert opened.game.key == "varz"
    assert opened.fmt == "svg"


def test_open_deck_finds_the_game_the_deck_is_written_for() -> None:
    opened = open_deck(AZUKI, None, None, None, None)
    assert opened.lang == "en"
    assert opened.database.game == "azuki" and opened.game.key == "azuki"
    assert opened.fmt is None
    assert opened.day == on_date(None)  # today, or the test suite's $VARZ_DECK_TODAY


def test_open_deck_with_the_game_named() -> None:
    opened = open_deck(DECK, "2027-01-15", None, "varz", Lang.en)
    assert opened.game.key == "varz"


def test_open_deck_reads_the_database_with_a_progress_bar_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import varz_deck.cli.common as common

    shown: list[object] = []

    def recorded(label: object, lang: object, show: bool = True) -> None:
        shown.append(show)

    monkeypatch.setattr(common, "progress_bar", recorded)
    open_deck(DECK, None, None, None, Lang.en)
    open_deck(DECK, None, None, None, Lang.en, progress=True)
    open_deck(DECK, None, None, None, Lang.en, progress=False)
    assert shown == [False, True, False]


def test_open_deck_with_another_game_named_reads_that_game_s_cards() -> None:
    opened = open_deck(DECK, None, None, "azuki", Lang.en)
    assert opened.database.game == "azuki" and opened.game.key == "azuki"


def _fails(capsys: pytest.CaptureFixture[str], *args: object, **kwargs: object) -> str:
    with pytest.raises(typer.Exit) as exit_:
        open_deck(*args, **kwargs)  # type: ignore[arg-type]
    assert exit_.value.exit_code == 2
    return capsys.readouterr().err


def test_open_deck_refuses_a_bad_date_first_in_the_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = _fails(capsys, tmp_path, "2027-02-30", None, None, Lang.ja, plot=Path("x.gif"))
    assert err == (
        "varz-deck: --date '2027-02-30' は日付ではありません。"
        "YYYY-MM-DD 形式で書いてください（例：2027-01-15）\n"
    )


def test_open_deck_refuses_a_folder_of_no_deck_before_the_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = _fails(capsys, tmp_path, "2027-01-15", None, None, Lang.ja, plot=Path("x.gif"))
    assert err.startswith(f"varz-deck: {tmp_path} にデッキファイルがありません")


def test_open_deck_refuses_a_plot_file_of_another_format_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _fails(capsys, DECK, "2027-01-15", ROOT / "nowhere", None, Lang.ja, plot=Path("x.gif"))
    assert err == "varz-deck: --plot x.gif：末尾が .svg か .png のファイル名を指定してください\n"


def test_open_deck_refuses_a_card_folder_that_is_not_there_last(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = _fails(capsys, DECK, None, tmp_path / "nowhere", None, Lang.ja, plot=Path("x.png"))
    assert str(tmp_path / "nowhere") in err
    assert err.isascii() is False  # said in Japanese


# --------------------------------------------------------------------------- the outcome


class Outcome:
    def __init__(self, warnings: tuple = ()) -> None:
        self.warnings = warnings
        self.rendered: list[tuple[bool, int, str]] = []
        self.plotted: list[tuple[str, str]] = []

    def to_json(self) -> dict[str, object]:
        return {"deck": "d.yaml", "p": 0.5, "name": "\u202e"}

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        self.rendered.append((color, width, lang))
        return f"report {width} {lang}\n"

    def plot(self, fmt: str, lang: str) -> bytes:
        self.plotted.append((fmt, lang))
        return f"<{fmt} {lang}>".encode()


def test_warn_outcome_says_each_warning_on_stderr_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome = Outcome((msg("test", "deck is not legal"), "plain words"))
    warn_outcome(outcome, "ja")  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["警告：deck is not legal", "警告：plain words"]
    warn_outcome(Outcome((msg("test", "deck is not legal"),)), "en")  # type: ignore[arg-type]
    assert capsys.readouterr().err == "warning: deck is not legal\n"


def test_write_outcome_as_json_is_dated_and_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outcome = Outcome()
    write_outcome(outcome, TextOrJson.json, None, None, "ja", DAY, 50)  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    assert err == "" and out.endswith("}\n") and not out.endswith("\n\n")
    assert list(json.loads(out).items()) == [
        ("deck", "d.yaml"),
        ("date", "2027-01-15"),
        ("p", 0.5),
        ("name", "\u202e"),
    ]
    assert "\\u202e" in out  # the bidi override escaped
    assert outcome.rendered == [] and outcome.plotted == []


def test_write_outcome_as_text_is_the_report_at_the_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = Outcome()
    write_outcome(outcome, TextOrJson.text, None, None, "zh", DAY, 37)  # type: ignore[arg-type]
    assert capsys.readouterr().out == "report 37 zh\n"
    assert outcome.rendered == [(False, 37, "zh")]  # captured stdout is no terminal: no colour
    monkeypatch.setattr("varz_deck.cli.common.color", lambda: True)
    write_outcome(outcome, TextOrJson.text, None, None, "en", DAY, 90)  # type: ignore[arg-type]
    assert outcome.rendered[-1] == (True, 90, "en")


def test_write_outcome_refuses_a_figure_that_is_not_a_number() -> None:
    outcome = Outcome()
    outcome.to_json = lambda: {"deck": "d.yaml", "p": float("nan")}  # type: ignore[method-assign]
    with pytest.raises(ValueError):
        write_outcome(outcome, TextOrJson.json, None, None, "en", DAY, 80)  # type: ignore[arg-type]


def test_write_outcome_writes_the_plot_when_one_is_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outcome = Outcome()
    plot = tmp_path / "chart.svg"
    write_outcome(outcome, TextOrJson.text, plot, "svg", "ja", DAY, 80)  # type: ignore[arg-type]
    assert plot.read_bytes() == b"<svg ja>"
    assert outcome.plotted == [("svg", "ja")]
    write_outcome(outcome, TextOrJson.json, plot, None, "ja", DAY, 80)  # type: ignore[arg-type]
    assert outcome.plotted == [("svg", "ja")]  # no format: nothing drawn


def test_write_outcome_exits_2_when_the_plot_cannot_be_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "no" / "such" / "chart.svg"
    with pytest.raises(typer.Exit) as exit_:
        write_outcome(Outcome(), TextOrJson.text, plot, "svg", "ja", DAY, 80)  # type: ignore[arg-type]
    assert exit_.value.exit_code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"varz-deck: {plot} に書き出せません：")


# --------------------------------------------------------------------------- say_diagnostics


def test_say_diagnostics_gives_file_line_column_code_and_the_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = msg("sim", "warning: {message}")(message="x")
    diagnostics = [
        Diagnostic("V001", Severity.ERROR, "bad\x1b[2J", file="a\x07.yaml", line=3, column=7),
        Diagnostic("V002", Severity.WARNING, "no place", file="b.yaml"),
        Diagnostic("F003", Severity.ERROR, "of the deck", line=2, column=1),
        Diagnostic("F004", Severity.ERROR, "english", text=text),
    ]
    say_diagnostics(diagnostics, DeckSource("deck\u202e.txt", ""), "en")
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "a\\x07.yaml:3:7: V001 bad\\x1b[2J",
        "b.yaml: V002 no place",
        "deck\\u202e.txt:2:1: F003 of the deck",
        "deck\\u202e.txt: F004 english",
    ]
    say_diagnostics(diagnostics[3:], DeckSource("d", ""), "ja")
    assert capsys.readouterr().err == "d: F004 警告：x\n"
