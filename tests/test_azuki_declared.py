"""Azuki on the declaration engine (core/decks/declaration.py, core/game/declared.py): its deck
construction (A101-A103, A106) and format legality (A107, A108, A201) are the core's checks under
Azuki's codes and words; A104 and A105 stay Azuki's own rules.

The codes' pages (`varz-deck rules CODE`), their messages in English and Japanese and every verdict
below are written by hand from the rules page ("Deck building"), the old rule modules' docstrings,
the catalogue varz_deck/games/azuki/locale/ja/LC_MESSAGES/azuki.po and the card data. Azuki's
format cases (one verdict whatever the order of the files or of the changes) are in
tests/test_format_legality.py with VARZ's.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from varz_deck.core.cards.model import Format
from varz_deck.core.dates import on_date
from varz_deck.core.decks.declaration import Size
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game.declared import DeclaredGame, declared_rules
from varz_deck.core.messages.code import Code, Scope, Severity
from varz_deck.core.messages.i18n import localized
from varz_deck.games import all_codes, check_decks, get_game, open_database

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "azuki"
CASES = ROOT / "tests" / "cases_azuki"
BOOK = "Deck building"
DATED = "dated formats"


def _code(
    code: str, name: str, doc: str, fix: str, section: str = BOOK, warning: bool = False
) -> Code:
    lines = doc.splitlines()
    severity = Severity.WARNING if warning else Severity.ERROR
    return Code(code, name, lines[0], severity, Scope.DECK, section, doc, fix)


# The codes as the old rule modules (rules/picks.py, main_deck.py, ikz.py, elements.py,
# format_rules.py) gave them: name, title, severity, section, docs, fix.
PAGES = {
    "A101": _code(
        "A101", "leader-count-wrong",
        "A deck has exactly one Leader.\n\nLegal:   leader: Shao\n"
        "Illegal: (no leader key, or `leader:` left empty)",
        "Add `leader: NAME` naming one Leader card.",
    ),
    "A102": _code(
        "A102", "gate-count-wrong",
        "A deck has exactly one Gate.\n\nLegal:   gate: Hydromancy Gate\n"
        "Illegal: (no gate key, or `gate:` left empty)",
        "Add `gate: NAME` naming one Gate card.",
    ),
    "A103": _code(
        "A103", "main-deck-size-wrong",
        "The main deck has exactly 50 cards.\n\nLegal:   main: 50 cards (entities, spells, "
        "weapons)\nIllegal: main: 49 cards",
        "Add or remove main-deck cards until they add up to 50.",
    ),
    "A104": _code(
        "A104", "ikz-count-wrong",
        "The IKZ area has exactly 10 IKZ and 1 IKZ Token.\n\nLegal:   ikz: {IKZ: 10, IKZ Token: "
        "1}\nIllegal: ikz: {IKZ: 9, IKZ Token: 1}",
        "Make the ikz section exactly 10 IKZ and 1 IKZ Token.",
    ),
    "A105": _code(
        "A105", "element-mismatch",
        "Every card, the Gate included, is of the Leader's element or Neutral.\n\nLegal:   "
        "leader: Shao (water); main: {Rei: 4} (water)\nIllegal: leader: Shao (water); main: "
        "{Ruby: 3} (fire)",
        "Replace the card with one of the Leader's element or a Neutral one.",
    ),
    "A106": _code(
        "A106", "copy-limit-exceeded",
        "At most 4 copies of a card id in the main deck (alternate art counts with its id)."
        "\n\nLegal:   main: {Rei: 4}\nIllegal: main: {Rei: 5}",
        "Keep at most 4 copies of each card id in the main deck.",
    ),
    "A107": _code(
        "A107", "card-banned",
        "No card the format bans (Standard: Rushfire Gate).\n\nLegal:   gate: Ragefire Gate\n"
        "Illegal: gate: Rushfire Gate",
        "Remove the banned card from the deck.",
    ),
    "A108": _code(
        "A108", "card-not-yet-released",
        "A card is legal once its set is released.\n\nLegal:   an AZK02 card checked on AZK02's "
        "release day\nIllegal: the same card checked the day before",
        "Play a printing already released on the day checked, or check the deck for a later day.",
        DATED,
    ),
    "A201": _code(
        "A201", "announced-ban",
        "Warn of a ban 1 to 60 days ahead of a card the deck plays.\n\nFine:    a ban from "
        "2027-01-15 of a card the deck plays, checked on 2026-11-15\nWarning: the same ban "
        "checked on 2027-01-01 (in 14 days)",
        "Replace the card before its ban is in force, or check for the day of your event.",
        DATED, warning=True,
    ),
}  # fmt: skip


def test_azuki_is_a_declared_game() -> None:
    game = get_game("azuki")
    assert isinstance(game, DeclaredGame)
    d = game.declaration
    assert (d.key, d.prefix, d.code_family, d.identity) == ("azuki", "A", "AZ", "id")
    assert (d.slot_keys, d.section_keys, d.lead) == (
        ("leader", "gate"),
        ("main", "ikz"),
        d.slots[0],
    )
    assert d.hash_header == "azuki-deck-hash v1" and game.layout.prefix == "AZ1"
    assert {t: d.home(t) for t in d.types} == {
        "leader": "leader", "gate": "gate", "entity": "main", "spell": "main", "weapon": "main",
        "ikz": "ikz", "ikz_token": "ikz",
    }  # fmt: skip
    main, ikz = d.sections
    assert main.size == Size(exact=50) and ikz.size == Size()  # the IKZ deck is A104's
    (copies,) = main.copies
    assert (copies.limit, dict(copies.where), copies.code and copies.code.id) == (4, {}, "A106")
    assert ikz.copies == ()
    codes = d.format_codes
    assert [c and c.id for c in (codes.banned, codes.restricted, codes.sets)] == [
        "A107",
        None,
        None,
    ]
    assert [c and c.id for c in (codes.released, codes.announced)] == ["A108", "A201"]


def test_the_declared_checks_and_the_own_rules_make_the_codes() -> None:
    """A101-A103, A106-A108 and A201 are the core's checks the declaration maps (the core's own
    D102 runs too, for the IKZ deck, which has no size: it never fires); A104 and A105 are
    Azuki's own; no code is both."""
    from varz_deck.games.azuki.declaration import DECLARATION
    from varz_deck.games.azuki.rules import RULEBOOK

    declared = [rule.code for rule in declared_rules(DECLARATION)]
    assert declared == [
        "A101",
        "A102",
        "A103",
        "A106",
        "D102",
        "A107",
        "D116",
        "D117",
        "A108",
        "A201",
    ]
    assert sorted(RULEBOOK.rules) == ["A104", "A105"]
    game = get_game("azuki")
    assert sorted(game.rules()) == sorted(PAGES)
    assert sorted(game.rulebook.rules) == sorted([*PAGES, "D102", "D116", "D117"])


@pytest.mark.parametrize("code", sorted(PAGES))
def test_each_codes_page_is_unchanged(code: str) -> None:
    """What `varz-deck rules CODE` and the docs' code pages print, and SARIF's rule metadata."""
    assert all_codes()[code] == PAGES[code]
    assert get_game("azuki").rules()[code].info == PAGES[code]


def test_rules_a106_prints_its_page() -> None:
    from varz_deck.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["rules", "A106", "--lang", "en"])
    assert out.getvalue().splitlines()[:2] == [
        "A106 copy-limit-exceeded (error)",
        "rulebook: Deck building",
    ]
    assert "Legal:   main: {Rei: 4}\nIllegal: main: {Rei: 5}" in out.getvalue()


# ----------------------------------------------------------------------------- messages

# case deck -> (code, section, card, English message, Japanese message), from azuki.po
MESSAGES = {
    "A101/bad_no_leader_key.yaml": (
        "A101", "leader", None,
        "no Leader; a deck has exactly one Leader card: add `leader: NAME`",
        "リーダーがありません。デッキにはリーダーがちょうど1枚必要です：`leader: 名前` を追加してください",
    ),
    "A102/bad_no_gate_key.yaml": (
        "A102", "gate", None,
        "no Gate; a deck has exactly one Gate card: add `gate: NAME`",
        "ゲートがありません。デッキにはゲートがちょうど1枚必要です：`gate: 名前` を追加してください",
    ),
    "A103/bad_49.yaml": (
        "A103", "main", None,
        "the main deck has 49 cards; it must have exactly 50",
        "メインデッキが49枚です。ちょうど50枚必要です",
    ),
    "A106/bad_5_copies.yaml": (
        "A106", "main", "STT01-003",
        "5 copies of 'Crate Rat Kurobo' (STT01-003); at most 4 of a card",
        "「Crate Rat Kurobo」（STT01-003）が5枚あります。同じカードは4枚までです",
    ),
    "A107/bad_rushfire_gate.yaml": (
        "A107", "gate", "AZK01-122",
        "'Rushfire Gate' (AZK01-122) is banned in Standard",
        "「Rushfire Gate」（AZK01-122）はスタンダードで禁止されています",
    ),
    "F008/bad_entity_as_leader.yaml": (
        "F008", "leader", "STT01-010",
        "'Indra' is a entity card, not a Leader; name a Leader card as leader",
        "「Indra」はentityカードで、リーダーではありません。leader にはリーダーカードを指定してください",
    ),
    "F008/bad_entity_as_gate.yaml": (
        "F008", "gate", "STT01-010",
        "'Indra' is a entity card, not a Gate; name a Gate card as gate",
        "「Indra」はentityカードで、ゲートではありません。gate にはゲートカードを指定してください",
    ),
    "F008/bad_gate_in_main.yaml": (
        "F008", "main", "STT01-002",
        "'Surge Gate' is a gate card and cannot go in main deck; put it under Gate",
        "「Surge Gate」はgateカードなのでメインデッキには入れられません：ゲートに入れてください",
    ),
    "F008/bad_ikz_in_main_list.yaml": (
        "F008", "main", "IKZ-001",
        "'IKZ' is a ikz card and cannot go in main deck; put it under IKZ deck",
        "「IKZ」はikzカードなのでメインデッキには入れられません：IKZデッキに入れてください",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(MESSAGES))
def test_a_declared_check_says_what_azuki_said(case: str) -> None:
    """The same words as before the port in English and in Japanese, but for A107's format
    (the core says the format's name in the reader's language, as it does for every game) and
    F008's section, which is its name (main deck, IKZ deck) where it was its key (main, ikz)."""
    code, section, card, english, japanese = MESSAGES[case]
    (report,) = check_decks([CASES / case], open_database(BUNDLED), date=on_date())
    (found,) = [d for d in report.diagnostics if d.code == code]
    assert (found.section, found.card, found.message) == (section, card, english)
    assert localized(found, "ja") == japanese


def test_copy_limit_and_size_keep_counting_alias_ids_with_their_card() -> None:
    """A106 counts an alias id with its card: 3 Cinderwake Seer and 2 AZP-903 are 5 copies."""
    from test_format_legality import ZERO, _azuki_alias_database

    database = _azuki_alias_database(Format("standard", "Standard"))
    text = ZERO.read_text(encoding="utf-8").replace(
        "  Cinderwake Seer: 4\n", "  Cinderwake Seer: 3\n  AZP-903: 2\n"
    )
    report = get_game("azuki").check_deck(
        DeckSource.from_text("z.yaml", text), database, None, date=on_date()
    )
    assert sorted((d.code, d.line, d.message) for d in report.diagnostics) == [
        ("A103", 6, "the main deck has 51 cards; it must have exactly 50"),
        ("A106", 7, "5 copies of 'Cinderwake Seer' (STT04-003); at most 4 of a card"),
        ("F003", 8, "'Cinderwake Seer' is listed twice in main deck (also at line 7 as "
         "'Cinderwake Seer'); list it once with the total count"),
    ]  # fmt: skip


def test_an_azuki_check_loads_no_room_it_does_not_use() -> None:
    """`check` of an Azuki deck file reads, resolves and checks it: it loads none of the
    registration, analysis or look-up modules, nor Azuki's simulator, tuner or sheet."""
    from test_architecture import _modules_after

    deck = CASES.parent.parent / "examples" / "azuki" / "stt02-shao-water.yaml"
    modules = _modules_after("check", str(deck), "--game", "azuki")
    assert "varz_deck.core.game.declared" in modules
    unused = ("core.registration", "core.analysis", "core.cards.cardinfo", "games.azuki.sim",
              "games.azuki.tune", "games.azuki.sheet", "games.azuki.cardinfo")  # fmt: skip
    assert not {m for m in modules if m.startswith(tuple(f"varz_deck.{u}" for u in unused))}
