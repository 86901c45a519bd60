"""The cost curve by element as an image: SVG or PNG (core/analysis/tuning.py draws)."""

from __future__ import annotations

from varz_deck.core.analysis.tuning import Charts, chart_image
from varz_deck.core.messages.i18n import msg
from varz_deck.games.azuki.cards import ELEMENTS
from varz_deck.games.azuki.sim.model import Model
from varz_deck.games.azuki.sim.plot import HEX

CURVE_TITLE = msg("sim", "Cost curve by element: {deck}")


def curve_rows(model: Model) -> list[tuple[int, list[tuple[str, int]]]]:
    rows = []
    for cost in sorted({c.cost for c in model.cards}):
        per = [
            (e, sum(c.copies for c in model.cards if c.cost == cost and c.element == e))
            for e in ELEMENTS
        ]
        rows.append((cost, [(e, k) for e, k in per if k]))
    return rows


def charts(model: Model, fmt: str, lang: str) -> bytes:
    def title(lang: str) -> str:
        return CURVE_TITLE(deck=model.name or model.path).render(lang)

    return chart_image(Charts(title, curve_rows(model), "element", HEX), fmt, lang)
