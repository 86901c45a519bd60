"""The Azuki rulebook every rule module registers on (rules/__init__.py imports them all).

A rule registers with `rule(...)(check)` right after its function, not as a decorator: mutation
testing (scripts/mutation.py) skips decorated functions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.rulebook import Check, Rulebook
from varz_deck.games.azuki.deck import AzukiView

RULEBOOK: Rulebook[AzukiView] = Rulebook()
RULES = RULEBOOK.rules


def rule(
    code: str,
    name: str,
    section: str,
    *,
    needs_leader: bool = False,
    format_rule: bool = False,
    severity: Severity = Severity.ERROR,
    fix: str = "",
) -> Callable[[Check[AzukiView]], Check[AzukiView]]:
    """Register an Azuki rule (leader rules need a usable Leader, format rules a known format)."""
    when = partial(applies, needs_leader=needs_leader, format_rule=format_rule)
    return RULEBOOK.rule(code, name, section, when=when, severity=severity, fix=fix)


def applies(view: AzukiView, *, needs_leader: bool, format_rule: bool) -> bool:
    """Whether a rule of this kind runs on the deck (a module-level function, called when a deck
    is checked, so mutation testing reaches it)."""
    if needs_leader and view.leader is None:
        return False
    return not (format_rule and not view.format_known)
