"""Help that matches the tool (issue 12, item 6): usage names real arguments, `schema`'s choices
do not wrap mid-word, `--format` lists the formats, `check` is for decks of every game, and every
command that takes a DECK says it may be a deck code."""

from __future__ import annotations

import re

import pytest

from varz_deck.cli import main


def helptext(args: list[str], capsys: pytest.CaptureFixture[str], columns: int = 80) -> str:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", str(columns))
        with pytest.raises(SystemExit) as exited:
            main([*args, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["check"], "Usage: varz-deck check [OPTIONS] DECK..."),
        (["register"], "Usage: varz-deck register [OPTIONS] DECK..."),
        (["sim"], "Usage: varz-deck sim [OPTIONS] DECK"),
        (["diff"], "Usage: varz-deck diff [OPTIONS] REGISTERED PRESENTED"),
        (["rules"], "Usage: varz-deck rules [OPTIONS] [CODE]"),
        (["schema"], "Usage: varz-deck schema [OPTIONS] NAME"),
    ],
)
def test_usage_names_real_arguments(
    command: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = helptext(command, capsys)
    assert out.splitlines()[0] == usage
    assert "{" not in out.splitlines()[0]


@pytest.mark.parametrize("columns", [40, 60, 80])
def test_schema_choices_wrap_between_words(
    columns: int, capsys: pytest.CaptureFixture[str]
) -> None:
    from varz_deck.cli.rules import SchemaName

    out = helptext(["schema"], capsys, columns)
    words = set(re.findall(r"[\w-]+", out))
    for choice in SchemaName:
        assert choice.value in words, f"{choice.value} is broken across lines"


def test_format_help_lists_the_formats(capsys: pytest.CaptureFixture[str]) -> None:
    from varz_deck.games import open_database
    from varz_deck.games.library import bundled_root

    formats = sorted(open_database(bundled_root("varz")).formats)
    out = " ".join(helptext(["check"], capsys, 200).split())
    assert formats and all(name in out.split("--format")[1] for name in formats)


def test_check_help_says_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    out = " ".join(helptext(["check"], capsys, 200).split())
    assert "every installed game" in out
    assert "under the VARZ rulebook" not in out
    assert "Azuki" not in out  # issue 25: the help names no game


@pytest.mark.parametrize("command", ["check", "sim", "stats", "tune", "register", "verify", "code"])
def test_deck_arguments_mention_deck_codes(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = " ".join(helptext([command], capsys, 200).split())
    assert "deck code" in out


GAME_WORDS = re.compile(
    r"VAZ|V-Sync|Memory|spell|skill|ヒーロー|ポータル|メモリー|スペル|スキル|英雄|传送门|记忆|法术|法术|技能"
)


@pytest.mark.parametrize(
    ("command", "summary"),
    [
        (
            "sim",
            "Goldfish a deck: draw odds and the game's milestones turn by turn; exact where a "
            "closed form exists.",
        ),
        ("stats", "Counts, cost curve and the game's own figures of a deck, instantly."),
        (
            "tune",
            "Exact on-curve odds per card, the legal one-card swaps, and the sources a splash "
            "needs.",
        ),
    ],
)
def test_the_goldfish_commands_help_names_no_games_words(
    command: str, summary: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: sim, stats and tune serve every game that has a simulator or tuner."""
    out = " ".join(helptext([command], capsys, 200).split())
    assert summary in out
    for lang in ("ja", "zh"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("VARZ_DECK_LANG", lang)
            translated = helptext([command], capsys, 200)
        assert not GAME_WORDS.search(translated), (lang, GAME_WORDS.findall(translated))
