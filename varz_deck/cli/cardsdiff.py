"""`varz-deck cards diff OLD NEW [DECK...]` (docs/guides/card-data.md): what changed between two card databases,
and which decks it changes. Registered in the `cards` group by cli/cards.py.

Exit codes: 0 no deck given changes verdict, 1 one does (with `--fail-on illegal`: one that was
legal is not), 2 usage error (a folder that is not a valid database, a bad --git revision).
"""

from __future__ import annotations

import functools
import sys
import tempfile
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    DateOption,
    ExcludeOption,
    LangOption,
    TextOrJson,
    TextOrJsonOption,
    check_date,
    database_folder,
    deck_arguments,
    fail,
    language,
    open_or_exit,
    source_of,
    terminal_width,
)
from varz_deck.core.messages.i18n import N_, msg

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource

DIFF_HELP = N_(
    "Compare two card databases: cards added, removed and changed field by field (errata, "
    "names in every language), formats changed (bans, restrictions, sets, dated changes); "
    "with decks, each deck whose verdict or diagnostics differ, before and after.\n\n"
    "OLD and NEW are card database folders. With --git REV give one folder: NEW is the folder "
    "as it is, OLD the same folder at the revision REV (read with git into a temporary folder).\n\n"
    "With --date, both databases check the decks as of that day (their dated changes and the "
    "sets released by then); the text says the day, JSON's date is --date (null for today).\n\n"
    "--output json: version, tool, old, new, git, date; cards and formats, each with added, "
    "removed and changed (a changed one lists its fields: path, old, new); decks: only those "
    "that differ, each with path, verdict_changed, and old and new (its entries in check's "
    "JSON); summary.\n\n"
    "Exit 0 when no deck changes verdict, 1 when one does (with --fail-on illegal: only when a "
    "legal deck becomes illegal), 2 on a usage error or an invalid database."
)


class FailOn(str, Enum):
    verdict = "verdict"
    illegal = "illegal"


_TWO_FOLDERS = msg("cli", "give OLD and NEW, two card database folders (or --git REV and NEW)")
_ONE_FOLDER = msg("cli", "with --git, give NEW, one card database folder, then the decks")
_TWO_GAMES = msg(
    "cli",
    "{old} and {new} are card databases of two games ({old_game}, {new_game}); "
    "compare two databases of one game",
)


def cards_diff(
    paths: Annotated[
        list[Path],
        typer.Argument(
            readable=False,
            help=N_(
                "OLD and NEW card database folders (with --git, NEW only), then deck files or "
                "folders of decks."
            ),
            show_default=False,
        ),
    ],
    git: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--git",
            metavar="REV",
            help=N_("Compare NEW with the same folder at this git revision (OLD is not given)."),
            show_default=False,
        ),
    ] = None,
    output: TextOrJsonOption = TextOrJson.text,
    fail_on: Annotated[
        FailOn,
        typer.Option(
            "--fail-on",
            help=N_(
                "Exit 1 when a deck changes verdict (verdict), or only when a legal deck "
                "becomes illegal (illegal)."
            ),
        ),
    ] = FailOn.verdict,
    date: DateOption = None,
    exclude: ExcludeOption = None,
    lang: LangOption = None,
) -> None:
    """Compare two card databases, and the decks they check differently."""
    chosen = language(lang)
    day = check_date(date, chosen)
    text = output is TextOrJson.text
    compare = functools.partial(
        _compare,
        output=output,
        fail_on=fail_on,
        exclude=exclude,
        lang=chosen,
        day=day,
        given=date is not None,
    )
    if git is not None:
        if not paths:
            fail(_ONE_FOLDER(), EXIT_USAGE, chosen)
        new_root, rest = paths[0], paths[1:]
        new = _open(new_root, chosen, text)
        with tempfile.TemporaryDirectory(prefix="varz-deck-diff-") as temporary:
            old_root = Path(temporary)
            absent = _export(new_root, git, old_root, chosen)
            old_label = msg("carddiff", "{folder} at {rev}")(folder=str(new_root), rev=git)
            label = old_label.render(chosen)
            old = _empty(new) if absent else _open(old_root, chosen, text, label)
            compare(
                old,
                new,
                (label, str(new_root)),
                (old_root, new_root),
                rest,
                git=git,
                absent=absent,
            )
        return
    if len(paths) < 2:
        fail(_TWO_FOLDERS(), EXIT_USAGE, chosen)
    old_root, new_root, rest = paths[0], paths[1], paths[2:]
    old = _open(old_root, chosen, text)
    new = _open(new_root, chosen, text)
    compare(old, new, (str(old_root), str(new_root)), (old_root, new_root), rest)


def _compare(
    old: CardDatabase,
    new: CardDatabase,
    labels: tuple[str, str],
    roots: tuple[Path, Path],
    decks: list[Path],
    *,
    output: TextOrJson,
    fail_on: FailOn,
    exclude: list[str] | None,
    lang: str,
    day: datetime.date,
    given: bool = False,
    git: str | None = None,
    absent: bool = False,
) -> None:
    from varz_deck.core.report import carddiff

    if old.game != new.game:
        from varz_deck.games import get_game

        names = {"old_game": get_game(old.game).name, "new_game": get_game(new.game).name}
        fail(_TWO_GAMES(old=labels[0], new=labels[1], **names), EXIT_USAGE, lang)
    found_decks = deck_arguments(decks, exclude, lang) if decks else []
    before, after = _check(found_decks, old, new, day)
    found = carddiff.diff_databases(
        old,
        new,
        labels,
        roots,
        (before, after),
        git=git,
        date=day.isoformat() if given else None,
        day=day.isoformat(),
    )
    if output is TextOrJson.json:
        sys.stdout.write(carddiff.render_json(found, lang))
    else:
        sys.stdout.write(carddiff.render_text(found, lang, absent, terminal_width()))
    if fail_on is FailOn.illegal:
        failed = any(d.old.legal and not d.new.legal for d in found.decks)
    else:
        failed = found.verdicts_changed > 0
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


def _check(
    decks: list[Path | DeckSource], old: CardDatabase, new: CardDatabase, day: datetime.date
) -> tuple[list[DeckReport], list[DeckReport]]:
    """Each deck read once and checked against both databases, as of the day."""
    from varz_deck.games import check_decks

    before: list[DeckReport] = []
    after: list[DeckReport] = []
    for deck in decks:
        source = source_of(deck)
        before.extend(check_decks([source], old, date=day))
        after.extend(check_decks([source], new, date=day))
    return before, after


def _open(root: Path, lang: str, progress: bool, label: str | None = None) -> CardDatabase:
    """The valid database at root (a folder's copy at a git revision, named `label`), or exit 2
    saying which folder and why."""
    database_folder(root, lang, label)
    return open_or_exit(root, lang, progress, label)


def _export(folder: Path, rev: str, target: Path, lang: str) -> bool:
    """Write the folder at rev into target; True when it did not exist there. Exit 2 when git
    cannot read it."""
    from varz_deck.core.cards.gitfolder import GitError, export

    try:
        return not export(folder, rev, target)
    except GitError as err:
        fail(err.message, EXIT_USAGE, lang)


def _empty(like: CardDatabase) -> CardDatabase:
    """A database of no cards and no formats, of the game `like` is for (the folder did not
    exist at the revision)."""
    from varz_deck.games import get_game

    return get_game(like.game).make_database([], {})
