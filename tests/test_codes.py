"""Codes owned by their checks (issue 25): severity from the Code, every code from its owner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from varz_deck.core.messages.code import Code, Scope, Severity, declare, declared
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.rulebook import Rulebook
from varz_deck.games import all_codes, get_game

ROOT = Path(__file__).resolve().parent.parent
FILE_IDS = [f"F00{n}" for n in range(1, 10)] + ["F010"]
# the declared checks' own codes (core/decks/construction.py, legality.py): every game lists them
DECK_IDS = ["D101", "D102", "D103", "D115", "D116", "D117", "D118", "D203"]
CARD_IDS = [
    "C001", "C002", "C003", "C005", "C006", "C007", "C008", "C009", "C010", "C011", "C012",
    "C013", "C101", "C102", "C103", "C104", "C105",
]  # fmt: skip


def test_severity_comes_from_the_code_not_from_its_letter() -> None:
    declare(Code("W991", "warning-letter-error", "an error whose id starts with W"))
    declare(Code("Q991", "odd-letter-warning", "a warning", Severity.WARNING))
    assert diag("W991", "x").severity is Severity.ERROR
    assert diag("Q991", "x").severity is Severity.WARNING
    own = Code("E991", "given", "given as the object", Severity.WARNING)
    assert diag(own, "x").severity is Severity.WARNING
    assert diag(own, "x").code == "E991"


def test_a_code_nobody_declared_is_an_error() -> None:
    assert diag("W990", "x").severity is Severity.ERROR


def test_one_id_declared_twice_differently_is_refused() -> None:
    declare(Code("Z990", "one", "one"))
    declare(Code("Z990", "one", "one"))  # the same code again (a module imported twice)
    with pytest.raises(ValueError, match="Z990"):
        declare(Code("Z990", "two", "another"))


def _check(view: object) -> Iterator[Diagnostic]:
    """A check's title.

    Legal:   a passing example
    Illegal: a failing example
    """
    yield diag("Z991", "found")


def test_a_rule_owns_its_code() -> None:
    book: Rulebook[object] = Rulebook(Scope.CARDS)
    book.rule("Z991", "z-check", "SPEC §1", severity=Severity.WARNING, fix="Do it.")(_check)
    info = book.rules["Z991"].info
    assert (
        declared("Z991") == info
    )  # (the same code: a second run in one process declares it again)
    assert (info.title, info.severity, info.scope, info.fix) == (
        "A check's title.",
        Severity.WARNING,
        Scope.CARDS,
        "Do it.",
    )
    assert info.examples == (("Legal", "a passing example"), ("Illegal", "a failing example"))
    assert [d.severity for d in book.run(None)] == [Severity.WARNING]


def test_warnings_are_declared_by_their_owners() -> None:
    codes = all_codes(["varz", "azuki"])  # the bundled games (a plugin may be installed too)
    warnings = sorted(code for code, info in codes.items() if info.severity is Severity.WARNING)
    assert warnings == [
        "A201", "C101", "C102", "C103", "C104", "C105", "D203", "W201", "W202", "W203",
    ]  # fmt: skip


def test_every_code_comes_from_its_owner() -> None:
    from varz_deck.core.lint import cards, formats
    from varz_deck.core.messages import filecodes
    from varz_deck.games.varz import vocabulary

    codes = all_codes()
    assert codes["F001"] is filecodes.F001
    assert codes["C002"] is cards.C002
    assert codes["C104"] is formats.C104
    assert codes["C004"] is vocabulary.C004  # the game's own card check


def test_the_list_is_files_then_each_games_rules_then_card_data() -> None:
    azuki = [*(f"A10{n}" for n in range(1, 9)), "A201"]
    assert list(all_codes(["azuki"])) == [*FILE_IDS, *DECK_IDS, *azuki, *CARD_IDS]
    varz = list(all_codes(["varz"]))
    assert varz[:18] == FILE_IDS + DECK_IDS
    assert varz[18:39] == [f"V1{n:02}" for n in range(1, 19)] + ["W201", "W202", "W203"]
    assert varz[39:] == ["C001", "C002", "C003", "C004", *CARD_IDS[3:]]


def test_an_unknown_game_names_the_installed_games(tmp_path: Path) -> None:
    from varz_deck.core.lint.database import lint_database

    (tmp_path / "formats.yaml").write_text("game: chess\nformats: {}\n", encoding="utf-8")
    result = lint_database(tmp_path, get_game("varz"), games=("varz", "azuki", "toy"))
    assert [(d.code, d.line, d.column, d.message) for d in result.diagnostics] == [
        ("C001", 1, 7, "game is one of the installed games: varz, azuki, toy (got 'chess')")
    ]
    assert list(result.files) == [str(tmp_path / "formats.yaml")]


def test_a_games_own_format_fields_are_kept_for_it(tmp_path: Path) -> None:
    from varz_deck.core.cards.model import Format
    from varz_deck.games import open_database

    database = open_database(ROOT / "card_data" / "varz")
    assert database.formats["standard"].extra == {"max_effect_portals": 2}
    assert database.formats["pioneer"].extra == {"portals": "pooled"}
    assert {f for f in Format.__dataclass_fields__} == {
        "key", "name", "sets", "banned", "restricted", "extra",
        "changes", "released", "banned_on", "restricted_on",  # SPEC §12, read by every game
        "written",  # the format as written, which a format in force on a day starts from
    }  # fmt: skip


class _Plain:
    """A rule a game builds itself: only the fields, maybe the book it is in."""

    def __init__(self, code: str, book: object = None, scope: Scope | None = None) -> None:
        self.code, self.name, self.summary = code, f"{code.lower()}-name", f"{code} summary"
        self.section, self.doc = f"§{code}", f"{code} doc"
        if book is not None:
            self.book = book
        if scope is not None:
            self.info = Code(code, self.name, self.summary, scope=scope)


def test_a_rule_of_fields_is_a_code_of_those_fields() -> None:
    from varz_deck.core.report.codes import code_of

    assert code_of(_Plain("Y1")) == Code(
        "Y1", "y1-name", "Y1 summary", Severity.ERROR, Scope.DECK, "§Y1", "Y1 doc", ""
    )
    core = declared("F001")
    assert core is not None and code_of(core) is core  # a code listed as it is


def test_deck_rules_are_listed_book_by_book_in_the_order_given() -> None:
    from varz_deck.core.report.codes import codes_with

    first, second = object(), object()
    rules = [
        _Plain("Y9", first),
        _Plain("X5", second),
        _Plain("Y2", first),
        _Plain("W1"),  # a book of its own
        _Plain("Y0", second, Scope.CARDS),  # a card rule: among the card codes
        _Plain("A0"),
    ]
    listed = list(codes_with(rules))
    shared = len(FILE_IDS) + len(DECK_IDS)
    assert listed[:shared] == FILE_IDS + DECK_IDS
    assert listed[shared : shared + 5] == ["Y2", "Y9", "X5", "W1", "A0"]
    assert listed[shared + 5 :] == sorted([*CARD_IDS, "Y0"])  # card codes by id
