"""`varz-deck rules [CODE]` and `varz-deck schema NAME`: what the tool checks, for people and editors."""

from __future__ import annotations

import re
import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rich.console import RenderableType

    from varz_deck.core.report.codes import CodeInfo
    from varz_deck.games import GameUnavailable

from varz_deck.cli.clickparts import Context, Parameter, TyperChoice
from varz_deck.cli.common import LangOption, fail, fail_games, language, say, width
from varz_deck.core.messages.i18n import N_, msg

RULES_HELP = N_("List every diagnostic code with its rulebook section, or explain one.")
SCHEMA_HELP = N_("Print a JSON Schema (card files, decks, formats.yaml) for editors and CI.")


def _schema_names(failures: list[GameUnavailable] | None = None) -> dict[str, str]:
    """The catalogue: the core's formats schema, then each installed game's (a game that
    cannot be used has none; its failure is added to `failures` when given)."""
    from varz_deck.core.files.resources import catalogue
    from varz_deck.games import GameUnavailable, game_keys, get_game

    games = []
    for key in game_keys():
        try:
            games.append(get_game(key))
        except GameUnavailable as exc:
            if failures is not None:
                failures.append(exc)
    return {name: name for name in catalogue(games)}


class _SchemaChoice(TyperChoice[str]):
    """The schema names, read from the games on first use only: building the command tree
    (`varz-deck --help`) imports no game. A name no usable game has, while a game cannot be
    used, is refused with that game's failure (the name may be its)."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=True)
        self._failures: list[GameUnavailable] = []
        self._names: tuple[str, ...] | None = None

    @property
    def choices(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(_schema_names(self._failures))
        return self._names

    @choices.setter
    def choices(self, value: object) -> None:  # set by the base class: read lazily instead
        pass

    def convert(self, value: object, param: Parameter | None, ctx: Context | None) -> str:
        if value not in self.choices and self._failures:
            from varz_deck.core.messages.i18n import choose_language

            said = "; ".join(f.message.render(choose_language()) for f in self._failures)
            self.fail(f"{self.get_invalid_choice_message(value, ctx)} {said}", param, ctx)
        return str(super().convert(value, param, ctx))


def __getattr__(name: str) -> Any:
    """`SchemaName`: the catalogue as an Enum, made when asked for."""
    if name == "SchemaName":
        return Enum("SchemaName", _schema_names(), type=str)
    raise AttributeError(name)


def rules(
    code: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help=N_("A code (V105) to explain; without it, list every code."), show_default=False
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """List every diagnostic code with its rulebook section, or explain one."""
    import difflib

    from rich.console import Console

    from varz_deck.core.messages.i18n import msg, term
    from varz_deck.core.report.codes import EXAMPLE_LABELS
    from varz_deck.games import all_codes

    chosen = language(lang)
    failures: list[GameUnavailable] = []
    codes = all_codes(failures=failures)
    console = Console(
        highlight=False, markup=False, emoji=False, soft_wrap=False, width=width(), file=sys.stdout
    )
    if code is None:  # every game's codes: one that cannot be used fails the listing
        with console.capture() as captured:
            console.print(_rules_table(codes, chosen, console.width))
        sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
        fail_games(failures, chosen)
        return
    clash = [f for f in failures if code.upper() in f.codes]
    found = codes.get(code.upper())
    if clash:  # two games declare it: neither answer is the code's
        fail_games(clash, chosen)
    if found is None:
        close = difflib.get_close_matches(code.upper(), list(codes), n=3)
        unknown = (
            msg("cli", "unknown code {code}; did you mean {close}?")
            if close
            else msg("cli", "unknown code {code}; `varz-deck rules` lists them")
        )
        if failures:  # it may be the code of a game that cannot be used
            say(unknown(code=repr(code), close=", ".join(close)), chosen)
            fail_games(failures, chosen)
        fail(unknown(code=repr(code), close=", ".join(close)), lang=chosen)
    info = found
    severity = term("severity", info.severity.value, chosen)
    console.print(f"{info.code} {info.name} ({severity})")
    section = _section(info.section, chosen)
    console.print(msg("rules", "rulebook: {section}")(section=section).render(chosen))
    console.print("")
    if chosen == "en":
        console.print(info.doc or info.summary)
        return
    # In another language: the summary and each example of the docstring, translated (the
    # docstring is the English source; card names and ids in the examples stay as written).
    console.print(term("summary", info.summary, chosen))
    if info.examples:
        console.print("")
    for label, text in info.examples:
        shown = EXAMPLE_LABELS[label].render(chosen)
        example = term("example", text, chosen)
        console.print(f"{shown}：{example}")


_SECTIONS = {
    "Deck building": msg("rules", "Deck building"),
    "format data": msg("rules", "format data"),
    "card data": msg("rules", "card data"),
    "dated formats": msg("rules", "dated formats"),
}


def _section(section: str, lang: str) -> str:
    """A code's rulebook place in the language: numbers stay, the words are translated."""
    for words, message in _SECTIONS.items():  # "Deck building" and "deck building" alike
        shown = message.render(lang).replace("\\", "\\\\")  # a replacement, not a pattern
        section = re.sub(re.escape(words), shown, section, flags=re.I)
    return section


def schema(
    name: Annotated[str, typer.Argument(help=N_("Which schema."), click_type=_SchemaChoice())],
) -> None:
    """Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."""
    from varz_deck.core.files.resources import schema_text

    sys.stdout.write(schema_text(name))


def _rules_table(codes: Mapping[str, CodeInfo], lang: str, columns: int) -> RenderableType:
    """Every code in a table whose last column (what it flags) takes the width left and wraps by
    words; too narrow for that (under 24 columns left), each code is a block of lines instead."""
    from rich.cells import cell_len
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    from varz_deck.core.messages.i18n import msg, term
    from varz_deck.core.messages.wrap import CJK, wrap

    headings = [
        msg("rules", "code").render(lang),
        msg("rules", "severity").render(lang),
        msg("rules", "name").render(lang),
        msg("rules", "rulebook").render(lang),
    ]
    rows = [
        (
            info.code,
            term("severity", info.severity.value, lang),
            info.name,
            _section(info.section, lang),
            term("summary", info.summary, lang),
        )
        for info in codes.values()
    ]
    fixed = [max(cell_len(h), *(cell_len(r[i]) for r in rows)) for i, h in enumerate(headings)]
    left = columns - sum(fixed) - 2 * len(fixed)
    if left >= 24:
        table = Table(box=None, pad_edge=False, expand=False)
        for heading in headings:
            table.add_column(heading, no_wrap=True)
        table.add_column(msg("rules", "what it flags").render(lang), overflow="fold", ratio=1)
        for row in rows:
            # rich breaks a Japanese or Chinese line anywhere; these break between phrases
            flags = "\n".join(wrap(row[4], left)) if CJK.search(row[4]) else row[4]
            table.add_row(*row[:4], flags)
        return table
    blocks: list[RenderableType] = []
    for code, severity, name, section, summary in rows:
        blocks.append(Text(f"{code} {severity} {name}", overflow="fold"))
        place = Text(f"{headings[3]}: {section}" if section != "-" else "", overflow="fold")
        if CJK.search(summary):
            summary = "\n".join(wrap(summary, max(1, columns - 2)))
        blocks.append(
            Padding(Group(place, Text(summary)) if section != "-" else Text(summary), (0, 0, 0, 2))
        )
    return Group(*blocks)
