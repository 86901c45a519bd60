"""The cost curve (and the best swaps) as an image: SVG or PNG (core/analysis/tuning.py draws)."""

from __future__ import annotations

from varz_deck.core.analysis.tuning import Bars, Charts, chart_image
from varz_deck.core.messages.i18n import msg
from varz_deck.games.varz.cards import COLORLESS, COLORS
from varz_deck.games.varz.sim.model import Model, ModelError, build_model
from varz_deck.games.varz.sim.plot import HEX
from varz_deck.games.varz.tune.model import Loaded

CURVE_TITLE = msg("sim", "Cost curve by colour: {deck}")


def curve_rows(model: Model) -> list[tuple[int, list[tuple[str, int]]]]:
    present = {c.color for c in model.cards}
    order = [model.hero_color, *(c for c in COLORS if c != model.hero_color), COLORLESS]
    colors = [c for c in order if c in present]
    rows = []
    for cost in sorted({c.cost for c in model.cards}):
        per = [
            (color, sum(c.copies for c in model.cards if c.cost == cost and c.color == color))
            for color in colors
        ]
        rows.append((cost, [(c, n) for c, n in per if n]))
    return rows


def charts(loaded: Loaded, fmt: str, lang: str, swaps: Bars) -> bytes:
    view = loaded.view
    try:
        rows = curve_rows(build_model(view))
    except ModelError:
        rows = []

    def title(lang: str) -> str:
        return CURVE_TITLE(deck=loaded.report.name or loaded.report.path).render(lang)

    return chart_image(Charts(title, rows, "color", HEX, swaps), fmt, lang)
