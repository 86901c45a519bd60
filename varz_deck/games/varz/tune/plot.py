"""The cost curve (and the best swaps) as an image: SVG or PNG (core/analysis/tuning.py draws)."""

from __future__ import annotations

from varz_deck.core.analysis.tuning import Bars, CurveCharts
from varz_deck.core.messages.i18n import msg
from varz_deck.games.varz.sim.model import ModelError, build_model
from varz_deck.games.varz.sim.plot import HEX
from varz_deck.games.varz.sim.report import cost_curve_rows
from varz_deck.games.varz.tune.model import Loaded

CURVE_TITLE = msg("sim", "Cost curve by colour: {deck}")


def charts(loaded: Loaded, fmt: str, lang: str, swaps: Bars) -> bytes:
    view = loaded.view
    try:
        rows = cost_curve_rows(build_model(view))
    except ModelError:
        rows = []

    def title(lang: str) -> str:
        return CURVE_TITLE(deck=loaded.report.name or loaded.report.path).render(lang)

    return CurveCharts(title, rows, "color", HEX, swaps).image(fmt, lang)
