"""The printable registration sheet: one self-contained HTML page per deck (A4 and Letter).

No network resources (a Content-Security-Policy forbids them), system fonts only, one page for a
legal deck: the page content is sized for the smaller of A4 and Letter in each direction.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable

from varz_deck import __version__
from varz_deck.cards import Card
from varz_deck.diagnostics import safe
from varz_deck.registration.canonical import CanonicalCard, CanonicalDeck
from varz_deck.registration.register import Registration

_UNSAFE_NAME = re.compile(r"[^\w.-]+")
_TITLES = {"spells": "Spells", "skills": "Skills", "portals": "Portals"}
_TARGETS = {"spells": 30, "skills": 9, "portals": 8}
SHIELD_LIFE = 20

CSS = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
html { font: 9.5pt/1.3 "Liberation Sans", Arial, Helvetica, "DejaVu Sans", "Noto Sans CJK JP",
  sans-serif; color: #111; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; }
.sheet { width: 186mm; margin: 0 auto; }
@media screen {
  body { background: #e8e8e8; padding: 8mm 0; }
  .sheet { background: #fff; padding: 10mm 12mm; width: 210mm; box-shadow: 0 1px 6px #0004; }
}
header { display: flex; justify-content: space-between; align-items: flex-start;
  border-bottom: 2px solid #111; padding-bottom: 2mm; margin-bottom: 3mm; }
h1 { font-size: 15pt; margin: 0; }
.event { font-size: 11pt; margin-top: 1mm; }
.status { font-weight: bold; font-size: 11pt; padding: 1.5mm 3mm; border: 2px solid; border-radius: 2mm;
  white-space: nowrap; margin-left: 4mm; }
.legal { color: #0a6b2d; } .illegal { color: #b00020; }
dl.who { display: grid; grid-template-columns: 20mm 1fr 20mm 1fr; gap: 1mm 3mm; margin: 0 0 3mm; }
dt { font-weight: bold; color: #444; }
dd { margin: 0; border-bottom: 1px solid #999; min-height: 5mm; overflow-wrap: break-word; }
.lists { display: grid; grid-template-columns: 1.1fr 1fr; gap: 5mm; align-items: start; }
table { width: 100%; border-collapse: collapse; break-inside: avoid; margin-bottom: 3mm; }
caption { text-align: left; font-weight: bold; font-size: 10.5pt; padding-bottom: 0.5mm; }
th, td { text-align: left; padding: 0.2mm 1.2mm; line-height: 1.22; border-bottom: 1px solid #ccc; vertical-align: middle; }
th { font-size: 8pt; color: #444; border-bottom: 1px solid #111; }
td.n, th.n { text-align: right; width: 9mm; font-variant-numeric: tabular-nums; }
td.id { font-size: 8pt; width: 19mm; color: #333; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; border-bottom: none; border-top: 1px solid #111; }
.off { color: #b00020; }
.hash { display: flex; gap: 6mm; align-items: baseline; border: 1px solid #111; padding: 2mm 3mm;
  margin: 1mm 0 3mm; break-inside: avoid; }
.hash code { font: bold 15pt "Liberation Mono", "DejaVu Sans Mono", monospace; letter-spacing: 0.5pt; }
.hash small { color: #444; }
.problems { margin: 0 0 3mm; padding-left: 5mm; break-inside: avoid; }
.problems li { margin-bottom: 0.5mm; }
.notes { margin: 0 0 3mm; color: #444; }
.sign { display: grid; grid-template-columns: 2fr 2fr 1fr; gap: 3mm 6mm; margin-top: 10mm;
  break-inside: avoid; }
.sign div { border-top: 1px solid #111; padding-top: 1mm; font-size: 8pt; color: #444; }
footer { margin-top: 3mm; font-size: 7.5pt; color: #555; }
"""


def sheet_filename(reg: Registration, taken: set[str]) -> str:
    """A file name for a deck's sheet: its file's stem (or the hash for a code), unique in `taken`."""
    stem = reg.path.replace("\\", "/").rsplit("/", 1)[-1]
    if "." in stem:
        stem = stem.rsplit(".", 1)[0]
    if reg.is_code:
        stem = f"code-{reg.deck_hash or 'unreadable'}"
    base = _UNSAFE_NAME.sub("-", stem).strip("-.") or "deck"
    name, n = f"{base}.html", 2
    while name.casefold() in taken:
        name, n = f"{base}-{n}.html", n + 1
    taken.add(name.casefold())
    return name


def render_sheet(reg: Registration) -> str:
    """One registration as a complete HTML document."""
    canonical = reg.canonical
    report = reg.report
    fmt_name = _format_name(reg)
    status = (
        f'<div class="status legal">LEGAL · {_e(fmt_name)}</div>'
        if reg.legal
        else f'<div class="status illegal">NOT LEGAL · {_plural(report.errors, "error")}</div>'
    )
    title = " — ".join(x for x in ("Deck registration", reg.player, reg.event) if x)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f'<meta name="generator" content="varz-deck {__version__}">',
        f"<title>{_e(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        '<main class="sheet">',
        "<header><div>",
        "<h1>Deck registration</h1>",
        f'<div class="event">{_e(reg.event) or "&nbsp;"}</div>',
        f"</div>{status}</header>",
        '<dl class="who">',
        f"<dt>Player</dt><dd>{_e(reg.player)}</dd>",
        f"<dt>Format</dt><dd>{_e(fmt_name)}</dd>",
        f"<dt>Hero</dt><dd>{_hero(canonical)}</dd>",
        f"<dt>Deck</dt><dd>{_e(report.name or reg.path)}</dd>",
        "</dl>",
    ]
    if canonical is not None:
        parts.append('<div class="lists"><div>')
        parts.append(_table(canonical, "spells"))
        parts.append("</div><div>")
        parts.append(_table(canonical, "skills"))
        parts.append(_table(canonical, "portals", _pooled(reg)))
        parts.append("</div></div>")
        parts.append(
            '<div class="hash"><span>Deck hash</span>'
            f"<code>{_e(reg.deck_hash or '')}</code>"
            f"<small>check at the table: varz-deck verify DECK --hash {_e(reg.deck_hash or '')}</small>"
            "</div>"
        )
    else:
        parts.append(
            '<p class="illegal"><b>This deck could not be read completely, so it has no deck hash.'
            "</b> Fix the problems below and register it again.</p>"
        )
    if reg.legal and report.diagnostics:  # warnings only: one line, so the sheet stays one page
        counts = Counter(d.code for d in report.diagnostics)
        listed = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(counts.items()))
        parts.append(
            f'<p class="notes">{_plural(len(report.diagnostics), "warning")} ({_e(listed)}); '
            "`varz-deck check` explains them.</p>"
        )
    elif report.diagnostics:
        parts.append('<ol class="problems">')
        parts.extend(
            f'<li class="{"illegal" if d.is_error else ""}"><b>{_e(d.code)}</b> '
            f"{_e(d.severity.value)}{_where(d.line, d.section)}: {_e(d.message)}</li>"
            for d in report.diagnostics
        )
        parts.append("</ol>")
    parts.extend(
        [
            '<div class="sign">',
            "<div>Player signature</div><div>Judge / organiser (deck checked)</div><div>Date</div>",
            "</div>",
            f"<footer>varz-deck {__version__} · {_e(reg.path)}</footer>",
            "</main>",
            "</body>",
            "</html>",
        ]
    )
    return "\n".join(parts) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _e(text: str) -> str:
    return html.escape(safe(text), quote=True)


def _where(line: int | None, section: str | None) -> str:
    bits = [f"line {line}"] if line else []
    if section:
        bits.append(section)
    return f" ({', '.join(bits)})" if bits else ""


def _pooled(reg: Registration) -> bool:
    view = reg.report.view
    return view is not None and view.format.pooled_portals


def _format_name(reg: Registration) -> str:
    view = reg.report.view
    if view is not None and view.format_known:
        return view.format.name
    return reg.report.format


def _hero(canonical: CanonicalDeck | None) -> str:
    if canonical is None or canonical.hero is None:
        return ""
    hero = canonical.hero
    card = hero.card
    if card is None:
        return f'{_e(hero.ref)} <span class="off">(unknown card)</span>'
    facts = [card.color or "", f"Life {card.life}" if card.life is not None else ""]
    facts.append(f"Memory {card.memory}" if card.memory is not None else "")
    details = " · ".join(f for f in facts if f)
    return f"{_e(card.name)} <small>{_e(card.id)}{' · ' + _e(details) if details else ''}</small>"


def _table(canonical: CanonicalDeck, section: str, pooled: bool = False) -> str:
    """One section as a table; totals off the rulebook's numbers are marked (SPEC §4)."""
    cards = canonical.sections[section]
    portals = section == "portals"
    size = canonical.size(section)
    head = '<tr><th class="n">Qty</th><th>Card</th>'
    head += '<th class="n">Shield</th>' if portals else ""
    head += "<th>Id</th></tr>"
    empty = "(none: portals are pooled)" if portals and pooled else "(none)"
    body = "".join(_row(c, portals) for c in cards) or (
        f'<tr><td class="n">0</td><td colspan="{3 if portals else 2}">{empty}</td></tr>'
    )
    checked = not (portals and pooled)
    size_class = "off" if checked and size != _TARGETS[section] else ""
    total = f'<td class="n"><b class="{size_class}">{size}</b></td>'
    if portals:
        life = canonical.shield_life()
        life_class = "off" if checked and life != SHIELD_LIFE else ""
        total += (
            f'<td>Total · Shield Life</td><td class="n"><b class="{life_class}">{life}</b></td>'
        )
    else:
        total += "<td>Total</td>"
    total += "<td></td>"
    return (
        f"<table><caption>{_TITLES[section]} ({size})</caption>"
        f"<thead>{head}</thead><tbody>{body}</tbody><tfoot><tr>{total}</tr></tfoot></table>"
    )


def _row(card: CanonicalCard, portals: bool) -> str:
    name = _e(card.name) if card.known else f'{_e(card.ref)} <span class="off">(unknown)</span>'
    row = f'<tr><td class="n">{card.count}</td><td>{name}</td>'
    if portals:
        row += f'<td class="n">{_shield(card.card)}</td>'
    return row + f'<td class="id">{_e(card.card.id) if card.card else ""}</td></tr>'


def _shield(card: Card | None) -> str:
    return str(card.shield_life) if card is not None and card.shield_life is not None else ""


def sheet_names(registrations: Iterable[Registration]) -> list[str]:
    """A unique file name for each registration's sheet, in order."""
    taken: set[str] = set()
    return [sheet_filename(reg, taken) for reg in registrations]
