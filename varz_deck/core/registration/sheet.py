"""The printable registration sheet: one self-contained HTML page per deck (A4 and Letter).

No network resources (a Content-Security-Policy forbids them), system fonts only, one page for a
legal deck: the page content is sized for the smaller of A4 and Letter in each direction.

The page's skeleton (header, who, hash, deck code, problems, signatures) is the same for every
game; the game gives its slots' rows (the lead card and any other single card) and its card tables (`card_table`
draws one). Cards are shown by the printing the player named (`CanonicalCard.printing`), sorted
as players read lists: by cost, then name (`by_cost`; a game may sort a section otherwise, by a
column of its own). `render_sheets` puts every sheet in one document, a page each.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from varz_deck import __version__
from varz_deck.core.cards.model import CardRecord
from varz_deck.core.messages.i18n import (
    ENGLISH,
    CardName,
    Joined,
    Message,
    Term,
    localized,
    msg,
    nmsg,
    term,
)
from varz_deck.core.messages.sanitize import safe
from varz_deck.core.registration.canonical import CanonicalCard, CanonicalDeck
from varz_deck.core.registration.code import NoCode
from varz_deck.core.registration.register import Registration

_UNSAFE_NAME = re.compile(r"[^\w.-]+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAYER = msg("sheet", "Player")
_FORMAT = msg("sheet", "Format")
_DECK = msg("sheet", "Deck")
_DECK_HASH = msg("sheet", "Deck hash")
_DATE = msg("sheet", "Date")
_SEAT = msg("sheet", "Table / seat")
_CHECKED_AS_OF = msg("sheet", "Checked as of")
_DECK_CODE = msg("sheet", "Deck code")
_QTY = msg("sheet", "Qty")
_CARD = msg("sheet", "Card")
_ID = msg("sheet", "Id")
_TOTAL = msg("sheet", "Total")
_NONE_LISTED = msg("sheet", "(none)")
_HTML_LANG = {"en": "en", "ja": "ja", "zh": "zh-Hans"}
_ERRORS = nmsg("sheet", "{n} error", "{n} errors")
_WARNINGS = nmsg("sheet", "{n} warning", "{n} warnings")

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
th, td { text-align: left; padding: 0.2mm 1.2mm; line-height: 1.14; border-bottom: 1px solid #ccc; vertical-align: middle; }
th { font-size: 8pt; color: #444; border-bottom: 1px solid #111; }
td.n, th.n { text-align: right; width: 9mm; font-variant-numeric: tabular-nums; }
td.id { font-size: 8pt; width: 19mm; color: #333; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; border-bottom: none; border-top: 1px solid #111; }
.off { color: #b00020; }
.hash { display: flex; flex-wrap: wrap; gap: 0.5mm 6mm; align-items: baseline; border: 1px solid #111; padding: 2mm 3mm;
  margin: 1mm 0 3mm; break-inside: avoid; }
.hash code { font: bold 15pt "Liberation Mono", "DejaVu Sans Mono", monospace; letter-spacing: 0.5pt; }
.hash small { color: #444; }
.problems { margin: 0 0 3mm; padding-left: 5mm; break-inside: avoid; }
.problems li { margin-bottom: 0.5mm; }
.notes { margin: 0 0 3mm; color: #444; }
.sign { display: grid; grid-template-columns: 2fr 2fr 1fr; gap: 3mm 6mm; margin-top: 6mm;
  break-inside: avoid; }
.sign div { border-top: 1px solid #111; padding-top: 1mm; font-size: 8pt; color: #444; }
.hash .code { flex-basis: 100%; display: flex; gap: 3mm; align-items: baseline; font-size: 8pt;
  color: #444; }
.hash .code span { flex: none; }
.hash .code code { font: 7.5pt "Liberation Mono", "DejaVu Sans Mono", monospace; color: #111;
  overflow-wrap: anywhere; word-break: break-all; }
.hash.with-qr { position: relative; padding-right: 27mm; min-height: 26mm; }
.hash .qr { position: absolute; right: 2mm; top: 2mm; }
.hash .qr svg { display: block; width: 22mm; height: 22mm; }
footer { margin-top: 3mm; font-size: 7.5pt; color: #555; }
.sheet + .sheet { break-before: page; }
@media screen { .sheet + .sheet { margin-top: 8mm; } }
@media screen {  /* the print sizes under 11 px, read on a screen (a phone): 11 px */
  th, td.id, small, .sign div, .hash .code, .hash .code code, footer { font-size: 11px; }
}
@media screen and (max-width: 215mm) {
  body { padding: 0; }
  .sheet { width: auto; padding: 4mm; box-shadow: none; }
  header { flex-wrap: wrap; gap: 2mm; }
  .status { margin-left: 0; }
  dl.who { grid-template-columns: max-content minmax(0, 1fr); }
  .lists { grid-template-columns: minmax(0, 1fr); }
}
"""


def sheet_filename(reg: Registration, taken: set[str]) -> str:
    """A file name for a deck's sheet: its file's stem (or the hash for a code), in NFC, unique in
    `taken` (which holds `name_key`s: names a case-insensitive file system would confuse)."""
    stem = reg.path.replace("\\", "/").rsplit("/", 1)[-1]
    if "." in stem:
        stem = stem.rsplit(".", 1)[0]
    if reg.is_code:
        stem = f"code-{reg.deck_hash or 'unreadable'}"
    base = _UNSAFE_NAME.sub("-", unicodedata.normalize("NFC", stem)).strip("-.") or "deck"
    name, n = f"{base}.html", 2
    while name_key(name) in taken:
        name, n = f"{base}-{n}.html", n + 1
    taken.add(name_key(name))
    return name


def name_key(name: str) -> str:
    """What two file names must differ in on any file system: case (full case folding, ß = ss)
    and Unicode form (NFKC: é as one code point or two, full-width letters) do not count."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@dataclass(frozen=True)
class SheetParts:
    """What a game puts on its sheet: a row (label, HTML) per slot, and the card tables."""

    slots: Callable[[CanonicalDeck | None, str], Sequence[tuple[Message, str]]]
    lists: Callable[[Registration, CanonicalDeck, str], str]
    code: Callable[[CanonicalDeck], str]  # the game's deck code (its Registrar's `encode`)
    # the deck code as an inline SVG QR code (the server gives one; `register` prints none)
    qr: Callable[[str], str] | None = None


def render_sheet(reg: Registration, parts_of: SheetParts, lang: str = ENGLISH) -> str:
    """One registration as a complete HTML document, its words in a language."""
    heading = msg("sheet", "Deck registration").render(lang)
    title = " — ".join(x for x in (heading, reg.player, reg.event) if x)
    return _document(title, [sheet_body(reg, parts_of, lang)], lang)


def render_sheets(
    registrations: Sequence[Registration],
    parts_of: SheetParts | Callable[[Registration], SheetParts],
    lang: str = ENGLISH,
) -> str:
    """Every registration's sheet in one HTML document, each on its own page (CSS page breaks),
    for printing a whole event at once. `parts_of` is one game's parts, or gives each
    registration its own game's (decks of several games in one document)."""
    heading = msg("sheet", "Deck registration").render(lang)
    events = list(dict.fromkeys(r.event for r in registrations if r.event))
    title = " — ".join([heading, *events[:1]])
    if isinstance(parts_of, SheetParts):
        bodies = [sheet_body(r, parts_of, lang) for r in registrations]
    else:
        bodies = [sheet_body(r, parts_of(r), lang) for r in registrations]
    return _document(title, bodies, lang)


def _document(title: str, bodies: Sequence[str], lang: str) -> str:
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_HTML_LANG.get(lang, "en")}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f'<meta name="generator" content="varz-deck {__version__}">',
        f"<title>{e(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        *bodies,
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def sheet_body(reg: Registration, parts_of: SheetParts, lang: str = ENGLISH) -> str:
    """One registration's page: the `<article class="sheet">` element (the document's one
    `<main>` holds every sheet)."""

    def say(message: Message) -> str:
        return e(message.render(lang))

    canonical = reg.canonical
    report = reg.report
    fmt_name = format_name(reg, lang)
    if reg.legal:
        verdict = msg("sheet", "LEGAL · {format}")(format=fmt_name)
        status = f'<div class="status legal">{say(verdict)}</div>'
    else:
        verdict = msg("sheet", "NOT LEGAL · {errors}")(errors=_ERRORS(n=report.errors))
        status = f'<div class="status illegal">{say(verdict)}</div>'
    heading = msg("sheet", "Deck registration").render(lang)
    parts = [
        '<article class="sheet">',
        "<header><div>",
        f"<h1>{e(heading)}</h1>",
        f'<div class="event">{e(reg.event) or "&nbsp;"}</div>',
        f"</div>{status}</header>",
        '<dl class="who">',
        f"<dt>{say(_PLAYER)}</dt><dd>{e(reg.player)}</dd>",
        f"<dt>{say(_FORMAT)}</dt><dd>{e(fmt_name)}</dd>",
        *(
            f"<dt>{say(label)}</dt><dd>{shown}</dd>"
            for label, shown in parts_of.slots(canonical, lang)
        ),
        f"<dt>{say(_DECK)}</dt><dd>{e(report.name or reg.path)}</dd>",
        f"<dt>{say(_SEAT)}</dt><dd>{e(reg.seat)}</dd>",  # empty: a box to fill in by hand
        f"<dt>{say(_CHECKED_AS_OF)}</dt><dd>{e(reg.date)}</dd>",  # the rules' day
        "</dl>",
    ]
    if canonical is not None:
        parts.append(parts_of.lists(reg, canonical, lang))
        verify = msg("sheet", "check at the table: varz-deck verify DECK --hash {hash}")
        code, box = "", "hash"
        deck_code = _deck_code(canonical, parts_of)
        if deck_code is not None:
            code = (
                f'<div class="code"><span>{say(_DECK_CODE)}</span><code>{e(deck_code)}</code></div>'
            )
            drawn = parts_of.qr(deck_code) if parts_of.qr is not None else ""
            if drawn:
                code += f'<div class="qr">{drawn}</div>'
                box = "hash with-qr"
        parts.append(
            f'<div class="{box}"><span>{say(_DECK_HASH)}</span>'
            f"<code>{e(reg.deck_hash or '')}</code>"
            f"<small>{say(verify(hash=reg.deck_hash or ''))}</small>"
            f"{code}</div>"
        )
    else:
        unread = msg("sheet", "This deck could not be read completely, so it has no deck hash.")
        again = msg("sheet", "Fix the problems below and register it again.")
        parts.append(f'<p class="illegal"><b>{say(unread)}</b> {say(again)}</p>')
    if reg.legal and report.diagnostics:  # warnings only: one line, so the sheet stays one page
        counts = Counter(d.code for d in report.diagnostics)
        listed = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(counts.items()))
        note = msg("sheet", "{warnings} ({codes}); `varz-deck check` explains them.")(
            warnings=_WARNINGS(n=len(report.diagnostics)), codes=listed
        )
        parts.append(f'<p class="notes">{say(note)}</p>')
    elif report.diagnostics:
        parts.append('<ol class="problems">')
        parts.extend(
            f'<li class="{"illegal" if d.is_error else ""}"><b>{e(d.code)}</b> '
            f"{e(term('severity', d.severity.value, lang))}{_where(d.line, d.section, lang)}: "
            f"{e(localized(d, lang))}</li>"
            for d in report.diagnostics
        )
        parts.append("</ol>")
    signature = msg("sheet", "Player signature")
    judge = msg("sheet", "Judge / organiser (deck checked)")
    parts.extend(
        [
            '<div class="sign">',
            f"<div>{say(signature)}</div><div>{say(judge)}</div><div>{say(_DATE)}</div>",
            "</div>",
            f"<footer>varz-deck {__version__} · {e(reg.path)}</footer>",
            "</article>",
        ]
    )
    return "\n".join(parts)


def _deck_code(canonical: CanonicalDeck, parts_of: SheetParts) -> str | None:
    """The deck's code, or None when it has none (unknown references, more than a code holds)."""
    if not canonical.complete:
        return None
    try:
        return parts_of.code(canonical)
    except NoCode:
        return None


def e(text: str) -> str:
    """Text for the page: controls made visible (`safe`), a byte of a file name or argument that
    was not UTF-8 (a lone surrogate) shown as \\xNN, then HTML-escaped."""
    return html.escape(shown_bytes(safe(text)), quote=True)


def shown_bytes(text: str) -> str:
    """Text with each byte that was not UTF-8 (a lone surrogate, as Python reads such a file name
    or argument) written \\xNN, so it can be written out as UTF-8."""
    return _SURROGATE.sub(_byte, text)


def _byte(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _where(line: int | None, section: str | None, lang: str = ENGLISH) -> str:
    places: list[object] = [msg("sheet", "line {line}")(line=line)] if line else []
    if section:
        places.append(Term("section", section))
    if not places:
        return ""
    return e(msg("sheet", " ({places})")(places=Joined(tuple(places))).render(lang))


def format_name(reg: Registration, lang: str = ENGLISH) -> str:
    view = reg.report.view
    if view is not None and view.format_known:
        return term("format", view.format.name, lang)
    return reg.report.format


@dataclass(frozen=True)
class Column:
    """An extra column of a card table (a number the game shows per card), with its total in the footer."""

    title: Message
    cell: Callable[[CardRecord | None], str]  # the card (None when unknown) -> the cell's text
    total_label: Message
    total: int
    total_off: bool  # the total is off the rulebook's number: marked


def card_table(
    canonical: CanonicalDeck,
    section: str,
    title: Message,
    *,
    target: int | None,
    empty: Message = _NONE_LISTED,
    extra: Column | None = None,
    order: Callable[[CanonicalCard, str], tuple[bool | int | str, ...]] | None = None,
    lang: str = ENGLISH,
) -> str:
    """One section as a table: count, name, (extra), id; a total off `target` is marked. Rows
    are sorted by `order` (default `by_cost`)."""

    def say(message: Message) -> str:
        return e(message.render(lang))

    sort_key = order or by_cost
    cards = sorted(canonical.sections[section], key=lambda c: sort_key(c, lang))
    size = canonical.size(section)
    head = f'<tr><th class="n">{say(_QTY)}</th><th>{say(_CARD)}</th>'
    head += f'<th class="n">{say(extra.title)}</th>' if extra else ""
    head += f"<th>{say(_ID)}</th></tr>"
    body = "".join(_row(c, extra, lang) for c in cards) or (
        f'<tr><td class="n">0</td><td colspan="{3 if extra else 2}">{say(empty)}</td></tr>'
    )
    size_class = "off" if target is not None and size != target else ""
    total = f'<td class="n"><b class="{size_class}">{size}</b></td>'
    if extra:
        extra_class = "off" if extra.total_off else ""
        total += (
            f"<td>{say(extra.total_label)}</td>"
            f'<td class="n"><b class="{extra_class}">{extra.total}</b></td>'
        )
    else:
        total += f"<td>{say(_TOTAL)}</td>"
    total += "<td></td>"
    caption = msg("sheet", "{section} ({size})")(section=title, size=size)
    return (
        f"<table><caption>{say(caption)}</caption>"
        f"<thead>{head}</thead><tbody>{body}</tbody><tfoot><tr>{total}</tr></tfoot></table>"
    )


def shown_name(card: CanonicalCard, lang: str = ENGLISH) -> str:
    """The card's name as the sheet shows it (in the language when the database has it), or the
    reference as written when it is unknown."""
    if card.card is None:
        return card.ref
    if lang == ENGLISH:
        return card.name
    return CardName.of(card.printing, quote=False).in_language(lang)


def by_name(card: CanonicalCard, lang: str = ENGLISH) -> tuple[bool, str, str]:
    """Known cards by name as shown (case-insensitive), then unknown ones as written."""
    return (card.card is None, shown_name(card, lang).casefold(), card.key)


def by_cost(card: CanonicalCard, lang: str = ENGLISH) -> tuple[bool, bool, int, str, str]:
    """As players read lists: by cost (cards without one after those with one), then by name;
    unknown cards last."""
    cost = getattr(card.card, "cost", None)
    return (card.card is None, cost is None, cost or 0, *by_name(card, lang)[1:])


def _row(card: CanonicalCard, extra: Column | None, lang: str = ENGLISH) -> str:
    if card.known:
        name = e(shown_name(card, lang))
    else:
        unknown = msg("sheet", "(unknown)").render(lang)
        name = f'{e(card.ref)} <span class="off">{e(unknown)}</span>'
    row = f'<tr><td class="n">{card.count}</td><td>{name}</td>'
    if extra:
        row += f'<td class="n">{extra.cell(card.card)}</td>'
    return row + f'<td class="id">{e(card.shown_id)}</td></tr>'


def unknown_slot(card: CanonicalCard, lang: str = ENGLISH) -> str:
    """A slot whose reference the database does not know: as written, marked."""
    unknown = msg("sheet", "(unknown card)").render(lang)
    return f'{e(card.ref)} <span class="off">{e(unknown)}</span>'


COMBINED = "all-sheets.html"  # `register --sheet DIR --combined`: every sheet in one document


def sheet_names(registrations: Iterable[Registration], reserved: Iterable[str] = ()) -> list[str]:
    """A unique file name for each registration's sheet, in order (none of `reserved`)."""
    taken: set[str] = {name_key(name) for name in reserved}
    return [sheet_filename(reg, taken) for reg in registrations]
