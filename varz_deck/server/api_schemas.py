"""The JSON API's request and answer schemas (django-ninja's pydantic models): the OpenAPI
document's components, /api/v1/openapi.json."""

from __future__ import annotations

from typing import Any, Literal, Optional

from ninja import Field, Schema

from varz_deck.server.config import BODY_LIMIT
from varz_deck.server.roster import ID_LIMIT
from varz_deck.server.services.lists import PLAYER_LIMIT

Lang = Optional[Literal["en", "ja", "zh"]]  # noqa: UP045 (pydantic reads it at run time)


class ErrorDetail(Schema):
    code: str
    message: str


class ErrorOut(Schema):
    error: ErrorDetail


# a character that is not whitespace as Python's str.split() sees it: the name the server keeps
# is the player's words joined by single spaces, so a name of spaces alone is no name
NOT_ONLY_SPACES = "[^\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"


class SubmitIn(Schema):
    player: str = Field(..., max_length=PLAYER_LIMIT, pattern=NOT_ONLY_SPACES)
    deck: str = Field(..., max_length=BODY_LIMIT)
    lang: Lang = None
    # matches the list to the roster entry of this id (docs/guides/organiser.md "Roster")
    player_id: Optional[str] = Field(None, max_length=ID_LIMIT)  # noqa: UP045


class DeckIn(Schema):
    deck: str = Field(..., max_length=BODY_LIMIT)
    lang: Lang = None


class Diagnostic(Schema):
    code: str
    severity: str
    message: str
    message_localized: Optional[str] = None  # noqa: UP045
    section: Optional[str] = None  # noqa: UP045
    card: Optional[str] = None  # noqa: UP045
    line: Optional[int] = None  # noqa: UP045
    column: Optional[int] = None  # noqa: UP045


class SubmitOut(Schema):
    id: int
    edit_token: str
    private_url: str
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    diagnostics: list[Diagnostic]


class CheckOut(Schema):
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    diagnostics: list[Diagnostic]


class VersionOut(Schema):
    version: int
    submitted_at: str
    deck_hash: Optional[str]  # noqa: UP045
    legal: bool
    by_organiser: bool


class DecklistOut(Schema):
    id: int
    event: str
    player: str
    deck: str
    submitted_at: Optional[str]  # noqa: UP045
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    diagnostics: list[Diagnostic]
    versions: list[VersionOut]
    changed_since_submitted: bool  # the current verdict is not the one given at submission
    changed_at: Optional[str]  # noqa: UP045
    withdrawn: bool
    withdrawn_at: Optional[str]  # noqa: UP045


class ReplaceOut(Schema):
    id: int
    version: int
    submitted_at: str
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    diagnostics: list[Diagnostic]


class RowOut(Schema):
    id: int
    player: str
    submitted_at: str
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    errors: list[str]
    warnings: list[str]
    versions: int
    lead: str
    changed_since_submitted: bool
    withdrawn: bool
    withdrawn_at: Optional[str]  # noqa: UP045


CSV_ANSWER = {"responses": {200: {"description": "CSV", "content": {"text/csv": {"schema": {}}}}}}


class AuditOut(Schema):
    action: str
    at: str
    decklist: Optional[int]  # noqa: UP045
    detail: str


class EventOut(Schema):
    event: str
    name: str
    game: str
    format: Optional[str]  # noqa: UP045
    deadline: Optional[str]  # noqa: UP045
    date: str  # the day the event is played, YYYY-MM-DD
    timezone: str  # the event's IANA zone: every time is given with its offset
    requires_lists: bool
    locked: bool
    published: bool
    open: bool
    submit_url: str


class PublicOut(Schema):
    id: int
    player: str
    legal: bool
    deck_hash: Optional[str]  # noqa: UP045
    cards: Optional[dict[str, Any]]  # noqa: UP045


class RosterUploadOut(Schema):
    players: int
    new: int
    updated: int
    not_in_file: int


class RosterProblemOut(Schema):
    line: int
    message: str


class RosterErrorDetail(Schema):
    code: str
    message: str
    problems: list[RosterProblemOut]  # every wrong line found


class RosterErrorOut(Schema):
    error: RosterErrorDetail


class RosterOut(Schema):
    name: str
    player_id: Optional[str]  # noqa: UP045
    email: Optional[str]  # noqa: UP045
    link: Optional[str]  # noqa: UP045
    status: Literal["missing", "legal", "illegal"]
    list: Optional[int]  # noqa: UP045
    submitted_at: Optional[str]  # noqa: UP045
    on_roster: bool
    # a list not on the roster: the rostered id it named before that player's own link took it
    claimed_player_id: Optional[str] = None  # noqa: UP045


class MetagameOut(Schema):
    lead: str
    lists: int
    legal: int
    share: float
