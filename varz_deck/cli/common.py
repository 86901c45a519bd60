"""What every command shares: exit codes, the common options, the card database, failure lines.

Command modules import this and the core and the games; no command module imports another.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple, NoReturn, Optional, TypeVar

import typer

from varz_deck.core.messages.i18n import N_, msg, nmsg
from varz_deck.games import game_keys

if TYPE_CHECKING:
    import datetime

    from rich.progress import Progress, TaskID

    from varz_deck.core.analysis.capabilities import DeckUnusable, Outcome
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game import Game
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.core.messages.i18n import Message
    from varz_deck.games import GameUnavailable
    from varz_deck.games.library import CardLibrary

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class Output(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class Lang(str, Enum):
    en = "en"
    ja = "ja"
    zh = "zh"


CardsOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
    typer.Option(
        "--cards",
        help=N_("Card database folder (default: $VARZ_DECK_CARDS, else the bundled database)."),
        show_default=False,
    ),
]
GameOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--game",
        help=N_("Without --cards: use the bundled card database of this game."),
        metavar="[" + "|".join(game_keys()) + "]",
        show_default=False,
    ),
]
OutputOption = Annotated[Output, typer.Option("--output", "-o", help=N_("Output format."))]
DeckArgument = Annotated[
    Path,
    typer.Argument(
        readable=False,  # a path that cannot be read is the deck's F001, not a usage error
        help=N_("A deck file (.yaml, .yml, .txt, .dek), a deck code, or - for standard input."),
        show_default=False,
    ),
]
DecksArgument = Annotated[
    list[Path],
    typer.Argument(
        readable=False,  # an unreadable path is reported (F001), not a usage error
        help=N_(
            "Deck files (.yaml, .yml, .txt, .dek), folders of them, deck codes, "
            "or - for standard input."
        ),
        show_default=False,
    ),
]
# the registration server's database (`serve`, `event`, `manage`)
DatabaseOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--database",
        help=N_(
            "Database URL: a SQLite file or postgresql://user:password@host/name "
            "(default: $VARZ_DECK_DATABASE, else varz-deck.sqlite3 here)."
        ),
        show_default=False,
    ),
]
LangOption = Annotated[
    Optional[Lang],  # noqa: UP045
    typer.Option(
        "--lang",
        help=N_("Language of the messages (default: $VARZ_DECK_LANG, else the locale, else en)."),
        show_default=False,
        case_sensitive=False,
    ),
]


DateOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--date",
        metavar="YYYY-MM-DD",
        help=N_(
            "Check as of this day: the formats' dated changes and the sets released by then "
            "(default: today, local time)."
        ),
        show_default=False,
    ),
]
_NOT_A_DATE = msg("cli", "--date {date} is not a date; write it YYYY-MM-DD, e.g. {example}")
DATE_EXAMPLE = "2027-01-15"


def check_date(date: str | None, lang: str | None) -> datetime.date:
    """The day a command checks decks as of: --date, else today (core.dates.on_date); exit 2
    for anything but a real day written YYYY-MM-DD."""
    from varz_deck.core.dates import on_date, parse_date

    if date is None:
        return on_date(None)
    day = parse_date(date)
    if day is None:
        fail(_NOT_A_DATE(date=repr(date), example=DATE_EXAMPLE), EXIT_USAGE, lang)
    return day


def dated(document: dict[str, object], date: datetime.date) -> dict[str, object]:
    """A command's JSON document with `"date"` right after its `"deck"` (at the end when it has
    none), and on each deck of its `"decks"` too (`sim --vs`)."""
    out: dict[str, object] = {}
    for key, value in document.items():
        if key == "decks" and isinstance(value, list):
            value = [dated(d, date) if isinstance(d, dict) else d for d in value]
        out[key] = value
        if key == "deck":
            out["date"] = date.isoformat()
    out.setdefault("date", date.isoformat())
    return out


def language(lang: Lang | None) -> str:
    """The language a command speaks: --lang, else $VARZ_DECK_LANG, else the locale, else en."""
    from varz_deck.core.messages.i18n import choose_language

    return choose_language(lang.value if lang is not None else None)


def color() -> bool:
    """Whether stdout takes colour: a terminal, NO_COLOR unset, TERM not dumb."""
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


MIN_WIDTH = 20  # narrower than this, nothing is readable; layouts still must not crash
DEFAULT_WIDTH = 80  # piped output, with no COLUMNS: what fits a terminal and a README


def terminal_width() -> int | None:
    """$COLUMNS (as rich and shutil honour it), else the terminal's width; None when stdout is
    not a terminal and COLUMNS is unset."""
    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return max(MIN_WIDTH, int(env))
    if sys.stdout.isatty():
        try:
            return max(MIN_WIDTH, os.get_terminal_size().columns)
        except OSError:
            pass
    return None


def width() -> int:
    """The columns a text report may use: terminal_width(), else 80 (tables need a width)."""
    return terminal_width() or DEFAULT_WIDTH


def say(message: str | Message, lang: str | None = None) -> None:
    """`varz-deck: <message>` on stderr; a Message is said in the language (default:
    $VARZ_DECK_LANG, else the locale, else English)."""
    from varz_deck.core.messages.sanitize import safe

    if not isinstance(message, str):
        from varz_deck.core.messages.i18n import choose_language

        message = message.render(lang or choose_language())
    typer.echo(f"varz-deck: {safe(message)}", err=True)


def fail(message: str | Message, code: int = EXIT_USAGE, lang: str | None = None) -> NoReturn:
    """`varz-deck: <message>` on stderr (see `say`), then exit."""
    say(message, lang)
    raise typer.Exit(code)


def fail_games(failures: Sequence[GameUnavailable], lang: str | None = None) -> None:
    """Exit 2 saying why each game cannot be used, when any cannot; else nothing."""
    if failures:
        for said in dict.fromkeys(f.message for f in failures):
            say(said, lang)
        raise typer.Exit(EXIT_USAGE)


def refuse_option(game: Game, option: str, lang: str) -> NoReturn:
    """Exit 2: an option this game cannot honour (docs/reference/games.md), never silently ignored."""
    cannot = msg("cli", "{option} is not available for {game} decks")
    fail(cannot(option=option, game=game.name), EXIT_USAGE, lang)


_DATABASE_INVALID = nmsg(
    "cli",
    "card database {root} is invalid: {count} problem{where}; "
    "run `varz-deck cards lint {root}` to see them all",
    "card database {root} is invalid: {count} problems{where}; "
    "run `varz-deck cards lint {root}` to see them all",
)
_DATABASE_INVALID_AT = nmsg(
    "cli",
    "card database {root} is invalid: {count} problem{where}; to see them all, check that "
    "revision out (git worktree add) and run `varz-deck cards lint` there",
    "card database {root} is invalid: {count} problems{where}; to see them all, check that "
    "revision out (git worktree add) and run `varz-deck cards lint` there",
)
_NO_DATABASE_FOLDER = msg(
    "cli", "card database {root} does not exist; give the folder that holds the card files"
)
_DATABASE_NOT_FOLDER = msg(
    "cli", "card database {root} is not a folder; give the folder that holds the card files"
)


def check_game_key(game: str | None, lang: str | None) -> None:
    """Exit 2 for a --game that names no game."""
    from varz_deck.games import game_keys

    if game is not None and game not in game_keys():
        unknown = msg("cli", "unknown game {game}; known: {known}")
        fail(unknown(game=repr(game), known=", ".join(game_keys())), lang=lang)


def load_database(
    cards: Path | None, lang: str | None = None, game: str | None = None, progress: bool = True
) -> CardDatabase:
    """The card database for a command (--cards, else the bundled one of --game, else
    $VARZ_DECK_CARDS, else the default game's bundled one), or exit 2 with a pointer to
    `cards lint`. A cold build (not in the cache) shows a progress bar on a terminal when
    `progress` (the command's output is text)."""
    return library(cards, lang, game, progress).primary()


def library(
    cards: Path | None, lang: str | None = None, game: str | None = None, progress: bool = True
) -> CardLibrary:
    """The card library of a command: each database it opens is valid, or the command exits 2
    saying why (see `open_or_exit`)."""
    from varz_deck.games.library import CardLibrary

    check_game_key(game, lang)
    return CardLibrary(lambda root: open_or_exit(root, lang, progress), cards, game, near=True)


def database_folder(root: Path, lang: str, label: str | None = None) -> None:
    """Exit 2 when the card database folder root (shown as `label`, else itself) does not exist
    or is not a folder."""
    if not root.is_dir():
        problem = _NO_DATABASE_FOLDER if not root.exists() else _DATABASE_NOT_FOLDER
        fail(problem(root=str(root) if label is None else label), EXIT_USAGE, lang)


def open_or_exit(
    root: Path, lang: str | None, progress: bool, label: str | None = None
) -> CardDatabase:
    """The valid database at root, or exit 2 with its first problem and a pointer to `cards lint`.
    `label`: root is a folder's copy at a git revision (`cards diff --git`), named so in the
    problem, whose pointer then says to check that revision out."""
    from varz_deck.core.lint.database import DatabaseError
    from varz_deck.core.messages.i18n import choose_language, localized
    from varz_deck.games import open_database

    bar = progress_bar(msg("cli", "reading the card database"), lang, progress)
    try:
        return open_database(root, bar)
    except DatabaseError as err:
        chosen = lang or choose_language()
        first = err.diagnostics[0] if err.diagnostics else None
        where = ""
        if first is not None:
            file = str(first.file or root)
            if label is not None and file.startswith(str(root)):
                file = label + file[len(str(root)) :]
            place = file + (f":{first.line}" if first.line else "")
            where = msg("cli", " (first: {place} {code} {message})")(
                place=place, code=first.code, message=localized(first, chosen)
            ).render(chosen)
        count = len(err.diagnostics)
        if bar is not None:
            bar.close()
        invalid = _DATABASE_INVALID if label is None else _DATABASE_INVALID_AT
        shown = str(root) if label is None else label
        fail(invalid(root=shown, count=count, where=where, n=count), lang=chosen)
    finally:
        if bar is not None:
            bar.close()


def deck_database(
    deck: DeckSource, cards: Path | None, lang: str, game: str | None, progress: bool = False
) -> CardDatabase:
    """The database to read one deck with: the one named (--cards, --game, $VARZ_DECK_CARDS),
    else the bundled database of the game the deck is written for (docs/reference/games.md: every command finds
    a deck's game from its keys, headers or code prefix)."""
    return library(cards, lang, game, progress).for_source(deck)


def game_of(database: CardDatabase) -> Game:
    from varz_deck.games import get_game

    return get_game(database.game)


def known_format(
    name: str,
    database: CardDatabase,
    bundled: Callable[[str], CardDatabase] | None,
    lang: str,
    declared: Callable[[], Iterable[CardDatabase]] | None = None,
) -> str:
    """The format --format names, as the database spells it; a name no database of the run knows
    is a usage error (exit 2) with "did you mean", not F007 on every deck. Without an explicit
    database (`check`), `bundled(key)`, the bundled databases of the other games, and
    `declared()`, those of the games declared in a game.yaml above the decks, are asked too (only
    on this error path)."""
    from varz_deck.core.cards.cardinfo import unknown_filter
    from varz_deck.core.cards.model import normalize
    from varz_deck.games import game_keys

    def spelled(each: CardDatabase) -> str | None:
        return next((k for k in each.formats if normalize(k) == normalize(name)), None)

    found = spelled(database)
    others = [k for k in game_keys() if k != database.game] if bundled is not None else []
    for key in others:  # reached only when the run's database does not know the name
        if found is not None:
            break
        assert bundled is not None
        found = spelled(bundled(key))
    for each in declared() if declared is not None and found is None else ():
        found = found or spelled(each)
    if found is not None:
        return found
    problem = unknown_filter("--format", name, sorted(database.formats), game_of(database).name)
    if problem is not None:
        fail(problem, EXIT_USAGE, lang)
    return name


# --- Deck arguments: `-` is standard input, a folder its deck files ----------

ExcludeOption = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Option(
        "--exclude",
        metavar="PATTERN",
        help=N_("In a folder, leave out the paths this glob matches (gitignore-like; repeatable)."),
        show_default=False,
    ),
]
STDIN_ARGUMENT = "-"
_STDIN_READ = "varz_deck.stdin_read"  # in the command's context: `-` was read


def _read_stdin(limit: int) -> bytes:
    """Standard input's bytes, up to limit + 1 (one more says it is too large: F001)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream (tests, IDEs)
        text = sys.stdin.read(limit + 1) if sys.stdin is not None else ""
        return text.encode("utf-8", "surrogateescape")[: limit + 1]
    return bytes(stream.read(limit + 1))


def _stdin_source(lang: str | None) -> DeckSource:
    """Standard input as a deck (read once per command: `-` twice is exit 2)."""
    from varz_deck.cli.clickparts import current_context
    from varz_deck.core.files.deckfiles import STDIN_NAME
    from varz_deck.core.files.source import DECK_FILE_LIMIT, DeckSource

    context = current_context()
    if context is not None:
        if context.meta.get(_STDIN_READ):
            fail(msg("cli", "standard input (-) can be read only once"), EXIT_USAGE, lang)
        context.meta[_STDIN_READ] = True
    return DeckSource.from_bytes(STDIN_NAME, _read_stdin(DECK_FILE_LIMIT))


def deck_arguments(
    args: Sequence[Path], exclude: Sequence[str] | None = None, lang: str | None = None
) -> list[Path | DeckSource]:
    """The decks DECK arguments name, in order: `-` is standard input (read here, shown as
    `<stdin>`), a folder its deck files (core.deckfiles.find_deck_files), anything else as given
    (a file or a deck code, which the game recognises; read by `sources`, one at a time). Exit 2
    for `-` given twice or a folder without decks."""
    from varz_deck.core.files.deckfiles import DECK_SUFFIXES, find_deck_files

    decks: list[Path | DeckSource] = []
    for arg in args:
        if str(arg) == STDIN_ARGUMENT:
            decks.append(_stdin_source(lang))
            continue
        try:
            folder = arg.is_dir()
        except (OSError, ValueError):  # a name too long for a path: a deck code, most likely
            folder = False
        if not folder:
            decks.append(arg)
            continue
        found = find_deck_files(arg, exclude or ())
        skipped = _card_data(arg, found, lang)
        if skipped and len(skipped) == len(found):
            only = nmsg(
                "cli",
                "{folder} holds card data, not decks ({n} file); lint it with `varz-deck cards "
                "lint {folder}`, or check decks against it with --cards {folder}",
                "{folder} holds card data, not decks ({n} files); lint it with `varz-deck cards "
                "lint {folder}`, or check decks against it with --cards {folder}",
            )
            fail(only(folder=str(arg), n=len(skipped)), EXIT_USAGE, lang)
        if not found:
            empty = msg("cli", "{folder} holds no deck file ({patterns})")
            patterns = ", ".join(f"*{suffix}" for suffix in DECK_SUFFIXES)
            fail(empty(folder=str(arg), patterns=patterns), EXIT_USAGE, lang)
        decks.extend(path for path in found if path not in skipped)
    return decks


def _card_data(folder: Path, found: list[Path], lang: str | None) -> set[Path]:
    """The files found in a folder that are card data (a card file or a formats file, as the
    core knows them: discovery.card_data_kind) and that no game reads as its deck; each
    database they belong to is named on stderr, with how many of its files were skipped."""
    from varz_deck.core.cards.discovery import card_data_kind, formats_path, read_head
    from varz_deck.core.files.source import DeckSource, LoadError, decode
    from varz_deck.games import default_game, detect_game

    skipped: dict[Path, list[Path]] = {}  # database (its root, else the file's folder) -> files
    for path in found:
        if path.suffix.lower() not in (".yaml", ".yml"):
            continue
        head = read_head(path)
        if head is None or card_data_kind(path.name, head) is None:
            continue
        try:
            text = decode(head)
        except LoadError:
            text = head.decode("utf-8", "replace")
        if detect_game(DeckSource(str(path), text), default_game()) is not None:
            continue  # a game's deck that happens to look like card data
        root = next(
            (d for d in (path.parent, *path.parent.parents) if formats_path(d) is not None),
            path.parent,
        )
        if folder != root and folder not in root.parents:
            root = path.parent  # a database above the folder given: named by the file's folder
        skipped.setdefault(root, []).append(path)
    said = nmsg(
        "cli",
        "{folder}: skipped {n} file of card data (not a deck; `varz-deck cards lint` checks "
        "card data)",
        "{folder}: skipped {n} files of card data (not decks; `varz-deck cards lint` checks "
        "card data)",
    )
    if len(skipped) and sum(map(len, skipped.values())) < len(found):
        for root, files in skipped.items():
            say(said(folder=str(root), n=len(files)), lang)
    return {path for files in skipped.values() for path in files}


def source_of(deck: Path | DeckSource) -> DeckSource:
    """A deck argument read (once): a file's text, or why it cannot be read."""
    from varz_deck.core.files.source import DeckSource

    return deck if isinstance(deck, DeckSource) else DeckSource.from_path(deck)


def sources(decks: Iterable[Path | DeckSource]) -> Iterator[DeckSource]:
    """Each deck read as it is reached, so a folder of decks is never all in memory at once."""
    for deck in decks:
        yield source_of(deck)


def one_deck(
    arg: Path, lang: str | None = None, exclude: Sequence[str] | None = None
) -> DeckSource:
    """The one deck a single DECK argument names (`-`, a file, a code, a folder of one deck),
    read; exit 2 for a folder of several."""
    decks = deck_arguments([arg], exclude, lang)
    if len(decks) != 1:
        several = nmsg(
            "cli",
            "{folder} holds {n} deck file; give one deck",
            "{folder} holds {n} deck files; give one deck",
        )
        fail(several(folder=str(arg), n=len(decks)), EXIT_USAGE, lang)
    return source_of(decks[0])


# --- Text or JSON output (`sim`, `stats`, `tune`, `verify`, `diff`, `event`) -----------------


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


TextOrJsonOption = Annotated[TextOrJson, typer.Option("--output", "-o", help=N_("Output format."))]
# a report's --output (`sim`, `stats`, `tune`): its text follows --lang, its JSON does not
ReportOutputOption = Annotated[
    TextOrJson, typer.Option("--output", "-o", help=N_("Output format (JSON stays in English)."))
]


# --- The goldfish's options (`sim`, `tune`) ---------------------------------------------------


class On(str, Enum):
    play = "play"
    draw = "draw"


class Mulligan(str, Enum):
    none = "none"
    auto = "auto"


OnOption = Annotated[On, typer.Option("--on", help=N_("Go first (play) or second (draw)."))]


class OpenedDeck(NamedTuple):
    """What a command on one deck starts from (`open_deck`)."""

    lang: str
    day: datetime.date
    source: DeckSource
    database: CardDatabase
    game: Game
    fmt: str | None  # the --plot file's format, when one was given


def open_deck(
    deck: Path,
    date: str | None,
    cards: Path | None,
    game: str | None,
    lang: Lang | None,
    progress: bool = False,
    plot: Path | None = None,
) -> OpenedDeck:
    """The language, the day (--date), the one deck read, the --plot file's format, the database
    to read the deck with and its game; exit 2 at the first that cannot be had, in that order.
    `progress`: the command's output is text (see `load_database`)."""
    chosen = language(lang)
    day = check_date(date, chosen)
    source = one_deck(deck, chosen)
    fmt = plot_format(plot, chosen)
    database = deck_database(source, cards, chosen, game, progress)
    return OpenedDeck(chosen, day, source, database, game_of(database), fmt)


# --- Plot files (`sim`, `stats`, `tune` --plot) ----------------------------------------------

PlotOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--plot", help=N_("Also write the charts to FILE.svg or FILE.png."), show_default=False
    ),
]


def plot_format(plot: Path | None, lang: str) -> str | None:
    """The --plot file's format (its suffix), or exit 2 for a name that is not .svg/.png (or a
    PNG without matplotlib)."""
    if plot is None:
        return None
    from varz_deck.core.analysis.plot import FORMATS

    fmt = plot.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        wrong = msg("sim", "--plot {file}: give a file name ending in .svg or .png")
        fail(wrong(file=str(plot)), EXIT_USAGE, lang)
    if fmt == "png":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            no_png = msg(
                "sim",
                "--plot: PNG needs matplotlib (pip install matplotlib); or write an .svg",
            )
            fail(no_png, EXIT_USAGE, lang)
    return fmt


def write_plot(plot: Path, draw: Callable[[], str | bytes], lang: str) -> None:
    """Draw a chart and write it to the --plot file as every command does: to a temporary file
    in its folder, renamed into place (a symlink at the name is replaced, never followed; no
    half-written file); exit 2 when it cannot be drawn or written."""
    from varz_deck.core.analysis.plot import PlotError
    from varz_deck.core.files.output import write_file_atomic

    try:
        write_file_atomic(plot, draw())
    except PlotError as err:
        fail(err.message, EXIT_USAGE, lang)
    except OSError as err:
        cannot = msg("sim", "cannot write {file}: {error}")
        fail(cannot(file=str(plot), error=err.strerror or str(err)), EXIT_USAGE, lang)


# --- A report's output (`sim`, `stats`, `tune`) ----------------------------------------------


def warn_outcome(outcome: Outcome, lang: str) -> None:
    """A report's warnings on stderr, a line each."""
    for warning in outcome.warnings:
        typer.echo(msg("sim", "warning: {message}")(message=warning).render(lang), err=True)


def write_outcome(
    outcome: Outcome,
    output: TextOrJson,
    plot: Path | None,
    fmt: str | None,
    lang: str,
    day: datetime.date,
    columns: int,
) -> None:
    """A report on stdout: its JSON document (dated), else its text `columns` wide; then its
    charts to the --plot file when one was given."""
    if output is TextOrJson.json:
        from varz_deck.core.messages.sanitize import json_dumps

        sys.stdout.write(json_dumps(dated(outcome.to_json(), day), allow_nan=False) + "\n")
    else:
        sys.stdout.write(outcome.render_text(color=color(), width=columns, lang=lang))
    if plot is not None and fmt is not None:
        write_plot(plot, lambda: outcome.plot(fmt, lang), lang)


# --- Progress: a bar on stderr for work that can take more than a second ------------

_T = TypeVar("_T")
PROGRESS_AFTER = 1.0  # seconds of work before a bar appears: quick runs stay quiet


def stderr_is_terminal() -> bool:
    stream = sys.stderr
    return stream is not None and stream.isatty() and os.environ.get("TERM") != "dumb"


class ProgressBar:
    """A rich progress bar on stderr, called as `bar(done, total)`; it appears only once the work
    has taken more than PROGRESS_AFTER seconds, and is gone (transient) when closed."""

    def __init__(self, label: str = "") -> None:
        import time

        self.label = label
        self._clock = time.monotonic
        self._start = self._clock()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total or self._clock() - self._start < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        if self._task is not None:
            self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def progress_bar(label: Message, lang: str | None, shown: bool = True) -> ProgressBar | None:
    """A bar for text output on a terminal (`shown`: the command's output is text); None when
    stderr is piped or the output is JSON, CSV or SARIF, which no bar may ever mix with."""
    if not shown or not stderr_is_terminal():
        return None
    from varz_deck.core.messages.i18n import choose_language

    return ProgressBar(label.render(lang or choose_language()))


def tracked(items: Sequence[_T], bar: ProgressBar | None) -> Iterator[_T]:
    """Each item, moving the bar (when there is one) as each is taken; closes it at the end."""
    try:
        for done, item in enumerate(items):
            if bar is not None:
                bar(done, len(items))
            yield item
    finally:
        if bar is not None:
            bar.close()


EXIT_UNREADABLE = 1  # a deck that cannot be simulated, tuned or reported on: its problems said


def say_diagnostics(diagnostics: Iterable[Diagnostic], deck: DeckSource, lang: str) -> None:
    """Each diagnostic on stderr, a line each: `FILE:LINE:COLUMN: CODE message` (the deck's name
    for a diagnostic of no file)."""
    from varz_deck.core.messages.i18n import localized
    from varz_deck.core.messages.sanitize import safe

    for d in diagnostics:
        place = f":{d.line}:{d.column}" if d.line else ""
        typer.echo(
            f"{safe(d.file or deck.name)}{place}: {d.code} {safe(localized(d, lang))}", err=True
        )


def unusable(err: DeckUnusable, deck: DeckSource, lang: str) -> NoReturn:
    """The reasons a deck cannot be used (`sim`, `tune`, `stats`, `report`) on stderr, then
    exit 1."""
    say_diagnostics(err.diagnostics, deck, lang)
    if err.message is not None:
        fail(err.message, EXIT_UNREADABLE, lang)
    raise typer.Exit(EXIT_UNREADABLE)
