"""MkDocs hooks: the reference pages generated from the tool itself, so they never drift.

- a page per diagnostic code of every installed game: `varz-deck rules CODE`'s own text;
- a page per command: its usage and help as the command line prints them (Typer's click tree);
- the glossary: `varz-deck explain --output markdown` for each game;
- the JSON and API page: the server's OpenAPI document, generated from the API itself;
- the changelog: CHANGELOG.md.

mkdocs-click cannot read these commands (Typer 0.28 runs its own copy of click, whose classes
are not click's), so the command pages are written here from the same command objects.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
_COMMANDS: list[tuple[str, str]] = []  # (command line, page) in the order of `varz-deck --help`
_CODES: list[tuple[str, str]] = []  # (code, page)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _command_tree() -> list[tuple[str, Any]]:
    import typer

    from varz_deck.cli.main import build_app

    root = typer.main.get_command(build_app())
    out = []
    for name, command in root.commands.items():
        subs = getattr(command, "commands", None)
        if subs:
            out += [(f"{name} {sub}", cmd) for sub, cmd in subs.items()]
        else:
            out.append((name, command))
    return out


def on_config(config: Any) -> Any:
    """Put the generated pages in the navigation (a page missing from it fails the build)."""
    from varz_deck.games import all_codes

    _COMMANDS[:] = [(name, f"reference/commands/{_slug(name)}.md") for name, _ in _command_tree()]
    _CODES[:] = [(code, f"reference/rules/{code}.md") for code in all_codes()]
    for section in config["nav"]:
        if "Reference" not in section:
            continue
        for entry in section["Reference"]:
            if "Commands" in entry:
                entry["Commands"] = [
                    {"All commands": "reference/commands/index.md"},
                    *({f"varz-deck {n}": p} for n, p in _COMMANDS),
                ]
            if "Diagnostic codes" in entry:
                entry["Diagnostic codes"] = [
                    {"All codes": "reference/rules/index.md"},
                    *({code: page} for code, page in _CODES),
                ]
    return config


def _run(*args: str) -> str:
    from typer.testing import CliRunner

    from varz_deck.cli.main import build_app

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        result = CliRunner().invoke(build_app(), list(args))
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved
    return str(result.stdout)


_GUIDES = {
    "dated formats": "../../guides/card-data.md#ban-lists-and-release-dates",
    "card data": "../../guides/card-data.md",
}


def _linked(section: str) -> str:
    """A code's place, its words for this site's own pages linked to them."""
    for words, target in _GUIDES.items():
        section = section.replace(words, f"[{words}]({target})")
    return section


def _rule_pages() -> dict[str, str]:
    from varz_deck.games import all_codes

    codes = all_codes()
    pages = {}
    rows = ["| Code | Severity | Name | Rulebook |", "| --- | --- | --- | --- |"]
    for code, info in codes.items():
        rows.append(
            f"| [{code}]({code}.md) | {info.severity.value} | {info.name} | {_linked(info.section)} |"
        )
        pages[f"reference/rules/{code}.md"] = (
            f"# {code} {info.name}\n\n"
            f"*{info.severity.value}* · rulebook: {_linked(info.section)}\n\n"
            f"{info.summary}\n\n"
            "As `varz-deck rules " + code + "` prints it:\n\n"
            "```text\n" + _run("rules", code, "--lang", "en") + "```\n"
        )
    pages["reference/rules/index.md"] = (
        "# Diagnostic codes\n\n"
        "Every code of every installed game, generated from the rules themselves "
        "(`varz-deck rules` lists them; `varz-deck rules CODE` explains one).\n\n"
        + "\n".join(rows)
        + "\n"
    )
    return pages


def _help(args: list[str]) -> str:
    """`varz-deck ARGS --help` as the command line prints it (its argument names, 80 columns)."""
    import contextlib
    import io

    from varz_deck.cli.main import main

    out = io.StringIO()
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "VARZ_DECK_LANG")}
    os.environ["COLUMNS"] = "80"
    os.environ.pop("VARZ_DECK_LANG", None)
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*args, "--help"])
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return out.getvalue()


def _command_pages() -> dict[str, str]:
    import typer.main  # noqa: F401 - the click tree below is Typer's

    from varz_deck.cli.helpformat import install

    install()
    pages = {}
    rows = ["| Command | What it does |", "| --- | --- |"]
    for name, command in _command_tree():
        page = f"reference/commands/{_slug(name)}.md"
        args = name.split()
        helptext = _help(args)
        summary = " ".join((command.short_help or command.help or "").split())
        rows.append(f"| [varz-deck {name}]({_slug(name)}.md) | {summary} |")
        pages[page] = f"# varz-deck {name}\n\n{summary}\n\n```text\n{helptext}```\n"
    pages["reference/commands/index.md"] = (
        "# Commands\n\nEvery command, with its help as `varz-deck COMMAND --help` prints it.\n\n"
        + "\n".join(rows)
        + "\n"
    )
    return pages


def _glossary() -> str:
    from varz_deck.cli.explain import markdown
    from varz_deck.core.analysis.glossary import entries
    from varz_deck.games import game_keys, get_game

    out = [
        "# Glossary\n",
        "Every figure `sim`, `stats`, `tune`, `report` and the server's pages show, with one "
        "name and one definition; `varz-deck explain TERM` says the same in the terminal, in "
        "English, Japanese and Chinese.\n",
    ]
    for key in game_keys():
        game = get_game(key)
        out.append(markdown(entries(game), "en", title=game.name, anchor=f"{key}-"))
    return "\n".join(out)


def _json_page() -> str:
    from varz_deck.server.config import configure

    configure("sqlite:///" + str(ROOT / "site-openapi.sqlite3"))  # never opened: the schema only
    import django

    django.setup()
    from varz_deck.server.api import api

    schema = json.dumps(api.get_openapi_schema(), indent=2, ensure_ascii=False)
    intro = (ROOT / "docs" / "reference" / "json-intro.md").read_text(encoding="utf-8")
    return intro + "\n## The registration server's API (OpenAPI)\n\n```json\n" + schema + "\n```\n"


def on_files(files: Files, config: Any) -> Files:
    generated = {
        **_rule_pages(),
        **_command_pages(),
        "reference/glossary.md": _glossary(),
        "reference/json.md": _json_page(),
        "project/changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    }
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files
