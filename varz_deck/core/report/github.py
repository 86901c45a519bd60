"""GitHub Actions workflow commands: one `::error`/`::warning` annotation per diagnostic."""

from __future__ import annotations

from collections.abc import Iterable

from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.report import shown


def _data(text: str) -> str:
    """Message data: GitHub's escapes first (it turns %0A back into a newline), then the other
    controls made visible."""
    return shown(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _prop(text: str) -> str:
    """A property value: as data, and `:` and `,` (they end a property) escaped too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(diagnostics: Iterable[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        props = []
        if d.file:
            props.append(f"file={_prop(d.file)}")
        if d.line is not None:
            props.append(f"line={d.line}")
        if d.column is not None:
            props.append(f"col={d.column}")
        props.append(f"title={_prop(d.code)}")
        lines.append(f"::{d.severity.value} {','.join(props)}::{_data(f'{d.code} {d.message}')}")
    return "".join(line + "\n" for line in lines)
