"""The QR code of a deck code on a printed sheet: inline SVG drawn by segno (the `server` extra).

Error correction level M (15 % of the code may be smudged), raised by segno when the code fits the
same size anyway; the quiet zone of 4 modules the standard asks for. Only attributes, no `style`:
the sheets' Content-Security-Policy allows it as it is.
"""

from __future__ import annotations

import html

from varz_deck.core.messages.i18n import msg

_TITLE = msg("sheet", "QR code of the deck code")


def qr_svg(code: str, lang: str = "en") -> str:
    """The deck code as an inline `<svg>` QR code (scaled by the sheet's CSS); "" without segno
    (an install without the whole `server` extra) or for a code longer than a QR code holds
    (2,331 characters at level M): the sheet keeps the code as text."""
    try:
        import segno
    except ImportError:
        return ""

    try:
        symbol = segno.make_qr(code, error="m")
    except segno.DataOverflowError:
        return ""
    svg: str = symbol.svg_inline(
        scale=1, border=4, omitsize=True, title=_TITLE.render(lang), svgclass="qr-code"
    )  # segno escapes the title; a viewBox, so the CSS sizes it
    return svg.replace("<svg ", f'<svg role="img" aria-label="{html.escape(code)}" ', 1)
