"""Human output: text grouped by deck (or file) and section, then a one-line summary.

Lines are built as styled spans; rich renders them only for a terminal (colour, or a width to
wrap to). Piped output, where neither applies, is the spans' text as written, and `check` in a
pipeline never imports rich (a sixth of its start-up).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import ENGLISH, CardName, Message, localized, msg, nmsg, term
from varz_deck.core.report import shown

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

_STYLE = {"error": "bold red", "warning": "yellow"}


def _section_order(places: Sequence[str]) -> dict[str | None, int]:
    """Diagnostics are grouped by place: the deck, then the game's slots, then its sections."""
    return {None: 0, **{key: i for i, key in enumerate(places, start=1)}}


class Styled:
    """One line of text as spans, each with its rich style ("" for none)."""

    __slots__ = ("spans",)

    def __init__(self, text: str = "", style: str = "") -> None:
        self.spans: list[tuple[str, str]] = [(text, style)] if text else []

    def append(self, text: str, style: str = "") -> None:
        self.spans.append((text, style))

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.spans)

    def rich(self) -> Text:
        from rich.text import Text

        out = Text()
        for text, style in self.spans:
            out.append(text, style=style or None)
        return out


class Page:
    """Where lines are written: plain text (no colour, no width), or a rich console."""

    def __init__(self, color: bool, width: int | None) -> None:
        self.console = _console(color, width) if color or width else None
        self.lines: list[str] = []

    def print(self, line: Styled, indent: int = 0, hang: int = 4, keep: Iterable[str] = ()) -> None:
        if self.console is None:
            self.lines.append(" " * indent + line.plain + "\n")
        else:
            _print(self.console, line.rich(), indent, hang, keep)

    def text(self) -> str:
        if self.console is None:
            return "".join(self.lines)
        return str(self.console.file.getvalue())  # type: ignore[attr-defined]


def _console(color: bool, width: int | None) -> Console:
    """A console to render into; width None: lines are never wrapped (piped output)."""
    from rich.console import Console

    return Console(
        file=io.StringIO(),
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width or 100_000,
        highlight=False,
        emoji=False,
        markup=False,
    )


def _print(
    console: Console, text: Text, indent: int = 0, hang: int = 4, keep: Iterable[str] = ()
) -> None:
    """One line, indented; wider than the console, it wraps by words (Japanese and Chinese by
    phrases, never inside a card name of `keep`) and its next lines hang `hang` columns further
    in (so `place: CODE` stays at the start of a line, as ruff's do)."""
    from rich.text import Text

    from varz_deck.core.messages.wrap import CJK, spans

    room = console.width - indent - hang
    if indent + text.cell_len <= console.width or room < 10:
        console.print(Text(" " * indent) + text, soft_wrap=True)
        return
    if CJK.search(text.plain):
        lines = spans(text.plain, room, keep, first=console.width - indent)
        for n, (start, end) in enumerate(lines):
            pad = indent if n == 0 else indent + hang
            console.print(Text(" " * pad) + text[start:end], soft_wrap=True)
        return
    first = text.wrap(console, console.width - indent, overflow="fold")[0]
    first.rstrip()
    console.print(Text(" " * indent) + first, soft_wrap=True)
    start = len(first.plain)
    while start < len(text.plain) and text.plain[start] == " ":
        start += 1
    for line in text[start:].wrap(console, room, overflow="fold"):
        line.rstrip()
        console.print(Text(" " * (indent + hang)) + line, soft_wrap=True)


_ERRORS = nmsg("report", "{n} error", "{n} errors")
_WARNINGS = nmsg("report", "{n} warning", "{n} warnings")


def names_in(d: Diagnostic, lang: str) -> list[str]:
    """The card names a diagnostic's message shows, as shown in the language (kept whole)."""
    message = getattr(d, "text", None)
    args = dict(message.args) if message is not None else {}
    return [shown(v.in_language(lang)) for v in args.values() if isinstance(v, CardName)]


def _line(d: Diagnostic, lang: str) -> Styled:
    place = shown(d.file or "")
    if d.line is not None:
        place += f":{d.line}:{d.column or 1}"
    text = Styled(f"{place}: " if place else "", style="bold")
    text.append(d.code, style=_STYLE[d.severity.value])
    text.append(f" {term('severity', d.severity.value, lang)}: ", style=_STYLE[d.severity.value])
    text.append(shown(localized(d, lang)))
    return text


def _tally(errors: int, warnings: int) -> Message:
    """'2 errors, 1 warning'."""
    return msg("report", "{errors}, {warnings}")(
        errors=_ERRORS(n=errors), warnings=_WARNINGS(n=warnings)
    )


def render_check(
    reports: Sequence[DeckReport],
    *,
    color: bool = False,
    width: int | None = None,
    lang: str = ENGLISH,
    strict: bool = False,
) -> str:
    """Each deck with its diagnostics by section, then a summary line, in a language. Under
    `strict`, a legal deck with warnings is marked ✗ (it fails the run) and the summary says so."""
    page = Page(color, width)
    for report in reports:
        head = Styled()
        if report.legal and strict and report.warnings:
            failing = msg("report", "✗ legal, fails --strict")
            head.append(failing.render(lang) + "  ", style="bold red")
        elif report.legal:
            head.append(msg("report", "✓ legal").render(lang) + "  ", style="bold green")
        else:
            head.append(msg("report", "✗ illegal").render(lang) + "  ", style="bold red")
        head.append(shown(report.path), style="bold")
        details = [shown(report.format)]
        if report.name:
            details.insert(0, shown(report.name))
        keep = [shown(report.path)]
        if report.lead_card is not None:
            lead = CardName.of(report.lead_card, quote=False)
            details.append(report.words.lead_named(name=lead).render(lang))
            keep.append(shown(lead.in_language(lang)))
        head.append(f"  ({' · '.join(details)})", style="dim")
        if report.diagnostics:
            head.append("  " + _tally(report.errors, report.warnings).render(lang))
        page.print(head, keep=keep)
        by_section: dict[str | None, list[Diagnostic]] = {}
        for d in report.diagnostics:
            by_section.setdefault(d.section, []).append(d)
        order = _section_order(report.places)
        for section in sorted(by_section, key=lambda s: order.get(s, 9)):
            if section is not None:
                heading = term("section", section, lang)
                page.print(Styled(heading, style="cyan"), 2)
            for d in by_section[section]:
                page.print(_line(d, lang), 4, keep=names_in(d, lang))
    legal = sum(1 for r in reports if r.legal)
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    checked = nmsg(
        "report",
        "{n} deck checked: {legal} legal, {illegal} illegal ({tally})",
        "{n} decks checked: {legal} legal, {illegal} illegal ({tally})",
    )
    tally = _tally(errors, warnings)
    summary = Styled(
        checked(n=len(reports), legal=legal, illegal=len(reports) - legal, tally=tally).render(
            lang
        ),
        "bold green" if legal == len(reports) else "bold red",
    )
    strict_failed = sum(1 for r in reports if strict and r.legal and r.warnings)
    if strict_failed:
        why = nmsg(
            "report",
            "; exit 1: --strict treats warnings as errors ({n} legal deck has warnings)",
            "; exit 1: --strict treats warnings as errors ({n} legal decks have warnings)",
        )
        summary.append(why(n=strict_failed).render(lang), style="bold red")
    page.print(summary)
    return page.text()


def render_lint(
    files: Mapping[str, Sequence[Diagnostic]],
    root: str,
    *,
    color: bool = False,
    width: int | None = None,
    lang: str = ENGLISH,
) -> str:
    """Every card-data diagnostic, then a summary line, in a language."""
    page = Page(color, width)
    for _path, diags in files.items():
        for d in diags:
            page.print(_line(d, lang), keep=names_in(d, lang))
    all_diags = [d for diags in files.values() for d in diags]
    errors = sum(1 for d in all_diags if d.is_error)
    warnings = len(all_diags) - errors
    clean = not all_diags
    if clean:
        linted = nmsg("report", "{root}: {n} file linted, clean", "{root}: {n} files linted, clean")
        line = linted(root=root, n=len(files))
    else:
        linted = nmsg(
            "report", "{root}: {n} file linted, {tally}", "{root}: {n} files linted, {tally}"
        )
        line = linted(root=root, n=len(files), tally=_tally(errors, warnings))
    summary = Styled(
        line.render(lang), "bold green" if clean else ("bold red" if errors else "yellow")
    )
    page.print(summary)
    return page.text()
