"""The server's settings: card database, format, language and date (docs/guides/editors.md, docs/guides/card-data.md).

The editor sends them as `initializationOptions` or in `workspace/didChangeConfiguration`, flat
(`{"varz-deck.cards": DIR, "varz-deck.format": NAME}`) or nested (`{"varz-deck": {"cards": DIR}}`).
The card database is `varz-deck lsp --cards DIR` when given, else the editor's `varz-deck.cards`,
else `VARZ_DECK_CARDS`, else the bundled one; the language is the editor's `varz-deck.lang`, else
the client's locale, else `VARZ_DECK_LANG` and the environment's locale (as the command line);
the date every deck is checked as of is the editor's `varz-deck.date` (YYYY-MM-DD), else today.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, replace
from pathlib import Path

from varz_deck.core.messages.i18n import Message, msg

PREFIX = "varz-deck"
KEYS = ("cards", "format", "lang", "date")
_NOT_A_DATE = msg(
    "lsp",
    "the setting varz-deck.date {date} is not a date (write it YYYY-MM-DD); checking as of today",
)


@dataclass(frozen=True)
class Settings:
    """What the editor asked for (None: not said)."""

    cards: str | None = None
    format: str | None = None
    lang: str | None = None
    date: str | None = None


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def read_settings(options: object, base: Settings | None = None) -> Settings:
    """The settings in an editor's options object, over `base` (keys it does not name stay).

    Anything malformed is passed over: settings never stop the server.
    """
    settings = base or Settings()
    if not isinstance(options, dict):
        return settings
    found: dict[str, object] = {}
    nested = options.get(PREFIX)
    if isinstance(nested, dict):
        found.update({k: nested[k] for k in KEYS if k in nested})
    found.update({k: options[f"{PREFIX}.{k}"] for k in KEYS if f"{PREFIX}.{k}" in options})
    if "settings" in options and not found:  # some clients wrap the object once more
        return read_settings(options["settings"], base)
    changes = {k: _text(v) for k, v in found.items()}
    if found.get("date") is not None and not isinstance(found["date"], str):
        changes["date"] = str(found["date"])[:40]  # not text: said to be no date, not passed over
    return replace(settings, **changes)


def database_folder(
    command_line: Path | None, settings: Settings, workspace: Path | None
) -> Path | None:
    """The card database folder the user named (None: the bundled one of the deck's game).

    A relative `varz-deck.cards` is taken from the workspace folder when there is one."""
    if command_line is not None:
        return command_line
    if settings.cards is not None:
        folder = Path(os.path.expanduser(settings.cards))
        if not folder.is_absolute() and workspace is not None:
            folder = workspace / folder
        return folder
    from varz_deck.games.library import named_root

    return named_root()


def check_date(settings: Settings) -> tuple[datetime.date | None, Message | None]:
    """The day decks are checked as of (None: today, on each check) and, for a setting that is
    not a YYYY-MM-DD day, the warning to show (the check is then as of today)."""
    from varz_deck.core.dates import parse_date

    if settings.date is None:
        return None, None
    day = parse_date(settings.date)
    return day, (_NOT_A_DATE(date=repr(settings.date)) if day is None else None)


def language(settings: Settings, locale: str | None) -> str:
    """en, ja or zh: the setting, else the client's locale, else as the command line chooses."""
    from varz_deck.core.messages.i18n import choose_language, normalize_language

    for wanted in (settings.lang, locale):
        chosen = normalize_language(wanted)
        if chosen:
            return chosen
    return choose_language()
