"""The rulebook of Azuki's own rules, what no declaration can say (rules/__init__.py imports them
all); the declared checks are the core's (declaration.py).

A rule registers with `RULEBOOK.rule(...)(check)` right after its function, not as a decorator:
mutation testing (scripts/mutation.py) skips decorated functions.
"""

from __future__ import annotations

from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.rulebook import Rulebook
from varz_deck.games.azuki.cards import AzukiCard

RULEBOOK: Rulebook[DeckView[AzukiCard]] = Rulebook()


def leader_known(view: DeckView[AzukiCard]) -> bool:
    """A rule's `when`: the deck's Leader is known (the rules that read it)."""
    return view.lead is not None
