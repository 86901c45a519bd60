"""A list item's count and name: only `3x` / `3×` joined to the count is a multiplier, so a card
named `X Ronin` written `3 X Ronin` is three of that card (issue 24 row 2)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from varz_deck.core.decks.entries import (
    Entry,
    ListWords,
    parse_item,
    parse_text,
    read_section,
    resolve_sections,
)
from varz_deck.core.files.strictyaml import load
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, Severity
from varz_deck.core.messages.i18n import localized, msg
from varz_deck.games import open_database

ROOT = Path(__file__).resolve().parent.parent
ALTDB = ROOT / "tests" / "data" / "altdb"


@pytest.mark.parametrize(
    ("item", "count", "name"),
    [
        ("3 X Ronin", 3, "X Ronin"),
        ("3 x Ronin", 3, "x Ronin"),
        ("3 × Ronin", 3, "× Ronin"),
        ("3 XRonin", 3, "XRonin"),
        ("3x Ronin", 3, "Ronin"),
        ("3X Ronin", 3, "Ronin"),
        ("3× Ronin", 3, "Ronin"),
        ("3x X Ronin", 3, "X Ronin"),
        ("  12   Ember   Imp  ", 12, "Ember Imp"),
        ("03 Ember Imp", 3, "Ember Imp"),
    ],
)
def test_the_multiplier_is_joined_to_the_count(item: str, count: int, name: str) -> None:
    entry, problem = parse_item("spells", item, None, "deck.txt")
    assert problem is None
    assert entry is not None
    assert (entry.count, entry.ref) == (count, name)


@pytest.mark.parametrize("item", ["3x", "3 ", "x3 Ronin", "3×", "three Ronin"])
def test_an_item_without_a_name_is_not_read(item: str) -> None:
    entry, problem = parse_item("spells", item, None, "deck.txt")
    assert entry is None
    assert problem is not None and problem.code == "F004"


_X_CARDS = """\
set: {code: XR1, name: Letters, released: 2025-01-01}
cards:
  - {id: XR1-01, name: X Ronin, type: spil, color: red, cost: 2, power: 3}
  - {id: XR1-02, name: Ronin, type: spil, color: red, cost: 2, power: 3}
"""

_SPELLS = [
    "Ember Imp",
    "Cinderling",
    "Blazing Ronin",
    "Magma Brute",
    "Inferno Drake",
    "Scorching Palm",
    "Flare Burst",
    "Crimson Parry",
    "Molten Guard",
]
_SKILLS = {"Iron Fist": 1, "Rising Knee": 1, "Iaido Draw": 1, "Second Wind": 1, "Crimson VAZ": 5}
_PORTALS = {"Plain Gate": 4, "Stone Gate": 4}


@pytest.fixture(scope="module")
def x_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test database plus a card named `X Ronin` and another named `Ronin`."""
    db = tmp_path_factory.mktemp("xdb") / "cards"
    shutil.copytree(ALTDB, db)
    (db / "sets" / "xr1.yaml").write_text(_X_CARDS, encoding="utf-8")
    return db


def _text_list(last: str) -> str:
    lines = ["Hero: Kagura", "Spells:", *(f"3 {n}" for n in _SPELLS), last, "Skills:"]
    lines += [f"{c} {n}" for n, c in _SKILLS.items()] + ["Portals:"]
    lines += [f"{c} {n}" for n, c in _PORTALS.items()]
    return "\n".join(lines) + "\n"


def _yaml_list(last: str) -> str:
    spells = "".join(f"  - 3 {n}\n" for n in _SPELLS) + f"  - {last}\n"
    skills = "".join(f"  - {c} {n}\n" for n, c in _SKILLS.items())
    portals = "".join(f"  - {c} {n}\n" for n, c in _PORTALS.items())
    return f"hero: Kagura\nspells:\n{spells}skills:\n{skills}portals:\n{portals}"


def _mapping(card: str) -> str:
    spells = "".join(f"  {n}: 3\n" for n in _SPELLS) + f"  {card}: 3\n"
    skills = "".join(f"  {n}: {c}\n" for n, c in _SKILLS.items())
    portals = "".join(f"  {n}: {c}\n" for n, c in _PORTALS.items())
    return f"hero: Kagura\nspells:\n{spells}skills:\n{skills}portals:\n{portals}"


def _cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "varz_deck", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


@pytest.mark.parametrize(
    ("written", "form"),
    [("3 X Ronin", "txt"), ("3 X Ronin", "yaml"), ("3x Ronin", "txt"), ("3× Ronin", "yaml")],
)
def test_a_name_that_starts_with_x_is_read_as_written(
    x_db: Path, tmp_path: Path, written: str, form: str
) -> None:
    """`3 X Ronin` is the card X Ronin; `3x Ronin` and `3× Ronin` are Ronin: the same verdict
    and the same deck code as the mapping form that names the card outright."""
    meant = "X Ronin" if " X " in written else "Ronin"
    deck = tmp_path / f"deck.{form}"
    deck.write_text(_text_list(written) if form == "txt" else _yaml_list(written), "utf-8")
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(_mapping(meant), encoding="utf-8")

    checked = _cli("check", "--cards", x_db, "--format", "pioneer", "--output", "json", deck)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["decks"][0]["diagnostics"] == []

    codes = [_cli("code", "--cards", x_db, path) for path in (deck, mapping)]
    assert [c.returncode for c in codes] == [0, 0], [c.stderr for c in codes]
    assert codes[0].stdout == codes[1].stdout


# ------------------------------------------- each diagnostic whole: code, text, place, file

MARK = Mark(7, 3)


def test_an_unreadable_item_is_f004_at_its_place_naming_it() -> None:
    entry, problem = parse_item("skills", "Ember Imp", MARK, "decks/a.txt", example="2 Cinder")
    assert entry is None
    assert problem == Diagnostic(
        "F004",
        Severity.ERROR,
        "cannot read 'Ember Imp'; write COUNT NAME, e.g. \"2 Cinder\"",
        "decks/a.txt",
        7,
        3,
        "skills",
    )


def test_an_unreadable_item_speaks_japanese() -> None:
    """The message's catalogue context is its code (F004), so it has its translation."""
    _, problem = parse_item("skills", "Ember Imp", MARK, "decks/a.txt", example="2 Cinder")
    assert problem is not None
    assert localized(problem, "ja") == (
        "「Ember Imp」を読み取れません：COUNT NAME（枚数 カード名）の形で書いてください"
        '（例："2 Cinder"）'
    )
    assert localized(problem, "zh") == (
        '无法读取「Ember Imp」：请写成 COUNT NAME（张数 卡名），例如 "2 Cinder"'
    )


def test_without_a_games_example_the_hint_names_no_card() -> None:
    _, problem = parse_item("skills", "Ember Imp", MARK, "decks/a.txt")
    assert problem is not None
    assert problem.message == "cannot read 'Ember Imp'; write COUNT NAME"
    assert localized(problem, "ja") == (
        "「Ember Imp」を読み取れません：COUNT NAME（枚数 カード名）の形で書いてください"
    )
    assert localized(problem, "zh") == "无法读取「Ember Imp」：请写成 COUNT NAME（张数 卡名）"


def test_a_games_list_words_give_the_example_an_unreadable_line_is_shown() -> None:
    """The example comes from the game's `.txt` words, never from the core."""
    words = ListWords(
        sections={"crew": "crew"},
        slots=(),
        outside=msg("F004", "{line} is outside a section; put it under Crew: or Currents:"),
        set_slot=lambda *args: None,
        example="3 Harbor Gull",
    )
    deck = SimpleNamespace(entries={"crew": []}, uncounted=set(), path="d.txt", section_marks={})
    problems = parse_text("Crew:\nHarbor Gull\n", deck, words)
    assert [(p.code, p.line, p.message) for p in problems] == [
        ("F004", 2, "cannot read 'Harbor Gull'; write COUNT NAME, e.g. \"3 Harbor Gull\"")
    ]


@pytest.mark.parametrize(
    ("header", "example"),
    [("Spells:", "2 Crimson VAZ"), ("Leader: Shao\nMain Deck:", "4 Alley Thug")],
    ids=["first game", "second game"],
)
def test_each_bundled_game_suggests_a_line_of_its_own(
    tmp_path: Path, header: str, example: str
) -> None:
    deck = tmp_path / "d.txt"
    deck.write_text(f"{header}\nEmber Imp\n", encoding="utf-8")
    done = _cli("check", "--output", "json", deck)
    assert done.returncode == 1, done.stdout + done.stderr
    found = [
        d["message"]
        for d in json.loads(done.stdout)["decks"][0]["diagnostics"]
        if d["message"].startswith("cannot read")
    ]
    assert found == [f"cannot read 'Ember Imp'; write COUNT NAME, e.g. \"{example}\""]


@pytest.mark.parametrize(
    ("item", "shown"),
    [
        ("0 Ember Imp", "0"),
        ("100 Ember Imp", "100"),
        ("999999999999 Ember Imp", "999999999999"),  # 12 digits: converted and shown whole
        ("1234567890123 Ember Imp", "12345678…"),  # 13 digits: never converted, cut
    ],
)
def test_a_count_out_of_range_is_f004_naming_the_count_and_the_card(item: str, shown: str) -> None:
    entry, problem = parse_item("spells", item, MARK, "decks/a.txt")
    assert entry is None
    assert problem == Diagnostic(
        "F004",
        Severity.ERROR,
        f"count {shown} for 'Ember Imp'; a count is a whole number from 1 to 99",
        "decks/a.txt",
        7,
        3,
        "spells",
    )


@pytest.mark.parametrize("count", [1, 99])
def test_the_bounds_are_counts(count: int) -> None:
    entry, problem = parse_item("spells", f"{count} Ember Imp", MARK, "a.txt")
    assert problem is None
    assert entry == Entry("spells", "Ember Imp", count, MARK)
    deck = SimpleNamespace(entries={"spells": []}, uncounted=set(), path="a.yaml")
    doc = load(f"spells:\n  Ember Imp: {count}\n")
    assert read_section(deck, "spells", doc.data["spells"], doc) == []
    assert deck.entries["spells"] == [Entry("spells", "Ember Imp", count, Mark(2, 3))]
    assert deck.uncounted == set()


def _sections(text: str) -> tuple[dict[str, Any], list[Diagnostic]]:
    database = open_database(ALTDB)
    entries = {
        "spells": [
            parse_item("spells", line, Mark(i, 1), "d.txt")[0]
            for i, line in enumerate(text.splitlines(), 1)
        ]
    }
    return resolve_sections(entries, database, "d.txt", lambda card, entry: None, str.upper)


def test_f003_and_f005_name_the_file_and_the_section() -> None:
    """resolve_sections' diagnostics whole: the repeat names the first line, the section as
    section_name gives it, the file as shown; an unknown card names the file and section."""
    _, problems = _sections("2 Cinderling\n1 GT1-90\n1 Nobody At All\n")
    f003, f005 = sorted(problems, key=lambda d: d.code)
    assert (f003.code, f003.file, f003.line, f003.column, f003.section, f003.card) == (
        "F003",
        "d.txt",
        2,
        1,
        "spells",
        "GT1-90",
    )
    assert f003.message == (
        "'Cinderling' is listed twice in SPELLS (also at line 1 as 'Cinderling'); "
        "list it once with the total count"
    )
    assert (f005.code, f005.file, f005.line, f005.section) == ("F005", "d.txt", 3, "spells")
    assert f005.message.startswith("unknown card 'Nobody At All'")


def test_repeated_lines_are_listed_up_to_the_bound_then_summed_up() -> None:
    """A deck of thousands of repeated lines (issue 24 rows 7 and 12 gave such decks to every
    command): its first LISTED_PER_DECK repeats get an F003 each, the next one says the rest are
    not listed, and the rest get nothing: the answer stays small and fast, never 80,000 lines."""
    lines = "".join("3 Cinderling\n" for _ in range(1_000))
    _, problems = _sections(lines)
    assert [d.code for d in problems] == ["F003"] * 201
    assert [d.line for d in problems] == list(range(2, 203))
    last = problems[-1]
    assert last.message == (
        "'Cinderling' is listed again in SPELLS; more than 200 lines of this deck repeat a card "
        "listed above, so the rest are not listed: list each card once, with its total count"
    )
    assert (last.file, last.line, last.column, last.section, last.card) == (
        "d.txt",
        202,
        1,
        "spells",
        "AB1-11",
    )
    assert last.text is not None and last.text.context == "F003"
    assert localized(last, "ja") != last.message
    assert localized(last, "zh") != last.message


def test_a_list_item_that_is_not_text_leaves_the_section_uncounted_and_the_rest_read() -> None:
    deck = SimpleNamespace(entries={"spells": []}, uncounted=set(), path="a.yaml")
    doc = load("spells:\n  - 3\n  - 2 Ember Imp\n  - 0 Cinderling\n")
    (problem,) = read_section(deck, "spells", doc.data["spells"], doc)
    assert deck.entries["spells"] == [Entry("spells", "Ember Imp", 2, Mark(3, 5))]
    assert deck.uncounted == {"spells"}
    assert (problem.code, problem.file, problem.line, problem.section) == (
        "F004",
        "a.yaml",
        4,
        "spells",
    )


@pytest.mark.parametrize("count", ["0", "100"])
def test_a_yaml_list_count_out_of_range_is_one_f004_naming_the_card(count: str) -> None:
    """The schema and the checker both reject `- 0 Ember Imp`; the deck gets one F004, the
    checker's, which names the card (the schema's would quote the whole item)."""
    from varz_decks import read_text

    _deck, problems = read_text(f"hero: Kagura\nspells:\n  - {count} Ember Imp\n", "d.yaml")
    assert [(d.code, d.line, d.column, d.section) for d in problems] == [("F004", 3, 5, "spells")]
    assert problems[0].message == (
        f"count {count} for 'Ember Imp'; a count is a whole number from 1 to 99"
    )
