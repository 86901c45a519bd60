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
    from varz_deck.core.i18n import gettext_in

    text = helptext([], lang, capsys)
    assert "…" not in text
    flat = "".join(line.strip() for line in text.splitlines())
    for name, (module, _function, help_name) in COMMANDS.items():
        summary = gettext_in(lang, getattr(_module(module), help_name))
        assert "".join(summary.split()) in "".join(flat.split()), name
