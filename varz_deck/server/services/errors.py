"""The services' errors: each carries its HTTP status, a stable code and a translatable message."""

from __future__ import annotations

from varz_deck.core.messages.i18n import Message, msg, nmsg
from varz_deck.server.roster import RosterError


class ServiceError(Exception):
    """A request that cannot be done: its HTTP status, a stable code, a translatable message."""

    status = 400
    code = "bad_request"

    def __init__(self, message: Message, code: str | None = None) -> None:
        super().__init__(message.render("en"))
        self.message = message
        if code is not None:
            self.code = code


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class Closed(ServiceError):
    status, code = 409, "closed"  # "deadline_passed", "locked" or "withdrawn"


class Invalid(ServiceError):
    status, code = 422, "invalid"


class Claimed(ServiceError):
    """A player id this submission may not take (409): "player_id_rostered" (a rostered
    player's id, taken only through their personal link or by the organiser) or
    "player_id_taken" (the id already has a list: its private link replaces it)."""

    status, code = 409, "player_id_taken"


class Oversized(ServiceError):
    """A list far over its game's section sizes (413 `deck_too_large`)."""

    status, code = 413, "deck_too_large"


NO_EVENT = msg("serve", "there is no such event")
NO_DECKLIST = msg("serve", "there is no such decklist")
NO_TOKEN = msg("serve", "this needs the organiser token: send Authorization: Bearer TOKEN")
WRONG_TOKEN = msg("serve", "this token is not the organiser token of this event")
DEADLINE_PASSED = msg("serve", "the deadline has passed; submissions are closed")
LOCKED = msg("serve", "the organiser has locked this event; submissions are closed")
NO_PLAYER = msg("serve", "the player's name is missing")
LONG_PLAYER = msg("serve", "the player's name is over {limit} characters")
NOT_PUBLISHED = msg("serve", "the lists of this event are not published")
WITHDRAWN = msg(
    "serve", "the organiser has withdrawn this list; it cannot be replaced unless restored"
)


OTHER_GAME = msg("F010", "this list is for {game}; this event is for {mine}")
PLAYER_ID_ROSTERED = msg(
    "serve",
    "player id {player_id} is on this event's roster: submit your list through your personal "
    "link (the organiser sent it to you), or ask the organiser",
)


PLAYER_ID_TAKEN = msg(
    "serve",
    "player id {player_id} already has a list in this event: open the private link you got when "
    "you submitted it to see or replace it, or ask the organiser",
)


PLAYER_ID_TAKEN_NOW = msg(
    "serve",
    "player id {player_id} has another list in this event now: withdraw that list first, then "
    "restore this one",
)


DECK_TOO_LARGE = msg(
    "serve",
    "the {section} section has {n:,} cards, far over the {size} it needs; a list takes at most "
    "{most} ({factor} × {size}): remove cards (F003 marks a card listed on more than one line)",
)


UNKNOWN_LANG = msg("serve", "unknown language {lang}; choose en, ja or zh")
LONG_PLAYER_ID = msg("serve", "the player id is over {limit} characters")
BAD_PLAYER_ID = msg("serve", "the player id holds a control character")
ROSTER_NOT_STORED = msg("serve", "nothing was stored: {problem}")
ROSTER_NOT_STORED_MORE = nmsg(
    "serve",
    "nothing was stored: {problem} (and {n} more problem)",
    "nothing was stored: {problem} (and {n} more problems)",
)


ROSTER_TOO_LARGE = msg("serve", "the roster is over {limit:,} bytes; upload at most {limit:,}")
ROSTER_TYPE = msg("serve", "send the roster as text/csv, UTF-8, with the header name,player_id")


class RosterInvalid(Invalid):
    """An upload refused whole (422): every problem with its line (RosterError's)."""

    code = "invalid_roster"

    def __init__(self, error: RosterError) -> None:
        first, more = error.problems[0].message, len(error.problems) - 1
        message = (
            ROSTER_NOT_STORED_MORE(problem=first, n=more)
            if more
            else ROSTER_NOT_STORED(problem=first)
        )
        super().__init__(message)
        self.problems = error.problems


class TooLarge(ServiceError):
    status, code = 413, "too_large"
