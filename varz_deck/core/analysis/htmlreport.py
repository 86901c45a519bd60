"""`varz-deck report`: one self-contained HTML page of a deck's analysis (core/analysis/parts.py).

Pure functions returning strings. The page has inline CSS and SVG only: no script, no outside
resource, so it opens offline, prints, and can be mailed. Every value is escaped; every figure
cell carries its JSON value (`data-value`, and `data-se` when sampled) so a test can compare the
page with the JSON.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from varz_deck.core.analysis.parts import (
    COUNT,
    NUMBER,
    PERCENT,
    TURN,
    Analysis,
    Chart,
    Column,
    Figure,
    Omitted,
    Part,
    Table,
)
from varz_deck.core.analysis.plot import colour
from varz_deck.core.messages.i18n import Message, localized, msg, value_text
from varz_deck.core.messages.sanitize import safe

if TYPE_CHECKING:
    from varz_deck.core.analysis.glossary import Entry

Z95 = 1.959963984540054
# Colours with at least 3:1 against white (WCAG's non-text contrast), told apart by their
# legend's words and each bar's own title too.

_CSS = """
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff;
       max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
p.meta, p.note, p.omitted, p.settings { color: #444; }
.legal { color: #1b5e20; font-weight: 600; }
.illegal { color: #b3261e; font-weight: 600; }
ul.answer li { margin: .25rem 0; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; max-width: 100%; }
a { color: #0645ad; }
figure { margin: 1rem 0; }
figure svg { display: block; }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .2rem 1rem; padding: 0;
            margin: .3rem 0; font-size: .87rem; }
ul.legend svg { display: inline; vertical-align: -1px; margin-right: .35rem; }
dl dt { font-weight: 600; margin-top: .6rem; }
dl dd { margin-left: 1rem; }
code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; } table, figure { break-inside: avoid; } }
"""

_TITLE = msg("report", "Deck report: {title}")
_META = msg("report", "{game} · {deck} · checked as of {date}")
_LEGAL = msg("report", "Legal in {format} as of {date}.")
_ILLEGAL = msg(
    "report", "Not legal in {format} as of {date}: {errors} error(s), {warnings} warning(s)."
)
_WARNINGS = msg("report", "{warnings} warning(s).")
_VERDICT = msg("report", "Legality")
_ANSWER = msg("report", "In short")
_GLOSSARY = msg("report", "What the figures mean")
_EXACT_NOTE = msg(
    "report",
    "Figures without ± are exact; figures with ± are sampled from goldfish games (95% interval).",
)
_ALL_EXACT = msg("report", "Every figure on this page is exact: counted, not sampled.")
_FOOTER = msg(
    "report",
    "Made by varz-deck report. varz-deck explain TERM says what a figure means in the terminal.",
)
_NEVER = msg("sim", "never")


def _slashes(escaped: str) -> str:
    """Escaped text that may wrap after each slash (a path on a phone), not inside a name."""
    return escaped.replace("/", "/<wbr>")


def render(analysis: Analysis, glossary: Mapping[str, Entry], lang: str) -> str:
    """The whole page, in a language."""

    def say(message: Message) -> str:
        return _slashes(html.escape(message.render(lang)))

    title = say(_TITLE(title=safe(analysis.title)))
    body = [
        f"<h1>{title}</h1>",
        f'<p class="meta">{say(_META(game=analysis.game_name, deck=safe(analysis.deck), date=analysis.date.isoformat()))}</p>',
        *verdict(analysis, lang),
    ]
    if analysis.answer:
        body.append(f'<h2 id="answer">{say(_ANSWER)}</h2>')
        body.append('<ul class="answer">')
        body += [f"<li>{say(m)}</li>" for m in analysis.answer]
        body.append("</ul>")
    body += [f'<p class="settings">{say(m)}</p>' for m in analysis.settings]
    for n, part in enumerate(analysis.parts):
        body += _part(part, glossary, lang, n)
    body += _glossary(_terms(analysis.parts), glossary, lang)
    exact, sampled = _kinds(analysis.parts)
    if sampled:
        body.append(f'<p class="note">{say(_EXACT_NOTE)}</p>')
    elif exact:
        body.append(f'<p class="note">{say(_ALL_EXACT)}</p>')
    body.append(f'<p class="note">{say(_FOOTER)}</p>')
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


def verdict(analysis: Analysis, lang: str) -> list[str]:
    """The legality verdict and each located problem."""
    v = analysis.verdict
    errors = sum(1 for d in v.diagnostics if d.severity.value == "error")
    warnings = len(v.diagnostics) - errors
    facts = {"format": v.format or "–", "date": analysis.date.isoformat()}
    if v.legal:
        line = _LEGAL(**facts)
        css = "legal"
    else:
        line = _ILLEGAL(**facts, errors=errors, warnings=warnings)
        css = "illegal"
    out = [f'<h2 id="legality">{html.escape(_VERDICT.render(lang))}</h2>']
    out.append(f'<p class="{css}" id="verdict">{html.escape(line.render(lang))}</p>')
    if v.legal and warnings:
        out.append(f"<p>{html.escape(_WARNINGS(warnings=warnings).render(lang))}</p>")
    if v.diagnostics:
        out.append('<ul class="diagnostics">')
        for d in v.diagnostics:
            place = f"{d.file or analysis.deck}" + (f":{d.line}:{d.column}" if d.line else "")
            text = f"{safe(place)}: {d.code} {safe(localized(d, lang))}"
            out.append(f"<li><code>{_slashes(html.escape(text))}</code></li>")
        out.append("</ul>")
    return out


def figure_text(figure: Figure, lang: str) -> str:
    """A figure as the page shows it: a percentage with one decimal, a mean with two, a count or
    a turn whole; ± the 95% interval when sampled; – for none (a turn never reached: "never")."""
    v = figure.value
    if v is None:
        return _NEVER.render(lang) if figure.unit == TURN else "–"
    if figure.unit == PERCENT:
        text = f"{100 * v:.1f}%"
        spread = f" ±{100 * Z95 * figure.se:.1f}" if figure.se is not None else ""
    elif figure.unit == NUMBER:
        text = f"{v:.2f}"
        spread = f" ±{Z95 * figure.se:.2f}" if figure.se is not None else ""
    else:
        text, spread = f"{int(v)}", ""
    return text + spread


def _cell(value: object, lang: str) -> str:
    if isinstance(value, Figure):
        data = f' data-value="{html.escape(repr(value.value))}"'
        if value.se is not None:
            data += f' data-se="{html.escape(repr(value.se))}"'
        return f'<td class="n"{data}>{html.escape(figure_text(value, lang))}</td>'
    if isinstance(value, Message):
        return f"<td>{html.escape(value.render(lang))}</td>"
    return f"<td>{html.escape(safe(str(value_text(value, lang))))}</td>"


def _upper(text: str) -> str:
    """A glossary name as a title: its first letter upper case (a no-op in Japanese, Chinese)."""
    return text[:1].upper() + text[1:]


def _heading(title: Message | str, term: str | None, lang: str) -> str:
    text = html.escape(_upper(title.render(lang) if isinstance(title, Message) else safe(title)))
    return f'<a href="#term-{term}">{text}</a>' if term else text


def _part(part: Part, glossary: Mapping[str, Entry], lang: str, n: int) -> list[str]:
    title = _heading(part.title, getattr(part, "term", None), lang)  # a chart's term: linked
    out = [f'<h2 id="part-{html.escape(part.key)}">{title}</h2>']
    if isinstance(part, Omitted):
        out.append(f'<p class="omitted">{html.escape(part.reason.render(lang))}</p>')
    elif isinstance(part, Table):
        out += _table(part, lang)
    else:
        out += _chart(part, lang, n)
    note = getattr(part, "note", None)
    if note is not None:
        out.append(f'<p class="note">{html.escape(note.render(lang))}</p>')
    return out


def _table(table: Table, lang: str) -> list[str]:
    numeric = [
        any(isinstance(row[i], Figure) for row in table.rows) for i in range(len(table.columns))
    ]
    right = ' class="n"'
    heads = "".join(
        f'<th scope="col"{right if numeric[i] else ""}>{_heading(c.title, c.term, lang)}</th>'
        for i, c in enumerate(table.columns)
    )
    label = html.escape(_upper(table.title.render(lang)))
    out = [f'<div class="scroll" role="region" tabindex="0" aria-label="{label}">']
    out.append(f'<table id="table-{html.escape(table.key)}" data-part="{html.escape(table.key)}">')
    out.append(f"<thead><tr>{heads}</tr></thead><tbody>")
    for row in table.rows:
        cells = [_cell(value, lang) for value in row]
        if cells and not isinstance(row[0], Figure):  # the row's label heads it
            cells[0] = cells[0].replace("<td>", '<th scope="row">', 1).replace("</td>", "</th>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return out


def _label(value: object, lang: str) -> str:
    if isinstance(value, Message):
        return value.render(lang)
    return safe(str(value_text(value, lang)))


# A chart's drawing: its height and the room above the bars (a stacked bar's total) and below
# them (the category, then the axis's name), in pixels; its width is the page's (positions in
# percent), so it reflows and its text stays FONT pixels at any width.
_HEIGHT, _TOP, _BOTTOM, _FONT = 240, 20, 40, 13
_SIDE = 2.0  # percent of the width left empty on each side
_LABELLED = 12  # at most this many categories named under the bars (else every other, ...)


def _chart(chart: Chart, lang: str, n: int) -> list[str]:
    """Bars in SVG with an HTML legend above them, a title and a description in words, and the
    same data as a table."""
    plot_h = _HEIGHT - _TOP - _BOTTOM
    k = len(chart.categories) or 1
    totals = [
        sum(v or 0 for v in (s.values[i] for s in chart.series))
        if chart.stacked
        else max((s.values[i] or 0 for s in chart.series), default=0)
        for i in range(len(chart.categories))
    ]
    top_value = max([*totals, 1.0])
    slot = (100 - 2 * _SIDE) / k
    every = -(-k // _LABELLED)  # a label every `every` categories: they keep apart on a phone
    labels = [_label(s.label, lang) for s in chart.series]
    fills = [colour(s.colour, j) for j, s in enumerate(chart.series)]  # one palette (core/plot)
    chart_id = f"chart-{n}"
    desc = "; ".join(
        f"{html.escape(_label(chart.axis, lang))} {html.escape(c)}: "
        + ", ".join(
            f"{html.escape(labels[j])} {_number(s.values[i], chart.unit)}"
            for j, s in enumerate(chart.series)
        )
        for i, c in enumerate(chart.categories)
    )
    axis_y = _TOP + plot_h
    text = f'text-anchor="middle" font-size="{_FONT}" fill="#1a1a1a"'
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="{_HEIGHT}" '
        f'role="img" aria-labelledby="{chart_id}-t {chart_id}-d">',
        f'<title id="{chart_id}-t">{html.escape(chart.title.render(lang))}</title>',
        f'<desc id="{chart_id}-d">{desc}</desc>',
        f'<line x1="{_SIDE}%" y1="{axis_y}" x2="{100 - _SIDE}%" y2="{axis_y}" stroke="#333"/>',
    ]
    for i, category in enumerate(chart.categories):
        x0 = _SIDE + i * slot
        base: float = axis_y
        bars = len(chart.series) if not chart.stacked else 1
        bar_w = slot * 0.7 / bars
        for j, s in enumerate(chart.series):
            value = s.values[i] or 0
            h = plot_h * value / top_value
            x = x0 + slot * 0.15 + (0 if chart.stacked else j * bar_w)
            y = base - h
            tip = (
                f"{labels[j]}, {_label(chart.axis, lang)} {category}: {_number(value, chart.unit)}"
            )
            svg.append(
                f'<rect x="{x:.2f}%" y="{y:.1f}" width="{bar_w:.2f}%" height="{h:.1f}" '
                f'fill="{fills[j]}"><title>{html.escape(tip)}</title></rect>'
            )
            if chart.stacked:
                base = y
        if i % every:
            continue
        middle = f"{x0 + slot / 2:.2f}%"
        svg.append(f'<text x="{middle}" y="{axis_y + 17}" {text}>{html.escape(category)}</text>')
        if chart.stacked and totals[i]:
            svg.append(
                f'<text x="{middle}" y="{base - 5:.1f}" {text}>{_number(totals[i], chart.unit)}</text>'
            )
    svg.append(
        f'<text x="50%" y="{_HEIGHT - 5}" {text}>{html.escape(_label(chart.axis, lang))}</text>'
    )
    svg.append("</svg>")
    legend = ['<ul class="legend">']
    for fill, label in zip(fills, labels, strict=True):
        legend.append(
            '<li><svg width="12" height="12" aria-hidden="true" focusable="false">'
            f'<rect width="12" height="12" fill="{fill}"/></svg>{html.escape(label)}</li>'
        )
    legend.append("</ul>")
    data = Table(
        chart.key,
        chart.title,
        (_column(chart.axis), *(_column(label) for label in labels)),
        tuple(
            (category, *(Figure(s.values[i], chart.unit) for s in chart.series))
            for i, category in enumerate(chart.categories)
        ),
    )
    return [
        f'<figure id="figure-{html.escape(chart.key)}" '
        f'aria-labelledby="part-{html.escape(chart.key)}">',  # its section's heading names it
        "".join(legend),
        "\n".join(svg),
        "</figure>",
        *_table(data, lang),
    ]


def _column(title: Message | str) -> Column:
    return Column(title)


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    if unit == COUNT:
        return str(int(value))
    if unit == PERCENT:
        return f"{100 * value:.1f}%"
    return f"{value:.2f}" if unit == NUMBER else str(value)


def _kinds(parts: Iterable[Part]) -> tuple[bool, bool]:
    """Whether the tables show any figure, and any sampled one (with ±)."""
    figures = [
        cell
        for part in parts
        if isinstance(part, Table)
        for row in part.rows
        for cell in row
        if isinstance(cell, Figure)
    ]
    return bool(figures), any(f.se is not None for f in figures)


def _terms(parts: Sequence[Part]) -> list[str]:
    """The glossary keys the page's parts use, in order of first use, then exact and sampled
    when the page shows such figures."""
    seen: list[str] = []
    for part in parts:
        keys = [c.term for c in part.columns] if isinstance(part, Table) else []
        keys += [part.term] if isinstance(part, Chart) else []
        for key in keys:
            if key and key not in seen:
                seen.append(key)
    exact, sampled = _kinds(parts)
    shown = [k for k, there in (("exact", exact), ("sampled", sampled)) if there]
    return [*seen, *(k for k in shown if k not in seen)]


def _glossary(keys: list[str], glossary: Mapping[str, Entry], lang: str) -> list[str]:
    out = [f'<h2 id="glossary">{html.escape(_GLOSSARY.render(lang))}</h2>', "<dl>"]
    for key in keys:
        e = glossary.get(key)
        if e is None:
            continue
        symbol = f" ({html.escape(e.symbol)})" if e.symbol else ""
        out.append(
            f'<dt id="term-{html.escape(key)}">{html.escape(e.name.render(lang))}{symbol}</dt>'
        )
        out.append(f"<dd>{html.escape(e.definition.render(lang))}</dd>")
    out.append("</dl>")
    return out
