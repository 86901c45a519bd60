"""`varz-deck stats` for Tidewright: counts, the cost curve and the seas of a deck, instantly.

Tidewright has no tuner and no charts: its tuner's options leave out "tune" and "plot", so
`varz-deck tune` and `stats --plot` are usage errors (exit 2) that name the game (SPEC §8).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from varz_deck.core.analysis.capabilities import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.analysis.parts import Chart, Part, Series
from varz_deck.core.analysis.plot import PlotError
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import Message, msg

from tidewright.cards import SEAS, TideDatabase
from tidewright.check import check_parsed
from tidewright.deck import SECTIONS, read_deck

if TYPE_CHECKING:
    import datetime

    from varz_deck.core.files.source import DeckSource

NO_PLOT = msg("tune", "Tidewright has no charts")


@dataclass(frozen=True)
class TideStats:
    """One deck's counts: section sizes, the crew's cost curve, cards by sea."""

    path: str
    name: str | None
    captain: str | None
    sizes: dict[str, int]
    curve: dict[int, int]
    seas: dict[str, int]
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "deck": self.path,
            "name": self.name,
            "captain": self.captain,
            "sizes": dict(self.sizes),
            "curve": [{"cost": cost, "cards": n} for cost, n in sorted(self.curve.items())],
            "seas": dict(self.seas),
        }

    def answer(self) -> tuple[Message, ...]:
        """No sentences: Tidewright's stats are counts."""
        return ()

    def parts(self) -> tuple[Part, ...]:
        """The crew's cost curve, for `varz-deck report`."""
        curve = sorted(self.curve.items())
        return (
            Chart(
                "curve",
                msg("tune", "cost curve of the crew"),
                msg("tune", "cost"),
                tuple(str(cost) for cost, _ in curve),
                (Series(msg("tune", "cards"), tuple(float(n) for _, n in curve)),),
            ),
        )

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        lines = [
            msg("tune", "{deck}: captain {captain}")(
                deck=self.name or self.path, captain=self.captain or "-"
            ).render(lang)
        ]
        for section, size in self.sizes.items():
            lines.append(f"  {section}: {size}")
        lines.append(msg("tune", "cost curve of the crew").render(lang))
        for cost, n in sorted(self.curve.items()):
            lines.append(f"  {cost}: {'#' * n} {n}")
        lines.append(msg("tune", "cards by sea").render(lang))
        for sea, n in self.seas.items():
            lines.append(f"  {sea}: {n}")
        return "\n".join(lines) + "\n"

    def plot(self, fmt: str, lang: str) -> bytes:
        raise PlotError(NO_PLOT)  # not reached: the command refuses --plot first


def stats(
    source: DeckSource, database: TideDatabase, date: datetime.date | None = None
) -> TideStats:
    """Counts of one deck checked on `date` (None: today), with no sampling; DeckUnusable when
    it cannot be read."""
    deck, problems = read_deck(source)
    report = check_parsed(deck, problems, database, None, date)
    view = report.view
    if view is None:
        raise DeckUnusable(report.diagnostics)
    curve: Counter[int] = Counter()
    seas: Counter[str] = Counter()
    for section in SECTIONS:
        for slot in view.slots[section]:
            card = slot.card
            if card is None:
                continue
            if card.cost is not None:
                curve[card.cost] += slot.entry.count
            if card.sea is not None:
                seas[card.sea] += slot.entry.count
    warnings = (NOT_LEGAL_TUNED(path=deck.path, n=report.errors),) if report.errors else ()
    return TideStats(
        path=deck.path,
        name=deck.name,
        captain=view.captain.name if view.captain else None,
        sizes={section: view.size(section) for section in SECTIONS},
        curve=dict(curve),
        seas={sea: seas[sea] for sea in SEAS if seas[sea]},
        warnings=warnings,
    )


class TideTuner:
    """`stats` only: without "tune" in its options the command refuses `tune` (exit 2, naming
    the game), and without "plot" `stats --plot`."""

    options: frozenset[str] = frozenset()

    def stats(
        self, source: DeckSource, database: CardDatabase, *, date: datetime.date | None = None
    ) -> TideStats:
        assert isinstance(database, TideDatabase)
        return stats(source, database, date)

    def tune(
        self,
        source: DeckSource,
        database: CardDatabase,
        *,
        target: float,
        on: str,
        mulligan: str,
        date: datetime.date | None = None,
    ) -> TideStats:
        raise NotImplementedError("Tidewright has no tuner")  # the command refuses `tune` first


TUNER = TideTuner()
