"""The report page's HTML from a hand-made analysis: the verdict with its counts and places, the
answer, each part (table, chart, omitted) with its heading, note and glossary links, the glossary
and the page's frame, in English and Japanese. Expected text is written here by hand."""

from __future__ import annotations

import datetime

from varz_deck.core.analysis.glossary import entries
from varz_deck.core.analysis.htmlreport import figure_text, render
from varz_deck.core.analysis.parts import (
    COUNT,
    PERCENT,
    TURN,
    Analysis,
    Chart,
    Column,
    Figure,
    Omitted,
    Series,
    Table,
    Verdict,
)
from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import Term, msg

DAY = datetime.date(2026, 12, 3)


def analysis(legal: bool = False, fmt: str | None = "standard") -> Analysis:
    problems = (
        Diagnostic("V102", Severity.ERROR, "10 spell cards", "my.yaml", 4, 1),
        Diagnostic("V105", Severity.ERROR, "too many"),  # no file: the deck's
        Diagnostic("W201", Severity.WARNING, "soon", "my.yaml", 9, 3),
    )
    table = Table(
        "odds",
        msg("report", "Odds"),
        (
            Column("Card"),
            Column(msg("report", "Colour")),
            Column("P", "castable-on-curve"),
            Column("T", "curve-turn"),
            Column("again", "castable-on-curve"),
        ),
        (
            (
                "Ember Imp",
                Term("color", "red"),
                Figure(0.44, PERCENT),
                Figure(1, TURN),
                Figure(None, PERCENT),
            ),
            (
                "Far Away",
                Term("color", "blue"),
                Figure(0.125, PERCENT),
                Figure(None, TURN),
                Figure(0.5, PERCENT),
            ),
        ),
        note=msg("report", "Odds"),
    )
    chart = Chart("c", msg("report", "Curve"), "Cost", ("1",), (Series("red", (2,)),), unit=COUNT)
    omitted = Omitted("sim", msg("report", "Goldfish figures"), msg("report", "Goldfish figures"))
    return Analysis(
        "varz",
        "VARZ",
        "My <Deck>",
        "my.yaml",
        DAY,
        Verdict(legal, fmt, problems if not legal else problems[2:]),
        (msg("report", "In short"),),
        (table, chart, omitted),
    )


def test_an_illegal_verdict_counts_and_places_its_problems() -> None:
    page = render(analysis(), entries(), "en")
    assert (
        '<p class="illegal" id="verdict">Not legal in standard as of 2026-12-03: 2 error(s), 1 warning(s).</p>'
        in page
    )
    assert (
        '<ul class="diagnostics">\n<li><code>my.yaml:4:1: V102 10 spell cards</code></li>\n'
        "<li><code>my.yaml: V105 too many</code></li>\n"
        "<li><code>my.yaml:9:3: W201 soon</code></li>\n</ul>"
    ) in page
    unnamed = render(analysis(fmt=None), entries(), "en")
    assert "Not legal in – as of 2026-12-03" in unnamed


def test_a_legal_verdict_with_a_warning() -> None:
    page = render(analysis(legal=True), entries(), "en")
    assert (
        '<p class="legal" id="verdict">Legal in standard as of 2026-12-03.</p>\n<p>1 warning(s).</p>'
        in page
    )


def test_the_frame_the_answer_and_the_parts() -> None:
    page = render(analysis(), entries(), "en")
    assert page.startswith(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Deck report: My &lt;Deck&gt;</title>\n<style>"
    )
    assert page.endswith("\n</main>\n</body>\n</html>\n")
    assert '<p class="meta">VARZ · my.yaml · checked as of 2026-12-03</p>' in page
    assert '<h2 id="answer">In short</h2>\n<ul class="answer">\n<li>In short</li>\n</ul>' in page
    assert '<h2 id="part-odds">Odds</h2>' in page and '<h2 id="part-c">Curve</h2>' in page
    assert (
        '<h2 id="part-sim">Goldfish figures</h2>\n<p class="omitted">Goldfish figures</p>' in page
    )
    assert '</table></div>\n<p class="note">Odds</p>' in page
    assert (
        '<thead><tr><th scope="col">Card</th><th scope="col">Colour</th>'
        '<th scope="col" class="n"><a href="#term-castable-on-curve">P</a></th>'
        '<th scope="col" class="n"><a href="#term-curve-turn">T</a></th>'
        '<th scope="col" class="n"><a href="#term-castable-on-curve">Again</a></th></tr></thead>'
    ) in page
    assert (
        '<tr><th scope="row">Ember Imp</th><td>red</td><td class="n" data-value="0.44">44.0%</td>'
        '<td class="n" data-value="1">1</td><td class="n" data-value="None">–</td></tr>'
    ) in page
    assert '<td class="n" data-value="None">never</td>' in page


def test_the_glossary_lists_each_term_once_with_its_symbol() -> None:
    page = render(analysis(), entries(), "en")
    glossary = page[page.index('<h2 id="glossary">') :]
    assert glossary.count('<dt id="term-castable-on-curve">') == 1
    assert '<dt id="term-castable-on-curve">castable on curve (P(on curve))</dt>' in glossary
    assert glossary.index("term-castable-on-curve") < glossary.index("term-curve-turn")
    assert '<dt id="term-exact">exact</dt>' in glossary and "term-sampled" not in glossary
    assert "Every figure on this page is exact: counted, not sampled." in page


def test_in_japanese_every_part_speaks_it() -> None:
    from varz_deck.games import get_game

    page = render(analysis(), entries(get_game("varz")), "ja")  # the game's words: its colours
    assert '<html lang="ja">' in page
    assert '<h2 id="legality">合法性</h2>' in page
    assert "2026-12-03 時点で standard に合法ではありません：エラー 2 件、警告 1 件。" in page
    assert '<h2 id="answer">要点</h2>' in page and "<li>要点</li>" in page
    assert '<h2 id="glossary">数値の意味</h2>' in page
    assert '<dt id="term-castable-on-curve">カーブターンに使用可能 (P(on curve))</dt>' in page
    assert '<td class="n" data-value="None">なし</td>' in page
    assert "<td>赤</td>" in page
    assert "このページの数値はすべて厳密です" in page


def test_figure_text_by_unit() -> None:
    assert figure_text(Figure(0.4444, PERCENT), "en") == "44.4%"
    assert figure_text(Figure(0.5, PERCENT, 0.01), "en") == "50.0% ±2.0"
    assert figure_text(Figure(None, PERCENT), "en") == "–"
    assert figure_text(Figure(None, TURN), "ja") == "なし"
    assert (
        figure_text(Figure(3, TURN), "en") == "3" and figure_text(Figure(7.9, COUNT), "en") == "7"
    )


def test_numbers_turns_and_rows_that_start_with_a_figure() -> None:
    from varz_deck.core.analysis.htmlreport import _number, _table
    from varz_deck.core.analysis.parts import NUMBER

    assert figure_text(Figure(1.5, NUMBER, 0.1), "en") == "1.50 ±0.20"
    assert _number(1.5, NUMBER) == "1.50" and _number(3, TURN) == "3"
    table = Table("t", msg("report", "Odds"), (Column("n"),), ((Figure(2, COUNT),),))
    assert '<tr><td class="n" data-value="2">2</td></tr>' in "\n".join(_table(table, "en"))
