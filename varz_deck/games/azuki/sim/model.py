"""An Azuki deck reduced to what the goldfish reads: its main deck by card (and the rest for
`sim --vs`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from varz_deck.core.analysis.capabilities import DeckUnusable
from varz_deck.core.analysis.tuning import refuse_oversized
from varz_deck.games.azuki.cards import NEUTRAL, AzukiCard, AzukiDatabase
from varz_deck.games.azuki.declaration import MAIN_SIZE
from varz_deck.games.azuki.rules import IKZ_COUNT, TOKEN_COUNT

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.decks.view import DeckView, DeclaredDeck
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.messages.diagnostics import Diagnostic

# The rules' size of each section: `sim` and `tune` refuse a deck far over them (core/analysis/tuning.py).
SECTION_SIZES = {"main": MAIN_SIZE, "ikz": IKZ_COUNT + TOKEN_COUNT}


class DeckChecker(Protocol):
    """How the goldfish and the tuner read and check a deck: the game's (core/game/declared.py),
    handed to them by the game object."""

    def read_deck(self, source: DeckSource) -> tuple[DeclaredDeck, list[Diagnostic]]: ...

    def check_parsed(
        self,
        deck: DeclaredDeck,
        problems: list[Diagnostic],
        database: CardDatabase[AzukiCard],
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport: ...


@dataclass(frozen=True)
class SimCard:
    id: str
    name: str
    copies: int
    cost: int
    element: str = NEUTRAL
    names: tuple[tuple[str, str], ...] = ()  # (language, name)


@dataclass(frozen=True)
class Model:
    path: str
    name: str | None
    leader: tuple[str, str] | None
    cards: tuple[SimCard, ...]
    format: str | None = None
    # the gate and the IKZ deck, for `sim --vs` to list what changed: (section, id, name, copies)
    others: tuple[tuple[str, str, str, int], ...] = ()

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)


def build_model(
    game: DeckChecker,
    source: DeckSource,
    database: CardDatabase,
    *,
    bounded: bool = True,
    date: datetime.date,
) -> tuple[Model, DeckReport]:
    """The main deck of an Azuki deck file, and its check report on `date` (legal or
    not); `bounded`
    (sim, tune): DeckTooLarge when a section is far over its size (core/analysis/tuning.py)."""
    assert isinstance(database, AzukiDatabase)
    parsed, problems = game.read_deck(source)
    if bounded:
        refuse_oversized(parsed.path, parsed.entries, SECTION_SIZES)
    report = game.check_parsed(parsed, problems, database, None, date)
    view = report.view
    if view is None:
        raise DeckUnusable(report.diagnostics)
    cards: dict[str, SimCard] = {}
    for slot in view.slots["main"]:
        card = slot.card
        if card is None:
            continue
        seen = cards.get(card.id)
        copies = slot.entry.count + (seen.copies if seen else 0)
        element = card.elements[0] if card.elements else NEUTRAL
        cards[card.id] = SimCard(
            card.id, card.name, copies, card.cost or 0, element, tuple(sorted(card.names.items()))
        )
    leader = view.lead
    model = Model(
        report.path,
        report.name,
        (leader.id, leader.name) if leader is not None else None,
        tuple(cards.values()),
        view.deck.format,
        _others_of(view),
    )
    return model, report


def _others_of(view: DeckView[AzukiCard]) -> tuple[tuple[str, str, str, int], ...]:
    """The gate and the IKZ deck's cards, as `Model.others` holds them."""
    gate = view.picked.get("gate")
    out = [("gate", gate.id, gate.name, 1)] if gate is not None else []
    ikz: dict[str, list[Any]] = {}
    for slot in view.slots.get("ikz", ()):
        if slot.card is not None:
            ikz.setdefault(slot.card.id, [slot.card.name, 0])[1] += slot.entry.count
    out.extend(("ikz", card_id, name, copies) for card_id, (name, copies) in ikz.items())
    return tuple(out)


def cost_groups(model: Model) -> list[tuple[int, list[int]]]:
    """The deck's costs, each with the indexes of its cards."""
    groups: dict[int, list[int]] = {}
    for k, card in enumerate(model.cards):
        groups.setdefault(card.cost, []).append(k)
    return sorted(groups.items())
