"""The two Tidewright rules no declaration can say: every card from the captain's seas (T105),
and a warning for a thin crew of sailors (T201). The declared ones (T101-T104, T106) are in
__init__.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from varz_deck.plugin import (
    CardName,
    DeckView,
    Diagnostic,
    Joined,
    Rulebook,
    Severity,
    Term,
    diag,
    lead_known,
    msg,
)

SEAS = ("north", "east", "south", "west")
MIN_SAILORS = 10
SHIP = "Building a ship"

RULEBOOK: Rulebook[DeckView[Any]] = Rulebook()


def off_sea(view: DeckView[Any]) -> Iterator[Diagnostic]:
    """Every crew card and current comes from one of the captain's seas.

    Legal:   captain: Mara Vell (north, east) with North Current
    Illegal: captain: Mara Vell (north, east) with South Current
    """
    captain = view.lead
    for section in ("crew", "currents"):
        for card, entry in view.resolved(section):
            if card.sea not in captain.seas:
                wrong = msg("T105", "{card} comes from the {sea}; {captain} sails only the {seas}")
                seas = Joined(tuple(Term("sea", sea) for sea in captain.seas), " and ")
                said = wrong(
                    card=CardName.of(card), sea=Term("sea", card.sea),
                    captain=CardName.of(captain), seas=seas,
                )  # fmt: skip
                yield diag(
                    "T105", said, entry.mark, file=view.deck.path, section=section, card=card.id
                )


RULEBOOK.rule(
    "T105",
    "off-sea",
    SHIP,
    when=lead_known,
    fix="Replace the card with one from the captain's seas, or choose another captain.",
)(off_sea)


def few_sailors(view: DeckView[Any]) -> Iterator[Diagnostic]:
    """A warning: a crew of fewer than 10 sailors rarely holds the deck.

    Fine:    crew: 14 sailors and 6 maneuvers
    Warning: crew: 8 sailors and 12 maneuvers
    """
    sailors = sum(entry.count for card, entry in view.resolved("crew") if card.type == "sailor")
    if sailors < MIN_SAILORS:
        thin = msg("T201", "the crew has {n} sailors; fewer than {least} rarely hold the deck")
        mark = view.deck.section_marks.get("crew")
        yield diag(
            "T201", thin(n=sailors, least=MIN_SAILORS), mark, file=view.deck.path, section="crew"
        )


RULEBOOK.rule(
    "T201", "few-sailors", SHIP, severity=Severity.WARNING, fix="Trade maneuvers for sailors."
)(few_sailors)
