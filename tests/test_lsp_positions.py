"""The language server's places, in this process (issue 24: the mutation audit's LSP gaps, and the
tests mutmut runs for varz_deck/lsp/lines.py, documents.py and diagnostics.py): card references
on a line and what a line being typed needs, LSP lines and UTF-16/UTF-8/UTF-32 columns, edits,
a checker's (line, column) turned into an LSP range, severities. Every expected value is counted
by hand here; tests/test_lsp.py and tests/test_lsp_hardening.py check the same over the protocol.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types as t

from varz_deck.core.messages.diagnostics import diag
from varz_deck.core.messages.i18n import msg
from varz_deck.lsp import diagnostics as lsp_diagnostics
from varz_deck.lsp.documents import Document, Units, line_starts
from varz_deck.lsp.lines import (
    Ref,
    Typing,
    header_line,
    list_style,
    reference_on,
    section_of,
    strip_comment,
    typing_at,
    valid_count,
    yaml_key,
)

ROOT = Path(__file__).resolve().parent.parent
SLOTS = ("hero", "leader", "gate")

# --------------------------------------------------------------------------- lines.py


@pytest.mark.parametrize(
    ("line", "kept"),
    [("a # b", "a"), ("a#b", "a#b"), ("# x", ""), ("\t# x", ""), ("", ""), ("a  #b #c", "a ")],
)
def test_strip_comment(line: str, kept: str) -> None:
    assert strip_comment(line) == kept


YAML_REFS = {
    "hero: Hibiki Kagura": Ref("Hibiki Kagura", 6, 19, slot="hero"),
    "Hero: X": Ref("X", 6, 7, slot="hero"),
    "gate:   X  ": Ref("X", 8, 9, slot="gate"),
    'hero: "Hibiki Kagura"': Ref("Hibiki Kagura", 7, 20, slot="hero"),
    "hero: 'X' # c": Ref("X", 7, 8, slot="hero"),
    "hero: Hibiki # c": Ref("Hibiki", 6, 12, slot="hero"),
    "  Ember Imp: 3": Ref("Ember Imp", 2, 11, 3, 13, 14),
    "  Ember Imp: 3 # c": Ref("Ember Imp", 2, 11, 3, 13, 14),
    "\tEmber Imp :12": Ref("Ember Imp", 1, 10, 12, 12, 14),
    '  "Ember Imp": 3': Ref("Ember Imp", 3, 12, 3, 15, 16),
    "  'Ember Imp' : 3": Ref("Ember Imp", 3, 12, 3, 16, 17),
    "  Ember Imp:": Ref("Ember Imp", 2, 11),
    "  -Ember: 3": Ref("-Ember", 2, 8, 3, 10, 11),
    "  - 3 Ember Imp": Ref("Ember Imp", 6, 15, 3, 4, 5),
    "  - 3x Ember Imp": Ref("Ember Imp", 7, 16, 3, 4, 5),
    "  - 3× Ember Imp": Ref("Ember Imp", 7, 16, 3, 4, 5),
    "  - 3 × Ember Imp": Ref("× Ember Imp", 6, 17, 3, 4, 5),  # the x is joined to the count
    "  - 3 X Ronin": Ref("X Ronin", 6, 13, 3, 4, 5),
    "  - 10X Ember Imp  # c": Ref("Ember Imp", 8, 17, 10, 4, 6),
    '  - "3 Ember Imp"': Ref("Ember Imp", 7, 16, 3, 5, 6),
    "  - 3 スコーチ \U0001f525": Ref("スコーチ \U0001f525", 6, 12, 3, 4, 5),
}
YAML_NONE = [
    "- 3 Ember Imp",
    "hero:",
    'hero: ""',
    "name: Foo",
    "spells:",
    "Ember Imp: 3",
    "  - Ember Imp",
    "  ",
    "",
]


@pytest.mark.parametrize("line", sorted(YAML_REFS))
def test_reference_on_a_yaml_line(line: str) -> None:
    assert reference_on(line, True, SLOTS) == YAML_REFS[line]


@pytest.mark.parametrize("line", YAML_NONE)
def test_no_reference_on_a_yaml_line(line: str) -> None:
    assert reference_on(line, True, SLOTS) is None


TEXT_REFS = {
    "3 Ember Imp": Ref("Ember Imp", 2, 11, 3, 0, 1),
    "3x Ember Imp": Ref("Ember Imp", 3, 12, 3, 0, 1),
    "3 X Ronin": Ref("X Ronin", 2, 9, 3, 0, 1),
    "3 x Ronin": Ref("x Ronin", 2, 9, 3, 0, 1),
    "  12 Ember Imp  ": Ref("Ember Imp", 5, 14, 12, 2, 4),
    "3 Ember Imp # c": Ref("Ember Imp", 2, 11, 3, 0, 1),
    "Hero: Hibiki Kagura": Ref("Hibiki Kagura", 6, 19, slot="hero"),
    "  Gate :  Basic Gate (2)": Ref("Basic Gate (2)", 10, 24, slot="gate"),
    "LEADER:X": Ref("X", 7, 8, slot="leader"),
}
TEXT_NONE = ["Spells:", "Ember Imp", "Hero:", "", "3", "3 "]


@pytest.mark.parametrize("line", sorted(TEXT_REFS))
def test_reference_on_a_text_line(line: str) -> None:
    assert reference_on(line, False, SLOTS) == TEXT_REFS[line]


@pytest.mark.parametrize("line", TEXT_NONE)
def test_no_reference_on_a_text_line(line: str) -> None:
    assert reference_on(line, False, SLOTS) is None


YAML_DECK = [
    "hero: Hi",  # 0
    "spells:",  # 1
    "  Emb",  # 2
    "  - 3 Emb",  # 3
    "  - Emb",  # 4
    "  ",  # 5
    "  # a comment",  # 6
    "skills:",  # 7
    "  Ember Imp: 3 # x",  # 8
    "- 3 A",  # 9
    "  Iron",  # 10
    "name: x",  # 11
    "  Emb",  # 12
]
WORDS = {"spells": "spells", "skills": "skills", "skill deck": "skills"}


@pytest.mark.parametrize(
    ("number", "section"),
    [(0, None), (1, None), (2, "spells"), (5, "spells"), (7, "spells"), (8, "skills"),
     (10, "skills"), (12, None)],
)  # fmt: skip
def test_section_of_a_yaml_line(number: int, section: str | None) -> None:
    assert section_of(YAML_DECK, number, True, WORDS) == section


TEXT_DECK = ["Hero: X", "Spells:", "3 Ember Imp", "", "Skill  Deck:  # c", "1 Iron Fist", "Nope:"]


@pytest.mark.parametrize(
    ("number", "section"), [(0, None), (1, None), (2, "spells"), (4, "spells"), (5, "skills"),
                            (6, "skills")],
)  # fmt: skip
def test_section_of_a_text_line(number: int, section: str | None) -> None:
    assert section_of(TEXT_DECK, number, False, WORDS) == section


def test_section_of_stops_at_a_top_level_key_that_is_not_a_section() -> None:
    assert section_of(["spells:", "  A: 1", "name: x", "  B: 2"], 3, True, WORDS) is None
    assert section_of(["spells:", "  A: 1", "# top comment", "  B: 2"], 3, True, WORDS) == "spells"


@pytest.mark.parametrize(
    ("text", "listed"),
    [("spells:\n  - 3 A\n", True), ("spells:\n  A: 3\n", False), ("- 3 A\n", False),
     ('spells:\n\t- "3 A"\n', True), ("spells:\n  - A\n", False), ("a\n  -  12 B", True)],
)  # fmt: skip
def test_list_style(text: str, listed: bool) -> None:
    assert list_style(text) is listed


@pytest.mark.parametrize(
    ("name", "key"),
    [("Ember Imp", "Ember Imp"), ("-x", '"-x"'), ("a: b", '"a: b"'), ('say "hi": x', '"say \\"hi\\": x"'),
     ("a #b", '"a #b"'), ("a:", '"a:"'), ("a ", '"a "'), ("back\\slash: x", '"back\\\\slash: x"'),
     ("a#b", "a#b"), ("a:b", "a:b"), ("[x]", '"[x]"'), ("*x", '"*x"'), ("x-y", "x-y"),
     (" x", '" x"'), ("%x", '"%x"'), ("'x", "\"'x\"")],
)  # fmt: skip
def test_yaml_key_quotes_only_what_plain_yaml_would_misread(name: str, key: str) -> None:
    assert yaml_key(name) == key


def typing(lines: list[str], number: int, column: int, yaml: bool, listed: bool = False) -> Any:
    return typing_at(
        lines, number, column, yaml=yaml, slots=SLOTS, words=WORDS, listed=listed
    )  # fmt: skip


@pytest.mark.parametrize(
    ("number", "column", "listed", "want"),
    [
        (0, 8, False, Typing("Hi", 6, "hero", None, "{name}")),
        (0, 6, False, Typing("", 6, "hero", None, "{name}")),
        (2, 5, False, Typing("Emb", 2, None, "spells", "{key}: 1")),
        (2, 5, True, Typing("Emb", 2, None, "spells", "- 1 {name}")),
        (2, 3, False, Typing("E", 2, None, "spells", "{key}: 1")),
        (3, 9, False, Typing("Emb", 6, None, "spells", "{name}")),
        (3, 6, False, Typing("", 6, None, "spells", "{name}")),
        (4, 7, False, Typing("Emb", 4, None, "spells", "1 {name}")),
        (4, 4, False, Typing("", 4, None, "spells", "1 {name}")),
        (5, 2, False, Typing("", 2, None, "spells", "{key}: 1")),
        (8, 18, False, None),  # in a comment
        (8, 13, False, None),  # after the colon: the count
        (1, 7, False, None),  # a section key
        (0, 3, False, None),  # a key being typed
        (11, 7, False, None),  # a key that is not a slot
        (12, 5, False, None),  # under a key that is not a section
    ],
)
def test_typing_at_a_yaml_line(number: int, column: int, listed: bool, want: Typing | None) -> None:
    assert typing(YAML_DECK, number, column, True, listed) == want


TEXT_TYPED = ["Hero: Hib", "Spells:", "3 Emb", "Emb", "", "3 Ember: x", "Foo: a", "  2x Em", "# c"]


@pytest.mark.parametrize(
    ("number", "column", "want"),
    [
        (0, 9, Typing("Hib", 6, "hero", None, "{name}")),
        (2, 5, Typing("Emb", 2, None, "spells", "{name}")),
        (3, 3, Typing("Emb", 0, None, "spells", "1 {name}")),
        (3, 1, Typing("E", 0, None, "spells", "1 {name}")),
        (4, 0, Typing("", 0, None, "spells", "1 {name}")),
        (7, 7, Typing("Em", 5, None, "spells", "{name}")),
        (1, 7, None),  # a section header
        (6, 6, None),  # a header that is no slot
        (8, 3, None),  # a comment
    ],
)
def test_typing_at_a_text_line(number: int, column: int, want: Typing | None) -> None:
    assert typing(TEXT_TYPED, number, column, False) == want


def test_typing_before_any_section_is_nothing() -> None:
    assert typing(["  Emb"], 0, 5, True) is None
    assert typing(["Emb"], 0, 3, False) is None
    assert typing(["Spells: a: b", "3 Em"], 0, 12, False) is None


@pytest.mark.parametrize(("count", "ok"), [(0, False), (1, True), (99, True), (100, False), (-1, False)])  # fmt: skip
def test_valid_count(count: int, ok: bool) -> None:
    assert valid_count(count) is ok


# --------------------------------------------------------------------------- documents.py


def test_line_starts_break_at_lsp_line_ends_only() -> None:
    assert line_starts("a\nb\r\nc\rd") == [0, 2, 5, 7]
    assert line_starts("a\x85b\u2028c\x0cd") == [0]
    assert line_starts("") == [0]
    assert line_starts("\n\n") == [0, 1, 2]


@pytest.mark.parametrize(
    ("encoding", "text", "units"),
    [("utf-16", "aス\U0001f525", 4), ("utf-8", "aス\U0001f525", 8), ("utf-32", "aス\U0001f525", 3),
     ("utf-16", "", 0), ("utf-16", "abc", 3), ("utf-8", "\ud800", 3), ("utf-16", "\U00010000", 2),
     ("utf-16", "\uffff", 1)],
)  # fmt: skip
def test_units_count(encoding: str, text: str, units: int) -> None:
    assert Units(encoding).count(text) == units


def test_units_default_to_utf16() -> None:
    assert Units().encoding == "utf-16"
    assert Units().count("\U0001f525") == 2


@pytest.mark.parametrize(
    ("encoding", "line", "units", "index"),
    [
        ("utf-16", "aス\U0001f525b", 0, 0),
        ("utf-16", "aス\U0001f525b", 1, 1),
        ("utf-16", "aス\U0001f525b", 2, 2),
        ("utf-16", "aス\U0001f525b", 3, 3),  # inside the surrogate pair: after it
        ("utf-16", "aス\U0001f525b", 4, 3),
        ("utf-16", "aス\U0001f525b", 5, 4),
        ("utf-16", "aス\U0001f525b", 99, 4),
        ("utf-16", "aス\U0001f525b", -1, 0),
        ("utf-16", "abc", 2, 2),
        ("utf-16", "abc", 9, 3),
        ("utf-32", "ス\U0001f525b", 2, 2),
        ("utf-32", "ス\U0001f525b", 7, 3),
        ("utf-8", "aスb", 1, 1),
        ("utf-8", "aスb", 2, 2),
        ("utf-8", "aスb", 4, 2),
        ("utf-8", "aスb", 5, 3),
        ("utf-8", "abc", 2, 2),
    ],
)
def test_units_index(encoding: str, line: str, units: int, index: int) -> None:
    assert Units(encoding).index(line, units) == index


MIXED = "hero: X\r\nspells:\r  A: 3\n"  # lines start at 0, 9, 17, 24


def doc(text: str, name: str = "d.yaml") -> Document:
    return Document(f"file:///{name}", Path("/") / name, text)


def test_document_lines() -> None:
    d = doc(MIXED)
    assert d.starts == [0, 9, 17, 24]
    assert d.line_count == 4
    assert [d.line(n) for n in range(-1, 6)] == ["", "hero: X", "spells:", "  A: 3", "", "", ""]
    assert doc("a\nb").line(1) == "b"


def test_document_offsets_and_positions() -> None:
    d, units = doc(MIXED), Units()
    assert d.offset(0, 0, units) == 0
    assert d.offset(1, 3, units) == 12
    assert d.offset(2, 99, units) == 23
    assert d.offset(-1, 5, units) == 0
    assert d.offset(4, 0, units) == len(MIXED)
    assert d.offset(3, 0, units) == 24
    assert d.position(12, units) == (1, 3)
    assert d.position(8, units) == (0, 8)  # between CR and LF: the line the CR ends
    assert d.position(9, units) == (1, 0)
    assert d.position(-5, units) == (0, 0)
    assert d.position(999, units) == (3, 0)
    assert d.position(24, units) == (3, 0)


def test_positions_count_client_units() -> None:
    d = doc("x\n  \U0001f525スA: 3\n")
    assert d.position(6, Units("utf-16")) == (1, 5)
    assert d.position(6, Units("utf-8")) == (1, 9)
    assert d.position(6, Units("utf-32")) == (1, 4)
    assert d.offset(1, 5, Units("utf-16")) == 6
    assert d.offset(1, 9, Units("utf-8")) == 6


def test_incremental_edits_on_non_ascii_lines() -> None:
    units = Units()
    d = doc("spells:\n  スコーチ: 3\n")
    d.apply((1, 2), (1, 6), "Ember Imp", units)
    assert d.text == "spells:\n  Ember Imp: 3\n"
    d = doc("  \U0001f525A: 3\n")
    d.apply((0, 2), (0, 4), "", units)
    assert d.text == "  A: 3\n"
    d = doc("  \U0001f525Cinder: 3\n")
    d.apply((0, 4), (0, 10), "Ember", units)
    assert d.text == "  \U0001f525Ember: 3\n"
    assert d.line(0) == "  \U0001f525Ember: 3"  # the line cache follows the edit
    d = doc("aスb\n")
    d.apply((0, 4), (0, 5), "c", Units("utf-8"))
    assert d.text == "aスc\n"


def test_edits_across_lines_reversed_and_whole() -> None:
    units = Units()
    d = doc("ab\ncd\nef")
    d.apply((0, 1), (2, 1), "X", units)
    assert d.text == "aXf"
    assert d.line_count == 1
    d = doc("abcd")
    d.apply((0, 3), (0, 1), "X", units)  # end before start: an insertion at the start
    assert d.text == "abcXd"
    d.apply(None, None, "new\ntext", units)
    assert d.text == "new\ntext"
    assert d.line(1) == "text"
    d.apply((0, 0), None, "whole", units)
    assert d.text == "whole"


def test_text_lists_are_told_by_their_suffix() -> None:
    assert doc("", "a.TXT").is_text_list
    assert doc("", "a.txt").is_text_list
    assert not doc("", "a.yaml").is_text_list


def test_checker_places_count_the_checkers_lines() -> None:
    yaml_doc = doc("a: 1\x85b: 2\nc: 3")  # libyaml breaks at NEL, LSP does not
    assert yaml_doc.checker_offset(2, 1) == 5
    assert yaml_doc.checker_offset(3, 2) == 11
    assert yaml_doc.checker_offset(None, None) == 0
    assert yaml_doc.checker_offset(0, 3) == 0
    assert yaml_doc.checker_offset(1, None) == 0
    assert yaml_doc.checker_offset(9, 1) == len(yaml_doc.text)
    assert yaml_doc.checker_offset(3, 99) == len(yaml_doc.text)
    assert yaml_doc.checker_offset(1, 0) == 0
    text_doc = doc("3 A\x0b3 B", "d.txt")  # a text list breaks where str.splitlines does
    assert text_doc.checker_offset(2, 1) == 4
    assert doc("3 A\x0b3 B").checker_offset(2, 1) == 7  # YAML: one line


def test_a_byte_order_mark_is_dropped_by_the_checker_not_the_editor() -> None:
    d = doc("\ufeffhero: X\nb: 2")
    assert d.checker_offset(1, 7) == 7
    assert d.checker_offset(2, 2) == 10
    assert d.checker_offset(None, None) == 1
    assert d.checker_offset(2, 99) == len(d.text)
    assert d.position(d.checker_offset(1, 7), Units()) == (0, 7)


def test_the_checker_line_cache_follows_the_text() -> None:
    d = doc("a: 1\nb: 2")
    assert d.checker_offset(2, 1) == 5
    d.set_text("abc: 1\nb: 2")
    assert d.checker_offset(2, 1) == 7
    d.apply((0, 0), (0, 0), "xy", Units())
    assert d.checker_offset(2, 1) == 9


# --------------------------------------------------------------------------- diagnostics.py


def server(encoding: str = "utf-16", lang: str = "en") -> Any:
    published: list[t.PublishDiagnosticsParams] = []
    return SimpleNamespace(
        units=Units(encoding), lang=lang, published=published,
        text_document_publish_diagnostics=published.append,
    )  # fmt: skip


def rng(a: int, b: int, c: int, d: int) -> t.Range:
    return t.Range(t.Position(a, b), t.Position(c, d))


DECK = "hero: X\nspells:\n  Nope: 3  # c\n  \n  \U0001f525 Nope: 3 # \U0001f525\n"


@pytest.mark.parametrize(
    ("line", "column", "encoding", "want"),
    [
        (3, 3, "utf-16", rng(2, 2, 2, 9)),  # ends before the comment
        (3, 1, "utf-16", rng(2, 0, 2, 9)),
        (None, None, "utf-16", rng(0, 0, 0, 7)),  # no place: the first line
        (4, 3, "utf-16", rng(3, 2, 3, 3)),  # nothing after the place: one character
        (5, 3, "utf-16", rng(4, 2, 4, 12)),
        (5, 3, "utf-8", rng(4, 2, 4, 14)),
        (5, 3, "utf-32", rng(4, 2, 4, 11)),
        (9, 1, "utf-16", rng(5, 0, 5, 0)),  # past the end
    ],
)
def test_place_of_a_diagnostic(
    line: int | None, column: int | None, encoding: str, want: t.Range
) -> None:
    d = diag("F005", "x", file="d.yaml")
    d = type(d)(d.code, d.severity, d.message, line=line, column=column)
    assert lsp_diagnostics.place(doc(DECK), d, server(encoding)) == want


def test_place_at_the_end_of_a_line_with_nothing_after() -> None:
    d = diag("F005", "x")
    at_end = type(d)(d.code, d.severity, d.message, line=1, column=8)
    assert lsp_diagnostics.place(doc("hero: X"), at_end, server()) == rng(0, 7, 0, 7)
    assert lsp_diagnostics.place(doc(""), d, server()) == rng(0, 0, 0, 0)
    no_line = type(d)(d.code, d.severity, d.message, line=None, column=None)
    assert lsp_diagnostics.place(doc("  \n"), no_line, server()) == rng(0, 0, 0, 0)


def test_a_byte_order_mark_does_not_shift_a_range_on_line_one() -> None:
    d = diag("F005", "x")
    d = type(d)(d.code, d.severity, d.message, line=1, column=7)
    assert lsp_diagnostics.place(doc("\ufeffhero: Nope # c\n"), d, server()) == rng(0, 7, 0, 11)


@pytest.mark.parametrize(("code", "severity"), [("W201", 2), ("W202", 2), ("C101", 2), ("F005", 1), ("V103", 1), ("C001", 1)])  # fmt: skip
def test_severities_are_lsps(code: str, severity: int) -> None:
    from varz_deck.core.lint import CARD_CODES  # the card-data checks, which declare their codes

    assert "C101" in {code.id for code in CARD_CODES}
    from varz_deck.games import get_game

    get_game("varz").rules()  # the deck rules' codes are declared by their owners
    found = lsp_diagnostics.to_lsp(doc("a"), diag(code, "m"), server())
    assert found.severity == severity
    assert found.code == code
    assert found.source == "varz-deck"
    assert found.message == "m"


def test_messages_are_in_the_editors_language() -> None:
    problem = msg("lsp", "no card in it can be read")
    english = "no card in it can be read"
    assert lsp_diagnostics.to_lsp(doc("a"), diag("F001", problem), server()).message == english
    zh = lsp_diagnostics.to_lsp(doc("a"), diag("F001", problem), server(lang="zh")).message
    assert zh == "其中没有可读取的卡牌"


def test_publish_sorts_and_names_the_document() -> None:
    s = server()
    d = doc("a: 1\nb: 2\n")
    d.version = 7
    first = diag("F005", "first")
    first = type(first)(first.code, first.severity, "first", line=1, column=1)
    second = type(first)("F005", first.severity, "second", line=2, column=1)
    lsp_diagnostics.publish(s, d, [second, first])
    assert len(s.published) == 1
    sent = s.published[0]
    assert sent.uri == "file:///d.yaml" and sent.version == 7
    assert [x.message for x in sent.diagnostics] == ["first", "second"]
    assert [x.range.start.line for x in sent.diagnostics] == [0, 1]


def test_a_change_range_or_the_whole_text() -> None:
    partial = t.TextDocumentContentChangePartial(range=rng(1, 2, 3, 4), text="x")
    assert lsp_diagnostics._range(partial) == ((1, 2), (3, 4))
    whole = t.TextDocumentContentChangeWholeDocument(text="x")
    assert lsp_diagnostics._range(whole) == (None, None)


# --------------------------------------------------------------------------- check of a buffer


def real_server(cards: Path | None = None) -> Any:
    from varz_deck.lsp.server import VarzServer

    s = VarzServer(cards)
    s.sent = []  # type: ignore[attr-defined]
    s.text_document_publish_diagnostics = s.sent.append  # type: ignore[method-assign,attr-defined]
    return s


def test_check_deck_is_checks_and_keeps_the_report() -> None:
    s = real_server()
    path = ROOT / "examples" / "illegal.yaml"
    d = Document(path.as_uri(), path, path.read_text(encoding="utf-8"))
    found = lsp_diagnostics.check_deck(s, d)
    assert {x.code for x in found} == {"V103", "V105", "V113", "V114"}  # the file's own comment
    assert lsp_diagnostics.diagnostics_of(s, d.uri) == tuple(found)
    assert lsp_diagnostics.diagnostics_of(s, "file:///other.yaml") == ()
    lsp_diagnostics.refresh(s, d)
    assert [p.uri for p in s.sent] == [d.uri]
    assert {x.code for x in s.sent[0].diagnostics} == {"V103", "V105", "V113", "V114"}


def test_check_deck_follows_the_format_setting(tmp_path: Path) -> None:
    s = real_server()
    text = "hero: Hibiki Kagura\nspells:\n  Ember Imp: 3\n"
    d = Document((tmp_path / "d.yaml").as_uri(), tmp_path / "d.yaml", text)
    codes = {x.code for x in lsp_diagnostics.check_deck(s, d)}
    s.settings = type(s.settings)(**{**vars(s.settings), "format": "nope"})
    other = {x.code for x in lsp_diagnostics.check_deck(s, d)}
    assert codes != other


def test_an_unusable_database_is_one_f001(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "bad.yaml").write_text("cards: [\n", encoding="utf-8")
    s = real_server(tmp_path)
    d = Document("file:///d.yaml", Path("/d.yaml"), "hero: X\n")
    s.reports[d.uri] = object()
    found = lsp_diagnostics.check_deck(s, d)
    assert [x.code for x in found] == ["F001"]
    assert str(tmp_path) in found[0].message and "cards lint" in found[0].message
    assert d.uri not in s.reports


def test_refresh_all_checks_every_open_deck() -> None:
    s = real_server()
    paths = [ROOT / "examples" / "illegal.yaml", ROOT / "examples" / "legal.yaml"]
    for p in paths:
        if p.exists():
            s.docs[p.as_uri()] = Document(p.as_uri(), p, p.read_text(encoding="utf-8"))
    lsp_diagnostics.refresh_all(s)
    assert sorted(x.uri for x in s.sent) == sorted(s.docs)


# --------------------------------------------------------------------------- the header line


@pytest.mark.parametrize(
    ("text", "yaml", "want"),
    [
        ("hero: X\nspells:\n  A: 1\n  # c\n\n  B", True, 8),  # "spells:" starts at 8
        ("spells:\n- 3 A\n\t B\n  C", True, 0),  # the first line
        ("  A: 1\n  B", True, None),
        ("x\r\nskills:\r\n  A", True, 3),
        ("x\rskills:\r  A", True, 2),  # a lone CR ends a line too
        ("#spells:\n  A", True, None),
        ("Spells:\n3 A\nName: x\nFoo: y\n3 B\n", False, 0),  # words that are no header's
        ("Hero: X\n  Skill  Deck :\n1 A\n", False, 8),
        ("Spells:\n3 A\n# Skills:\n3 B\n", False, 0),
        ("3 A\n3 B\n", False, None),
        ("Spells:\rSkills:\r3 A", False, 8),
        ("\nspells:\n  A", True, 1),  # after a line break at the very start
    ],
)  # fmt: skip
def test_the_header_line(text: str, yaml: bool, want: int | None) -> None:
    assert header_line(text, len(text), yaml, WORDS) == want


def test_the_header_line_looks_only_before_the_end() -> None:
    assert header_line("spells:", 0, True, WORDS) is None  # the line being typed is not above
    assert header_line("Spells:", 0, False, WORDS) is None
    text = "spells:\n  A\nskills:\n  B"
    assert header_line(text, text.index("skills"), True, WORDS) == 0
    assert header_line(text, text.index("skills") - 1, True, WORDS) == 0
    assert header_line(text, len(text), True, WORDS) == text.index("skills")


LINE_PIECES = [
    "spells:", "Spells:", "skills:", "Skill  Deck:", " Spells:", "name: x", "Name: x", "  A: 1",
    "- 3 A", "3 A", "# c", "  # c", "", "\t", "\x0c", "x#y:", "\u2028 A", "hero: X", "Hero: X",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(LINE_PIECES), min_size=1, max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
)
def test_section_of_the_header_line_is_section_of_every_line(
    pieces: list[str], newline: str, yaml: bool
) -> None:
    """What completion reads (the header line and the line typed) gives the section that every
    line above gives."""
    text = newline.join(pieces)
    d = doc(text)
    number = d.line_count - 1
    every = [d.line(i) for i in range(d.line_count)]
    head = header_line(text, d.offset(number, 0, Units()), yaml, WORDS)
    window = [d.line(number)] if head is None else [d.line(d.position(head, Units())[0]), every[-1]]
    assert section_of(window, len(window) - 1, yaml, WORDS) == section_of(
        every, number, yaml, WORDS
    )


# --------------------------------------------------------------------------- mutation survivors


def test_a_checker_column_past_a_line_stops_at_its_end() -> None:
    # clamped at the line break: offset 3 (the start of line 2), not 5 (the end of the text)
    assert doc("ab\ncd").checker_offset(1, 99) == 3
    assert doc("a\nb\nc").line(1) == "b"


@pytest.mark.parametrize(
    ("line", "want"),
    [("hero: XenoX", Ref("XenoX", 6, 11, slot="hero")),
     ('hero: "Abc', Ref('"Abc', 6, 10, slot="hero")),
     ("hero: 'Abc\"", Ref("'Abc\"", 6, 11, slot="hero"))],
)  # fmt: skip
def test_only_matching_quotes_are_taken_off(line: str, want: Ref) -> None:
    assert reference_on(line, True, SLOTS) == want


def test_section_of_looks_only_above_the_line() -> None:
    assert section_of(["  A: 1", "  B: 2", "spells:"], 1, True, WORDS) is None
    assert section_of(["spells:", " A: 1", "  B"], 2, True, WORDS) == "spells"
    assert section_of(["spells:", "[x]", "  B"], 2, True, WORDS) is None


def test_typing_on_an_indented_text_header_and_past_the_last_line() -> None:
    assert typing(["  Hero: Hib"], 0, 11, False) == Typing("Hib", 8, "hero", None, "{name}")
    assert typing(["spells:", "  A: 1"], 2, 0, True) is None
    assert typing(["Spells:"], 1, 0, False) == Typing("", 0, None, "spells", "1 {name}")


def test_typing_after_a_hash_that_starts_no_comment() -> None:
    assert typing(["Spells:", "3 C#x"], 1, 5, False) == Typing("C#x", 2, None, "spells", "{name}")
    assert typing(["Spells:", "3 Em # c"], 1, 8, False) is None


def test_place_of_a_diagnostic_without_a_line_keeps_comments_and_trims_the_end() -> None:
    no_line = diag("F001", "x")
    assert lsp_diagnostics.place(doc("# a comment\nhero: X"), no_line, server()) == rng(0, 0, 0, 11)
    assert lsp_diagnostics.place(doc("hero: X  \n"), no_line, server()) == rng(0, 0, 0, 7)


def test_place_right_after_the_text_marks_the_next_character() -> None:
    d = diag("F005", "x")
    d = type(d)(d.code, d.severity, d.message, line=3, column=7)
    assert lsp_diagnostics.place(doc("hero: X\nspells:\n  A: 3 \n"), d, server()) == rng(2, 6, 2, 7)


def test_an_unusable_database_counts_its_problems_and_needs_no_earlier_report(
    tmp_path: Path,
) -> None:
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "bad.yaml").write_text("cards: [\n", encoding="utf-8")
    s = real_server(tmp_path)
    d = Document("file:///never-checked.yaml", Path("/never-checked.yaml"), "hero: X\n")
    found = lsp_diagnostics.check_deck(s, d)
    assert "because of 1 problem: sets/bad.yaml:2: F002 " in found[0].message


def test_a_deck_of_another_game_is_checked_against_that_games_bundled_cards() -> None:
    path = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
    d = Document(path.as_uri(), path, path.read_text(encoding="utf-8"))
    assert "F010" not in {x.code for x in lsp_diagnostics.check_deck(real_server(), d)}
    # with a database named, the deck is checked against it, as `check --cards` does
    named = real_server(ROOT / "tests" / "data" / "altdb")
    assert [x.code for x in lsp_diagnostics.check_deck(named, d)] == ["F010"]


def test_refresh_of_a_card_file_lints_its_database_then_checks_the_decks(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "db"
    shutil.copytree(ROOT / "tests" / "data" / "altdb", root)
    s = real_server(root)
    card_file = sorted((root / "sets").rglob("*.yaml"))[0]
    card = Document(card_file.as_uri(), card_file, card_file.read_text(encoding="utf-8"))
    deck_path = ROOT / "tests" / "cases" / "W201" / "bad_cost_3_two_vaz.yaml"
    deck = Document(deck_path.as_uri(), deck_path, deck_path.read_text(encoding="utf-8"))
    s.docs = {card.uri: card, deck.uri: deck}
    s.card_roots = {card.uri: root.resolve()}
    lsp_diagnostics.refresh(s, card)
    assert [p.uri for p in s.sent] == [card.uri, deck.uri]
    assert all(x.severity == 2 for x in s.sent[0].diagnostics)  # warnings only: decks checked
    assert [x.code for x in s.sent[1].diagnostics] == ["W201"]
    s.sent.clear()
    lsp_diagnostics.refresh_all(s)
    assert sorted(p.uri for p in s.sent) == sorted([card.uri, deck.uri, deck.uri])
