"""`varz-deck stats` for a declared game with no tuner of its own: each section's size, the cost
curve (of the game's cost field) and the cards by colour (its colour fields), instantly.

Its options leave out "tune" and "plot", so `tune` and `stats --plot` are usage errors that name
the game.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass
from typing import Any

from varz_deck.core.analysis.capabilities import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.analysis.parts import Chart, Part, Series
from varz_deck.core.analysis.plot import PlotError
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game.cards import Declared
from varz_deck.core.messages.i18n import Message, msg


@dataclass(frozen=True)
class Counts:
    """One deck's counts (the `Outcome` of `stats`)."""

    path: str
    name: str | None
    lead_key: str
    lead: str | None
    colour_key: str
    sizes: dict[str, int]
    curve: dict[int, int]
    colours: dict[str, int]
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": 1, "deck": self.path, "name": self.name}
        if self.lead_key:
            out[self.lead_key] = self.lead
        out["sizes"] = dict(self.sizes)
        out["curve"] = [{"cost": cost, "cards": n} for cost, n in sorted(self.curve.items())]
        if self.colour_key:
            out[self.colour_key] = dict(self.colours)
        return out

    def answer(self) -> tuple[Message, ...]:
        return ()

    def parts(self) -> tuple[Part, ...]:
        if not self.curve:
            return ()
        curve = sorted(self.curve.items())
        return (
            Chart(
                "curve",
                msg("tune", "cost curve"),
                msg("tune", "cost"),
                tuple(str(cost) for cost, _ in curve),
                (Series(msg("tune", "cards"), tuple(float(n) for _, n in curve)),),
            ),
        )

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        head = msg("tune", "{deck}: {lead}")(deck=self.name or self.path, lead=self.lead or "-")
        lines = [head.render(lang)]
        lines += [f"  {section}: {size}" for section, size in self.sizes.items()]
        if self.curve:
            lines.append(msg("tune", "cost curve").render(lang))
            lines += [f"  {cost}: {'#' * n} {n}" for cost, n in sorted(self.curve.items())]
        if self.colours:
            lines.append(msg("tune", "cards by colour").render(lang))
            lines += [f"  {colour}: {n}" for colour, n in self.colours.items()]
        return "\n".join(lines) + "\n"

    def plot(self, fmt: str, lang: str) -> bytes:
        raise PlotError(msg("tune", "this game has no charts"))


class DeclaredStats:
    """`stats` for a declared game (`Tuner` with no options: no `tune`, no charts)."""

    options: frozenset[str] = frozenset()

    def __init__(self, game: Declared) -> None:
        self.game = game

    def stats(
        self, source: DeckSource, database: CardDatabase[Any], *, date: datetime.date
    ) -> Counts:
        game = self.game
        report = game.check_deck(source, database, None, date)
        view = report.view
        if view is None:
            raise DeckUnusable(report.diagnostics)
        curve: Counter[int] = Counter()
        colours: Counter[str] = Counter()
        for section in game.sections:
            for card, entry in view.resolved(section):
                cost = card.fields.get(game.cost) if game.cost else None
                if isinstance(cost, int):
                    curve[cost] += entry.count
                for colour in game.colours_of(card)[:1]:
                    colours[colour] += entry.count
        order = [w for name in game.colours for w in game.declaration.fields[name].words]
        warnings = (NOT_LEGAL_TUNED(path=report.path, n=report.errors),) if report.errors else ()
        lead = view.lead
        return Counts(
            path=report.path,
            name=report.name,
            lead_key=game.lead,
            lead=lead.name if lead is not None else None,
            colour_key=game.colours[0] if game.colours else "",
            sizes={section: view.size(section) for section in game.sections},
            curve=dict(curve),
            colours={c: colours[c] for c in dict.fromkeys(order) if colours[c]},
            warnings=warnings,
        )

    def tune(self, source: DeckSource, database: CardDatabase[Any], **options: Any) -> Counts:
        raise NotImplementedError("no tuner")  # the command refuses `tune` first
