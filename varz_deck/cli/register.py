"""Registration commands: `register`, `verify`, `diff` and `code`."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CardsOption,
    DateOption,
    DeckArgument,
    DecksArgument,
    ExcludeOption,
    GameOption,
    LangOption,
    TextOrJson,
    TextOrJsonOption,
    check_date,
    color,
    deck_arguments,
    deck_database,
    fail,
    game_of,
    language,
    library,
    one_deck,
    open_deck,
    progress_bar,
    sources,
    tracked,
)
from varz_deck.core.messages.i18n import N_, Message, msg, nmsg

if TYPE_CHECKING:
    import datetime
    from collections.abc import Mapping

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.registration.register import Registration
    from varz_deck.core.registration.registrar import Registrar


class RegisterOutput(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"


REGISTER_HELP = N_(
    "Check decks and print their registrations: player, event, legality, deck hash, card list."
)
VERIFY_HELP = N_("Exit 0 when the deck matches a registered deck hash, 1 when it does not.")
DIFF_HELP = N_("Show what differs between two decks, card by card; exit 0 same deck, 1 different.")
CODE_HELP = N_("Print a deck's code: compact and URL-safe; every DECK argument accepts one.")


def register(
    decks: DecksArgument,
    player: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--player", help=N_("Player name for every deck (overrides the files' player:).")
        ),
    ] = None,
    event: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--event", help=N_("Event name for every deck (overrides the files' event:).")
        ),
    ] = None,
    format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--format", "-f", help=N_("Register under this format, whatever the decks say.")
        ),
    ] = None,
    output: Annotated[
        RegisterOutput, typer.Option("--output", "-o", help=N_("Output format."))
    ] = RegisterOutput.text,
    sheet: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--sheet",
            help=N_("Write a printable HTML registration sheet per deck into this folder."),
            show_default=False,
        ),
    ] = None,
    combined: Annotated[
        bool,
        typer.Option(
            "--combined",
            help=N_(
                "With --sheet: also write all-sheets.html, every sheet in one document, "
                "a page each."
            ),
        ),
    ] = False,
    seat: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--seat",
            help=N_("Table or seat for the sheets (left as a box to fill in when not given)."),
            show_default=False,
        ),
    ] = None,
    date: DateOption = None,
    exclude: ExcludeOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Check decks and print their registrations: player, event, legality, deck hash, card list."""
    from varz_deck.core.registration import render

    chosen = language(lang)
    if combined and sheet is None:
        _usage(msg("register", "--combined needs --sheet DIR"), chosen)
    for option, value in (("--player", player), ("--event", event), ("--seat", seat)):
        if value is not None and not _is_utf8(value):
            _usage(_NOT_UTF8_OPTION(option=option, value=_escaped(value)), chosen)
    day = check_date(date, chosen)
    found = deck_arguments(decks, exclude, chosen)
    text = output is RegisterOutput.text
    cards_of = library(cards, chosen, game, progress=text)
    bar = progress_bar(msg("register", "registering decks"), chosen, text)
    registrations: list[Registration] = []
    registrars: dict[str, Registrar] = {}  # game key -> its registrar, in order of first deck
    for source in sources(tracked(found, bar)):
        database = cards_of.for_source(source)
        registrar = registrars.setdefault(database.game, game_of(database).registrar)
        registrations.append(
            registrar.register(
                source, database, player=player, event=event, format_key=format, date=day
            )
        )
    if not registrars:  # no deck: the default database's game speaks for the empty run
        primary = cards_of.primary()
        registrars[primary.game] = game_of(primary).registrar
    registrar = next(iter(registrars.values()))
    if seat:
        from dataclasses import replace

        from varz_deck.core.registration.register import clean

        registrations = [replace(r, seat=clean(seat)) for r in registrations]
    if output is RegisterOutput.json:
        rendered = render.render_json(registrations, chosen)
    elif output is RegisterOutput.csv:
        rendered = render.render_csv(registrations, registrar.layout, mixed=len(registrars) > 1)
    else:
        rendered = render.render_text(registrations, color=color(), lang=chosen)
    sys.stdout.write(rendered)
    if sheet is not None and not _write_sheets(
        registrations, sheet, chosen, registrars, combined=combined
    ):
        raise typer.Exit(EXIT_USAGE)  # the registrations are out; the sheets are not all written
    raise typer.Exit(EXIT_OK if all(r.legal for r in registrations) else EXIT_PROBLEMS)


def verify(
    deck: DeckArgument,
    hash: Annotated[
        str,
        typer.Option("--hash", help=N_("The registered deck hash (v1-…)."), show_default=False),
    ],
    output: TextOrJsonOption = TextOrJson.text,
    date: DateOption = None,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Exit 0 when the deck matches a registered deck hash, 1 when it does not."""
    from varz_deck.core.registration import render
    from varz_deck.core.registration.canonical import normalize_hash

    chosen = language(lang)
    day = check_date(date, chosen)
    expected = normalize_hash(hash)
    if expected is None:
        _usage(
            msg(
                "register", "--hash {hash} is not a deck hash; a v1 deck hash looks like {example}"
            )(hash=repr(hash), example="v1-6axy4nbueg"),
            chosen,
        )
    source = one_deck(deck, chosen)
    database = deck_database(source, cards, chosen, game)
    reg = _comparable(source, database, chosen, day)
    assert reg.deck_hash is not None
    if output is TextOrJson.json:
        sys.stdout.write(render.render_verify_json(reg.path, reg.deck_hash, expected, day))
    else:
        sys.stdout.write(
            render.render_verify_text(reg.path, reg.deck_hash, expected, color=color(), lang=chosen)
        )
    raise typer.Exit(EXIT_OK if reg.deck_hash == expected else EXIT_PROBLEMS)


def diff(
    registered: Annotated[
        Path,
        typer.Argument(
            readable=False,
            help=N_("The deck as registered (file or deck code)."),
            show_default=False,
        ),
    ],
    presented: Annotated[
        Path,
        typer.Argument(
            readable=False,
            help=N_("The deck as presented (file or deck code)."),
            show_default=False,
        ),
    ],
    output: TextOrJsonOption = TextOrJson.text,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Show what differs between two decks, card by card; exit 0 same deck, 1 different."""
    from varz_deck.core.registration import render
    from varz_deck.core.registration.diff import diff_decks

    chosen = language(lang)
    before_source, after_source = one_deck(registered, chosen), one_deck(presented, chosen)
    database = deck_database(before_source, cards, chosen, game)
    day = check_date(None, chosen)  # a deck's hash has no date; its check is today's
    before = _comparable(before_source, database, chosen, day)
    after = _comparable(after_source, database, chosen, day)
    assert before.canonical is not None and after.canonical is not None
    result = diff_decks(before.canonical, after.canonical)
    if output is TextOrJson.json:
        sys.stdout.write(render.render_diff_json(result, before, after))
    else:
        sys.stdout.write(render.render_diff_text(result, before, after, color=color(), lang=chosen))
    raise typer.Exit(EXIT_OK if result.same else EXIT_PROBLEMS)


def code(
    deck: DeckArgument,
    cards: CardsOption = None,
    game: GameOption = None,
    lang: LangOption = None,
) -> None:
    """Print a deck's code: compact and URL-safe; every DECK argument accepts one."""
    chosen, day, source, database, the_game, _ = open_deck(deck, None, cards, game, lang)
    registrar = the_game.registrar
    reg = registrar.register(source, database, date=day)
    no_code = msg("register", "{deck} has no deck code: {reason}")
    if reg.canonical is None or not reg.canonical.complete:
        _report_problems(reg, no_code, chosen)
        raise typer.Exit(EXIT_PROBLEMS)
    from varz_deck.core.registration.code import NoCode

    try:
        deck_code = registrar.encode(reg.canonical)
    except NoCode as err:  # more than a code holds: no code the decoder would reject is printed
        fail(no_code(deck=reg.path, reason=err.message), EXIT_PROBLEMS, chosen)
    sys.stdout.write(deck_code + "\n")
    raise typer.Exit(EXIT_OK)


def _usage(message: Message, lang: str) -> NoReturn:
    fail(message, EXIT_USAGE, lang)


def _comparable(
    source: DeckSource, database: CardDatabase, lang: str, date: datetime.date
) -> Registration:
    """A deck that has a hash, or exit 2 naming what keeps it from being read (F001–F004, F009)."""
    reg = game_of(database).registrar.register(source, database, date=date)
    if reg.deck_hash is None:
        _report_problems(reg, msg("register", "{deck} cannot be compared: {reason}"), lang)
        raise typer.Exit(EXIT_USAGE)
    return reg


def _report_problems(reg: Registration, what: Message, lang: str) -> None:
    """The errors that stand in the way, then `varz-deck: DECK <what>: <reason>; fix …`."""
    from varz_deck.core.messages.sanitize import safe
    from varz_deck.core.registration.render import diagnostic_line

    errors = [d for d in reg.report.diagnostics if d.is_error]
    if reg.canonical is not None:  # readable: only unresolved references stand in the way
        errors = [d for d in errors if d.code in ("F005", "F006", "F007")]
    lines = [diagnostic_line(d, lang=lang) for d in errors]
    reason = (
        msg("register", "it could not be read completely; fix the errors above")
        if reg.canonical is None
        else msg("register", "unknown references; fix the errors above")
    )
    lines.append("varz-deck: " + safe(what(deck=reg.path, reason=reason).render(lang)))
    sys.stderr.write("".join(line + "\n" for line in lines))


_NOT_UTF8_OPTION = msg("register", "{option} {value} is not UTF-8 text; write it in UTF-8")
_NOT_UTF8_NAME = msg(
    "register", "the file name {deck} is not UTF-8; its sheet shows it as here (escaped)"
)


def _is_utf8(text: str) -> bool:
    """False for an argument or file name with bytes that are not UTF-8 (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escaped(text: str) -> str:
    """A value with its non-UTF-8 bytes as \\xNN, the way a sheet shows them."""
    from varz_deck.core.registration.sheet import shown_bytes

    return shown_bytes(text)


def _write_sheets(
    registrations: list[Registration],
    folder: Path,
    lang: str,
    registrars: Mapping[str, Registrar],
    *,
    combined: bool = False,
) -> bool:
    """Write each sheet (never through a symlink; names cut to fit with a hash), and with
    `combined` all of them in one document too; a sheet that cannot be written is said on stderr
    and the others are still written. True when all were."""
    from varz_deck.core.files.output import fit_file_name, write_file_atomic
    from varz_deck.core.messages.sanitize import safe
    from varz_deck.core.registration.sheet import COMBINED, sheet_names

    def render_sheet(reg: Registration, lang: str) -> str:
        return registrars[reg.report.game].render_sheet(reg, lang)

    if folder.exists() and not folder.is_dir():
        _sheet_problem(
            msg("register", "--sheet {folder} is a file, not a folder; give a folder")(
                folder=str(folder)
            ),
            lang,
        )
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _sheet_problem(
            msg("register", "cannot write sheets to {folder}: {error}")(
                folder=str(folder), error=_os_reason(err, lang)
            ),
            lang,
        )
        return False
    written = 0
    reserved = (COMBINED,) if combined else ()
    for reg, name in zip(registrations, sheet_names(registrations, reserved), strict=True):
        target = folder / fit_file_name(name)
        if not _is_utf8(reg.path):
            _sheet_problem(_NOT_UTF8_NAME(deck=_escaped(reg.path)), lang)
        try:
            write_file_atomic(target, render_sheet(reg, lang))
            written += 1
        except OSError as err:
            cannot = msg("register", "cannot write the sheet of {deck} to {file}: {error}")
            _sheet_problem(
                cannot(deck=safe(reg.path), file=str(target), error=_os_reason(err, lang)), lang
            )
    wrote = nmsg(
        "register",
        "wrote {n} registration sheet to {folder}",
        "wrote {n} registration sheets to {folder}",
    )(n=written, folder=str(folder))
    sys.stderr.write(f"varz-deck: {wrote.render(lang)}\n")
    if combined:
        target = folder / COMBINED
        try:
            write_file_atomic(target, _combined(registrations, registrars, lang))
        except OSError as err:
            cannot = msg("register", "cannot write the combined sheets to {file}: {error}")
            _sheet_problem(cannot(file=str(target), error=_os_reason(err, lang)), lang)
            return False
        every = nmsg(
            "register",
            "wrote {n} sheet in one document to {file}",
            "wrote {n} sheets in one document to {file}",
        )(n=len(registrations), file=str(target))
        sys.stderr.write(f"varz-deck: {every.render(lang)}\n")
    return written == len(registrations)


def _combined(
    registrations: list[Registration], registrars: Mapping[str, Registrar], lang: str
) -> str:
    """Every sheet in one document, each page drawn by its own deck's game."""
    if len(registrars) == 1:
        (registrar,) = registrars.values()
        return registrar.render_sheets(registrations, lang)
    from varz_deck.core.registration.sheet import render_sheets

    return render_sheets(registrations, lambda reg: registrars[reg.report.game].sheet_parts, lang)


def _sheet_problem(message: Message, lang: str) -> None:
    from varz_deck.core.messages.sanitize import safe

    sys.stderr.write(f"varz-deck: {safe(message.render(lang))}\n")


def _os_reason(err: OSError, lang: str) -> str:
    """An OSError said plainly: "is a file, not a folder" rather than "File exists"."""
    import errno

    if err.errno in (errno.EEXIST, errno.ENOTDIR):
        return msg("register", "a part of the path is a file, not a folder").render(lang)
    if err.errno == errno.EACCES:
        return msg("register", "permission denied").render(lang)
    return err.strerror or type(err).__name__
