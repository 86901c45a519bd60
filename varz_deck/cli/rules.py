"""`varz-deck rules [CODE]` and `varz-deck schema NAME`: what the tool checks, for people and editors."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from varz_deck.cli.common import LangOption, fail, language
from varz_deck.core.i18n import N_

RULES_HELP = N_("List every diagnostic code with its rulebook section, or explain one.")
SCHEMA_HELP = N_("Print a JSON Schema (card files, decks, formats.yaml) for editors and CI.")


class SchemaName(str, Enum):
    card = "card"
    deck = "deck"
    formats = "formats"
    azuki_card = "azuki-card"
    azuki_deck = "azuki-deck"


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
    from rich.table import Table

    from varz_deck.core.i18n import msg, term
    from varz_deck.games import all_codes

    chosen = language(lang)
    codes = all_codes()
    width = None if sys.stdout.isatty() else 160
    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=False, width=width)
    if code is None:
        table = Table(box=None, pad_edge=False)
        headings = [
            msg("rules", "code"),
            msg("rules", "severity"),
            msg("rules", "name"),
            msg("rules", "rulebook"),
        ]
        for heading in headings:
            table.add_column(heading.render(chosen), no_wrap=True)
        table.add_column(msg("rules", "what it flags").render(chosen), overflow="fold")
        for info in codes.values():
            severity = term("severity", info.severity.value, chosen)
            summary = term("summary", info.summary, chosen)
            table.add_row(info.code, severity, info.name, info.section, summary)
        console.print(table)
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
    console.print(msg("rules", "rulebook: {section}")(section=info.section).render(chosen))
    console.print("")
    if chosen != "en":  # the rule's summary in the language; its examples stay as written
        console.print(term("summary", info.summary, chosen))
        console.print("")
    console.print(info.doc or info.summary)


def schema(name: Annotated[SchemaName, typer.Argument(help=N_("Which schema."))]) -> None:
    """Print a JSON Schema (card files, decks, formats.yaml) for editors and CI."""
    from varz_deck.core.resources import schema_text

    sys.stdout.write(schema_text(name.value))
