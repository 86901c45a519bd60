"""The Azuki `Goldfish` (varz_deck/core/game.py): read the decks (with the game that made it),
simulate or compare, and hand back an outcome the command line renders as text, JSON or
charts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from varz_deck.core.analysis.capabilities import NOT_LEGAL_SIMULATED, DeckUnusable, SimRequest
from varz_deck.core.analysis.parts import Part
from varz_deck.core.messages.i18n import CardName, Message, msg
from varz_deck.games.azuki.sim.model import DeckChecker, Model, build_model
from varz_deck.games.azuki.sim.report import compare, to_json
from varz_deck.games.azuki.sim.run import run

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.files.source import DeckSource


@dataclass(frozen=True)
class AzukiOutcome:
    """One Azuki deck's goldfish figures, or two decks compared (the JSON document), and how to
    show them."""

    document: dict[str, Any]
    names: dict[str, tuple[tuple[str, str], ...]]  # card id -> its names by language
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.document

    def answer(self) -> tuple[Message, ...]:
        """The sentences the text report opens with (none for two decks compared)."""
        from varz_deck.games.azuki.sim.report import answer

        return () if "vs" in self.document else answer(self.document)

    def parts(self) -> tuple[Part, ...]:
        """The report page's goldfish parts (none for two decks compared)."""
        from varz_deck.games.azuki.analysis import sim_parts

        if "vs" in self.document:
            return ()
        names = {
            i: CardName(c["name"], self.names.get(i, ()), quote=False)
            for i, c in ((c["id"], c) for c in self.document["cards"])
        }
        return sim_parts(self.document, names)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        from varz_deck.games.azuki.sim.report import render_compare_text, render_text

        if "vs" in self.document:
            return render_compare_text(
                self.document, self.names, width=width, lang=lang, color=color
            )
        return render_text(self.document, self.names, width=width, lang=lang, color=color)

    def plot(self, fmt: str, lang: str) -> bytes:
        from varz_deck.games.azuki.sim.plot import plot

        decks = self.document.get("decks", [self.document])
        return plot(decks, fmt, lang)


class AzukiGoldfish:
    """Exact hypergeometric figures; a NumPy Monte Carlo for the whole-hand mulligan."""

    options = frozenset({"vs", "plot", "mulligan", "on"})

    def __init__(self, game: DeckChecker) -> None:
        self.game = game

    def _model(
        self, source: DeckSource, database: CardDatabase, date: datetime.date
    ) -> tuple[Model, bool, tuple[Message, ...]]:
        """The deck's model, whether it is legal on `date`, and the warning to give
        when it is not."""
        model, report = build_model(self.game, source, database, date=date)
        if model.size == 0:
            empty = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")
            raise DeckUnusable(message=empty(path=source.name))
        warning = NOT_LEGAL_SIMULATED(path=source.name, n=report.errors)
        return model, report.legal, (warning,) if report.errors else ()

    def simulate(self, request: SimRequest, database: CardDatabase) -> AzukiOutcome:
        model, legal, warnings = self._model(request.deck, database, request.date)
        models = [model]
        if request.vs is None:
            document = to_json(run(model, request), request, legal)
        else:
            other, other_legal, other_warnings = self._model(request.vs, database, request.date)
            models.append(other)
            warnings += other_warnings
            document, _, _ = compare(model, other, request, (legal, other_legal))
        names = {c.id: c.names for m in models for c in m.cards}
        return AzukiOutcome(document, names, warnings)
