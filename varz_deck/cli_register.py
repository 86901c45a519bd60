"""Registration commands: `register`, `verify`, `diff` and `code` (issue 5).

`varz_deck.cli` adds them to the app; this module imports it only inside the commands, so either
module can be imported first.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from varz_deck.cards import CardDatabase
    from varz_deck.registration.register import Registration

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class RegisterOutput(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"


class CompareOutput(str, Enum):
    text = "text"
    json = "json"


DeckArgument = Annotated[
    Path, typer.Argument(help="A deck file (.yaml, .yml, .txt) or a deck code.", show_default=False)
]
CardsOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Option(
        "--cards",
        help="Card database folder (default: $VARZ_DECK_CARDS, else the bundled database).",
        show_default=False,
    ),
]
CompareOutputOption = Annotated[
    CompareOutput, typer.Option("--output", "-o", help="Output format.")
]


def register(
    decks: Annotated[
        list[Path],
        typer.Argument(help="Deck files (.yaml, .yml, .txt) or deck codes.", show_default=False),
    ],
    player: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--player", help="Player name for every deck (overrides the files' player:)."),
    ] = None,
    event: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--event", help="Event name for every deck (overrides the files' event:)."),
    ] = None,
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--format", "-f", help="Register under this format, whatever the decks say."),
    ] = None,
    output: Annotated[
        RegisterOutput, typer.Option("--output", "-o", help="Output format.")
    ] = RegisterOutput.text,
    sheet: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--sheet",
            help="Write a printable HTML registration sheet per deck into this folder.",
            show_default=False,
        ),
    ] = None,
    cards: CardsOption = None,
) -> None:
    """Check decks and print their registrations: player, event, legality, deck hash, card list."""
    from varz_deck.registration import render
    from varz_deck.registration.register import register_decks

    database = _database(cards)
    registrations = register_decks(decks, database, player=player, event=event, format_key=format)
    if sheet is not None:
        _write_sheets(registrations, sheet)
    if output is RegisterOutput.json:
        rendered = render.render_json(registrations)
    elif output is RegisterOutput.csv:
        rendered = render.render_csv(registrations)
    else:
        rendered = render.render_text(registrations, color=_color())
    sys.stdout.write(rendered)
    raise typer.Exit(EXIT_OK if all(r.legal for r in registrations) else EXIT_PROBLEMS)


def verify(
    deck: DeckArgument,
    hash: Annotated[
        str,
        typer.Option("--hash", help="The registered deck hash (v1-…).", show_default=False),
    ],
    output: CompareOutputOption = CompareOutput.text,
    cards: CardsOption = None,
) -> None:
    """Exit 0 when the deck matches a registered deck hash, 1 when it does not."""
    from varz_deck.registration import render
    from varz_deck.registration.canonical import normalize_hash

    expected = normalize_hash(hash)
    if expected is None:
        _usage(f"--hash {hash!r} is not a deck hash; a v1 deck hash looks like v1-6axy4nbueg")
    database = _database(cards)
    reg = _comparable(deck, database)
    assert reg.deck_hash is not None
    if output is CompareOutput.json:
        sys.stdout.write(render.render_verify_json(reg.path, reg.deck_hash, expected))
    else:
        sys.stdout.write(
            render.render_verify_text(reg.path, reg.deck_hash, expected, color=_color())
        )
    raise typer.Exit(EXIT_OK if reg.deck_hash == expected else EXIT_PROBLEMS)


def diff(
    registered: Annotated[
        Path,
        typer.Argument(help="The deck as registered (file or deck code).", show_default=False),
    ],
    presented: Annotated[
        Path,
        typer.Argument(help="The deck as presented (file or deck code).", show_default=False),
    ],
    output: CompareOutputOption = CompareOutput.text,
    cards: CardsOption = None,
) -> None:
    """Show what differs between two decks, card by card; exit 0 same deck, 1 different."""
    from varz_deck.registration import render
    from varz_deck.registration.diff import diff_decks

    database = _database(cards)
    before, after = _comparable(registered, database), _comparable(presented, database)
    assert before.canonical is not None and after.canonical is not None
    result = diff_decks(before.canonical, after.canonical)
    if output is CompareOutput.json:
        sys.stdout.write(render.render_diff_json(result, before, after))
    else:
        sys.stdout.write(render.render_diff_text(result, before, after, color=_color()))
    raise typer.Exit(EXIT_OK if result.same else EXIT_PROBLEMS)


def code(deck: DeckArgument, cards: CardsOption = None) -> None:
    """Print a deck's code: compact and URL-safe; every DECK argument accepts one."""
    from varz_deck.registration.code import encode
    from varz_deck.registration.register import register_deck

    database = _database(cards)
    reg = register_deck(deck, database)
    if reg.canonical is None or not reg.canonical.complete:
        _report_problems(reg, "has no deck code")
        raise typer.Exit(EXIT_PROBLEMS)
    sys.stdout.write(encode(reg.canonical) + "\n")
    raise typer.Exit(EXIT_OK)


def _database(cards: Path | None) -> CardDatabase:
    from varz_deck.cli import load_database

    return load_database(cards)


def _color() -> bool:
    from varz_deck.cli import _color as color

    return color()


def _usage(message: str) -> NoReturn:
    from varz_deck.cli import _fail

    _fail(message, EXIT_USAGE)


def _comparable(path: Path, database: CardDatabase) -> Registration:
    """A deck that has a hash, or exit 2 naming what keeps it from being read (F001–F004, F009)."""
    from varz_deck.registration.register import register_deck

    reg = register_deck(path, database)
    if reg.deck_hash is None:
        _report_problems(reg, "cannot be compared")
        raise typer.Exit(EXIT_USAGE)
    return reg


def _report_problems(reg: Registration, what: str) -> None:
    from varz_deck.diagnostics import safe
    from varz_deck.registration.render import diagnostic_line

    errors = [d for d in reg.report.diagnostics if d.is_error]
    if reg.canonical is not None:  # readable: only unresolved references stand in the way
        errors = [d for d in errors if d.code in ("F005", "F006", "F007")]
    lines = [diagnostic_line(d) for d in errors]
    reason = "it could not be read completely" if reg.canonical is None else "unknown references"
    lines.append(f"varz-deck: {safe(reg.path)} {what}: {reason}; fix the errors above")
    sys.stderr.write("".join(line + "\n" for line in lines))


def _write_sheets(registrations: list[Registration], folder: Path) -> None:
    from varz_deck.registration.sheet import render_sheet, sheet_names

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for reg, name in zip(registrations, sheet_names(registrations), strict=True):
            (folder / name).write_text(render_sheet(reg), encoding="utf-8", newline="\n")
    except OSError as err:
        _usage(f"cannot write sheets to {folder}: {err.strerror or err}")
    count = len(registrations)
    sys.stderr.write(
        f"varz-deck: wrote {count} registration sheet{'s' if count != 1 else ''} to {folder}\n"
    )
