"""Format legality by card (docs/guides/card-data.md, "Dated formats"): a card is legal only through
a printing in a set the format allows and released by the day; bans and restrictions name a card,
every printing of it, in the undated lists and in dated changes alike; the changes of one date
apply together whatever order they are written in; an announced change warns once per card.

Every expected verdict here is written by hand from those rules and the databases written below
(the bundled VARZ card data, examples/red-kagura-festival.yaml, tests/data/azuki_dated and the Zero
Fire deck of tests/cases_azuki), never taken from the tool's output.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.cards.model import CardDatabase, Format, FormatChange
from varz_deck.games import lint_database

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
AZUKI_DATED = ROOT / "tests" / "data" / "azuki_dated"
ZERO = ROOT / "tests" / "cases_azuki" / "A201" / "bad_ban_in_14_days.yaml"
D = dt.date

# The 24 cards of the Kagura deck (hero, 13 spells, 6 skills, 4 portals), by hand from the deck
# file and the bundled card data: name -> its printings' ids.
KAGURA_CARDS = {
    "Hibiki Kagura": ["VZ01-001"],
    "Ember Imp": ["VZ01-007"],
    "Cinder Hound": ["VZ01-008"],
    "Flame Ronin": ["VZ01-009"],
    "Scorch Shot": ["VZ01-010", "VZ02-063"],
    "Blaze Rush": ["VZ01-011"],
    "Kabuki Flame Dancer": ["VZ01-012"],
    "Magma Brawler": ["VZ01-013"],
    "Inferno Burst": ["VZ01-014"],
    "Vermilion Drake": ["VZ01-015"],
    "Street Brawler": ["VZ02-004"],
    "Overheat": ["VZ02-005"],
    "Crimson Gunslinger": ["VZ02-006"],
    "Meteor Lance": ["VZ02-007"],
    "Crimson VAZ": ["VZ01-094"],
    "Iron Fist": ["VZ01-067"],
    "Burning Knuckle": ["VZ01-068"],
    "Iaido Flash": ["VZ01-069"],
    "Blade Oath": ["VZ01-070"],
    "Second Wind": ["VZ02-043"],
    "Kabukicho Neon": ["VZ01-113"],
    "Shibuya Crossing": ["VZ01-110"],
    "Crimson Gate": ["VZ01-104"],
    "Basic Gate (2)": ["VZ01-101"],
}

STANDARD_HEAD = """\
formats:
  standard:
    name: Standard
    max_effect_portals: 2
"""


def run(*args: str | Path) -> tuple[int, str, str]:
    """`varz-deck ARGS` in this process: exit code, stdout, stderr."""
    from varz_deck.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as done:
            code = done.code
    return (code if isinstance(code, int) else 0), out.getvalue(), err.getvalue()


def varz_db(tmp_path: Path, formats: str, **files: str) -> Path:
    """The bundled VARZ card data with this formats.yaml and these extra files (name -> text)."""
    db = tmp_path / "cards"
    shutil.copytree(BUNDLED, db)
    (db / "formats.yaml").write_text(formats, encoding="utf-8")
    for name, text in files.items():
        path = db / "sets" / name
        path.write_text(text, encoding="utf-8")
    return db


def check_json(deck: Path, db: Path, day: str, *extra: str) -> tuple[int, list[dict]]:
    """check's exit code and the deck's diagnostics as (code, message) in JSON."""
    code, out, err = run("check", deck, "--cards", db, "--date", day, "-o", "json", *extra)
    assert code in (0, 1), err
    (entry,) = json.loads(out)["decks"]
    return code, entry["diagnostics"]


def codes(diagnostics: list[dict]) -> list[str]:
    return sorted(d["code"] for d in diagnostics)


def _card_yaml(card_id: str, source: dict) -> str:
    """A card mapping as a flow line, with another id."""
    data = {k: v for k, v in source.items() if k not in ("flavor", "rarity")}
    data["id"] = card_id
    return "  - " + json.dumps(data, ensure_ascii=False) + "\n"


def _bundled_cards() -> dict[str, dict]:
    """The bundled VARZ cards, id -> mapping (as written in the card files)."""
    out: dict[str, dict] = {}
    for path in sorted((BUNDLED / "sets").glob("*.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            out[card["id"]] = card
    return out


def reprints(code: str, released: str | None, ids: dict[str, str]) -> str:
    """A card file of set `code` reprinting bundled cards: new id -> the bundled id it reprints."""
    cards = _bundled_cards()
    head = f"set:\n  code: {code}\n  name: Set {code}\n"
    if released is not None:
        head += f"  released: {released}\n"
    return head + "cards:\n" + "".join(_card_yaml(new, cards[old]) for new, old in ids.items())


def kagura_with(tmp_path: Path, old: str, new: str) -> Path:
    text = KAGURA.read_text(encoding="utf-8")
    assert old in text
    deck = tmp_path / "deck.yaml"
    deck.write_text(text.replace(old, new), encoding="utf-8")
    return deck


# --------------------------------------------------------------------- row 2: released through a
# printing in a set the format allows


VZ03_MASCOT = reprints("VZ03", "2027-03-01", {"VZ03-001": "PR-001"})


def test_a_promo_printing_outside_the_format_never_makes_the_card_released(
    tmp_path: Path,
) -> None:
    """Festival Mascot: PR-001 (PR, released 2025-09-01, not in Standard) and VZ03-001 (VZ03, in
    Standard, released 2027-03-01). Before 2027-03-01 no printing in an allowed set is released:
    V118, naming VZ03 and its day; from that day on the deck is legal."""
    formats = STANDARD_HEAD + "    sets: [VZ01, VZ02, VZ03]\n"
    db = varz_db(tmp_path, formats, **{"vz03.yaml": VZ03_MASCOT})
    deck = kagura_with(tmp_path, "  Meteor Lance: 2\n", "  Festival Mascot: 2\n")
    status, found = check_json(deck, db, "2027-02-10")
    assert status == 1
    assert [(d["code"], d["message"]) for d in found] == [
        ("V118", "'Festival Mascot' is in VZ03, released 2027-03-01: not yet legal in Standard")
    ]
    status, found = check_json(deck, db, "2027-02-28")
    assert status == 1 and codes(found) == ["V118"]
    status, found = check_json(deck, db, "2027-03-01")  # the release day itself
    assert status == 0 and found == []


def test_after_a_rotation_into_an_unreleased_set_no_card_of_the_deck_is_legal(
    tmp_path: Path,
) -> None:
    """Standard rotates to [VZ03] on 2027-02-01; VZ03 reprints every card of the Kagura deck and
    is released 2027-03-01. On 2027-02-10 every one of the deck's 24 cards is V118 (their VZ01 and
    VZ02 printings are released but outside the format)."""
    ids = {}
    for n, (_name, printings) in enumerate(sorted(KAGURA_CARDS.items()), start=1):
        ids[f"VZ03-{n:03d}"] = printings[0]
    formats = STANDARD_HEAD + (
        "    sets: [VZ01, VZ02]\n    changes:\n      - date: 2027-02-01\n        sets: [VZ03]\n"
    )
    db = varz_db(tmp_path, formats, **{"vz03.yaml": reprints("VZ03", "2027-03-01", ids)})
    status, found = check_json(KAGURA, db, "2027-02-10")
    assert status == 1
    assert codes(found) == ["V118"] * 24
    named = sorted(d["message"].split("'")[1] for d in found)
    assert named == sorted(KAGURA_CARDS)
    assert check_json(KAGURA, db, "2027-01-31") == (0, [])  # before the rotation
    status, found = check_json(KAGURA, db, "2027-03-01")
    assert status == 0 and found == []


def test_a_set_outside_the_format_released_first_is_not_the_day_named(tmp_path: Path) -> None:
    """Two allowed sets release the card, VZ03 (2027-03-01) and VZ04 (2027-04-01); the PR printing
    (2025-09-01) does not count: V118 names VZ03, the first allowed release."""
    vz04 = reprints("VZ04", "2027-04-01", {"VZ04-001": "PR-001"})
    formats = STANDARD_HEAD + "    sets: [VZ01, VZ02, VZ03, VZ04]\n"
    db = varz_db(tmp_path, formats, **{"vz03.yaml": VZ03_MASCOT, "vz04.yaml": vz04})
    deck = kagura_with(tmp_path, "  Meteor Lance: 2\n", "  PR-001: 2\n")
    _status, found = check_json(deck, db, "2027-02-10")
    assert [d["message"] for d in found] == [
        "'Festival Mascot' is in VZ03, released 2027-03-01: not yet legal in Standard"
    ]


# --------------------------------------------------------------------- row 3: one set, two days


def _two_day_set(first: str, second: str) -> dict[str, str]:
    return {
        first: reprints("VZ03", "2027-02-01", {"VZ03-001": "PR-001"}),
        second: reprints("VZ03", "2027-03-01", {"VZ03-002": "PR-002"}),
    }


@pytest.mark.parametrize(("first", "second"), [("a.yaml", "b.yaml"), ("b.yaml", "a.yaml")])
def test_one_set_released_on_two_days_is_a_lint_error_whatever_the_file_names(
    tmp_path: Path, first: str, second: str
) -> None:
    formats = STANDARD_HEAD + "    sets: [VZ01, VZ02, VZ03]\n"
    db = varz_db(tmp_path, formats, **_two_day_set(first, second))
    result = lint_database(db)
    found = sorted((d.code, Path(d.file or "").name, d.line) for d in result.errors)
    assert found == [("C011", "a.yaml", 4), ("C011", "b.yaml", 4)]
    # the day the database would take is the later one, whichever file is read first
    database = result.database
    assert database is not None
    assert database.formats["standard"].released["VZ03"] == D(2027, 3, 1)
    deck = kagura_with(tmp_path, "  Meteor Lance: 2\n", "  Festival Mascot: 2\n")
    status, _out, err = run("check", deck, "--cards", db, "--date", "2027-02-10")
    assert status == 2 and "C011" in err


def test_two_files_of_one_set_with_one_day_or_one_without_a_day_lint_clean(
    tmp_path: Path,
) -> None:
    files = {
        "a.yaml": reprints("VZ03", "2027-03-01", {"VZ03-001": "PR-001"}),
        "b.yaml": reprints("VZ03", "2027-03-01", {"VZ03-002": "PR-002"}),
        "c.yaml": reprints("VZ03", None, {"VZ03-003": "VZ01-007"}),
    }
    db = varz_db(tmp_path, STANDARD_HEAD + "    sets: [VZ01, VZ02, VZ03]\n", **files)
    assert [d.code for d in lint_database(db).errors] == []


def _azuki_db(tmp_path: Path, formats: str | None = None, **files: str) -> Path:
    db = tmp_path / "azuki"
    shutil.copytree(AZUKI_DATED, db)
    if formats is not None:
        (db / "formats.yaml").write_text(formats, encoding="utf-8")
    for name, text in files.items():
        (db / "sets" / name).write_text(text, encoding="utf-8")
    return db


AZUKI_CARD = (
    "  - {{id: {id}, name: {name}, type: entity, elements: [fire], cost: 1, attack: 1, "
    "health: 1, gate_power: 0}}\n"
)


@pytest.mark.parametrize(("first", "second"), [("x.yaml", "y.yaml"), ("y.yaml", "x.yaml")])
def test_azuki_one_set_released_on_two_days_is_a_lint_error(
    tmp_path: Path, first: str, second: str
) -> None:
    files = {
        first: "set: {code: AZT8, released: 2027-02-01}\ncards:\n"
        + AZUKI_CARD.format(id="AZT8-001", name="Ash Scout"),
        second: "set: {code: AZT8, released: 2027-03-01}\ncards:\n"
        + AZUKI_CARD.format(id="AZT8-002", name="Ash Herald"),
    }
    db = _azuki_db(tmp_path, **files)
    result = lint_database(db)
    found = sorted((d.code, Path(d.file or "").name, d.line) for d in result.errors)
    assert found == [("C011", "x.yaml", 1), ("C011", "y.yaml", 1)]
    database = result.database
    assert database is not None
    assert database.formats["standard"].released["AZT8"] == D(2027, 3, 1)


# --------------------------------------------------------------------- row 4: one card, two limits


@pytest.mark.parametrize("restricted", ["{VZ01-010: 1, VZ02-063: 3}", "{VZ02-063: 3, VZ01-010: 1}"])
def test_two_printings_restricted_to_different_limits_is_a_lint_error(
    tmp_path: Path, restricted: str
) -> None:
    formats = STANDARD_HEAD + f"    sets: [VZ01, VZ02]\n    restricted: {restricted}\n"
    db = varz_db(tmp_path, formats)
    assert [(d.code, d.line) for d in lint_database(db).errors] == [("C012", 6)]
    status, _out, err = run("check", KAGURA, "--cards", db, "--date", "2027-01-01")
    assert status == 2 and "C012" in err
    status, _out, err = run("tune", KAGURA, "--cards", db, "--date", "2027-01-01")
    assert status == 2 and "C012" in err


# formats.yaml after its `sets:` line -> the errors `cards lint` reports (code, line): one card
# given two limits on one date, in either order, or restricted and unrestricted on one date; two
# set lists on one date; a ban and an unban of one card's two printings on one date.
ONE_DAY_CONFLICTS = {
    "limits": (
        "    changes:\n      - date: 2027-01-15\n        restricted: {VZ01-010: 1}\n"
        "      - date: 2027-01-15\n        restricted: {VZ02-063: 3}\n",
        [("C012", 10)],
    ),
    "limits swapped": (
        "    changes:\n      - date: 2027-01-15\n        restricted: {VZ02-063: 3}\n"
        "      - date: 2027-01-15\n        restricted: {VZ01-010: 1}\n",
        [("C012", 10)],
    ),
    "restricted and unrestricted": (
        "    restricted: {VZ01-010: 2}\n    changes:\n"
        "      - date: 2027-01-15\n        restricted: {VZ01-010: 1}\n"
        "      - date: 2027-01-15\n        unrestricted: [VZ02-063]\n",
        [("C012", 11)],
    ),
    "two set lists": (
        "    changes:\n      - date: 2027-01-15\n        sets: [VZ01]\n"
        "      - date: 2027-01-15\n        sets: [VZ02]\n",
        [("C013", 10)],
    ),
    "ban and unban of two printings": (
        "    changes:\n"
        "      - date: 2027-01-15\n        banned: [VZ01-010]\n        unbanned: [VZ02-063]\n",
        [("C010", 9)],
    ),
}


@pytest.mark.parametrize("case", sorted(ONE_DAY_CONFLICTS))
def test_changes_of_one_day_that_disagree_are_a_lint_error(tmp_path: Path, case: str) -> None:
    tail, expected = ONE_DAY_CONFLICTS[case]
    db = varz_db(tmp_path, STANDARD_HEAD + "    sets: [VZ01, VZ02]\n" + tail)
    assert [(d.code, d.line) for d in lint_database(db).errors] == expected


def test_one_card_restricted_to_one_limit_by_both_printings_lints_clean(tmp_path: Path) -> None:
    formats = STANDARD_HEAD + "    sets: [VZ01, VZ02]\n    restricted: {VZ01-010: 2, VZ02-063: 2}\n"
    db = varz_db(tmp_path, formats)
    assert lint_database(db).errors == []
    _status, found = check_json(KAGURA, db, "2027-01-01")
    assert [(d["code"], d["message"]) for d in found] == [
        ("V116", "3 copies of 'Scorch Shot'; Standard restricts it to 2: remove 1")
    ]


# --------------------------------------------------------------------- row 5: an id names its card


# Scorch Shot's two printings, VZ01-010 and VZ02-063, named by the lists in turn: formats.yaml
# after its `sets:` line -> (day, the Kagura deck's diagnostics on that day as (code, message)).
ONE_CARD_TWO_IDS = {
    "banned as one, unbanned as the other": (
        "    banned: [VZ01-010]\n    changes:\n"
        "      - date: 2027-02-01\n        unbanned: [VZ02-063]\n",
        [
            ("2027-01-31", [("V115", "'Scorch Shot' is banned in Standard; replace it")]),
            ("2027-02-01", []),
        ],
    ),
    "a dated ban and a later unban": (
        "    changes:\n"
        "      - date: 2027-01-15\n        banned: [VZ02-063]\n"
        "      - date: 2027-03-01\n        unbanned: [VZ01-010]\n",
        [
            ("2027-01-01", [("W203", "'Scorch Shot' is banned from 2027-01-15, in 14 days")]),
            (
                "2027-02-01",
                [("V115", "'Scorch Shot' is banned in Standard since 2027-01-15; replace it")],
            ),
            ("2027-03-01", []),
        ],
    ),
    "restricted as one, unrestricted as the other": (
        "    restricted: {VZ02-063: 1}\n    changes:\n"
        "      - date: 2027-02-01\n        unrestricted: [VZ01-010]\n",
        [
            (
                "2027-01-31",
                [("V116", "3 copies of 'Scorch Shot'; Standard restricts it to 1: remove 2")],
            ),
            ("2027-02-01", []),
        ],
    ),
    "restricted as one, restricted again as the other": (
        "    restricted: {VZ01-010: 1}\n    changes:\n"
        "      - date: 2027-02-01\n        restricted: {VZ02-063: 2}\n",
        [
            (
                "2027-02-01",
                [
                    (
                        "V116",
                        "3 copies of 'Scorch Shot'; Standard restricts it to 2 since "
                        "2027-02-01: remove 1",
                    )
                ],
            ),
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(ONE_CARD_TWO_IDS))
def test_an_id_in_a_change_names_every_printing_of_its_card(tmp_path: Path, case: str) -> None:
    tail, days = ONE_CARD_TWO_IDS[case]
    db = varz_db(tmp_path, STANDARD_HEAD + "    sets: [VZ01, VZ02]\n" + tail)
    assert lint_database(db).diagnostics == []
    for day, expected in days:
        status, found = check_json(KAGURA, db, day)
        assert [(d["code"], d["message"]) for d in found] == expected, day
        assert status == (1 if any(code != "W203" for code, _ in expected) else 0)


def test_cards_diff_and_check_agree_on_an_unban_by_the_reprint(tmp_path: Path) -> None:
    """cards diff shows the unban under the card's name, and the deck's verdict changes with it."""
    old_formats = STANDARD_HEAD + "    sets: [VZ01, VZ02]\n    banned: [VZ01-010]\n"
    new_formats = old_formats + (
        "    changes:\n      - date: 2027-02-01\n        unbanned: [VZ02-063]\n"
    )
    old = varz_db(tmp_path / "old", old_formats)
    new = varz_db(tmp_path / "new", new_formats)
    status, out, err = run("cards", "diff", old, new, KAGURA, "--date", "2027-02-01", "-o", "json")
    assert status == 1, err
    document = json.loads(out)
    (deck,) = document["decks"]
    assert deck["verdict_changed"] and not deck["old"]["legal"] and deck["new"]["legal"]
    (change,) = document["formats"]["changed"]
    assert change["key"] == "standard"
    status, out, _ = run("cards", "diff", old, new, KAGURA, "--date", "2027-02-01")
    assert "unbanned: [VZ02-063 Scorch Shot]" in out


# --------------------------------------------------------------------- Azuki: an alias names its card


def _azuki_alias_database(fmt: Format):
    """tests/data/azuki_dated with Cinderwake Seer (STT04-003) printed also as AZP-903."""
    from varz_deck.games import open_database
    from varz_deck.games.azuki.cards import AzukiDatabase

    base = open_database(AZUKI_DATED)
    cards = [
        (c if c.id != "STT04-003" else type(c)(**{**c.to_json(), "aliases": ("AZP-903",)}))
        for c in base.cards.values()
    ]
    database = AzukiDatabase(cards, {"standard": fmt})
    assert database.by_id("AZP-903").id == "STT04-003"
    return database


def _azuki_check(database: object, day: D) -> list[tuple[str, str]]:
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import get_game

    report = get_game("azuki").check_deck(DeckSource.from_path(ZERO), database, None, day)
    return [(d.code, d.message) for d in report.diagnostics]


@pytest.mark.parametrize(("ban", "unban"), [("STT04-003", "AZP-903"), ("AZP-903", "STT04-003")])
def test_azuki_a_ban_by_one_id_is_lifted_by_an_unban_of_its_alias(ban: str, unban: str) -> None:
    fmt = Format(
        "standard",
        "Standard",
        changes=(
            FormatChange(D(2027, 1, 15), banned=(ban,)),
            FormatChange(D(2027, 2, 1), unbanned=(unban,)),
        ),
    )
    database = _azuki_alias_database(fmt)
    assert _azuki_check(database, D(2027, 1, 20)) == [
        ("A107", "'Cinderwake Seer' (STT04-003) is banned in Standard since 2027-01-15")
    ]
    assert _azuki_check(database, D(2027, 2, 1)) == []
    assert _azuki_check(database, D(2027, 1, 1)) == [
        ("A201", "'Cinderwake Seer' (STT04-003) is banned from 2027-01-15, in 14 days")
    ]


# --------------------------------------------------------------------- Azuki: one verdict
# whatever the order (its bans, release days and announced changes are A107, A108 and A201; what
# Azuki's rules do not have, restrictions and set lists, the core's D116 and D117)


def _zero(tmp_path: Path, old: str, new: str) -> Path:
    text = ZERO.read_text(encoding="utf-8")
    assert old in text
    deck = tmp_path / "zero.yaml"
    deck.write_text(text.replace(old, new, 1), encoding="utf-8")
    return deck


def _azuki_json(deck: Path, db: Path, day: str) -> tuple[int, list[tuple[str, str]]]:
    """check's exit code and the Azuki deck's diagnostics as sorted (code, message)."""
    code, out, err = run(
        "check", deck, "--cards", db, "--game", "azuki", "--date", day, "-o", "json"
    )
    assert code in (0, 1), err
    (entry,) = json.loads(out)["decks"]
    return code, sorted((d["code"], d["message"]) for d in entry["diagnostics"])


@pytest.mark.parametrize(("dated", "undated"), [("a.yaml", "b.yaml"), ("b.yaml", "a.yaml")])
def test_azuki_a_sets_release_day_given_in_one_of_its_two_files_is_the_sets(
    tmp_path: Path, dated: str, undated: str
) -> None:
    """AZT8 is in two files, one with the day 2027-03-01, one without a day: the day is the set's
    whichever file is read first; Ash Herald (the file without the day) is A108 before it."""
    files = {
        dated: "set: {code: AZT8, released: 2027-03-01}\ncards:\n"
        + AZUKI_CARD.format(id="AZT8-001", name="Ash Scout"),
        undated: "set: {code: AZT8}\ncards:\n"
        + AZUKI_CARD.format(id="AZT8-002", name="Ash Herald"),
    }
    db = _azuki_db(tmp_path, **files)
    assert lint_database(db).errors == []
    deck = _zero(tmp_path, "  Cinderwake Seer: 4\n", "  Ash Herald: 4\n")
    assert _azuki_json(deck, db, "2027-02-28") == (
        1, [("A108", "'Ash Herald' (AZT8-002) is in AZT8, released 2027-03-01: not yet legal")]
    )  # fmt: skip
    assert _azuki_json(deck, db, "2027-03-01") == (0, [])


AZUKI_BAN = "      - date: 2027-01-15\n        banned: [STT04-003]\n"
AZUKI_RESTRICT = "      - date: 2027-01-15\n        restricted: {STT04-004: 2}\n"


@pytest.mark.parametrize(
    "changes", [AZUKI_BAN + AZUKI_RESTRICT, AZUKI_RESTRICT + AZUKI_BAN], ids=["ban", "restriction"]
)
def test_azuki_two_changes_of_one_day_give_one_verdict_whatever_their_order(
    tmp_path: Path, changes: str
) -> None:
    """On 2027-01-15 Cinderwake Seer (STT04-003) is banned and Fanatic Kindler (STT04-004)
    restricted to 2, the one or the other written first; the deck plays 4 of each."""
    formats = "game: azuki\nformats:\n  standard:\n    name: Standard\n    changes:\n" + changes
    db = _azuki_db(tmp_path, formats)
    assert lint_database(db).errors == []
    assert _azuki_json(ZERO, db, "2027-01-01") == (0, [
        ("A201", "'Cinderwake Seer' (STT04-003) is banned from 2027-01-15, in 14 days"),
        ("A201", "'Fanatic Kindler' is restricted to 2 from 2027-01-15, in 14 days; the deck plays 4"),
    ])  # fmt: skip
    assert _azuki_json(ZERO, db, "2027-01-15") == (1, [
        ("A107", "'Cinderwake Seer' (STT04-003) is banned in Standard since 2027-01-15"),
        ("D116", "4 copies of 'Fanatic Kindler'; Standard restricts it to 2 since 2027-01-15: remove 2"),
    ])  # fmt: skip


@pytest.mark.parametrize("file", ["a_reprint.yaml", "z_reprint.yaml"])
def test_azuki_a_card_of_the_same_name_in_a_set_outside_the_format_is_another_card(
    tmp_path: Path, file: str
) -> None:
    """Standard allows STT04, IKZ and AZP; AZT7-003, in AZT7, is named Cinderwake Seer too, and
    its file is read before or after STT04's: an Azuki card is its id, so STT04-003 stays legal
    and AZT7-003 is not."""
    formats = (
        "game: azuki\nformats:\n  standard:\n    name: Standard\n    sets: [STT04, IKZ, AZP]\n"
    )
    reprint = "set: {code: AZT7}\ncards:\n" + AZUKI_CARD.format(
        id="AZT7-003", name="Cinderwake Seer"
    )
    db = _azuki_db(tmp_path, formats, **{file: reprint})
    (db / "sets" / "azt9.yaml").unlink()  # AZT9, not in the format, has no card the deck plays
    assert lint_database(db).errors == []
    legal = _zero(tmp_path, "  Cinderwake Seer: 4\n", "  STT04-003: 4\n")
    assert _azuki_json(legal, db, "2026-12-01") == (0, [])
    other = _zero(tmp_path, "  Cinderwake Seer: 4\n", "  AZT7-003: 4\n")
    assert _azuki_json(other, db, "2026-12-01") == (1, [
        ("D117", "'Cinderwake Seer' is only in set AZT7; Standard allows STT04, IKZ, AZP: replace it")
    ])  # fmt: skip


@pytest.mark.parametrize(
    "restricted", [{"STT04-003": 1, "AZP-903": 3}, {"AZP-903": 3, "STT04-003": 1}]
)
def test_azuki_two_ids_of_one_card_restricted_differently_give_the_lower_limit(
    restricted: dict[str, int],
) -> None:
    """Cinderwake Seer is STT04-003, also printed as AZP-903 (an alias id: the same card); its
    two ids restricted to 1 and 3, in either order: the card is restricted to 1."""
    database = _azuki_alias_database(Format("standard", "Standard", restricted=restricted))
    assert _azuki_check(database, D(2026, 12, 1)) == [
        ("D116", "4 copies of 'Cinderwake Seer'; Standard restricts it to 1: remove 3")
    ]


# --------------------------------------------------------------------- row 6: tune's swaps


def _tune_swaps(db: Path, day: str) -> list[tuple[str, str]]:
    status, out, err = run("tune", KAGURA, "--cards", db, "--date", day, "-o", "json")
    assert status == 0, err
    return [(s["out"]["id"], s["in"]["id"]) for s in json.loads(out)["swaps"]]


DAWN = (
    "set:\n  code: VZ03\n  name: Dawn\n  released: 2027-03-01\ncards:\n"
    "  - {id: VZ03-001, name: Dawn Insight, type: skill, skill_class: generic}\n"
    "  - {id: VZ03-002, name: Lantern Oath, type: skill, skill_class: samurai}\n"
)
LANTERN_PROMO = (
    "set:\n  code: PX\n  name: Promos\n  released: 2025-01-01\ncards:\n"
    "  - {id: PX-002, name: Lantern Oath, type: skill, skill_class: samurai}\n"
)


def test_tune_never_suggests_a_card_not_yet_released_on_the_day(tmp_path: Path) -> None:
    """Dawn Insight (only in VZ03) and Lantern Oath (VZ03, and the promo PX outside Standard) are
    both unreleased in Standard before 2027-03-01: no swap brings them in then; from that day on
    some do (both are skills the Kagura hero may use: generic and samurai)."""
    formats = STANDARD_HEAD + "    sets: [VZ01, VZ02, VZ03]\n"
    db = varz_db(tmp_path, formats, **{"vz03.yaml": DAWN, "px.yaml": LANTERN_PROMO})
    before = _tune_swaps(db, "2027-02-28")
    assert before
    brought = {into for _out, into in before}
    assert not brought & {"VZ03-001", "VZ03-002", "PX-002"}
    after = {into for _out, into in _tune_swaps(db, "2027-03-01")}
    assert {"VZ03-001", "VZ03-002"} <= after and "PX-002" not in after


def test_every_swap_tune_suggests_gives_a_deck_legal_on_the_day(tmp_path: Path) -> None:
    """VZ01-031 is banned, Focus (VZ01-091) banned from 2027-02-01, VZ03 not yet released: each swap tune
    suggests on 2027-02-10, made in the deck, gives a deck check finds legal on that day."""
    formats = STANDARD_HEAD + (
        "    sets: [VZ01, VZ02, VZ03]\n    banned: [VZ01-031]\n    changes:\n"
        "      - date: 2027-02-01\n        banned: [VZ01-091]\n"
    )
    db = varz_db(tmp_path, formats, **{"vz03.yaml": DAWN, "px.yaml": LANTERN_PROMO})
    status, out, err = run("tune", KAGURA, "--cards", db, "--date", "2027-02-10", "-o", "json")
    assert status == 0, err
    swaps = json.loads(out)["swaps"]
    deck = yaml.safe_load(KAGURA.read_text(encoding="utf-8"))
    by_in: dict[str, str] = {}
    for swap in swaps:
        by_in.setdefault(swap["in"]["name"], swap["out"]["name"])
    assert "Focus" not in by_in  # VZ01-091, banned on the day
    assert by_in and not {"Dawn Insight", "Lantern Oath"} & set(by_in)
    for in_name, out_name in sorted(by_in.items()):
        skills = dict(deck["skills"])
        skills[out_name] -= 1
        if skills[out_name] == 0:
            del skills[out_name]
        skills[in_name] = skills.get(in_name, 0) + 1
        swapped = tmp_path / "swapped.yaml"
        swapped.write_text(yaml.safe_dump({**deck, "skills": skills}), encoding="utf-8")
        status, found = check_json(swapped, db, "2027-02-10")
        assert status == 0, (out_name, in_name, found)


# --------------------------------------------------------------------- row 18: once per card


def test_two_changes_of_one_day_banning_two_played_cards_warn_once_each(tmp_path: Path) -> None:
    formats = STANDARD_HEAD + (
        "    sets: [VZ01, VZ02]\n    changes:\n"
        "      - date: 2027-01-15\n        banned: [VZ01-010]\n"
        "      - date: 2027-01-15\n        banned: [VZ01-007]\n"
    )
    db = varz_db(tmp_path, formats)
    status, out, _ = run("check", KAGURA, "--cards", db, "--date", "2027-01-01")
    assert status == 0
    assert "0 errors, 2 warnings" in out
    _status, found = check_json(KAGURA, db, "2027-01-01")
    assert sorted(d["message"] for d in found) == [
        "'Ember Imp' is banned from 2027-01-15, in 14 days",
        "'Scorch Shot' is banned from 2027-01-15, in 14 days",
    ]


def test_a_ban_and_a_restriction_of_one_card_on_one_day_warn_once(tmp_path: Path) -> None:
    formats = STANDARD_HEAD + (
        "    sets: [VZ01, VZ02]\n    changes:\n"
        "      - date: 2027-01-15\n        banned: [VZ01-010]\n"
        "      - date: 2027-01-15\n        restricted: {VZ02-063: 1}\n"
    )
    db = varz_db(tmp_path, formats)
    _status, found = check_json(KAGURA, db, "2027-01-01")
    assert [d["message"] for d in found] == ["'Scorch Shot' is banned from 2027-01-15, in 14 days"]


def test_azuki_two_changes_of_one_day_banning_two_played_cards_warn_once_each(
    tmp_path: Path,
) -> None:
    formats = (
        "game: azuki\nformats:\n  standard:\n    name: Standard\n    changes:\n"
        "      - date: 2027-01-15\n        banned: [STT04-003]\n"
        "      - date: 2027-01-15\n        banned: [STT04-004]\n"
    )
    db = _azuki_db(tmp_path, formats)
    code, out, err = run(
        "check", ZERO, "--cards", db, "--game", "azuki", "--date", "2027-01-01", "-o", "json"
    )
    assert code == 0, err
    (entry,) = json.loads(out)["decks"]
    assert sorted(d["message"] for d in entry["diagnostics"]) == [
        "'Cinderwake Seer' (STT04-003) is banned from 2027-01-15, in 14 days",
        "'Fanatic Kindler' (STT04-004) is banned from 2027-01-15, in 14 days",
    ]


# --------------------------------------------------------------------- cards diff --fail-on illegal


def test_fail_on_illegal_passes_a_deck_that_was_already_illegal(tmp_path: Path) -> None:
    """Scorch Shot is banned on both sides; the old side also restricts Ember Imp to 2 (the deck
    plays 3), the new one does not: the deck's diagnostics change, its verdict (illegal) does not.
    The pre-commit hook's `--fail-on illegal` fails only for a deck that turns illegal."""
    deck = KAGURA
    base = STANDARD_HEAD + "    sets: [VZ01, VZ02]\n    banned: [VZ01-010]\n"
    old = varz_db(tmp_path / "old", base + "    restricted: {VZ01-007: 2}\n")
    new = varz_db(tmp_path / "new", base)
    status, out, err = run("cards", "diff", old, new, deck, "--fail-on", "illegal", "-o", "json")
    document = json.loads(out)
    (changed,) = document["decks"]
    assert not changed["old"]["legal"] and not changed["new"]["legal"]
    assert not changed["verdict_changed"]
    assert status == 0, err
    # the same change the other way round turns no legal deck illegal either
    status, _out, err = run("cards", "diff", new, old, deck, "--fail-on", "illegal")
    assert status == 0, err
    # a deck that was legal and turns illegal fails it
    legal_old = varz_db(tmp_path / "legal", STANDARD_HEAD + "    sets: [VZ01, VZ02]\n")
    status, _out, err = run("cards", "diff", legal_old, new, KAGURA, "--fail-on", "illegal")
    assert status == 1, err


# --------------------------------------------------------------------- Azuki: order independence

AZUKI_IDS = {"STT04-003": "STT04-003", "AZP-903": "STT04-003", "STT04-004": "STT04-004"}
AZUKI_NAMES = {"STT04-003": "Cinderwake Seer", "STT04-004": "Fanatic Kindler"}
AZUKI_DATES = [D(2027, 1, 10), D(2027, 1, 20), D(2027, 2, 1)]
azuki_changes = st.lists(
    st.builds(
        FormatChange,
        date=st.sampled_from(AZUKI_DATES),
        banned=st.lists(st.sampled_from(sorted(AZUKI_IDS)), max_size=2, unique=True).map(tuple),
        unbanned=st.lists(st.sampled_from(sorted(AZUKI_IDS)), max_size=2, unique=True).map(tuple),
    ),
    max_size=3,
)


def _azuki_expected(changes: list[FormatChange], day: D) -> list[tuple[str, str]]:
    """A107 and A201 by hand: each date's changes together, unbans before bans; a card is its
    id, its alias AZP-903 included."""

    def banned_on(when: D) -> dict[str, D]:
        banned: dict[str, D] = {}
        for date in AZUKI_DATES:
            if date <= when:
                same = [c for c in changes if c.date == date]
                for card_id in (i for c in same for i in c.unbanned):
                    banned.pop(AZUKI_IDS[card_id], None)
                for card_id in (i for c in same for i in c.banned):
                    banned.setdefault(AZUKI_IDS[card_id], date)
        return banned

    out = []
    for card, since in banned_on(day).items():
        out.append(("A107", f"'{AZUKI_NAMES[card]}' ({card}) is banned in Standard since {since}"))
    for date in AZUKI_DATES:
        n = (date - day).days
        if 1 <= n <= 60:
            before, after = banned_on(date - dt.timedelta(days=1)), banned_on(date)
            for card in sorted(set(after) - set(before)):
                days = f"{n} day" + ("s" if n != 1 else "")
                name = AZUKI_NAMES[card]
                out.append(("A201", f"'{name}' ({card}) is banned from {date}, in {days}"))
    return sorted(out)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    changes=azuki_changes,
    day=st.sampled_from([D(2027, 1, 1), D(2027, 1, 10), D(2027, 1, 15), D(2027, 2, 1)]),
    data=st.data(),
)
def test_azuki_bans_by_id_or_alias_in_any_order(
    changes: list[FormatChange], day: D, data: st.DataObject
) -> None:
    """Bans and unbans of Cinderwake Seer (STT04-003, alias AZP-903) and Fanatic Kindler on a few
    dates: the oracle's A107/A201, and the same for the changes in another order with each of
    the Seer's ids swapped for the other. (Two ids of one card banned and unbanned on one date
    are C010 in a formats.yaml; here the ban wins.)"""
    swap = {"STT04-003": "AZP-903", "AZP-903": "STT04-003", "STT04-004": "STT04-004"}
    again = [
        FormatChange(
            c.date,
            banned=tuple(swap[i] for i in c.banned),
            unbanned=tuple(swap[i] for i in c.unbanned),
        )
        for c in data.draw(st.permutations(changes))
    ]
    want = _azuki_expected(changes, day)
    for written in (changes, again):
        fmt = Format("standard", "Standard", changes=tuple(written))
        assert sorted(_azuki_check(_azuki_alias_database(fmt), day)) == want


# --------------------------------------------------------------------- the core's answers, by hand


def _bundled() -> CardDatabase:
    from varz_deck.games import open_database

    return open_database(BUNDLED)


def test_legality_on_no_day_takes_the_format_as_given_and_every_set_as_released() -> None:
    from varz_deck.core.cards.formats import Legality

    fmt = Format("s", "S", sets=("VZ01",), released={"VZ01": D(2099, 1, 1)})
    legality = Legality(fmt, _bundled(), None)
    assert legality.playable("Scorch Shot").id == "VZ01-010"
    assert legality.unreleased("Scorch Shot") is None
    dated = Legality(fmt, _bundled(), D(2098, 12, 31))
    assert dated.playable("Scorch Shot") is None
    assert dated.unreleased("Scorch Shot") == ("VZ01", D(2099, 1, 1))


def test_playable_is_the_first_printing_allowed_and_released_and_none_for_a_ban() -> None:
    from varz_deck.core.cards.formats import Legality

    fmt = Format("s", "S", sets=("VZ01", "VZ02"), released={"VZ01": D(2027, 3, 1)})
    legality = Legality(fmt, _bundled(), D(2027, 2, 1))
    assert legality.playable("Scorch Shot").id == "VZ02-063"  # VZ01's is not out yet
    banned = Legality(replace(fmt, banned=("VZ02-063",)), _bundled(), D(2027, 2, 1))
    assert banned.playable("Scorch Shot") is None
    assert banned.banned == {"Scorch Shot": None}


@pytest.mark.parametrize(
    ("was", "now", "count", "warned"),
    [
        (None, 2, 3, 2),  # a new limit below the count
        (3, 2, 3, 2),  # the deck plays exactly the old limit: legal until the date
        (2, 1, 3, None),  # already over the old limit: V116 says it, not W203
        (None, 3, 3, None),  # a limit the deck keeps
        (3, 2, 2, None),
    ],
)
def test_an_announced_restriction_warns_when_it_makes_a_legal_count_illegal(
    was: int | None, now: int, count: int, warned: int | None
) -> None:
    from varz_deck.core.cards.formats import Legality

    written = {"VZ01-010": was} if was is not None else {}
    fmt = Format(
        "s",
        "S",
        restricted=written,
        changes=(FormatChange(D(2027, 1, 15), restricted={"VZ02-063": now}),),
    )
    (ahead,) = Legality(fmt, _bundled(), D(2027, 1, 1)).announced()
    assert (ahead.changes.date, ahead.changes.days) == (D(2027, 1, 15), 14)
    assert ahead.restricts("Scorch Shot", count) == warned


def test_a_rotation_names_the_sets_allowed_only_for_a_card_it_leaves_without_one() -> None:
    from varz_deck.core.cards.formats import Legality

    fmt = Format(
        "s", "S", sets=("VZ01", "VZ02"), changes=(FormatChange(D(2027, 1, 15), sets=("VZ02",)),)
    )
    (ahead,) = Legality(fmt, _bundled(), D(2027, 1, 1)).announced()
    assert ahead.rotates_out("Ember Imp") == ("VZ02",)  # VZ01 only
    assert ahead.rotates_out("Scorch Shot") is None  # reprinted in VZ02
    assert ahead.rotates_out("Festival Mascot") is None  # PR only: out before and after


def test_an_id_not_written_exactly_or_of_no_card_bans_nothing() -> None:
    """A format's lists name a card by an id written exactly: "vz02-063" (Scorch Shot's reprint
    in lower case) and "VZ99-999" (no card) ban no card."""
    from varz_deck.core.cards.formats import Legality

    fmt = Format("s", "S", banned=("vz02-063", "VZ99-999"), restricted={"vz01-010": 1})
    legality = Legality(fmt, _bundled(), None)
    assert legality.banned == {}
    assert legality.limits == {}
    assert legality.playable("Scorch Shot").id == "VZ01-010"


def test_a_format_without_a_name_is_named_by_its_key() -> None:
    from varz_deck.core.cards.formats import read_formats

    read = read_formats({"formats": {"std": {"sets": ["VZ01"]}, "open": {"name": "Open"}}}, {})
    assert (read["std"].name, read["open"].name) == ("std", "Open")


def test_candidates_are_the_playable_cards_of_the_types_asked_in_database_order() -> None:
    """card_data/varz by hand: VZ01 has six heroes (VZ01-001 to -006), VZ02 two more."""
    from varz_deck.core.cards.formats import Legality

    fmt = Format("s", "S", sets=("VZ01",), banned=("VZ01-002",))
    found = [
        (name, card.id) for name, card in Legality(fmt, _bundled(), None).candidates(("hero",))
    ]
    assert found == [
        ("Hibiki Kagura", "VZ01-001"),
        ("Wakaba Moriya", "VZ01-003"),
        ("Yoru Kurosaki", "VZ01-004"),
        ("Kohaku Amane", "VZ01-005"),
        ("Rei Shirogane", "VZ01-006"),
    ]
    both = Format("s", "S", sets=("VZ02",))
    heroes = Legality(both, _bundled(), None).candidates(["hero"])
    assert [name for name, _card in heroes] == ["Homura Tendo", "Mio Sagiri"]
