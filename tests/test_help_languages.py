"""`--help` in every language: Click's and Typer's own words translated too, every line within
80 terminal cells (a CJK character is two), and the top-level list of commands never cut."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from varz_deck.cli import main
from varz_deck.cli.main import COMMANDS, GROUPS

PATHS = [[name] for name in COMMANDS] + [
    [group, sub] for group, (_m, _h, subs) in GROUPS.items() for sub in subs
]
ENGLISH_FRAME = ("Usage:", "Options:", "Arguments:", "Commands:", "Show this message", "[default")


def helptext(args: list[str], lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "80")
        mp.setenv("VARZ_DECK_LANG", lang)
        with pytest.raises(SystemExit) as exited:
            main([*args, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
@pytest.mark.parametrize("path", [[], *PATHS], ids=lambda p: " ".join(p) or "varz-deck")
def test_help_fits_80_columns_in_every_language(
    path: list[str], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = helptext(path, lang, capsys)
    wide = [line for line in text.splitlines() if cell_len(line) > 80]
    assert not wide, wide
    if lang != "en":
        left = [word for word in ENGLISH_FRAME if word in text]
        assert not left, left


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_the_top_level_help_lists_every_summary_whole(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from varz_deck.cli.main import _module
    from varz_deck.core.messages.i18n import gettext_in

    text = helptext([], lang, capsys)
    assert "…" not in text
    flat = "".join(line.strip() for line in text.splitlines())
    for name, (module, _function, help_name) in COMMANDS.items():
        summary = gettext_in(lang, getattr(_module(module), help_name))
        assert "".join(summary.split()) in "".join(flat.split()), name


def test_the_formatter_in_japanese_by_hand() -> None:
    """CellHelpFormatter alone: click's words from the catalogue, rows aligned by cells, long
    first columns on their own line, paragraphs kept apart; expected text written by hand."""
    from varz_deck.cli.helpformat import CellHelpFormatter, help_language

    with help_language("ja"):
        f = CellHelpFormatter(width=64)
        f.write_usage("varz-deck", "[OPTIONS] DECK")
        f.write_heading("Options")
        f.indent()
        f.write_dl(
            [
                ("--lang", "出力の言語 [default: en] [required]"),
                ("--a-very-long-option-name-that-is-long", "長い名前です。"),
                ("--flag", ""),
                ("-h, --help", "Show this message and exit."),
            ]
        )
        f.dedent()
        f.write_text("一つ目の段落です。\n\n二つ目の 段落。")
        f.write_text("Plain English text stays click's.")
    assert f.getvalue() == (
        "使い方：varz-deck [OPTIONS] DECK\n"
        "オプション:\n"
        "  --lang                          出力の言語 [既定：en] [必須]\n"
        "  --a-very-long-option-name-that-is-long\n"
        "                                  長い名前です。\n"
        "  --flag\n"
        "  -h, --help                      このメッセージを表示して\n"
        "                                  終了します。\n"
        "一つ目の段落です。\n"
        "\n"
        "二つ目の 段落。\n"
        "Plain English text stays click's.\n"
    )


def test_the_formatter_in_english_is_clicks() -> None:
    from varz_deck.cli.helpformat import CellHelpFormatter, help_language

    with help_language("en"):
        f = CellHelpFormatter(width=60)
        f.write_usage("varz-deck", "DECK")
        f.indent()
        f.write_dl([("--lang", "Language [default: en]")])
    assert f.getvalue() == "Usage: varz-deck DECK\n  --lang  Language [default: en]\n"


def test_the_formatter_edges_by_hand() -> None:
    from varz_deck.cli.helpformat import CellHelpFormatter, help_language

    with help_language("ja"):
        f = CellHelpFormatter(width=80)
        f.write_usage("varz-deck", "DECK", prefix="用: ")
        f.indent()
        f.write_dl(
            [
                ("-" * 30, "三十の幅"),  # exactly the widest first column: on the same line
                ("-" * 33, "三十三の幅"),  # wider: the help goes to the next line
            ]
        )
        f.dedent()
        f.write_text("\b\n一行目\n二行目")  # click's "do not rewrap" mark keeps the lines
    assert f.getvalue() == (
        "用: varz-deck DECK\n"
        "  " + "-" * 30 + "  三十の幅\n"
        "  " + "-" * 33 + "\n" + " " * 34 + "三十三の幅\n"
        "一行目\n二行目\n"
    )
