"""Human output: rich text grouped by deck (or file) and section, then a one-line summary."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.text import Text

from varz_deck.check import DeckReport
from varz_deck.diagnostics import Diagnostic, safe

_STYLE = {"error": "bold red", "warning": "yellow"}
_SECTION_ORDER = {None: 0, "hero": 1, "spells": 2, "skills": 3, "portals": 4}


def _console(color: bool, width: int) -> Console:
    return Console(
        file=io.StringIO(),
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width,
        highlight=False,
        emoji=False,
        markup=False,
    )


def _line(d: Diagnostic) -> Text:
    place = safe(d.file or "")
    if d.line is not None:
        place += f":{d.line}:{d.column or 1}"
    text = Text(f"{place}: " if place else "", style="bold")
    text.append(d.code, style=_STYLE[d.severity.value])
    text.append(f" {d.severity.value}: ", style=_STYLE[d.severity.value])
    text.append(safe(d.message))
    return text


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def render_check(reports: Sequence[DeckReport], *, color: bool = False, width: int = 100) -> str:
    console = _console(color, width)
    for report in reports:
        head = Text()
        if report.legal:
            head.append("✓ legal  ", style="bold green")
        else:
            head.append("✗ illegal  ", style="bold red")
        head.append(safe(report.path), style="bold")
        details = [safe(report.format)]
        if report.name:
            details.insert(0, safe(report.name))
        if report.hero is not None:
            details.append(f"hero {safe(report.hero.name)}")
        head.append(f"  ({' · '.join(details)})", style="dim")
        if report.diagnostics:
            head.append(f"  {_count(report.errors, 'error')}, {_count(report.warnings, 'warning')}")
        console.print(head, soft_wrap=True)
        by_section: dict[str | None, list[Diagnostic]] = {}
        for d in report.diagnostics:
            by_section.setdefault(d.section, []).append(d)
        for section in sorted(by_section, key=lambda s: _SECTION_ORDER.get(s, 9)):
            if section is not None:
                console.print(Text(f"  {section}", style="cyan"), soft_wrap=True)
            for d in by_section[section]:
                console.print(Text("    ") + _line(d), soft_wrap=True)
    legal = sum(1 for r in reports if r.legal)
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    summary = Text(
        f"{_count(len(reports), 'deck')} checked: {legal} legal, {len(reports) - legal} illegal "
        f"({_count(errors, 'error')}, {_count(warnings, 'warning')})"
    )
    summary.stylize("bold green" if legal == len(reports) else "bold red")
    console.print(summary, soft_wrap=True)
    return console.file.getvalue()  # type: ignore[attr-defined]


def render_lint(
    files: Mapping[str, Sequence[Diagnostic]], root: str, *, color: bool = False, width: int = 100
) -> str:
    console = _console(color, width)
    for _path, diags in files.items():
        for d in diags:
            console.print(_line(d), soft_wrap=True)
    all_diags = [d for diags in files.values() for d in diags]
    errors = sum(1 for d in all_diags if d.is_error)
    warnings = len(all_diags) - errors
    clean = not all_diags
    summary = Text(
        f"{safe(root)}: {_count(len(files), 'file')} linted, "
        + ("clean" if clean else f"{_count(errors, 'error')}, {_count(warnings, 'warning')}")
    )
    summary.stylize("bold green" if clean else ("bold red" if errors else "yellow"))
    console.print(summary, soft_wrap=True)
    return console.file.getvalue()  # type: ignore[attr-defined]
