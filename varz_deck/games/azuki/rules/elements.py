"""Every card of the Leader's element or Neutral (rules page, "Deck building")."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.decks.view import DeckView
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import CardName, Joined, msg
from varz_deck.games.azuki.cards import NEUTRAL, AzukiCard
from varz_deck.games.azuki.declaration import DECK_BUILDING
from varz_deck.games.azuki.rules._book import RULEBOOK, leader_known


def _allowed(card: AzukiCard, leader: AzukiCard) -> bool:
    return any(e == NEUTRAL or e in leader.elements for e in card.elements)


def _placed(view: DeckView[AzukiCard]) -> Iterator[tuple[AzukiCard, Mark | None, str]]:
    """Every card with its place and section: the Gate, then the main deck's and the IKZ deck's."""
    gate = view.picked.get("gate")
    if gate is not None:
        yield gate, view.deck.picks["gate"].mark, "gate"
    for section in ("main", "ikz"):
        for card, entry in view.resolved(section):
            yield card, entry.mark, section


def element_mismatch(view: DeckView[AzukiCard]) -> Iterator[Diagnostic]:
    """Every card, the Gate included, is of the Leader's element or Neutral.

    Legal:   leader: Shao (water); main: {Rei: 4} (water)
    Illegal: leader: Shao (water); main: {Ruby: 3} (fire)
    """
    leader = view.lead
    assert leader is not None
    message = msg(
        "A105",
        "{card} is {elements}, but the Leader {leader} is {leader_elements}; every card must "
        "be of the Leader's element or neutral",
    )
    for card, mark, section in _placed(view):
        if not _allowed(card, leader):
            yield diag(
                "A105",
                message(
                    card=CardName.of(card),
                    elements=Joined(card.elements),
                    leader=CardName.of(leader),
                    leader_elements=Joined(leader.elements),
                ),
                mark,
                file=view.deck.path,
                section=section,
                card=card.id,
            )


RULEBOOK.rule(
    "A105",
    "element-mismatch",
    DECK_BUILDING,
    when=leader_known,
    fix="Replace the card with one of the Leader's element or a Neutral one.",
)(element_mismatch)
