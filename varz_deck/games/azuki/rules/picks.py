"""The Leader and the Gate: one card each (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import msg
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules._book import rule
from varz_deck.games.azuki.rules._util import at_key


def leader_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """A deck has exactly one Leader.

    Legal:   leader: Shao
    Illegal: (no leader key, or `leader:` left empty)
    """
    pick = view.deck.picks.get("leader")
    if pick is None or pick.ref is None:
        yield at_key(
            view,
            "A101",
            msg("A101", "no Leader; a deck has exactly one Leader card: add `leader: NAME`"),
            "leader",
        )


rule(
    "A101",
    "leader-count-wrong",
    "Deck building",
    fix="Add `leader: NAME` naming one Leader card.",
)(leader_count_wrong)


def gate_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """A deck has exactly one Gate.

    Legal:   gate: Hydromancy Gate
    Illegal: (no gate key, or `gate:` left empty)
    """
    pick = view.deck.picks.get("gate")
    if pick is None or pick.ref is None:
        yield at_key(
            view,
            "A102",
            msg("A102", "no Gate; a deck has exactly one Gate card: add `gate: NAME`"),
            "gate",
        )


rule(
    "A102",
    "gate-count-wrong",
    "Deck building",
    fix="Add `gate: NAME` naming one Gate card.",
)(gate_count_wrong)
