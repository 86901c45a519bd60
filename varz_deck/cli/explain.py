"""`varz-deck explain [TERM]`: the glossary of the figures `sim`, `stats`, `tune` and `report` show."""

from __future__ import annotations

import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.common import GameOption, LangOption, fail, language, width
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    from collections.abc import Mapping

    from varz_deck.core.analysis.glossary import Entry

EXPLAIN_HELP = N_("Explain a figure the analysis commands show, or list every term.")

KINDS = {
    "exact": msg("glossary", "exact"),
    "sampled": msg("glossary", "sampled, with ±"),
    "either": msg("glossary", "exact or sampled: each command says which"),
}


class ExplainOutput(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


def explain(
    term: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help=N_("A term's key (castable-on-curve) or its name; without it, list every term."),
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        ExplainOutput,
        typer.Option("--output", "-o", help=N_("Output format (JSON stays in English).")),
    ] = ExplainOutput.text,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Explain a figure the analysis commands show, or list every term."""
    import difflib

    from varz_deck.core.analysis.glossary import entries, find
    from varz_deck.core.messages.i18n import LANGUAGES
    from varz_deck.core.messages.sanitize import json_dumps
    from varz_deck.games import get_game

    chosen = language(lang)
    try:
        the_game = get_game(game)
    except KeyError:
        fail(msg("cli", "unknown game {game}")(game=repr(game)), lang=chosen)
    glossary = entries(the_game)
    shown = list(glossary.values())
    if term is not None:
        found = find(glossary, term, LANGUAGES)
        if found is None:
            names = list(dict.fromkeys([*glossary, *(e.name.render(chosen) for e in shown)]))
            close = difflib.get_close_matches(term, names, n=3, cutoff=0.5)
            unknown = (
                msg("glossary", "unknown term {term}; did you mean {close}?")
                if close
                else msg("glossary", "unknown term {term}; `varz-deck explain` lists them")
            )
            fail(unknown(term=repr(term), close=", ".join(close)), lang=chosen)
        shown = [found]
    if output is ExplainOutput.json:
        document = [_json(e) for e in shown]
        sys.stdout.write(json_dumps({"version": 1, "game": the_game.key, "terms": document}) + "\n")
    elif output is ExplainOutput.markdown:
        sys.stdout.write(markdown(glossary, chosen, title=the_game.name))
    elif term is None:
        sys.stdout.write(_listing(glossary, chosen, the_game.name, width()))
    else:
        sys.stdout.write(_one(shown[0], glossary, chosen, width()))


def _json(e: Entry) -> dict[str, object]:
    return {
        "key": e.key,
        "name": e.name.render("en"),
        "definition": e.definition.render("en"),
        "symbol": e.symbol,
        "kind": e.kind or None,
        "json": list(e.json),
        "see": list(e.see),
    }


def _wrapped(text: str, columns: int, indent: str = "") -> list[str]:
    from varz_deck.core.messages.sanitize import safe
    from varz_deck.core.messages.wrap import wrap

    return [indent + line for line in wrap(safe(text), max(20, columns - len(indent)))]


def _listing(glossary: Mapping[str, Entry], lang: str, game: str, columns: int) -> str:
    heading = msg("glossary", "Terms of the figures ({game}); varz-deck explain TERM says more")
    lines = [heading(game=game).render(lang), ""]
    for e in glossary.values():
        lines.append(f"{e.key}: {e.name.render(lang)}")
        lines.extend(_wrapped(e.definition.render(lang), columns, "    "))
    return "\n".join(lines) + "\n"


def _one(e: Entry, glossary: Mapping[str, Entry], lang: str, columns: int) -> str:
    title = e.name.render(lang) + (f"  ({e.symbol})" if e.symbol else "")
    lines = [title, *_wrapped(e.definition.render(lang), columns)]
    if e.kind:
        lines.append(msg("glossary", "Figures: {kind}")(kind=KINDS[e.kind]).render(lang))
    if e.json:
        lines.append(msg("glossary", "JSON: {keys}")(keys=", ".join(e.json)).render(lang))
    if e.see:
        others = ", ".join(f"{glossary[k].name.render(lang)} ({k})" for k in e.see if k in glossary)
        lines.extend(
            _wrapped(msg("glossary", "Compare with: {terms}")(terms=others).render(lang), columns)
        )
    return "\n".join(lines) + "\n"


def markdown(glossary: Mapping[str, Entry], lang: str, title: str, anchor: str = "") -> str:
    """The glossary as Markdown, one anchor per key, `anchor` before each (the documentation
    site's glossary page holds every game's, each with its own prefix)."""
    out = [f"## {title}", ""]
    for e in glossary.values():
        out.append(f"### {e.name.render(lang)} {{ #{anchor}{e.key} }}")
        out.append("")
        out.append(e.definition.render(lang))
        out.append("")
        facts = [f"`varz-deck explain {e.key}`"]
        if e.symbol:
            facts.append(f"symbol `{e.symbol}`")
        if e.kind:
            facts.append(KINDS[e.kind].render(lang))
        facts.extend(f"`{k}`" for k in e.json)
        out.append(" · ".join(facts))
        if e.see:
            out.append("")
            out.append(
                msg("glossary", "Compare with: {terms}")(
                    terms=", ".join(
                        f"[{glossary[k].name.render(lang)}](#{anchor}{k})"
                        for k in e.see
                        if k in glossary
                    )
                ).render(lang)
            )
        out.append("")
    return "\n".join(out)
