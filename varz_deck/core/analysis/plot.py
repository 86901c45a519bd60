"""What every game's charts share: the palette, the formats `sim --plot` writes, the error it
raises, the SVG primitives (text, rectangles, whole-number axes, legends, the document) and the PNG set-up
(matplotlib, with a CJK font when the language needs one).

SVG is written by hand; PNG needs matplotlib (extra `plot`). A PNG in Japanese or Chinese needs a
CJK font matplotlib can find, and is drawn with English words without one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol
from xml.sax.saxutils import escape

from varz_deck.core.messages.i18n import ENGLISH, Message, msg

FORMATS = ("svg", "png")

W, PANEL_H, PAD = 860, 300, 50  # the page width, one panel's height, the left margin
GRID, AXIS = "#eeeeee", "#333333"
# One palette for every chart (the report page's and every --plot file's): a colour's name to
# the colour it is drawn in (a game names the colour each of its colours or elements is drawn
# in), and the order of the colours of series without one of their own.
PALETTE = {
    "red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "purple": "#9467bd",
    "yellow": "#e0b000", "silver": "#9aa5b1", "grey": "#7f7f7f", "light grey": "#d9d9d9",
    "brown": "#8c564b", "orange": "#ff7f0e", "pink": "#e377c2", "cyan": "#17becf",
}  # fmt: skip
SERIES = ("blue", "orange", "green", "red", "purple", "brown", "pink", "cyan")
CJK_FONTS = {
    "ja": ("Noto Sans CJK JP", "Noto Serif CJK JP", "IPAexGothic", "IPAGothic", "TakaoGothic",
           "Hiragino Sans", "Yu Gothic", "MS Gothic"),
    "zh": ("Noto Sans CJK SC", "Noto Serif CJK SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
           "PingFang SC", "Microsoft YaHei", "SimHei"),
}  # fmt: skip


class PlotError(Exception):
    """The plot cannot be made (an unknown format, or matplotlib missing for PNG)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


def unknown_format(fmt: str) -> PlotError:
    """The error for a format that is not in FORMATS."""
    return PlotError(
        msg("sim", "cannot write a .{format} plot; use a file name ending in .svg or .png")(
            format=fmt
        )
    )


def image(fmt: str, svg: Callable[[], str], png: Callable[[], bytes]) -> bytes:
    """An image file's bytes in a format of FORMATS: the SVG document in UTF-8, or the PNG."""
    if fmt == "svg":
        return svg().encode("utf-8")
    if fmt == "png":
        return png()
    raise unknown_format(fmt)


def colour(name: str | None = None, n: int = 0) -> str:
    """The colour a chart draws in: the palette's colour of that name; for no name (or one the
    palette has not got), the n-th series colour."""
    return PALETTE.get(name or "") or PALETTE[SERIES[n % len(SERIES)]]


def cells(text: str) -> int:
    """Roughly how many Latin letters wide the text is (CJK characters count as two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# --------------------------------------------------------------------------- SVG


def num(x: float) -> str:
    """A coordinate as SVG gets it: one decimal."""
    return f"{x:.1f}"


def text(
    x: float, y: float, s: str, size: int = 12, anchor: str = "middle", weight: str = ""
) -> str:
    """A <text> element; the string is XML-escaped."""
    bold = ' font-weight="bold"' if weight else ""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}"{bold}>'
        f"{escape(s)}</text>"
    )


def rect(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{fill}"/>'


def line(x1: float, y1: float, x2: float, y2: float, stroke: str) -> str:
    return f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{stroke}"/>'


def axes(top: float, height: float, peak: float) -> tuple[list[str], float]:
    """Grid lines with whole-number ticks up to at least `peak`; returns them and the axis
    maximum."""
    step = 1 if peak <= 10 else -(-int(peak) // 5)
    ymax = float(step * max(1, -(-int(peak) // step)))
    out = []
    bottom = top + height
    ticks = int(ymax // step)
    for i in range(ticks + 1):
        y = bottom - height * i / ticks
        out.append(f'<line x1="{PAD}" y1="{num(y)}" x2="{W - 20}" y2="{num(y)}" stroke="{GRID}"/>')
        out.append(text(PAD - 6, y + 4, str(i * step), 11, "end"))
    out.append(
        f'<line x1="{PAD}" y1="{num(bottom)}" x2="{W - 20}" y2="{num(bottom)}" stroke="{AXIS}"/>'
    )
    return out, ymax


def percent_axes(top: float, height: float) -> list[str]:
    """Grid lines at 0, 25, 50, 75 and 100% (for probabilities)."""
    out = []
    bottom = top + height
    for i in range(5):
        y = bottom - height * i / 4
        out.append(line(PAD, y, W - 20, y, AXIS if i == 0 else GRID))
        out.append(text(PAD - 6, y + 4, f"{25 * i}%", 11, "end"))
    return out


def legend(items: Sequence[tuple[str, str]], y: float) -> list[str]:
    """Coloured squares with their names, in one row from the left margin."""
    out = []
    x = float(PAD)
    for name, fill in items:
        out.append(rect(x, y - 9, 10, 10, fill))
        out.append(text(x + 14, y, name, 11, "start"))
        x += 30 + 6.5 * cells(name)
    return out


CurveRows = Sequence[tuple[int, Sequence[tuple[str, int]]]]  # (cost, [(group, copies), ...])


def curve_bars(
    rows: CurveRows, top: float, colours: Mapping[str, str], axis_label: str
) -> tuple[list[str], list[str]]:
    """A cost-curve panel below its title: the axes, a bar per cost with its copies stacked by
    group (each in its colour, grey without one), the costs under them and the axis label; and
    the groups in the order they first appear."""
    height = PANEL_H - 90
    out, ymax = axes(top, height, max((sum(n for _, n in per) for _, per in rows), default=1))
    slot = (W - PAD - 20) / max(len(rows), 1)
    bottom = top + height
    seen: list[str] = []
    for i, (cost, per) in enumerate(rows):
        x = PAD + slot * i + slot * 0.2
        y = bottom
        for group, n in per:
            h = height * n / ymax
            y -= h
            out.append(rect(x, y, slot * 0.6, h, colours.get(group, colour("grey"))))
            if group not in seen:
                seen.append(group)
        out.append(text(x + slot * 0.3, bottom + 16, str(cost), 11))
    out.append(text(PAD + (W - PAD - 20) / 2, bottom + 34, axis_label, 11))
    return out, seen


class BarAxes(Protocol):
    """What `stacked_bars` draws on: a matplotlib Axes."""

    def bar(
        self, x: float, height: float, *, bottom: float, color: str, label: str | None
    ) -> object: ...


def stacked_bars(
    ax: BarAxes, rows: CurveRows, colours: Mapping[str, str], named: Callable[[str], str]
) -> set[str]:
    """The cost curve through matplotlib: a bar per cost, its copies stacked by group, each group
    labelled (`named`) once for the legend; returns the groups drawn."""
    seen: set[str] = set()
    for cost, per in rows:
        bottom = 0
        for group, n in per:
            label = None if group in seen else named(group)
            seen.add(group)
            ax.bar(cost, n, bottom=bottom, color=colours.get(group, colour("grey")), label=label)
            bottom += n
    return seen


def document(parts: Sequence[str], height: float) -> str:
    """An SVG document W wide: a white page, then the parts."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{num(height)}" '
        f'viewBox="0 0 {W} {num(height)}" font-family="sans-serif">'
    )
    return "\n".join([head, rect(0, 0, W, height, "#ffffff"), *parts, "</svg>"]) + "\n"


# --------------------------------------------------------------------------- PNG


def cjk_fonts(lang: str) -> list[str]:
    """The installed fonts matplotlib can draw the language with (none needed for English)."""
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    return [name for name in CJK_FONTS.get(lang, ()) if name in installed]


@contextlib.contextmanager
def matplotlib_for(lang: str) -> Iterator[str]:
    """matplotlib set up for the language; yields the language to draw the words in (English
    when no font has the language's characters: English words, not empty boxes). PlotError
    when matplotlib is missing."""
    try:
        import matplotlib
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
    except ImportError as err:
        raise PlotError(
            msg(
                "sim",
                "PNG plots need matplotlib: pip install matplotlib, or write an .svg file",
            )
        ) from err
    fonts = cjk_fonts(lang) if lang != ENGLISH else []
    if lang != ENGLISH and not fonts:
        lang = ENGLISH
    with matplotlib.rc_context({"font.family": ["DejaVu Sans", *fonts]} if fonts else {}):
        yield lang


def png_bytes(figure: object) -> bytes:
    """A matplotlib figure as PNG bytes (no timestamp or software tag: same input, same bytes)."""
    import io

    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})  # type: ignore[attr-defined]
    return out.getvalue()
