"""The IKZ deck: 10 IKZ and 1 IKZ Token (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import msg
from varz_deck.games.azuki.cards import AzukiCard
from varz_deck.games.azuki.declaration import DECK_BUILDING
from varz_deck.games.azuki.rules._book import RULEBOOK

IKZ_COUNT = 10
TOKEN_COUNT = 1


def ikz_count_wrong(view: DeckView[AzukiCard]) -> Iterator[Diagnostic]:
    """The IKZ area has exactly 10 IKZ and 1 IKZ Token.

    Legal:   ikz: {IKZ: 10, IKZ Token: 1}
    Illegal: ikz: {IKZ: 9, IKZ Token: 1}
    """
    if not view.counted("ikz"):
        return
    if any(slot.card is None for slot in view.slots["ikz"]):
        return  # an unknown or misplaced card is reported already
    ikz = sum(entry.count for card, entry in view.resolved("ikz") if card.type == "ikz")
    tokens = sum(entry.count for card, entry in view.resolved("ikz") if card.type == "ikz_token")
    if (ikz, tokens) != (IKZ_COUNT, TOKEN_COUNT):
        message = msg(
            "A104",
            "the deck has {ikz} IKZ and {tokens} IKZ Token; it must have exactly {want} IKZ "
            "and {want_tokens} IKZ Token",
        )
        yield diag(
            "A104",
            message(ikz=ikz, tokens=tokens, want=IKZ_COUNT, want_tokens=TOKEN_COUNT),
            view.deck.section_marks.get("ikz"),
            file=view.deck.path,
            section="ikz",
        )


RULEBOOK.rule(
    "A104",
    "ikz-count-wrong",
    DECK_BUILDING,
    fix="Make the ikz section exactly 10 IKZ and 1 IKZ Token.",
)(ikz_count_wrong)
