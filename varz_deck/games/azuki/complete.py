"""What `complete` must know of Azuki beyond its declaration (rules page, "Deck building"): every
card of the Leader's element or neutral, and the IKZ deck's 10 IKZ and 1 IKZ Token."""

from __future__ import annotations

from collections.abc import Sequence

from varz_deck.core.decks.declaration import Section
from varz_deck.core.game.complete import Completion, Draft, NoCompletion
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.games.azuki.cards import NEUTRAL, AzukiCard
from varz_deck.games.azuki.rules.ikz import IKZ_COUNT, TOKEN_COUNT

IKZ_WHY = msg("complete", "the IKZ deck holds exactly {want} of its kind")
NO_IKZ = msg(
    "A104",
    "the IKZ deck already has {ikz} IKZ and {tokens} IKZ Token, more than {want} IKZ and "
    "{want_tokens} IKZ Token: cut them",
)


class AzukiCompletion(Completion):
    """Azuki's own constraints on a completed deck."""

    def __init__(self) -> None:
        super().__init__("cost")

    def admits(self, draft: Draft, section: Section, card: AzukiCard) -> bool:
        leader = draft.lead
        if leader is None:
            return True
        return any(e == NEUTRAL or e in leader.elements for e in card.elements)

    def choose(
        self, draft: Draft, section: Section, candidates: Sequence[AzukiCard], need: int
    ) -> list[tuple[AzukiCard, int, Message]] | None:
        if section.key != "ikz":
            return None
        lines = draft.lines["ikz"]
        have = {kind: sum(x.count for x in lines if x.card.type == kind) for kind in KINDS}
        if any(have[kind] > want for kind, want in KINDS.items()):
            raise NoCompletion(
                "A104",
                NO_IKZ(
                    ikz=have["ikz"], tokens=have["ikz_token"], want=IKZ_COUNT,
                    want_tokens=TOKEN_COUNT,
                ),
            )  # fmt: skip
        out: list[tuple[AzukiCard, int, Message]] = []
        for kind, want in KINDS.items():
            missing = want - have[kind]
            if missing <= 0:
                continue
            kept = [x.card for x in lines if x.card.type == kind]
            card = next((c for c in (*kept, *candidates) if c.type == kind), None)
            if card is None:
                raise NoCompletion("A104", NO_IKZ_CARD(kind=kind))
            out.append((card, missing, IKZ_WHY(want=want)))
        return out


KINDS = {"ikz": IKZ_COUNT, "ikz_token": TOKEN_COUNT}
NO_IKZ_CARD = msg("A104", "no playable {kind} card in the database to fill the IKZ deck")
