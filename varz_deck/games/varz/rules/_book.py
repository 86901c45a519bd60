"""The VARZ rulebook every rule module registers on (rules/__init__.py imports them all): the
rules no declaration can say (the declared ones are in declaration.py).

A rule registers with `rule(...)(check)` right after its function, not as a decorator: mutation
testing (scripts/mutation.py) skips decorated functions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.rulebook import Check, Rulebook
from varz_deck.games.varz.cards import pooled_portals
from varz_deck.games.varz.view import VarzView

RULEBOOK: Rulebook[VarzView] = Rulebook()
RULES = RULEBOOK.rules


def rule(
    code: str,
    name: str,
    section: str,
    *,
    needs_hero: bool = False,
    portal_rule: bool = False,
    format_rule: bool = False,
    severity: Severity = Severity.ERROR,
    fix: str = "",
) -> Callable[[Check[VarzView]], Check[VarzView]]:
    """Register a VARZ rule, the owner of its code (docs/reference/rules/: hero rules need a hero, portal rules
    constructed portals, format rules a known format)."""
    when = partial(applies, needs_hero=needs_hero, portal_rule=portal_rule, format_rule=format_rule)
    return RULEBOOK.rule(code, name, section, when=when, severity=severity, fix=fix)


def applies(view: VarzView, *, needs_hero: bool, portal_rule: bool, format_rule: bool) -> bool:
    """Whether a rule of this kind runs on the deck (a module-level function, called when a deck
    is checked, so mutation testing reaches it)."""
    if needs_hero and view.hero is None:
        return False
    if portal_rule and pooled_portals(view.format):
        return False
    return not (format_rule and not view.format_known)
