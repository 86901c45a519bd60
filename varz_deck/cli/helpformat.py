"""Help in every language, fitting the terminal: click's HelpFormatter, measuring in cells.

Click measures text with len(); a Japanese or Chinese character takes two columns, so its help
ran past 80. This formatter wraps such text by cells at phrase boundaries (core.wrap, BudouX) and
leaves English to click. Click's and Typer's own words ("Usage:", "Options", "Show this message
and exit.") are translated from the `click` catalogue of varz_deck/locale while a command runs
(`help_language`): Typer 0.28 runs its own copy of click, which has no gettext of its own.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from varz_deck.cli.clickparts import HelpFormatter, format_help_with
from varz_deck.core.messages.wrap import CJK, cells, wrap

DOMAIN = "click"
LOCALE = Path(__file__).resolve().parent.parent / "locale"


_LANG = ["en"]  # the language of the command running (help_language)
_DEFAULT = re.compile(r"\[default: (.*?)\]")


@lru_cache(maxsize=4)
def _catalogue(lang: str) -> gettext.NullTranslations | None:
    from varz_deck.core.messages.i18n import _catalogue as read
    from varz_deck.core.messages.i18n import catalogue_paths

    return read(*catalogue_paths(lang, DOMAIN, LOCALE))


def _(text: str) -> str:
    """Click's own English in the language help is shown in (the `click` catalogue)."""
    found = _catalogue(_LANG[0]) if _LANG[0] != "en" else None
    return found.gettext(text) if found is not None else text


def _fragments(text: str) -> str:
    """Typer's "[default: x]" and "[required]" after an option's help, in the language."""
    text = _DEFAULT.sub(lambda m: "[" + _("default: {default}").format(default=m[1]) + "]", text)
    return text.replace("[required]", "[" + _("required") + "]")


_BRACED = re.compile(r"\{([A-Z][A-Z0-9_]*(?:\.\.\.)?)\}")  # a required argument's usage name


class CellHelpFormatter(HelpFormatter):
    """click's formatter, wrapping Japanese and Chinese by cells and phrases, and saying click's
    own words ("Usage:", "Show this message and exit.") in the help's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        usage = _("Usage:")
        usage += "" if usage.endswith("：") else " "
        args = _BRACED.sub(
            r"\1", args
        )  # Typer's `{DECK...}`: a required argument, as click writes it
        super().write_usage(prog, args, prefix if prefix is not None else usage)

    def write_heading(self, heading: str) -> None:
        super().write_heading(_(heading))

    def write_text(self, text: str) -> None:
        if not CJK.search(text) or "\b" in text:
            super().write_text(text)
            return
        indent = " " * self.current_indent
        room = max(self.width - self.current_indent, 20)
        paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
        for n, paragraph in enumerate(paragraphs):
            if n:
                self.write("\n")
            for line in wrap(paragraph, room):
                self.write(f"{indent}{line}\n")

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        rows = [(first, _fragments(_(second)) if second else second) for first, second in rows]
        if not any(CJK.search(second) for _first, second in rows):
            super().write_dl(rows, col_max, col_spacing)
            return
        first_col = min(max((cells(first) for first, _ in rows), default=0), col_max)
        first_col += col_spacing
        room = max(self.width - first_col - self.current_indent, 10)
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if cells(first) <= first_col - col_spacing:
                self.write(" " * (first_col - cells(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = wrap(" ".join(second.split()), room) or [""]
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


def install() -> None:
    """Every click context formats help with CellHelpFormatter (click's documented hook)."""
    format_help_with(CellHelpFormatter)


@contextmanager
def help_language(lang: str) -> Iterator[None]:
    """Click's and Typer's own words in `lang` while a command runs, from our `click` catalogue
    (read from its .po when no .mo is built, as every catalogue of ours)."""
    saved = _LANG[0]
    _LANG[0] = lang
    try:
        yield
    finally:
        _LANG[0] = saved
