"""Japanese and Chinese wrap at phrase boundaries (BudouX), never inside a card name or a word.

Independent expectations: the card names come from the card files (read with PyYAML), the phrase
boundaries from BudouX's own parser, the widths from rich's cell measure.
"""

from __future__ import annotations

import os
from pathlib import Path

import budoux
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from typer.testing import CliRunner

from varz_deck.cli.main import build_app
from varz_deck.core.messages.wrap import CLOSING, wrap

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "card_data" / "varz"
ILLEGAL = ROOT / "examples" / "illegal.yaml"
app = build_app()


def _names(lang: str) -> set[str]:
    names = set()
    for path in CARDS.rglob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in (data or {}).get("cards", []) if isinstance(data, dict) else []:
            name = (card.get("names") or {}).get(lang)
            if name:
                names.add(name)
    return names


def _run(lang: str, columns: int, *args: str) -> str:
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        result = CliRunner().invoke(app, [*args, "--lang", lang])
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.mark.parametrize("lang", ["ja", "zh"])
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_no_card_name_is_broken_across_lines(lang: str, columns: int) -> None:
    wide = _run(lang, 1000, "check", str(ILLEGAL))
    narrow = _run(lang, columns, "check", str(ILLEGAL))
    shown = [n for n in _names(lang) if n in wide]
    assert shown, "the example shows no card name in this language"
    for name in shown:
        assert wide.count(name) == narrow.count(name), f"{name!r} is broken at {columns}"
    for line in narrow.splitlines():
        assert cell_len(line) <= columns, line


@pytest.mark.parametrize("lang,parser", [("ja", "japanese"), ("zh", "simplified_chinese")])
def test_lines_break_only_at_phrase_boundaries_or_spaces(lang: str, parser: str) -> None:
    load = getattr(budoux, f"load_default_{parser}_parser")()
    text = {
        "ja": "「スコーチショット」が 4 枚あります。同名カードは 3 枚まで（再録・別版も合算）："
        "1 枚抜いてください",
        "zh": "「反制浪潮」是蓝色，但英雄是红色，且技能牌组中没有蓝色 VAZ 技能：请加入一张，"
        "或移除这张卡",
    }[lang]
    boundaries, at, phrases = set(), 0, []
    for phrase in load.parse(text):
        phrases.append((at, at + len(phrase)))
        at += len(phrase)
        boundaries.add(at)
    for width in (16, 24, 30):
        lines = wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        at = 0
        for line in lines[:-1]:
            at = text.index(line, at) + len(line)
            inside = next(p for p in phrases if p[0] < at < p[1]) if at not in boundaries else None
            too_long = inside is not None and cell_len(text[inside[0] : inside[1]]) > width
            moved = text[at - 1] in CLOSING and (at - 1 in boundaries or text[at - 2] in CLOSING)
            assert at in boundaries or " " in text[at - 1 : at + 1] or too_long or moved, line
            assert text[at] not in CLOSING  # no line starts with a closing mark
            assert cell_len(line) <= width


def test_english_breaks_at_spaces_only() -> None:
    text = "From turn 5 you spend only 4.1 of 9 VAZ: your hand is nearly empty (0.0 cards)"
    assert wrap(text, 30) == [
        "From turn 5 you spend only 4.1",
        "of 9 VAZ: your hand is nearly",
        "empty (0.0 cards)",
    ]


def test_a_kept_name_is_whole_even_with_a_space_inside() -> None:
    lines = wrap("ヒーロー 神楽 響（赤、進化レベル 6）のデッキです", 10, keep=["神楽 響"])
    assert "神楽 響" in lines


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab 字かナ、。（）1.2"), max_size=60), st.integers(2, 30))
def test_wrapping_loses_no_character_and_fits(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for line in lines:
        assert cell_len(line) <= width or len(line) == 1
        assert line == line.strip(" ")


def test_break_points_keep_numbers_words_and_closing_marks() -> None:
    from varz_deck.core.messages.wrap import break_points

    text = "同名カードは 3 枚まで（再録）：1 枚抜いて"
    cuts = break_points(text)
    assert text.index("枚") not in cuts  # "3 枚" stays together
    assert all(text[c] not in CLOSING for c in cuts)  # no line starts with ）or ：
    ninja = "「影渡り」は《Ninja》のスキルです"
    assert not [c for c in break_points(ninja) if ninja.index("N") < c < ninja.index("》")]
    assert break_points("a b") == [2] and break_points("") == []
    figure = "sim の P(cast) は低い"
    assert not [c for c in break_points(figure) if figure.index("P") < c <= figure.index(")")]
    assert break_points("神楽 響が", keep=["神楽 響"]) == [
        c for c in break_points("神楽 響が") if c > 4
    ]


def test_spans_give_the_first_line_its_own_width() -> None:
    from varz_deck.core.messages.wrap import spans

    assert spans("aaa bbb ccc", 7, first=3) == [(0, 3), (4, 11)]
    assert spans("aaa bbb ccc", 7) == [(0, 7), (8, 11)]
    assert spans("   ", 5) == [] and wrap("", 5) == []
    assert spans("abcdef", 4) == [(0, 4), (4, 6)]  # a word longer than the line is cut
    lines = wrap("字字字字字", 4)  # by cells: a CJK character is two
    assert "".join(lines) == "字字字字字" and all(cell_len(line) <= 4 for line in lines)
    assert len(lines) >= 3


def _wrapped(lines: list[str], tails: list[str], summary: str, flat: str) -> list[str] | None:
    """The lines a summary is wrapped over, from the first place it starts that reads it whole
    (another code's summary may begin with the same words); None when it is on one line or
    not shown."""
    for start, tail in enumerate(tails):
        if not tail or not flat.startswith(tail.replace(" ", "")):
            continue
        if summary in lines[start]:
            return None
        pieces = [tail]
        while flat.startswith("".join(pieces).replace(" ", "")) and start + len(pieces) < len(
            lines
        ):
            if "".join(pieces).replace(" ", "") == flat:
                return pieces
            pieces.append(lines[start + len(pieces)].strip())
        if "".join(pieces).replace(" ", "") == flat:
            return pieces
    return None


@pytest.mark.parametrize("lang", ["ja", "zh"])
@pytest.mark.parametrize("columns", [50, 150])
def test_the_rules_table_breaks_what_a_code_flags_between_phrases(lang: str, columns: int) -> None:
    from varz_deck.core.messages.i18n import term
    from varz_deck.core.messages.wrap import break_points
    from varz_deck.games import all_codes

    lines = _run(lang, columns, "rules").splitlines()
    checked = 0
    for info in all_codes().values():
        summary = term("summary", info.summary, lang)
        flat = summary.replace(" ", "")
        tails = [
            line[line.index(summary[:8]) :].strip() if summary[:8] in line else "" for line in lines
        ]
        pieces = _wrapped(lines, tails, summary, flat)
        if pieces is None:
            continue  # not shown, or on one line
        at, cuts = 0, set(break_points(summary))
        for piece in pieces[:-1]:
            at = summary.index(piece, at) + len(piece)
            while at < len(summary) and summary[at] == " ":
                at += 1
            assert at in cuts, f"{summary!r} is broken after {piece!r}"
        checked += 1
    assert checked, "no summary wrapped: the test shows nothing"


def test_break_points_at_the_edges_of_the_text() -> None:
    from varz_deck.core.messages.wrap import break_points

    assert break_points("3 枚が来る") == [4]  # a number and its counter at the very start
    assert break_points("これは 3 枚") == [3, 4]  # ... and at the very end
    assert break_points("は 3 ") == [1, 2]  # a trailing space after a number
    assert break_points(" ab") == [1]  # a break right after a leading space
    assert break_points(" はい3") == [1, 2]  # a leading space before a phrase ending in a digit
    assert break_points("今日は)") == []  # a closing mark that ends the text
    assert break_points("今日は)晴れ") == [4]  # the break moves past one closing mark, no further
    assert break_points("今日は晴れ", keep=["は晴れ"]) == []  # not even after a kept name's first


def test_wrap_cuts_a_word_longer_than_the_line_by_cells() -> None:
    assert wrap("abcd", 1) == ["a", "b", "c", "d"]
    assert wrap(" abc", 10) == ["abc"] and wrap("   ab", 10) == ["ab"]


def test_wrap_keeps_the_names_it_is_given() -> None:
    assert wrap("カード 神楽 響です", 7) == ["カード", "神楽", "響です"]
    assert wrap("カード 神楽 響です", 7, keep=["神楽 響"]) == ["カード", "神楽 響", "です"]


def test_a_cut_by_cells_never_starts_a_line_with_a_closing_mark() -> None:
    assert wrap("終了します。", 10) == ["終了しま", "す。"]
    assert wrap("東京。", 4) == ["東", "京。"]  # no phrase break: cut by cells, two back
    assert wrap("abcde.", 5) == ["abcd", "e."]
    assert wrap("。。。", 2) == ["。", "。", "。"]  # nothing to push down: cut as it comes
