"""`varz-deck tune` for one Azuki deck: its figures as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from varz_deck.core.i18n import CardName, Message, msg, term
from varz_deck.core.tuning import curve_lines, fit, pad, pct, r
from varz_deck.games.azuki.cards import NEUTRAL
from varz_deck.games.azuki.sim.model import Model
from varz_deck.games.azuki.tune.odds import Figures
from varz_deck.games.azuki.tune.plot import charts, curve_rows

NO_SWAPS = msg("tune", "The IKZ deck is fixed in Azuki TCG: there are no swaps to try.")


def _name(names: tuple[tuple[str, str], ...], name: str, lang: str) -> str:
    return CardName(name, names).in_language(lang)


_TUNE_TITLE = msg("tune", "Tune: {deck} ({path})")
_SETTINGS = msg("tune", "{on}; mulligan {mulligan}")
_EXACT = msg("tune", "Every figure is exact: closed forms, no sampling.")
_ON = {"play": msg("sim", "on the play"), "draw": msg("sim", "on the draw")}
_CARDS = msg("tune", "Cards on curve (the first turn the IKZ pays the cost)")
_NEVER = msg("sim", "never")


@dataclass(frozen=True)
class AzukiTune:
    model: Model
    on: str
    target: float
    figures: tuple[Figures, ...]
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        cards = [
            {
                "id": card.id,
                "name": card.name,
                "cost": card.cost,
                "color": card.element,
                "copies": card.copies,
                "on_curve_turn": fig.on_curve_turn,
                "p_on_curve": r(fig.p_on_curve),
                "expected_delay": r(fig.expected_delay),
                "exact": True,
            }
            for card, fig in zip(self.model.cards, self.figures, strict=True)
        ]
        return {
            "version": 1,
            "game": "azuki",
            "deck": self.model.path,
            "name": self.model.name,
            "on": self.on,
            "mulligan": "none",
            "target": self.target,
            "exact": True,
            "delay_horizon": "every card seen and the IKZ at its most (no truncation)",
            "spells": cards,
            "swaps": [],
            "tables": [],
            "no_swaps": NO_SWAPS.render(),
            "curve": [
                {"cost": cost, "copies": sum(k for _, k in per), "by_element": dict(per)}
                for cost, per in curve_rows(self.model)
            ],
        }

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        width = max(60, min(width, 100))
        model = self.model
        out = [
            fit(_TUNE_TITLE(deck=model.name or model.path, path=model.path).render(lang), width),
            fit(_SETTINGS(on=_ON[self.on], mulligan="none").render(lang), width),
            fit(_EXACT.render(lang), width),
            "",
            fit(_CARDS.render(lang), width),
        ]
        name_w = width - 43
        out.append(
            pad(msg("sim", "Card").render(lang), name_w)
            + pad(msg("sim", "Cost").render(lang), 6, True)
            + "  "
            + pad("", 10)
            + pad(msg("sim", "Turn").render(lang), 5, True)
            + pad(msg("tune", "On curve").render(lang), 10, True)
            + pad(msg("tune", "Delay").render(lang), 8, True)
        )
        for card, fig in zip(model.cards, self.figures, strict=True):
            delay = (
                _NEVER.render(lang)
                if fig.expected_delay is None
                else f"{float(fig.expected_delay):.2f}"
            )
            out.append(
                pad(f"{card.copies}× {_name(card.names, card.name, lang)}", name_w)
                + pad(str(card.cost), 6, True)
                + "  "
                + pad(term("element", card.element or NEUTRAL, lang), 10)
                + pad(str(fig.on_curve_turn or "–"), 5, True)
                + pad(pct(fig.p_on_curve), 10, True)
                + pad(delay, 8, True)
            )
        out.append("")
        out.append(msg("stats", "Cost curve by element").render(lang))
        out += curve_lines(curve_rows(model), "element", lang, width)
        out.append("")
        out.append(fit(NO_SWAPS.render(lang), width))
        return "".join(line.rstrip() + "\n" for line in out)

    def plot(self, fmt: str, lang: str) -> bytes:
        return charts(self.model, fmt, lang)
