"""The VARZ `Goldfish` (varz_deck/core/game.py): read the decks, simulate or compare, and hand back
an outcome the command line renders as text, JSON or charts."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.declared import DeclaredGame

from dataclasses import dataclass
from typing import Any

from varz_deck.core.analysis.capabilities import NOT_LEGAL_SIMULATED, DeckUnusable, SimRequest
from varz_deck.core.analysis.parts import Part
from varz_deck.core.analysis.tuning import refuse_oversized
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import CardName, Message, msg
from varz_deck.games.varz.declaration import SECTION_SIZES
from varz_deck.games.varz.sim import report
from varz_deck.games.varz.sim.model import Model, ModelError, build_model
from varz_deck.games.varz.sim.montecarlo import Options
from varz_deck.games.varz.sim.run import Comparison, Result, compare, simulate

_NO_HERO = msg("sim", "{path}: {problem}; name a Hero card under `hero:`")


def load_model(
    game: DeclaredGame,
    source: DeckSource,
    database: CardDatabase,
    date: datetime.date,
) -> tuple[Model, bool, Message | None]:
    """The deck's model (read and checked by `game`, VARZ's), whether it is legal on `date`
    and the warning to give when it is not;
    DeckUnusable when the deck cannot be read or has no usable hero, DeckTooLarge when a section
    is far over its size (core/analysis/tuning.py)."""
    deck, problems = game.read_deck(source)
    unreadable = [d for d in problems if d.code in ("F001", "F002")]
    if unreadable or not deck.readable:
        raise DeckUnusable(unreadable or problems)
    refuse_oversized(deck.path, deck.entries, SECTION_SIZES)
    checked = game.check_parsed(deck, problems, database, None, date)
    if checked.view is None:
        raise DeckUnusable(checked.diagnostics)
    try:
        model = build_model(checked.view)
    except ModelError as err:
        raise DeckUnusable(message=_NO_HERO(path=source.name, problem=err.message)) from None
    warning = NOT_LEGAL_SIMULATED(path=source.name, n=checked.errors) if checked.errors else None
    return model, checked.legal, warning


@dataclass(frozen=True)
class VarzOutcome:
    """One deck's run, or two decks compared (`comparison`)."""

    result: Result
    legal: bool
    comparison: Comparison | None = None
    other_legal: bool = True
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.comparison is None:
            return report.to_json(self.result, self.legal)
        return report.compare_to_json(self.comparison, (self.legal, self.other_legal))

    def answer(self) -> tuple[Message, ...]:
        """The sentences the text report opens with (none for two decks compared)."""
        from varz_deck.games.varz.sim.answer import answer

        return answer(self.to_json()) if self.comparison is None else ()

    def parts(self) -> tuple[Part, ...]:
        """The report page's goldfish parts (none for two decks compared)."""
        from varz_deck.games.varz.analysis import sim_parts

        if self.comparison is not None:
            return ()
        names = {c.id: CardName(c.name, c.names, quote=False) for c in self.result.model.cards}
        return sim_parts(self.to_json(), names)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        if self.comparison is None:
            return report.render_text(self.result, color=color, width=width, lang=lang)
        return report.render_compare_text(self.comparison, color=color, width=width, lang=lang)

    def plot(self, fmt: str, lang: str) -> bytes:
        from varz_deck.games.varz.sim.plot import plot

        comparison = self.comparison
        results = [self.result] if comparison is None else [comparison.a, comparison.b]
        return plot(results, fmt, lang)


class VarzGoldfish:
    """docs/guides/player.md: exact figures where a closed form exists, NumPy Monte Carlo for the rest."""

    options = frozenset({"vs", "plot", "mulligan", "on"})

    def __init__(self, game: DeclaredGame) -> None:
        self.game = game  # what reads and checks the decks: VARZ's

    def simulate(self, request: SimRequest, database: CardDatabase) -> VarzOutcome:
        model, legal, warning = load_model(self.game, request.deck, database, request.date)
        warnings = [warning] if warning is not None else []
        options = Options(
            games=request.games,
            seed=request.seed,
            turns=request.turns,
            on=request.on,
            mulligan=request.mulligan,
        )
        if request.vs is None:
            result = simulate(model, options, request.progress)
            return VarzOutcome(result, legal, warnings=tuple(warnings))
        other, other_legal, other_warning = load_model(
            self.game, request.vs, database, request.date
        )
        if other_warning is not None:
            warnings.append(other_warning)
        comparison = compare(model, other, options, request.progress)
        return VarzOutcome(comparison.a, legal, comparison, other_legal, tuple(warnings))
