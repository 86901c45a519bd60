"""Azuki's `sim --plot`: for each deck, the main deck's cost curve (copies stacked by element) and
P(a card of each cost castable by turn t). SVG by hand, PNG through matplotlib (extra `plot`),
both from the primitives in varz_deck/core/analysis/plot.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from varz_deck.core.analysis import tuning
from varz_deck.core.analysis.plot import (
    PAD,
    PANEL_H,
    W,
    colour,
    curve_bars,
    document,
    image,
    legend,
    line,
    matplotlib_for,
    percent_axes,
    png_bytes,
    rect,
    stacked_bars,
    text,
)
from varz_deck.core.analysis.tuning import Rows
from varz_deck.core.messages.i18n import ENGLISH, Message, msg, term
from varz_deck.games.azuki.cards import ELEMENTS, PALETTE_NAMES

HEX = {element: colour(name) for element, name in PALETTE_NAMES.items()}
COST_TITLE = msg("sim", "Cost curve by element: {deck}")
CASTABLE_TITLE = msg("sim", "P(a card of each cost castable by turn t): {deck}")
COST_LABEL = msg("sim", "cost {cost}")

Doc = Mapping[str, Any]


def plot(decks: Sequence[Doc], fmt: str, lang: str = ENGLISH) -> bytes:
    """The charts of one deck's document (or two compared) as an image file's bytes."""
    return image(fmt, lambda: svg(decks, lang), lambda: png(decks, lang))


def _label(deck: Doc) -> str:
    return str(deck.get("name") or deck["deck"])


def _say(message: Message, lang: str) -> str:
    return message.render(lang)


def _element(element: str, lang: str) -> str:
    return term("element", element, lang)


def curve_rows(deck: Doc) -> Rows:
    """Copies per cost and element: [(cost, [(element, copies), ...]), ...]."""
    cards = ((c["cost"], c["element"], c["copies"]) for c in deck["cards"])
    return tuning.curve_rows(cards, ELEMENTS)


def _elements(rows: Sequence[tuple[int, Sequence[tuple[str, int]]]]) -> list[str]:
    present = {e for _, per in rows for e, _ in per}
    return [e for e in ELEMENTS if e in present]


def _cost_panel(deck: Doc, top: float, lang: str) -> list[str]:
    rows = curve_rows(deck)
    out = [text(PAD, top - 34, _say(COST_TITLE(deck=_label(deck)), lang), 14, "start", "bold")]
    axis = _say(msg("sim", "cost (copies stacked by element)"), lang)
    out += curve_bars(rows, top, HEX, axis)[0]
    items = [(_element(e, lang), HEX[e]) for e in _elements(rows)]
    return out + legend(items, top - 14)


def _castable_panel(deck: Doc, top: float, lang: str) -> list[str]:
    title = _say(CASTABLE_TITLE(deck=_label(deck)), lang)
    out = [text(PAD, top - 34, title[:90], 14, "start", "bold")]
    height = PANEL_H - 90
    out += percent_axes(top, height)
    turns = len(deck["turns"])
    slot = (W - PAD - 20) / max(turns, 1)
    bottom = top + height
    for t in range(turns):
        out.append(text(PAD + slot * t + slot / 2, bottom + 16, str(t + 1), 11))
    items = []
    for j, group in enumerate(deck["costs"]):
        stroke = colour(None, j)
        points = [
            (PAD + slot * t + slot / 2, bottom - height * p)
            for t, p in enumerate(group["p_castable_by_turn"])
        ]
        for (x1, y1), (x2, y2) in pairwise(points):
            out.append(line(x1, y1, x2, y2, stroke))
        for x, y in points:
            out.append(rect(x - 2, y - 2, 4, 4, stroke))
        items.append((_say(COST_LABEL(cost=group["cost"]), lang), stroke))
    out.append(text(PAD + (W - PAD - 20) / 2, bottom + 34, _say(msg("sim", "turn"), lang), 11))
    return out + legend(items, top - 14)


def svg(decks: Sequence[Doc], lang: str = ENGLISH) -> str:
    """An SVG document: each deck's cost curve, then each deck's P(castable by turn t)."""
    parts: list[str] = []
    top = 70.0
    for deck in decks:
        parts += _cost_panel(deck, top, lang)
        top += PANEL_H
    for deck in decks:
        parts += _castable_panel(deck, top, lang)
        top += PANEL_H
    return document(parts, top - 20)


def png(decks: Sequence[Doc], lang: str = ENGLISH) -> bytes:
    """The same charts drawn by matplotlib (installed with the `plot` extra)."""
    with matplotlib_for(lang) as drawn_in:
        return _png(decks, drawn_in)


def _png(decks: Sequence[Doc], lang: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 3.2 * 2 * len(decks)), dpi=100)
    FigureCanvasAgg(figure)
    axes_list = figure.subplots(2 * len(decks), 1, squeeze=False)[:, 0]
    for ax, deck in zip(axes_list, decks, strict=False):
        stacked_bars(ax, curve_rows(deck), HEX, lambda e: _element(e, lang))
        ax.set_title(_say(COST_TITLE(deck=_label(deck)), lang), loc="left")
        ax.set_xlabel(_say(msg("sim", "cost"), lang))
        ax.set_ylabel(_say(msg("sim", "copies"), lang))
        ax.legend(loc="upper right", fontsize=8)
    for ax, deck in zip(axes_list[len(decks) :], decks, strict=False):
        turns = list(range(1, len(deck["turns"]) + 1))
        for j, group in enumerate(deck["costs"]):
            p = group["p_castable_by_turn"]
            se = group["p_castable_by_turn_se"]
            ax.errorbar(
                turns,
                p,
                yerr=[1.959963984540054 * e for e in se],
                color=colour(None, j),
                marker="o",
                markersize=3,
                capsize=2,
                label=_say(COST_LABEL(cost=group["cost"]), lang),
            )
        ax.set_title(_say(CASTABLE_TITLE(deck=_label(deck)), lang), loc="left")
        ax.set_xlabel(_say(msg("sim", "turn"), lang))
        ax.set_ylim(0, 1.02)
        ax.legend(loc="lower right", fontsize=7, ncol=2)
    figure.tight_layout()
    return png_bytes(figure)
