"""The cost curve by element as an image: SVG or PNG (core/analysis/tuning.py draws)."""

from __future__ import annotations

from varz_deck.core.analysis import tuning
from varz_deck.core.analysis.tuning import CurveCharts, Rows
from varz_deck.core.messages.i18n import msg
from varz_deck.games.azuki.cards import ELEMENTS
from varz_deck.games.azuki.sim.model import Model
from varz_deck.games.azuki.sim.plot import HEX

CURVE_TITLE = msg("sim", "Cost curve by element: {deck}")


def curve_rows(model: Model) -> Rows:
    return tuning.curve_rows(((c.cost, c.element, c.copies) for c in model.cards), ELEMENTS)


def charts(model: Model, fmt: str, lang: str) -> bytes:
    def title(lang: str) -> str:
        return CURVE_TITLE(deck=model.name or model.path).render(lang)

    return CurveCharts(title, curve_rows(model), "element", HEX, lambda _: []).image(fmt, lang)
