"""`varz-deck stats` for Tidewright: counts, the cost curve and the seas of a deck, instantly.

Tidewright has no tuner and no charts: `varz-deck tune` and `stats --plot` are usage errors
(exit 2) that name the game (SPEC §8).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.game import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.i18n import Message, msg
from varz_deck.core.plot import PlotError
from varz_deck.core.tuning import DeckTooLarge

from tidewright.cards import SEAS, TideDatabase
from tidewright.check import check_parsed
from tidewright.deck import SECTIONS, read_deck

GAME_NAME = "Tidewright"
NO_PLOT = msg("tune", "{game} has no charts; leave out --plot")
NO_TUNER = msg("tune", "{game} has no tuner; `varz-deck stats` gives its counts, curve and seas")


class CapabilityMissing(DeckTooLarge):
    """A command the game cannot serve: the command line says so as a usage error (exit 2).

    The `Game` protocol has no word for a missing capability yet; DeckTooLarge is the one
    exception `sim` and `tune` turn into exit 2 with the game's message."""

    def __init__(self, message: Message) -> None:
        super().__init__(message=message)


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
        raise PlotError(NO_PLOT(game=GAME_NAME))


def stats(path: Path, database: TideDatabase) -> TideStats:
    """Counts of one deck, with no sampling; DeckUnusable when it cannot be read."""
    deck, problems = read_deck(path)
    report = check_parsed(deck, problems, database, None)
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
    warnings = (NOT_LEGAL_TUNED(path=str(path), n=report.errors),) if report.errors else ()
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
    """`stats` works; `tune` refuses (exit 2, naming the game)."""

    options: frozenset[str] = frozenset()

    def stats(self, path: Path, database: CardDatabase) -> TideStats:
        assert isinstance(database, TideDatabase)
        return stats(path, database)

    def tune(
        self, path: Path, database: CardDatabase, *, target: float, on: str, mulligan: str
    ) -> TideStats:
        raise CapabilityMissing(NO_TUNER(game=GAME_NAME))


TUNER = TideTuner()
