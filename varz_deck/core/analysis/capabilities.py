"""What `sim`, `stats`, `tune` and `report` ask of a game: its goldfish and its tuner, the
outcome every one of them gives, and the error for a deck they cannot work with.

A game offers these capabilities through its `Game` object (core/game.py); `analyse` puts them on
one page of figures.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from varz_deck.core.messages.i18n import Message, nmsg

if TYPE_CHECKING:
    from varz_deck.core.analysis.parts import Part
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.messages.diagnostics import Diagnostic

# What `sim` and `tune`/`stats` say on stderr of an illegal deck (every game's goldfish and tuner).
NOT_LEGAL_SIMULATED = nmsg(
    "sim",
    "{path}: deck is not legal ({n} problem; run varz-deck check); simulating anyway",
    "{path}: deck is not legal ({n} problems; run varz-deck check); simulating anyway",
)
NOT_LEGAL_TUNED = nmsg(
    "tune",
    "{path}: deck is not legal ({n} problem; run varz-deck check); using it anyway",
    "{path}: deck is not legal ({n} problems; run varz-deck check); using it anyway",
)


class DeckUnusable(Exception):
    """A deck a command cannot work with: the diagnostics (or message) say why."""

    def __init__(
        self, diagnostics: Sequence[Diagnostic] = (), message: Message | None = None
    ) -> None:
        super().__init__(message.render() if message is not None else "deck cannot be used")
        self.diagnostics = tuple(diagnostics)
        self.message = message


@dataclass(frozen=True)
class SimRequest:
    """What `varz-deck sim` asks of a game's goldfish (docs/reference/commands/, docs/guides/player.md)."""

    deck: DeckSource
    games: int
    seed: int
    turns: int
    on: str  # "play" | "draw"
    mulligan: str  # "none" | "auto"
    vs: DeckSource | None = None
    progress: Callable[[int, int], None] | None = None
    date: datetime.date = field(kw_only=True)  # the day the decks are checked as of


class Outcome(Protocol):
    """A finished simulation, comparison, `stats` or `tune`: its JSON document, its text report,
    its charts."""

    @property
    def warnings(self) -> tuple[Message, ...]:
        """Said on stderr (e.g. "deck is not legal; simulating anyway")."""
        ...

    def answer(self) -> tuple[Message, ...]:
        """2–4 plain sentences a player can act on, from the figures of `to_json` (the text
        report and `varz-deck report` open with them)."""
        ...

    def parts(self) -> tuple[Part, ...]:
        """The figures as a report page's tables and charts (core/analysis/parts.py), built from
        `to_json`'s document."""
        ...

    def to_json(self) -> dict[str, object]: ...

    def render_text(self, *, color: bool, width: int, lang: str) -> str: ...

    def plot(self, fmt: str, lang: str) -> bytes:
        """The charts as `fmt` ("svg" or "png"); raises PlotError (varz_deck.core.analysis.plot)."""
        ...


class Goldfish(Protocol):
    """`varz-deck sim` for one game."""

    @property
    def options(self) -> frozenset[str]:
        """Of "vs", "plot", "mulligan", "on": the options it honours."""
        ...

    def simulate(self, request: SimRequest, database: CardDatabase) -> Outcome:
        """Simulate (and with `vs`, compare on common random numbers); DeckUnusable if a deck
        cannot be simulated."""
        ...


class Tuner(Protocol):
    """`varz-deck stats` and `varz-deck tune` for one game (docs/reference/commands/tune.md)."""

    @property
    def options(self) -> frozenset[str]:
        """Of "tune" (the command itself: without it only `stats` answers), "target", "on",
        "mulligan", "plot": what it honours."""
        ...

    def stats(self, source: DeckSource, database: CardDatabase, *, date: datetime.date) -> Outcome:
        """Counts, curve, classes, colours of a deck, with no sampling; DeckUnusable if unreadable.
        The deck is checked on `date`."""
        ...

    def tune(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        target: float,
        on: str,
        mulligan: str,
        date: datetime.date,
    ) -> Outcome:
        """On-curve odds per spell, every legal one-card swap, the colour-source tables; the deck
        is checked on `date`."""
        ...


class AnalysedGame(Protocol):
    """A game as `analyse` sees it: its name, its check, and the capabilities it has."""

    key: str
    name: str

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase,
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport: ...

    @property
    def goldfish(self) -> Goldfish | None: ...

    @property
    def tuner(self) -> Tuner | None: ...
