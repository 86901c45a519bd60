"""`varz-deck rules [CODE]` and `varz-deck schema NAME`: what the tool checks, for people and editors."""

from __future__ import annotations

import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rich.console import RenderableType

    from varz_deck.core.report.codes import CodeInfo

from varz_deck.cli.common import LangOption, fail, language, width
from varz_deck.core.messages.i18n import N_, msg

RULES_HELP = N_("List every diagnostic code with its rulebook section, or explain one.")
SCHEMA_HELP = N_("Print a JSON Schema (card files, decks, formats.yaml) for editors and CI.")


def _schema_names() -> dict[str, str]:
    """The catalogue: the core's formats schema, then each installed game's schemas."""
    from varz_deck.core.files.resources import catalogue
    from varz_deck.games import game_keys, get_game

    return {name: name for name in catalogue(get_game(key) for key in game_keys())}


SchemaName = Enum("SchemaName", _schema_names(), type=str)  # type: ignore[misc]


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
    codes = all_codes()
    console = Console(
        highlight=False, markup=False, emoji=False, soft_wrap=False, width=width(), file=sys.stdout
    )
    if code is None:
        with console.capture() as captured:
            console.print(_rules_table(codes, chosen, console.width))
        sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
        return
    found = codes.get(code.upper())
    if found is None:
        close = difflib.get_close_matches(code.upper(), list(codes), n=3)
        unknown = (
            msg("cli", "unknown code {code}; did you mean {close}?")
            if close
            else msg("cli", "unknown code {code}; `varz-deck rules` lists them")
        )
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
    for words, message in _SECTIONS.items():
        if words in section:
            section = section.replace(words, message.render(lang))
    return section


def schema(name: Annotated[SchemaName, typer.Argument(help=N_("Which schema."))]) -> None:
    """Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."""
    from varz_deck.core.files.resources import schema_text

    sys.stdout.write(schema_text(name.value))


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
