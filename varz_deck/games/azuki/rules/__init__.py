"""Azuki's own deck-building rules (rules page, "Deck building"), what no declaration can say:
the IKZ deck's 10 IKZ and 1 IKZ Token (A104) and the Leader's element (A105). The rest (A101-A103,
A106-A108, A201) is declared (declaration.py) and checked by the core.

Every rule reads the core's `DeckView` and yields diagnostics; `RULEBOOK` holds them (the modules
register on import) and the game runs it with the declared checks, in code order.
"""

from __future__ import annotations

from varz_deck.games.azuki.rules import elements, ikz
from varz_deck.games.azuki.rules._book import RULEBOOK
from varz_deck.games.azuki.rules.ikz import IKZ_COUNT, TOKEN_COUNT

__all__ = ["IKZ_COUNT", "RULEBOOK", "TOKEN_COUNT", "elements", "ikz"]
