"""Properties of reading untrusted decks: any input gives diagnostics, never an exception.

SPEC §3: "no Python traceback for any input, ever"; SPEC §4: file and reference problems are
F001–F008. Every message reaches a terminal or a CI log, so none may carry a raw control
character, a terminal escape or a bidi override.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from varz_decks import DeclaredDeck, check_parsed, read_text

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.files.source import LoadError, decode
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.report import json_report
from varz_deck.core.report import text as text_report
from varz_deck.games import all_codes, lint_database

ROOT = Path(__file__).resolve().parent.parent
FILE_CODES = {f"F00{n}" for n in range(1, 9)}
DECK_CODES = {code for code in all_codes() if not code.startswith("C")}
UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

FAST = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
FULL = settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


@functools.cache
def bundled() -> CardDatabase:
    database = lint_database(ROOT / "card_data" / "varz").database
    assert database is not None
    return database


# --------------------------------------------------------------------------- strategies

CARD_NAMES = ["Hibiki Kagura", "Ember Imp", "Crimson VAZ", "Basic Gate (3)", "VZ01-012", "茉莉"]
FRAGMENTS = [
    *("hero", "spells", "skills", "portals", "name", "format", "player", "event"),
    *CARD_NAMES,
    *(":", ": ", "- ", "\n", "\n  ", "\n    ", "  ", " ", "\t", "\r\n"),
    *("[", "]", "{", "}", ",", "? ", "|", ">", "#", "---", "...", "<<: "),
    *("&a ", "*a", "&b ", "*b", "!!", "!", "!!str ", "!!int ", "!!python/object/apply:os.system "),
    *("'", '"', "\\", "\\e", "\\x1b", "\\u202e", "\\0", "%YAML 1.2\n", "%TAG ! !foo\n"),
    *("0", "1", "3", "99", "100", "-1", "2.5", "1.10", "0x1F", "yes", "true", "~", "null"),
    *("3 ", "3x ", "Spells:", "Skills:", "Portals:", "Hero: ", "Format: "),
    *("\x1b[31m", "\x00", "\x07", "\x7f", "\x85", "\u202e", "\u2066", "\ufeff", "茉", "😀"),
]
yamlish_text = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(max_size=6),
        st.integers(1, 80).map(lambda n: "[" * n),
        st.integers(1, 80).map(lambda n: "{a: " * n),
    ),
    max_size=60,
).map("".join)

nasty_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from("\x1b\x00\x07\x7f\x85\u202a\u202e\u2066\u2069\n:-[]{}#&*!'\""),
    ),
    max_size=12,
)
counts = st.one_of(
    st.integers(-2, 120), st.floats(allow_nan=True), st.booleans(), st.none(), nasty_text
)
section_value = st.one_of(
    st.dictionaries(st.one_of(st.sampled_from(CARD_NAMES), nasty_text), counts, max_size=5),
    st.lists(
        st.one_of(
            st.builds(lambda n, name: f"{n} {name}", st.integers(-1, 120), nasty_text),
            nasty_text,
            counts,
        ),
        max_size=5,
    ),
    nasty_text,
    st.none(),
)
scalar = st.one_of(nasty_text, st.integers(), st.booleans(), st.none())
deck_mapping = st.fixed_dictionaries(
    {},
    optional={
        "hero": st.one_of(st.sampled_from(CARD_NAMES), scalar, st.lists(scalar, max_size=2)),
        "format": st.one_of(st.sampled_from(["standard", "pioneer"]), scalar),
        "name": scalar,
        "spells": section_value,
        "skills": section_value,
        "portals": section_value,
    },
).flatmap(
    lambda deck: st.dictionaries(nasty_text, scalar, max_size=2).map(
        lambda extra: {**extra, **deck}
    )
)
deck_yaml = deck_mapping.map(
    lambda data: yaml.safe_dump(data, allow_unicode=True, default_flow_style=None)
)


def any_text() -> st.SearchStrategy[str]:
    return st.one_of(yamlish_text, deck_yaml, nasty_text, st.text(max_size=300))


# --------------------------------------------------------------------------- helpers


def parse(text: str, kind: str) -> tuple[DeclaredDeck, list[Diagnostic]]:
    deck, problems = read_text(text, f"deck.{kind}")
    return deck, problems


def assert_clean(message: str) -> None:
    found = UNSAFE.search(message)
    assert found is None, f"raw {found.group()!r} in {message!r}"


def assert_file_diagnostics(problems: list[Diagnostic]) -> None:
    for problem in problems:
        assert isinstance(problem, Diagnostic)
        assert problem.code in FILE_CODES
        assert problem.line is None or problem.line >= 1
        assert problem.column is None or problem.column >= 1


# --------------------------------------------------------------------------- any bytes


@FAST
@given(st.one_of(st.binary(max_size=400), yamlish_text.map(lambda t: t.encode("utf-8", "replace"))))
def test_any_bytes_give_only_load_errors_or_file_diagnostics(data: bytes) -> None:
    try:
        text = decode(data)
    except LoadError as err:
        assert err.code == "F001"
        return
    for kind in ("yaml", "txt"):
        _, problems = parse(text, kind)
        assert_file_diagnostics(problems)


@FAST
@given(st.one_of(st.binary(max_size=400), st.text(max_size=200).map(str.encode)))
@example(b"\xff\xfeh\x00e\x00")
@example(b"\x00")
@example(b"\xef\xbb\xbf\xef\xbb\xbf")
def test_decode_returns_text_or_raises_f001(data: bytes) -> None:
    try:
        assert isinstance(decode(data), str)
    except LoadError as err:
        assert err.code == "F001"
        assert_clean(err.message)
        assert err.mark is None or (err.mark.line >= 1 and err.mark.column >= 1)


# --------------------------------------------------------------------------- YAML-ish text


@FAST
@given(yamlish_text)
def test_strict_loader_raises_only_f002_or_f003_in_both_modes(text: str) -> None:
    for aliases, cap in ((False, 100_000), (True, CARD_NODE_CAP)):
        try:
            load(text, aliases=aliases, node_cap=cap)
        except LoadError as err:
            assert err.code in FILE_CODES
            assert_clean(err.message)
            assert err.mark is None or (err.mark.line >= 1 and err.mark.column >= 1)


@FAST
@given(any_text())
def test_parsing_yamlish_text_gives_only_file_diagnostics(text: str) -> None:
    for kind in ("yaml", "txt"):
        _, problems = parse(text, kind)
        assert_file_diagnostics(problems)


# --------------------------------------------------------------------------- the whole check


@FULL
@given(any_text(), st.sampled_from(["yaml", "txt"]), st.sampled_from([None, "pioneer", "nope"]))
def test_full_check_over_the_bundled_database_never_raises(
    text: str, kind: str, format_key: str | None
) -> None:
    deck, problems = parse(text, kind)
    report = check_parsed(deck, problems, bundled(), format_key)
    assert isinstance(report, DeckReport)
    for d in report.diagnostics:
        assert isinstance(d, Diagnostic)
        assert d.code in DECK_CODES
    # SPEC §4: W… codes are warnings, every F… and V… code an error. Counted from the codes (not
    # from the severity the checker gave them) and compared with what `--output json` says.
    errors = sum(1 for d in report.diagnostics if not d.code.startswith("W"))
    warnings = len(report.diagnostics) - errors
    assert report.legal is (errors == 0)
    doc = json.loads(json_report.render_check([report]))
    assert doc["decks"][0]["legal"] is (errors == 0)
    assert doc["summary"] == {
        "decks": 1,
        "legal": 1 if errors == 0 else 0,
        "errors": errors,
        "warnings": warnings,
    }
    severities = [d["severity"] for d in doc["decks"][0]["diagnostics"]]
    assert severities == [
        "warning" if d.code.startswith("W") else "error" for d in report.diagnostics
    ]
    assert list(report.diagnostics) == sorted(report.diagnostics, key=Diagnostic.sort_key)


@FULL
@given(st.one_of(yamlish_text, nasty_text, st.text(max_size=200)))
def test_plain_text_deck_messages_have_no_control_characters(text: str) -> None:
    deck, problems = parse(text, "txt")
    for d in check_parsed(deck, problems, bundled()).diagnostics:
        assert_clean(d.message)


@settings(FULL, max_examples=200)
@given(any_text())
@example('spells:\n  "\\e[31mX": 0\n')
def test_yaml_deck_messages_have_no_control_characters(text: str) -> None:
    deck, problems = parse(text, "yaml")
    for d in check_parsed(deck, problems, bundled()).diagnostics:
        assert_clean(d.message)


@settings(FULL, max_examples=150)
@given(any_text(), st.sampled_from(["yaml", "txt"]))
@example('format: "\\e[31mevil\\u202e"\n', "yaml")
@example("Format: \x1b[2J\n", "txt")
def test_rendered_text_output_has_no_raw_control_characters(text: str, kind: str) -> None:
    deck, problems = parse(text, kind)
    report = check_parsed(deck, problems, bundled())
    rendered = text_report.render_check([report], color=False, width=100)
    assert_clean(rendered)


@settings(FULL, max_examples=150)
@given(any_text(), st.sampled_from(["yaml", "txt"]))
@example("spells:\n  Ember Imp: -2.5\n", "yaml")
def test_one_problem_gives_one_diagnostic(text: str, kind: str) -> None:
    deck, problems = parse(text, kind)
    report = check_parsed(deck, problems, bundled())
    keys = [(d.code, d.line, d.column, d.message) for d in report.diagnostics]
    assert len(keys) == len(set(keys))


# --------------------------------------------------------------------------- specific inputs


BASE_TEXT_DECK = (ROOT / "examples" / "blue-list.txt").read_text(encoding="utf-8")


def check_text(text: str, kind: str = "txt") -> DeckReport:
    deck, problems = parse(text, kind)
    return check_parsed(deck, problems, bundled())


def test_the_base_plain_text_deck_is_legal() -> None:
    report = check_text(BASE_TEXT_DECK)
    assert report.diagnostics == ()


@pytest.mark.parametrize("count", ["-2.5", "150.5", ".inf", "-.inf"])
def test_a_count_that_is_fractional_and_out_of_range_is_one_f004(count: str) -> None:
    _, problems = parse(f"spells:\n  Ember Imp: {count}\n", "yaml")
    assert [(d.code, d.line, d.column) for d in problems] == [("F004", 2, 14)]


def test_plain_text_hero_given_twice_is_f003() -> None:
    text = BASE_TEXT_DECK.replace(
        "Hero: Shizuku Minase\n", "Hero: Hibiki Kagura\nHero: Shizuku Minase\n"
    )
    report = check_text(text)
    assert "F003" in [d.code for d in report.diagnostics]


def test_yaml_hero_given_twice_is_f003() -> None:
    report = check_text("hero: Hibiki Kagura\nhero: Shizuku Minase\n", "yaml")
    assert ("F003", 2, 1) in [(d.code, d.line, d.column) for d in report.diagnostics]


def test_plain_text_comment_after_a_tab_is_a_comment() -> None:
    text = BASE_TEXT_DECK.replace("3 Tide Sprite\n", "3 Tide Sprite\t# the best\n")
    assert check_text(text).diagnostics == ()


def test_plain_text_comment_after_a_space_is_a_comment() -> None:
    text = BASE_TEXT_DECK.replace("3 Tide Sprite\n", "3 Tide Sprite   # the best\n")
    assert check_text(text).diagnostics == ()


@pytest.mark.parametrize(
    "line", ["3x Tide Sprite", "3X Tide Sprite", "3× Tide Sprite", "  3   tide   SPRITE  "]
)
def test_plain_text_count_forms_and_spacing_are_accepted(line: str) -> None:
    text = BASE_TEXT_DECK.replace("3 Tide Sprite\n", f"{line}\n")
    assert check_text(text).diagnostics == ()


def test_plain_text_x_apart_from_the_count_is_part_of_the_name() -> None:
    """Only an x joined to the count multiplies (issue 24 row 2): `3 x Tide Sprite` names a
    card `x Tide Sprite`, which this database lacks; "did you mean" offers Tide Sprite."""
    text = BASE_TEXT_DECK.replace("3 Tide Sprite\n", "3 x Tide Sprite\n")
    (unknown,) = [d for d in check_text(text).diagnostics if d.code == "F005"]
    assert "'x Tide Sprite'" in unknown.message
    assert "Tide Sprite" in unknown.message.replace("'x Tide Sprite'", "")


def test_plain_text_with_crlf_line_ends_is_read() -> None:
    assert check_text(BASE_TEXT_DECK.replace("\n", "\r\n")).diagnostics == ()


_DIGITS = st.text("0123456789", min_size=1, max_size=20)


@FAST
@given(
    whole=_DIGITS,
    fraction=st.one_of(st.just(""), _DIGITS),
    exponent=st.one_of(st.just(""), st.integers(-30, 30).map(lambda e: f"e{e:+d}")),
    tag=st.booleans(),
)
@example(whole="2", fraction="9999999999999999", exponent="", tag=False)
@example(whole="3", fraction="0", exponent="", tag=False)
@example(whole="2", fraction="9999999999999999", exponent="", tag=True)
def test_a_count_is_whole_only_as_written(
    whole: str, fraction: str, exponent: str, tag: bool
) -> None:
    """A float count is whole when the number as written is (fractions.Fraction says, not the
    float it rounds to): 2.9999999999999999 is F004 although it reads as 3.0 (issue 24 row 14)."""
    from fractions import Fraction

    from varz_deck.core.files.strictyaml import is_whole

    text = f"{whole}.{fraction}{exponent}"
    value = load(f"n: {'!!float ' if tag else ''}{text}\n").data["n"]
    assert value == float(text)
    assert is_whole(value) == (Fraction(text).denominator == 1)
