"""VARZ's own rules, what no declaration can say: one small function per code, registered with
its name and section on `RULEBOOK`. The game runs them with the declared checks (declaration.py),
in code order; `varz-deck rules` lists them all.

Every rule reads a VarzView and yields diagnostics.
"""

from __future__ import annotations

from varz_deck.games.varz.rules import portals, skills, spells
from varz_deck.games.varz.rules._book import RULEBOOK, rule

RULES = RULEBOOK.rules  # the rule modules above registered themselves on import

__all__ = ["RULEBOOK", "RULES", "portals", "rule", "skills", "spells"]
