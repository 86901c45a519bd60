"""The Hero card (rulebook 2.1, 3-2 ❶)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import msg
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.rules._book import rule


def hero_missing(view: DeckView) -> Iterator[Diagnostic]:
    """A deck names exactly one Hero card.

    Legal:   hero: Matsuri
    Illegal: (no hero key, or `hero:` left empty)
    """
    if view.deck.hero is None:
        yield diag(
            "V101",
            msg("V101", "no hero; a deck has exactly one Hero card: add `hero: NAME`"),
            view.deck.hero_key_mark,
            file=view.deck.path,
            section="hero",
        )


rule(
    "V101",
    "hero-missing",
    "2.1, 3-2 ❶",
    fix="Add `hero: NAME` naming one Hero card.",
)(hero_missing)
