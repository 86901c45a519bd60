"""`varz-deck manage COMMAND …`: Django's management commands (migrate, showmigrations,
check --deploy, dbshell, createcachetable…) on the server's settings module,
`varz_deck.server.settings` (read from the environment), from the `server` extra.

Exit codes: those of the command (0, 1 for its errors); 2 without the extra or for a setting
that cannot be used.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Annotated, Optional

import typer

from varz_deck.cli.common import EXIT_USAGE, DatabaseOption, fail, language
from varz_deck.core.messages.i18n import N_, msg

MANAGE_HELP = N_(
    "Run a Django management command on the registration server's settings, e.g. migrate, "
    "showmigrations, check --deploy (the settings come from the environment)."
)
# what follows the command is the command's own (`manage migrate --plan`, `manage check --help`)
CONTEXT_SETTINGS = {
    "manage": {
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "allow_interspersed_args": False,
    }
}
SETTINGS_MODULE = "varz_deck.server.settings"
_MISSING = msg(
    "cli",
    "the registration server needs Django, django-ninja, gunicorn and psycopg: "
    "in a clone of varz-deck, pip install '.[server]'",
)
_BAD_SETTINGS = msg("serve", "the server's settings cannot be used: {error}")


def manage(
    ctx: typer.Context,
    command: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            help=N_("The management command (none: the list of commands)."),
            show_default=False,
        ),
    ] = None,
    database: DatabaseOption = None,
) -> None:
    """Run a Django management command on the registration server's settings."""
    chosen = language(None)
    if importlib.util.find_spec("django") is None or importlib.util.find_spec("ninja") is None:
        fail(_MISSING, EXIT_USAGE, chosen)
    if database:
        os.environ["VARZ_DECK_DATABASE"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS_MODULE)
    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        django.setup()
    except ImproperlyConfigured as err:
        fail(_BAD_SETTINGS(error=str(err)), EXIT_USAGE, chosen)
    execute_from_command_line(["varz-deck manage", *([command] if command else []), *ctx.args])
