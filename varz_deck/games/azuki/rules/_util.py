"""Small helpers the rule modules share."""

from __future__ import annotations

from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import Message
from varz_deck.games.azuki.deck import AzukiView


def at_key(view: AzukiView, code: str, message: Message, key: str) -> Diagnostic:
    """A diagnostic placed at a pick's key, else at the section's key."""
    pick = view.deck.picks.get(key)
    mark: Mark | None = pick.key_mark if pick else view.deck.section_marks.get(key)
    return diag(code, message, mark, file=view.deck.path, section=key)
