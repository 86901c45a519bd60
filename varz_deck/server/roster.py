"""The roster's CSV (docs/guides/organiser.md "Roster"): read an organiser's upload, write the links for a mail merge.

An upload is a header naming `name` and `player_id`, and optionally `email`, in any order (case
and spaces around them do not matter), then one player a line: UTF-8 with or without a BOM, CRLF
or LF, fields quoted as spreadsheets quote them. Blank lines are skipped. Every problem is found
(up to MAX_PROBLEMS) with its line and what would fix it; a file with any problem is refused
whole. At most ROW_LIMIT players; the body itself is at most the server's BODY_LIMIT.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from varz_deck.core.messages.i18n import Message, Quoted, msg
from varz_deck.core.messages.sanitize import safe

ROW_LIMIT = 20_000  # players in one roster
ID_LIMIT = 64  # characters of a player id
NAME_LIMIT = 200  # characters of a name (a list's player name has the same limit)
EMAIL_LIMIT = 254
MAX_PROBLEMS = 20
REQUIRED = ("name", "player_id")
COLUMNS = (*REQUIRED, "email")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # as `register --output csv` guards its cells

EMPTY = msg("serve", "the roster is empty: its first line is the header name,player_id (and email)")
NOT_UTF8 = msg("serve", "line {line} is not UTF-8 text: save the file as CSV UTF-8")
NUL = msg(
    "serve", "line {line} holds a NUL character: this is no CSV text; export the roster as CSV"
)
BAD_CSV = msg(
    "serve",
    "line {line} cannot be read as CSV: a quote is not closed; put a field that holds a comma or "
    "a quote in double quotes, doubling its quotes",
)
UNKNOWN_COLUMN = msg(
    "serve", "line {line}: unknown column {column}; the columns are name, player_id and email"
)
MISSING_COLUMN = msg(
    "serve",
    "line {line}: the header has no {column} column; the columns are name, player_id and email",
)
TWICE_COLUMN = msg("serve", "line {line}: the column {column} is named twice; name it once")
TOO_MANY_FIELDS = msg(
    "serve",
    "line {line} has {found} fields but the header has {expected}: put a name that holds a comma "
    "in double quotes",
)
NO_NAME = msg("serve", "line {line}: the name is empty; give each player a name")
LONG_NAME = msg("serve", "line {line}: the name is over {limit} characters; shorten it")
NO_ID = msg("serve", "line {line}: the player id is empty; give each player an id")
LONG_ID = msg("serve", "line {line}: the player id is over {limit} characters; shorten it")
BAD_ID = msg("serve", "line {line}: the player id holds a control character; type it again")
SAME_ID = msg(
    "serve",
    "line {line}: player id {player_id} is already on line {first}; give each player one line",
)
BAD_EMAIL = msg(
    "serve", "line {line}: {email} is not an email address; correct it or leave the field empty"
)
TOO_MANY_ROWS = msg(
    "serve", "line {line}: the roster has more than {limit:,} players; upload at most {limit:,}"
)


@dataclass(frozen=True)
class Player:
    """One line of an upload, cleaned: the name's spaces made one, the id's and email's trimmed."""

    line: int
    name: str
    player_id: str
    email: str


@dataclass(frozen=True)
class Problem:
    line: int  # 0: the whole file
    message: Message


class RosterError(Exception):
    """An upload that cannot be stored: every problem found, in the order of the lines."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0].message.render("en"))
        self.problems = list(problems)


def words(text: str) -> str:
    """Text with its whitespace runs made single spaces, trimmed (names and player ids)."""
    return " ".join(text.split())


def id_problem(player_id: str) -> str | None:
    """Why a (trimmed) player id cannot be kept: "long", "control" (a control or bidi
    character), or None."""
    if len(player_id) > ID_LIMIT:
        return "long"
    if safe(player_id) != player_id:
        return "control"
    return None


def _email_ok(email: str) -> bool:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    try:
        validate_email(email)
    except ValidationError:
        return False
    return len(email) <= EMAIL_LIMIT


def _decoded(data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RosterError([Problem(line, NOT_UTF8(line=line))]) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise RosterError([Problem(line, NUL(line=line))])
    if not text.strip():
        raise RosterError([Problem(0, EMPTY)])
    return text


def _header(cells: Sequence[str], line: int) -> tuple[dict[str, int], list[Problem]]:
    columns: dict[str, int] = {}
    problems = []
    for index, cell in enumerate(cells):
        name = words(cell).lower().replace(" ", "_").replace("-", "_")
        if name not in COLUMNS:
            problems.append(Problem(line, UNKNOWN_COLUMN(line=line, column=Quoted(cell))))
        elif name in columns:
            problems.append(Problem(line, TWICE_COLUMN(line=line, column=Quoted(cell))))
        else:
            columns[name] = index
    for name in REQUIRED:
        if name not in columns and not problems:
            problems.append(Problem(line, MISSING_COLUMN(line=line, column=name)))
    return columns, problems


def _player(
    cells: Sequence[str], columns: dict[str, int], line: int
) -> tuple[Player | None, list[Message]]:
    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index] if index is not None and index < len(cells) else ""

    problems: list[Message] = []
    if len(cells) > len(columns):
        problems.append(TOO_MANY_FIELDS(line=line, found=len(cells), expected=len(columns)))
    name, player_id, email = words(cell("name")), words(cell("player_id")), cell("email").strip()
    if not name:
        problems.append(NO_NAME(line=line))
    elif len(name) > NAME_LIMIT:
        problems.append(LONG_NAME(line=line, limit=NAME_LIMIT))
    wrong = id_problem(player_id)
    if not player_id:
        problems.append(NO_ID(line=line))
    elif wrong == "long":
        problems.append(LONG_ID(line=line, limit=ID_LIMIT))
    elif wrong == "control":
        problems.append(BAD_ID(line=line))
    if email and not _email_ok(email):
        problems.append(BAD_EMAIL(line=line, email=Quoted(email)))
    return (None if problems else Player(line, name, player_id, email)), problems


def read_roster(data: bytes) -> list[Player]:
    """The players of an upload, in its order; RosterError naming every line that is wrong."""
    text = _decoded(data)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: Iterable[list[str]] = reader
    columns: dict[str, int] | None = None
    players: list[Player] = []
    problems: list[Problem] = []
    first_line: dict[str, int] = {}
    count = 0  # the players' lines read
    start = 1
    try:
        for cells in rows:
            line, start = start, reader.line_num + 1  # a quoted field may span lines
            if not any(c.strip() for c in cells):
                continue
            if columns is None:
                columns, found = _header(cells, line)
                problems += found
                if found:
                    break
                continue
            count += 1
            if count > ROW_LIMIT:
                problems.append(Problem(line, TOO_MANY_ROWS(line=line, limit=ROW_LIMIT)))
                break
            player, wrong = _player(cells, columns, line)
            problems += [Problem(line, message) for message in wrong]
            if player is not None:
                seen = first_line.setdefault(player.player_id, line)
                if seen != line:
                    shown = Quoted(player.player_id)
                    problems.append(Problem(line, SAME_ID(line=line, player_id=shown, first=seen)))
                else:
                    players.append(player)
            if len(problems) >= MAX_PROBLEMS:
                break
    except csv.Error:
        problems.append(Problem(start, BAD_CSV(line=start)))
    if columns is None and not problems:
        problems.append(Problem(0, EMPTY))
    if problems:
        raise RosterError(problems[:MAX_PROBLEMS])
    return players


def csv_cell(value: object) -> str:
    """A cell the server writes: controls made visible, and never the start of a formula."""
    text = safe(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def links_csv(rows: Iterable[tuple[str, str, str, str]]) -> str:
    """The mail merge's CSV: `name,player_id,email,link`, one row per player (LF rows)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["name", "player_id", "email", "link"])
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return buffer.getvalue()
