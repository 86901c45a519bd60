"""What `stats` and `tune` share across games (docs/reference/commands/tune.md): the on-curve formula, text and charts.

The games compute their own odds (each in its package's tuner); this module holds the
game-independent arithmetic and drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from varz_deck.core.analysis.capabilities import DeckUnusable
from varz_deck.core.decks.entries import Entry
from varz_deck.core.messages.i18n import ENGLISH, Message, Term, msg, term

DIGITS = 9
Probability = Callable[[int], Fraction]
SIZE_FACTOR = 4  # `sim` and `tune` refuse a section of more than 4 × its size


class DeckTooLarge(DeckUnusable):
    """A deck far over its sections' sizes (a card listed on line after line): `sim` and `tune`
    refuse it as a usage error (exit 2) instead of working for minutes on tens of thousands of
    copies; `message` says which section, how many cards and what to do."""


_TOO_LARGE = msg(
    "sim",
    "{path}: its {section} section has {n:,} cards, far over the {size} it needs; sim and tune "
    "take at most {most} ({factor} × {size}). Remove cards: run varz-deck check (F003 marks a "
    "card listed on more than one line)",
)


def refuse_oversized(
    path: str, entries: Mapping[str, Sequence[Entry]], sizes: Mapping[str, int]
) -> None:
    """DeckTooLarge when a section holds more than SIZE_FACTOR × its size (`sizes`: the rulebook's
    number of cards per section); counted from the entries as read, before any check runs."""
    for section, size in sizes.items():
        n = sum(entry.count for entry in entries.get(section, ()))
        most = SIZE_FACTOR * size
        if n > most:
            message = _TOO_LARGE(
                path=path, section=Term("section", section), n=n, size=size, most=most,
                factor=SIZE_FACTOR,
            )  # fmt: skip
            raise DeckTooLarge(message=message)


def on_curve(
    drawn: Probability, pays: Probability, t0: int, last: int
) -> tuple[Fraction, Fraction | None]:
    """P(castable on turn t0) and E[first turn t >= t0 it is castable] - t0, exactly.

    `drawn(t)` is P(the card is held by turn t), `pays(t)` P(the resources of turn t pay it); both
    are non-decreasing in t and independent of each other (two separate shuffles), and the events
    are nested (a card held by t is held by t + 1; resources that pay on t pay on t + 1), so
    P(castable by t) = drawn(t) × pays(t) and E[delay] = Σ_{t >= t0} (1 − drawn(t) pays(t)).
    `last` is a turn from which neither changes any more (every card seen, resources full): the
    sum stops there, exact with no truncation; the delay is None when the card is then still not
    castable with certainty (it may never be cast: no finite expectation).
    """
    p = drawn(t0) * pays(t0)
    delay = Fraction(0)
    t = t0
    while True:
        q = drawn(t) * pays(t)
        if q == 1:
            return p, delay
        if t >= last:
            return p, None
        delay += 1 - q
        t += 1


def r(value: float | Fraction | None) -> float | None:
    """A figure for JSON: a float rounded to DIGITS decimals (never -0.0), None kept."""
    return None if value is None else round(float(value), DIGITS) + 0.0


def rounded(value: object) -> object:
    """Floats rounded to DIGITS decimals (and never -0.0), in any nesting of lists."""
    if isinstance(value, list):
        return [rounded(v) for v in value]
    if isinstance(value, float):
        return round(value, DIGITS) + 0.0
    return value


def pct(p: float | Fraction | None, digits: int = 1) -> str:
    return "–" if p is None else f"{100 * float(p):.{digits}f}%"


def points(d: float | Fraction) -> str:
    """A change of a probability in percentage points, signed."""
    value = 100 * float(d)
    return f"{value:+.1f}" if abs(value) >= 0.05 else "±0"


def cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def fit(text: str, width: int) -> str:
    """A line cut to `width` terminal cells, with an ellipsis when cut."""
    if cells(text) <= width:
        return text
    out = ""
    for ch in text:
        if cells(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def pad(text: str, width: int, right: bool = False) -> str:
    """Padded to `width` cells (cut first when longer)."""
    text = fit(text, width)
    gap = " " * max(width - cells(text), 0)
    return gap + text if right else text + gap


GLYPHS = "█▓▒░▞▚▗"
CURVE_TITLE = msg("stats", "Cost curve by colour")
CURVE_AXIS = msg("sim", "cost (copies stacked by colour)")
SWAP_TITLE = msg("tune", "Best swaps: change of the mean on-curve probability (points)")


def curve_lines(
    rows: Sequence[tuple[int, Sequence[tuple[str, int]]]],
    group: str,
    lang: str,
    width: int,
) -> list[str]:
    """A terminal chart of copies per cost, one glyph per colour (or element): `group` is the
    Term group its names are translated in ("color")."""
    colors: list[str] = []
    for _, per in rows:
        colors += [c for c, _ in per if c not in colors]
    glyph = {c: GLYPHS[i % len(GLYPHS)] for i, c in enumerate(colors)}
    peak = max((sum(n for _, n in per) for _, per in rows), default=0)
    room = max(width - 16, 10)
    scale = min(1.0, room / peak) if peak else 1.0
    out = []
    for cost, per in rows:
        total = sum(n for _, n in per)
        bar = "".join(glyph[c] * max(round(n * scale), 1 if n else 0) for c, n in per)
        out.append(fit(f"{cost:>4} │{bar} {total}", width))
    legend = "  ".join(f"{glyph[c]} {term(group, c, lang)}" for c in colors)
    if legend:
        out.append(fit("      " + legend, width))
    return out


Rows = list[tuple[int, list[tuple[str, int]]]]  # [(cost, [(colour, copies), ...]), ...]


def curve_rows(cards: Iterable[tuple[int, str, int]], groups: Sequence[str]) -> Rows:
    """Copies per cost and colour (or element) from each card's (cost, colour, copies): every cost
    the cards have, in order, with its colours in the order of `groups`, those without copies left
    out."""
    cards = list(cards)
    rows = []
    for cost in sorted({c for c, _, _ in cards}):
        per = [(g, sum(n for c, h, n in cards if c == cost and h == g)) for g in groups]
        rows.append((cost, [(g, n) for g, n in per if n]))
    return rows


Labels = Callable[[str], str]  # the language -> a title
Bars = Callable[[str], Sequence[tuple[str, float]]]  # the language -> (label, value) per swap


@dataclass(frozen=True)
class CurveCharts:
    """The cost curve (copies per cost, stacked by colour: `group` is the Term group the colours
    are translated in) and, when there are swaps, a bar per swap of its change in points."""

    title_in: Labels
    rows: Sequence[tuple[int, Sequence[tuple[str, int]]]]
    group: str
    colors: dict[str, str]
    swaps_in: Bars

    def image(self, fmt: str, lang: str = ENGLISH) -> bytes:
        """The charts as an image file's bytes in a format of FORMATS (core/analysis/plot.py)."""
        from varz_deck.core.analysis.plot import image

        return image(fmt, lambda: self.svg(lang), lambda: self.png(lang))

    def svg(self, lang: str = ENGLISH) -> str:
        """The charts as one SVG document."""
        from varz_deck.core.analysis import plot
        from varz_deck.core.analysis.plot import (
            PAD,
            PANEL_H,
            W,
            curve_bars,
            document,
            legend,
            line,
            rect,
            text,
        )

        title, swaps = self.title_in(lang), self.swaps_in(lang)

        out = [text(PAD, 26, title, 14, "start", "bold")]
        top = 80.0
        bars, seen = curve_bars(self.rows, top, self.colors, CURVE_AXIS.render(lang))
        out += bars
        bottom = top + PANEL_H - 90
        out += legend(
            [(term(self.group, c, lang), self.colors.get(c, plot.colour("grey"))) for c in seen],
            top - 14,
        )
        total = bottom + 60
        if swaps:
            top2 = total + 40
            out.append(text(PAD, top2 - 14, SWAP_TITLE.render(lang), 14, "start", "bold"))
            row_h = 18
            peak = max((abs(v) for _, v in swaps), default=1.0) or 1.0
            mid = PAD + 260 + (W - PAD - 300) / 2
            half = (W - PAD - 300) / 2
            out.append(line(mid, top2, mid, top2 + row_h * len(swaps), "#000000"))
            for i, (label, value) in enumerate(swaps):
                y = top2 + i * row_h
                out.append(text(PAD, y + 13, label[:44], 11, "start"))
                w = half * abs(value) / peak
                fill = plot.colour("green" if value >= 0 else "red")
                out.append(rect(mid if value >= 0 else mid - w, y + 3, w, row_h - 6, fill))
                out.append(text(mid + half + 30, y + 13, f"{value:+.2f}", 11, "end"))
            total = top2 + row_h * len(swaps) + 20
        return document(out, total)

    def png(self, lang: str = ENGLISH) -> bytes:
        """The same charts through matplotlib (the `plot` extra), in English when no font has the
        language's characters."""
        from varz_deck.core.analysis.plot import colour, matplotlib_for, png_bytes, stacked_bars

        with matplotlib_for(lang) as drawn_in:
            title, swaps = self.title_in(drawn_in), self.swaps_in(drawn_in)
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure

            n = 2 if swaps else 1
            figure = Figure(figsize=(9, 3.4 * n), dpi=100)
            FigureCanvasAgg(figure)
            axes = figure.subplots(n, 1, squeeze=False)[:, 0]
            ax = axes[0]
            seen = stacked_bars(ax, self.rows, self.colors, lambda c: term(self.group, c, drawn_in))
            ax.set_title(title, loc="left")
            ax.set_xlabel(CURVE_AXIS.render(drawn_in))
            if seen:
                ax.legend(loc="upper right", fontsize=8)
            if swaps:
                ax = axes[1]
                labels = [label[:44] for label, _ in swaps][::-1]
                values = [v for _, v in swaps][::-1]
                ax.barh(
                    labels, values, color=[colour("green" if v >= 0 else "red") for v in values]
                )
                ax.set_title(SWAP_TITLE.render(drawn_in), loc="left")
            figure.tight_layout()
            return png_bytes(figure)


def say(message: Message, lang: str) -> str:
    return message.render(lang)
