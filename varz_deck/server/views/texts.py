"""Every text the pages show: `msg(...)` entries (context "page"), and `Texts`, the page words
of one language that templates read as `{{ t.key }}`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from varz_deck.core.messages.i18n import Message, msg, nmsg

# Every word the pages show (context "page"); templates read them as {{ t.key }}.
TEXTS: dict[str, Message] = {
    "app": msg("page", "Deck registration"),
    "language": msg("page", "Language"),
    "back": msg("page", "Back"),
    "player": msg("page", "Player"),
    "player_name": msg("page", "Your name"),
    "their_name": msg("page", "Player's name"),  # the organiser's form for a player
    "deck_list": msg("page", "Deck list"),
    "deck_hint": msg(
        "page",
        "Paste the list as a YAML deck file, a .txt list or a deck code. It is checked as you type.",
    ),
    "or_upload": msg("page", "Or upload the file"),
    "messages_language": msg("page", "Language of the messages"),
    "checking": msg("page", "Checking…"),
    "check_failed": msg("page", "The list could not be checked now; submit it to see the result."),
    "your_list": msg("page", "Your deck list"),
    "saved": msg("page", "Your list is stored."),
    "deck_hash": msg("page", "Deck hash"),
    "figures": msg("page", "Figures: curve, odds per card, best swaps (the varz-deck report page)"),
    "submitted": msg("page", "Submitted"),
    "status": msg("page", "Status"),
    "private_link": msg("page", "Your private link"),
    "private_link_hint": msg(
        "page",
        "Keep this link: it shows your list and lets you replace it until the deadline. "
        "Anyone with the link can do the same.",
    ),
    "registered_list": msg("page", "Registered list"),
    "versions": msg("page", "Versions"),
    "replace_list": msg("page", "Replace the list"),
    "replace_button": msg("page", "Replace the list"),
    "dashboard": msg("page", "Organiser's dashboard"),
    "lock": msg("page", "Lock submissions"),
    "unlock": msg("page", "Unlock submissions"),
    "publish": msg("page", "Publish the lists"),
    "unpublish": msg("page", "Unpublish the lists"),
    "withdraw": msg("page", "Withdraw the list"),
    "restore": msg("page", "Restore"),
    "cancel": msg("page", "Cancel"),
    "actions": msg("page", "Actions"),
    "withdrawn_lists": msg("page", "Withdrawn lists"),
    "withdrawn_at": msg("page", "Withdrawn"),
    "print_sheets": msg("page", "Print all sheets"),
    "export_csv": msg("page", "Export CSV"),
    "judge_page": msg("page", "Judge's page"),
    "submit_for_player": msg("page", "Submit a list for a player"),
    "public_page": msg("page", "Public lists"),
    "submission_link": msg("page", "Players submit at"),
    "metagame": msg("page", "Metagame"),
    "players": msg("page", "Players"),
    "legal": msg("page", "Legal"),
    "not_legal": msg("page", "Not legal"),
    "lists": msg("page", "Deck lists"),
    "errors": msg("page", "Errors"),
    "no_lists": msg("page", "No list has been submitted yet."),
    "back_dashboard": msg("page", "Back to the dashboard"),
    "choose_player": msg("page", "Player"),
    "or_hash": msg("page", "or deck hash"),
    "show_list": msg("page", "Show the list"),
    "compare": msg("page", "Compare with the presented list"),
    "presented_list": msg("page", "The list as presented (YAML, .txt list or deck code)"),
    "compare_button": msg("page", "Compare"),
    "public_lists": msg("page", "Published deck lists"),
    "roster": msg("page", "Roster"),
    "roster_page": msg("page", "Roster and personal links"),
    "roster_upload": msg("page", "Upload the roster"),
    "roster_hint": msg(
        "page",
        "A CSV file with the columns name and player_id, and optionally email, in any order. "
        "Uploading again updates the players already on the roster and adds the new ones; "
        "players missing from the file are kept.",
    ),
    "roster_file": msg("page", "Roster file (CSV)"),
    "roster_text": msg("page", "Or paste it"),
    "export_links": msg("page", "Export the links (CSV)"),
    "missing_lists": msg("page", "Missing lists"),
    "no_missing": msg("page", "Every player on the roster has submitted a list."),
    "not_on_roster": msg("page", "Lists not on the roster"),
    "not_on_roster_badge": msg("page", "not on the roster"),
    "player_id": msg("page", "Player ID"),
    "player_id_optional": msg("page", "Player ID (if you have one)"),
    "email": msg("page", "Email"),
    "personal_link": msg("page", "Personal link"),
    "missing": msg("page", "Missing"),
    "audit": msg("page", "Audit log"),
    "time": msg("page", "Time"),
    "action": msg("page", "Action"),
    "detail": msg("page", "Detail"),
    "no_audit": msg("page", "No organiser action yet."),
}
SUBMIT_HEADING = msg("page", "Submit your deck list")
SUBMIT_BUTTON = msg("page", "Submit the list")
ORGANISER_HEADING = msg("page", "Submit a list for a player")
ORGANISER_BUTTON = msg("page", "Submit for this player")
LEGAL = msg("page", "Legal")
NOT_LEGAL = msg("page", "Not legal")
N_ERRORS = nmsg("page", "{n} error", "{n} errors")
N_WARNINGS = nmsg("page", "{n} warning", "{n} warnings")
N_LISTS = nmsg("page", "{n} list", "{n} lists")
N_LEGAL = nmsg("page", "{n} legal", "{n} legal")
GAME_FORMAT = msg("page", "{game} · format {format}")
GAME_ANY_FORMAT = msg("page", "{game} · each deck's own format")
DEADLINE = msg("page", "deadline {deadline}")
NO_DEADLINE = msg("page", "no deadline")
REQUIRED = msg("page", "lists required")
OPTIONAL = msg("page", "lists accepted, not required")
STATE_OPEN = msg("page", "open")
STATE_LOCKED = msg("page", "locked")
STATE_CLOSED = msg("page", "deadline passed")
STATE_PUBLISHED = msg("page", "published")
CLOSED_LOCKED = msg(
    "page", "The organiser has locked submissions: the list can no longer be changed."
)
CLOSED_AT = msg("page", "Submissions closed at {time}: the list can no longer be changed.")
CLOSED_WITHDRAWN = msg("page", "The list cannot be replaced while it is withdrawn.")
WITHDRAWN_NOTICE = msg("page", "This list was withdrawn by the organiser.")
NOT_RESTORED = msg("page", "The list was not restored")
CLAIMED_WITHOUT_LINK = msg("page", "claimed {player_id} without the personal link")
MORE_LINES = nmsg("page", "and {n:,} more line, not shown", "and {n:,} more lines, not shown")
MORE_PROBLEMS = nmsg(
    "page", "and {n:,} more problem, not shown", "and {n:,} more problems, not shown"
)
DECK_NOT_SHOWN = msg(
    "page",
    "This list is {size:,} bytes, too long to show here; paste or upload the list that "
    "replaces it.",
)
NOT_STORED = msg("page", "Your list was not stored; it is kept below, so you can copy it.")
HOME = msg(
    "page",
    "Players: open the submission link of your event. Organisers: open the sign-in link that "
    "`event create` printed.",
)
NO_FIGURES_HEADING = msg("page", "No figures for this list")
NO_FIGURES = msg(
    "page", "The list cannot be read as a deck, so there are no figures. Fix the list first."
)
NOT_FOUND_HEADING = msg("page", "Not found")
NOT_FOUND = msg("page", "There is nothing here. Check the link you were given.")
NOT_SIGNED_IN_HEADING = msg("page", "Sign in first")
NOT_SIGNED_IN = msg(
    "page", "This page is the organiser's: open the organiser link that `event create` printed."
)
NO_DECK = msg("page", "Paste your list or choose a file.")
NOT_TEXT = msg("page", "The file is not UTF-8 text; save it as UTF-8 and upload it again.")
TOO_LONG = msg("page", "The list is over {limit:,} bytes; a deck list is far smaller.")
DONE_LOCKED = msg("page", "Submissions are locked.")
DONE_UNLOCKED = msg("page", "Submissions are open again.")
DONE_PUBLISHED = msg("page", "The lists are published.")
DONE_UNPUBLISHED = msg("page", "The lists are no longer public.")
DONE_WITHDRAWN = msg("page", "The list is withdrawn.")
DONE_RESTORED = msg("page", "The list is restored.")
STORED_NOT_LEGAL = nmsg(
    "page",
    "Your list is stored, but it is not legal: {n} error.",
    "Your list is stored, but it is not legal: {n} errors.",
)
# the confirmation pages (no script: a page whose form does the action)
CONFIRM_LOCK = msg(
    "page",
    "Lock submissions of {event}? Players can no longer submit or replace their lists until "
    "you unlock them.",
)
CONFIRM_PUBLISH = msg(
    "page", "Publish every list of {event}? Everyone with the link will see them."
)
CONFIRM_PUBLISH_OPEN = msg(
    "page",
    "Submissions are still open: a list submitted or replaced from now on is public at once. "
    "Lock submissions first unless that is what you want.",
)
CONFIRM_UNPUBLISH = msg(
    "page",
    "Unpublish the lists of {event}? The public page is gone until you publish them again.",
)
CONFIRM_WITHDRAW = msg(
    "page",
    "Withdraw the list of {player}? It is kept, with its versions, but leaves the CSV, the "
    "sheets, the metagame and the public lists until you restore it.",
)
FLASH_LINK_TEXT = msg("page", "The player's private link (shown once; give it to the player):")
NO_LEAD = msg("page", "(none)")
JUDGE_NONE = msg("page", "No list matches {query}.")
JUDGE_SEVERAL = msg("page", "Several lists match; choose the player.")
SAME_DECK = msg("page", "Same deck: the presented list is the registered one.")
DIFFERENT_DECK = msg("page", "Different deck: see every difference below.")
CANNOT_COMPARE = msg("page", "The presented list cannot be compared; its problems:")
REGISTERED = msg("page", "Registered")  # the judge's comparison: its count columns
PRESENTED_COUNT = msg("page", "Presented")
VERSION_BY_ORGANISER = msg("page", "{status} (by the organiser)")
ROSTER_COUNTS = msg(
    "page", "{missing} missing · {legal} legal · {illegal} illegal · {off} not on the roster"
)
NO_ROSTER = msg(
    "page",
    "No roster yet: upload one to see who is missing and to give each player a personal link.",
)
ROSTER_STORED = nmsg(
    "page", "Roster stored: {n} player ({new} new).", "Roster stored: {n} players ({new} new)."
)
ROSTER_STORED_KEPT = nmsg(
    "page",
    "Roster stored: {n} player ({new} new, {kept} not in this file: kept).",
    "Roster stored: {n} players ({new} new, {kept} not in this file: kept).",
)
ROSTER_REFUSED = msg("page", "The roster was not stored; correct these lines and upload it again:")
NO_ROSTER_GIVEN = msg("page", "Choose the roster file or paste it.")
ROSTER_TOO_LONG = msg("page", "The roster is over {limit:,} bytes.")
AUDIT_ACTIONS = {
    "lock": msg("page", "Locked"),
    "unlock": msg("page", "Unlocked"),
    "publish": msg("page", "Published"),
    "unpublish": msg("page", "Unpublished"),
    "withdraw": msg("page", "List withdrawn"),
    "restore": msg("page", "List restored"),
    "submit": msg("page", "List submitted for a player"),
    "replace": msg("page", "List replaced"),
    "roster": msg("page", "Roster uploaded"),
}


class Texts(Mapping[str, str]):
    """The page words in one language, for templates (`{{ t.key }}`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._cache: dict[str, str] = {}

    def __getitem__(self, key: str) -> str:
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = TEXTS[key].render(self.lang)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(TEXTS)

    def __len__(self) -> int:
        return len(TEXTS)
