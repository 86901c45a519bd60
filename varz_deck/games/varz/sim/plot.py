"""The text report's charts as an image: SVG written by hand, PNG through matplotlib (extra `plot`).

Titles, axes and legends are in the chosen language; a PNG in Japanese or Chinese needs a CJK font
matplotlib can find, and is drawn with English words without one.
"""

from __future__ import annotations

from collections.abc import Sequence

from varz_deck.core.analysis.plot import (
    PAD,
    PANEL_H,
    W,
    axes,
    colour,
    curve_bars,
    document,
    image,
    legend,
    line,
    matplotlib_for,
    png_bytes,
    rect,
    stacked_bars,
    text,
)
from varz_deck.core.messages.i18n import ENGLISH, Message, msg, term
from varz_deck.games.varz.cards import PALETTE_NAMES, VAZ_AVAILABLE, VAZ_SPENT
from varz_deck.games.varz.sim.report import Z95, cost_curve_rows, spent_rows
from varz_deck.games.varz.sim.run import Result

HEX = {c: colour(name) for c, name in PALETTE_NAMES.items()}
COST_TITLE = msg("sim", "Cost curve by colour: {deck}")
VAZ_TITLE = msg("sim", "VAZ per turn: available and spent (95% interval)")
SPENT_LABEL = msg("sim", "spent: {deck}")


def plot(results: Sequence[Result], fmt: str, lang: str = ENGLISH) -> bytes:
    """The charts of one run (or two compared) as an image file's bytes; fmt is "svg" or "png"."""
    return image(fmt, lambda: svg(results, lang), lambda: png(results, lang))


def _label(result: Result) -> str:
    return result.model.name or result.model.path


def _say(message: Message, lang: str) -> str:
    return message.render(lang)


def _cost_panel(result: Result, top: float, lang: str = ENGLISH) -> list[str]:
    rows = cost_curve_rows(result.model)
    title = _say(COST_TITLE(deck=_label(result)), lang)
    out = [text(PAD, top - 34, title, 14, "start", "bold")]
    bars, colors = curve_bars(
        rows, top, HEX, _say(msg("sim", "cost (copies stacked by colour)"), lang)
    )
    out += bars
    return out + legend(
        [(term("color", c, lang), HEX.get(c, colour("grey"))) for c in colors], top - 14
    )


def _vaz_panel(results: Sequence[Result], top: float, lang: str = ENGLISH) -> list[str]:
    series = [spent_rows(r) for r in results]
    turns = len(series[0])
    out = [text(PAD, top - 34, _say(VAZ_TITLE, lang), 14, "start", "bold")]
    height = PANEL_H - 90
    grid, ymax = axes(top, height, max([v for s in series for _, v, _, _ in s] + [1]))
    out += grid
    slot = (W - PAD - 20) / max(turns, 1)
    bar = slot * 0.7 / len(series)
    bottom = top + height
    for t in range(turns):
        for j, rows in enumerate(series):
            _, vaz, spent, se = rows[t]
            x = PAD + slot * t + slot * 0.15 + bar * j
            out.append(
                rect(
                    x,
                    bottom - height * vaz / ymax,
                    bar * 0.9,
                    height * vaz / ymax,
                    colour(VAZ_AVAILABLE),
                )
            )
            out.append(
                rect(
                    x,
                    bottom - height * spent / ymax,
                    bar * 0.9,
                    height * spent / ymax,
                    colour(VAZ_SPENT[j % len(VAZ_SPENT)]),
                )
            )
            lo, hi = spent - Z95 * se, spent + Z95 * se
            cx = x + bar * 0.45
            out.append(
                line(cx, bottom - height * lo / ymax, cx, bottom - height * hi / ymax, "#000000")
            )
        out.append(text(PAD + slot * t + slot / 2, bottom + 16, str(t + 1), 11))
    out.append(text(PAD + (W - PAD - 20) / 2, bottom + 34, _say(msg("sim", "turn"), lang), 11))
    items = [(_say(msg("sim", "available"), lang), colour(VAZ_AVAILABLE))] + [
        (_say(SPENT_LABEL(deck=_label(r)), lang), colour(VAZ_SPENT[j % len(VAZ_SPENT)]))
        for j, r in enumerate(results)
    ]
    return out + legend([(name[:40], fill) for name, fill in items], top - 14)


def svg(results: Sequence[Result], lang: str = ENGLISH) -> str:
    """An SVG document: the cost curve of each deck, then VAZ available and spent per turn."""
    parts: list[str] = []
    top = 70.0
    for result in results:
        parts += _cost_panel(result, top, lang)
        top += PANEL_H
    parts += _vaz_panel(results, top, lang)
    return document(parts, top + PANEL_H - 20)


# --------------------------------------------------------------------------- PNG


def png(results: Sequence[Result], lang: str = ENGLISH) -> bytes:
    """The same charts drawn by matplotlib (installed with the `plot` extra)."""
    with matplotlib_for(lang) as drawn_in:
        return _png(results, drawn_in)


def _png(results: Sequence[Result], lang: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 3.2 * (len(results) + 1)), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(results) + 1, 1, squeeze=False)[:, 0]
    for ax, result in zip(axes, results, strict=False):
        rows = cost_curve_rows(result.model)
        stacked_bars(ax, rows, HEX, lambda c: term("color", c, lang))
        ax.set_title(_say(COST_TITLE(deck=_label(result)), lang), loc="left")
        ax.set_xlabel(_say(msg("sim", "cost"), lang))
        ax.set_ylabel(_say(msg("sim", "copies"), lang))
        ax.legend(loc="upper right", fontsize=8)
    ax = axes[-1]
    width = 0.8 / len(results)
    for j, result in enumerate(results):
        turns = spent_rows(result)
        xs = [t + (j - (len(results) - 1) / 2) * width for t, _, _, _ in turns]
        ax.bar(
            xs,
            [v for _, v, _, _ in turns],
            width=width * 0.9,
            color=colour(VAZ_AVAILABLE),
            label=_say(msg("sim", "available"), lang) if j == 0 else None,
        )
        ax.bar(
            xs,
            [s for _, _, s, _ in turns],
            width=width * 0.9,
            color=colour(VAZ_SPENT[j % len(VAZ_SPENT)]),
            yerr=[Z95 * se for _, _, _, se in turns],
            capsize=2,
            label=_say(SPENT_LABEL(deck=_label(result)), lang),
        )
    ax.set_title(_say(VAZ_TITLE, lang), loc="left")
    ax.set_xlabel(_say(msg("sim", "turn"), lang))
    ax.set_ylabel(_say(msg("sim", "VAZ"), lang))
    ax.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    return png_bytes(figure)
