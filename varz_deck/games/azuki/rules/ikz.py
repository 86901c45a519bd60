"""The IKZ area: 10 IKZ and 1 IKZ Token (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import msg
from varz_deck.games.azuki.deck import AzukiView
from varz_deck.games.azuki.rules._book import rule
from varz_deck.games.azuki.rules._util import at_key

IKZ_COUNT = 10
TOKEN_COUNT = 1


def ikz_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """The IKZ area has exactly 10 IKZ and 1 IKZ Token.

    Legal:   ikz: {IKZ: 10, IKZ Token: 1}
    Illegal: ikz: {IKZ: 9, IKZ Token: 1}
    """
    if "ikz" in view.deck.uncounted:
        return
    slots = view.slots["ikz"]
    if any(slot.card is None for slot in slots):
        return  # an unknown or misplaced card is reported already
    ikz = sum(s.entry.count for s in slots if s.card is not None and s.card.type == "ikz")
    tokens = sum(s.entry.count for s in slots if s.card is not None and s.card.type == "ikz_token")
    if (ikz, tokens) != (IKZ_COUNT, TOKEN_COUNT):
        yield at_key(
            view,
            "A104",
            msg(
                "A104",
                "the deck has {ikz} IKZ and {tokens} IKZ Token; it must have exactly {want} IKZ "
                "and {want_tokens} IKZ Token",
            )(ikz=ikz, tokens=tokens, want=IKZ_COUNT, want_tokens=TOKEN_COUNT),
            "ikz",
        )


rule(
    "A104",
    "ikz-count-wrong",
    "Deck building",
    fix="Make the ikz section exactly 10 IKZ and 1 IKZ Token.",
)(ikz_count_wrong)
