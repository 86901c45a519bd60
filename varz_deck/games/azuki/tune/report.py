"""`varz-deck tune` for one Azuki deck: its figures as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.parts import Part
from varz_deck.core.analysis.tuning import fit, pad, pct, r
from varz_deck.core.messages.i18n import CardName, Message, msg, term
from varz_deck.core.messages.wrap import wrap
from varz_deck.games.azuki.cards import NEUTRAL
from varz_deck.games.azuki.glossary import named
from varz_deck.games.azuki.sim.model import Model
from varz_deck.games.azuki.tune.odds import Figures
from varz_deck.games.azuki.tune.plot import charts, curve_rows

NO_SWAPS = msg("tune", "The IKZ deck is fixed in Azuki TCG: there are no swaps to try.")


def _name(names: tuple[tuple[str, str], ...], name: str, lang: str) -> str:
    return CardName(name, names).in_language(lang)


_TUNE_TITLE = msg("tune", "Tune: {deck} ({path})")
_SETTINGS = msg(
    "tune",
    "{on}; mulligan none: Azuki's tune is exact only with every hand kept (sim samples the "
    "auto mulligan)",
)
_EXACT = msg("tune", "Every figure is exact: closed forms, no sampling.")
_ON = {"play": msg("sim", "on the play"), "draw": msg("sim", "on the draw")}
_CARDS = msg("tune", "Cards on curve (the first turn the IKZ pays the cost)")
_NEVER = msg("sim", "never")
_LOWEST = msg(
    "tune",
    "Your card least likely on curve is {card} (cost {cost}): castable on curve {p} of the "
    "time, on turn {turn}.",
)
_MEAN = msg("tune", "On average a card is castable on curve {p} of the time (exact).")
_NOTE = msg(
    "tune",
    "P(on curve): {castable} (exact): in hand and payable on its curve turn (Turn), each card "
    "counted as if it were the only one to cast. Delay: {delay}, in turns.",
)
_CURVE_ELSEWHERE = msg("tune", "The cost curve by element is in varz-deck stats.")


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

    def answer(self) -> tuple[Message, ...]:
        """The weakest card on curve, the mean, and why there are no swaps."""
        doc = self.to_json()
        names = {c.id: CardName(c.name, c.names, quote=False) for c in self.model.cards}
        shown = [c for c in doc["spells"] if c["on_curve_turn"] is not None]
        out: list[Message] = []
        if shown:
            low = min(shown, key=lambda c: (c["p_on_curve"], -c["cost"]))
            mean = sum(c["p_on_curve"] for c in shown) / len(shown)
            out.append(
                _LOWEST(
                    card=names[low["id"]],
                    cost=low["cost"],
                    p=pct(low["p_on_curve"]),
                    turn=low["on_curve_turn"],
                )
            )
            out.append(_MEAN(p=pct(mean)))
        out.append(NO_SWAPS)
        return tuple(out)

    def parts(self) -> tuple[Part, ...]:
        from varz_deck.games.azuki.analysis import tune_parts

        names = {c.id: CardName(c.name, c.names, quote=False) for c in self.model.cards}
        return tune_parts(self.to_json(), names, NO_SWAPS)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        width = max(60, min(width, 100))
        model = self.model
        out = [
            fit(_TUNE_TITLE(deck=model.name or model.path, path=model.path).render(lang), width),
            *wrap(_SETTINGS(on=_ON[self.on]).render(lang), width),
            fit(_EXACT.render(lang), width),
            "",
            *(line for m in self.answer() for line in wrap(m.render(lang), width)),
            "",
            fit(_CARDS.render(lang), width),
        ]
        name_w = width - 47
        out.append(
            pad(msg("sim", "Card").render(lang), name_w)
            + pad(msg("sim", "Cost").render(lang), 6, True)
            + "  "
            + pad("", 10)
            + pad(msg("sim", "Turn").render(lang), 7, True)
            + pad("P(on curve)", 12, True)
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
                + pad(str(fig.on_curve_turn or "–"), 7, True)
                + pad(pct(fig.p_on_curve), 12, True)
                + pad(delay, 8, True)
            )
        note = _NOTE(castable=named("castable-on-curve"), delay=named("delay"))
        out += wrap(note.render(lang), width)
        out.append("")
        out += wrap(_CURVE_ELSEWHERE.render(lang), width)
        out.append("")
        out += wrap(GLOSSARY_HINT.render(lang), width)
        return "".join(line.rstrip() + "\n" for line in out)

    def plot(self, fmt: str, lang: str) -> bytes:
        return charts(self.model, fmt, lang)
