"""Piped human output is written without rich: it must be what rich would have written."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.report import shown
from varz_deck.core.report.text import Page, Styled, _console, _print

STYLES = st.sampled_from(["", "bold", "bold red", "yellow", "cyan", "dim", "bold green"])
SPANS = st.lists(st.tuples(st.text(max_size=40).map(shown), STYLES), max_size=6)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.tuples(SPANS, st.integers(0, 6)), max_size=5))
def test_plain_lines_are_what_rich_writes_without_colour_or_width(
    lines: list[tuple[list[tuple[str, str]], int]],
) -> None:
    page = Page(color=False, width=None)
    console = _console(False, None)
    for spans, indent in lines:
        line = Styled()
        for text, style in spans:
            line.append(text, style)
        page.print(line, indent)
        _print(console, line.rich(), indent)
    assert page.text() == console.file.getvalue()  # type: ignore[attr-defined]


def test_a_page_with_a_width_or_colour_renders_through_rich() -> None:
    line = Styled("V101", "bold red")
    line.append(" error: main deck has 39 cards")
    assert Page(color=False, width=None).console is None
    assert Page(color=False, width=60).console is not None
    coloured = Page(color=True, width=None)
    coloured.print(line, 2)
    assert coloured.text() == "  \x1b[1;31mV101\x1b[0m error: main deck has 39 cards\n"
