"""What each rule's diagnostic carries beyond its code and place (mutation testing found these
unchecked): the card and section it names, the hero's place for rules about the hero, and the
words of the game (colours, classes, sections, card types, formats) in every language.

The case corpora (tests/test_cases.py) pin code, line and column; these tests pin the rest.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from varz_decks import AKANE, akane_db, check_parsed, read_text

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import CardName, Joined, Message, Term, localized, term
from varz_deck.core.messages.rulebook import Rulebook
from varz_deck.games import check_decks, open_database
from varz_deck.games.azuki.cards import AzukiCard, AzukiDatabase
from varz_deck.games.varz.cards import COLORLESS, COLORS, SKILL_CLASSES, Card

HERE = Path(__file__).parent
CASES = HERE / "cases"
ALTDB = HERE / "data" / "altdb"

# The group each word of the game belongs to (SPEC §1 vocabularies).
GROUP_OF = {
    **dict.fromkeys((*COLORS, COLORLESS), "color"),
    **dict.fromkeys(SKILL_CLASSES, "class"),
    **dict.fromkeys(("spells", "skills", "portals", "hero"), "section"),
    **dict.fromkeys(("hero", "skill", "portal", "spil", "command", "slash"), "card type"),
    **dict.fromkeys(("Standard", "Pioneer"), "format"),
}


@cache
def altdb() -> CardDatabase:
    return open_database(ALTDB)


def _failing_cases() -> list[Path]:
    return sorted(
        p for p in CASES.glob("V*/bad_*") if p.suffix in (".yaml", ".yml", ".txt")
    ) + sorted(p for p in CASES.glob("W*/bad_*") if p.suffix in (".yaml", ".yml", ".txt"))


def _parts(value: object) -> Iterator[object]:
    if isinstance(value, Message):
        for _, arg in value.args:
            yield arg
            yield from _parts(arg)
    elif isinstance(value, Joined):
        for item in value.items:
            yield item
            yield from _parts(item)


@pytest.mark.parametrize("deck", _failing_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_rule_names_its_words_in_their_group_and_translates_them(deck: Path) -> None:
    code = deck.parent.name
    dated = deck.with_suffix(".date")  # a case's day (tests/test_cases.py)
    day = dt.date.fromisoformat(dated.read_text().strip()) if dated.exists() else None
    (report,) = check_decks([deck], altdb(), date=day)
    found = [d for d in report.diagnostics if d.code == code]
    assert found
    for d in found:
        assert d.file == str(deck)
        assert d.text is not None and d.text.context == code
        terms = [p for p in _parts(d.text) if isinstance(p, Term)]
        for word in terms:
            assert word.value, f"{code}: an empty {word.group}"
            if word.value in GROUP_OF and word.group != "section":
                assert word.group == GROUP_OF[word.value] or word.value == "hero", word
            for lang in ("ja", "zh"):
                shown = term(word.group, word.value, lang)
                assert shown in localized(d, lang), (lang, word)
                if word.value in GROUP_OF:
                    assert shown != word.value, f"{word} is not translated into {lang}"
        for name in (p for p in _parts(d.text) if isinstance(p, CardName)):
            assert name.name and name.name in d.message


# --------------------------------------------------------------------------- what each names


def _card_ids(report: DeckReport, code: str) -> list[tuple[str | None, str | None]]:
    return [(d.card, d.section) for d in report.diagnostics if d.code == code]


@pytest.mark.parametrize(
    ("case", "code", "card", "section"),
    [
        ("V103/bad_4_copies.yaml", "V103", "AB1-10", "spells"),
        ("V106/bad_blue_basic_portal.yaml", "V106", None, "portals"),
        ("V111/bad_two_iron_fist.yaml", "V111", None, "skills"),
        ("V113/bad_ninja_skill.yaml", "V113", None, "skills"),
        ("V114/bad_blue_spell_no_vaz.yaml", "V114", None, "spells"),
        ("W201/bad_cost_3_two_vaz.yaml", "W201", "AB1-42", "spells"),  # Mind Lock
        ("V116/bad_restricted_2.yaml", "V116", "AB1-21", "spells"),  # Phoenix Ember
        ("V107/bad_two_sunken_doors.yaml", "V107", "GT1-P21", "portals"),  # Sunken Door
        ("V108/bad_5_plain.yaml", "V108", "GT1-P01", "portals"),  # Plain Gate
        ("V115/bad_banned_reprint.yaml", "V115", "GT1-91", "spells"),  # the reprint named
        ("V117/bad_qz2_spell.yaml", "V117", "QZ2-001", "spells"),  # Starfall Oni
        ("V117/bad_qz2_portal.yaml", "V117", "QZ2-002", "portals"),
        ("V117/bad_qz2_skill.yaml", "V117", "QZ2-003", "skills"),
    ],
)
def test_card_rules_name_the_card_and_its_section(
    case: str, code: str, card: str | None, section: str
) -> None:
    deck = CASES / case
    (report,) = check_decks([deck], altdb(), date=on_date())
    (d,) = [d for d in report.diagnostics if d.code == code]
    assert d.section == section
    assert d.card is not None and d.card in altdb().cards
    if card is not None:
        assert d.card == card
    assert altdb().cards[d.card].name in d.message


# --------------------------------------------------------------------------- about the hero


_db = akane_db  # Akane's database (tests/varz_decks.py)
LEGAL = AKANE


def _check(database: CardDatabase, text: str = LEGAL) -> DeckReport:
    deck, problems = read_text(text, "decks/akane.yaml")
    return check_parsed(deck, problems, database)


def _at_hero(report: DeckReport, code: str, hero_id: str) -> Diagnostic:
    (d,) = [d for d in report.diagnostics if d.code == code]
    assert (d.file, d.line, d.column) == ("decks/akane.yaml", 2, 7)
    assert (d.section, d.card) == ("hero", hero_id)
    assert "Akane" in d.message
    return d


def test_the_base_deck_is_legal() -> None:
    assert _check(_db()).diagnostics == ()


def test_w202_is_placed_at_the_hero_and_names_it() -> None:
    d = _at_hero(_check(_db(evolution_level=10)), "W202", "S1-001")
    assert "10" in d.message and "9" in d.message


def test_v115_for_a_banned_hero_is_placed_at_the_hero() -> None:
    d = _at_hero(_check(_db(banned=("S1-001",))), "V115", "S1-001")
    assert "Standard" in d.message


def test_v117_for_a_hero_from_a_set_not_in_the_format_is_placed_at_the_hero() -> None:
    d = _at_hero(_check(_db(hero_set="PR")), "V117", "PR-001")
    assert "PR" in d.message and "S1" in d.message


def test_hero_rules_are_skipped_without_a_hero() -> None:
    text = LEGAL.replace("hero: Akane\n", "")
    codes = sorted(d.code for d in _check(_db(evolution_level=10), text).diagnostics)
    assert codes == ["V101"]  # no W202, V112-V114 or V106 without a hero (SPEC §4)


def test_portal_rules_are_skipped_when_portals_are_pooled() -> None:
    database = _db()
    database.formats["pioneer"] = Format("pioneer", "Pioneer", extra={"portals": "pooled"})
    text = "format: pioneer\n" + LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 9\n")
    assert _check(database, text).diagnostics == ()
    assert {
        d.code
        for d in _check(
            database, LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 9\n")
        ).diagnostics
    } >= {"V104", "V105", "V108"}


def test_only_portal_rules_are_skipped_when_portals_are_pooled() -> None:
    database = _db()
    database.formats["pioneer"] = Format("pioneer", "Pioneer", extra={"portals": "pooled"})
    text = "format: pioneer\n" + LEGAL.replace("  Filler 0: 3\n", "  Filler 0: 2\n")
    assert [d.code for d in _check(database, text).diagnostics] == ["V102"]  # 29 spells


def test_v116_and_v107_name_the_card_they_count() -> None:
    database = _db()
    database.formats["standard"] = dataclasses.replace(
        database.formats["standard"], restricted={"S1-010": 2}
    )
    (v116,) = _check(database).diagnostics  # Filler 0: 3, restricted to 2
    assert (v116.code, v116.section, v116.card, v116.line) == ("V116", "spells", "S1-010", 4)
    shrine = Card(id="S1-102", name="Shrine Gate", type="portal", set="S1", color="colorless",
                  shield_life=2, text="When this portal is destroyed, draw a card.")  # fmt: skip
    database = CardDatabase([*_db().cards.values(), shrine], dict(_db().formats))
    text = LEGAL.replace("  Plain Gate: 4\n", "  Plain Gate: 2\n  Shrine Gate: 2\n")
    (v107,) = _check(database, text).diagnostics
    assert (v107.code, v107.section, v107.card, v107.line) == ("V107", "portals", "S1-102", 18)


def test_format_rules_are_skipped_in_an_unknown_format() -> None:
    text = "format: casual\n" + LEGAL
    codes = [d.code for d in _check(_db(hero_set="PR", banned=("S1-010",)), text).diagnostics]
    assert codes == ["F007"]  # no V115/V117 against a format that does not exist


# --------------------------------------------------------------------------- the messages


def _sizes(deck: Path) -> dict[str, int]:
    """Cards per section of a YAML case deck, counted with PyYAML (independent of the checker)."""
    import yaml

    data = yaml.safe_load(deck.read_text(encoding="utf-8"))
    out = {}
    for section in ("spells", "skills", "portals"):
        value = data.get(section) or {}
        if isinstance(value, dict):
            out[section] = sum(value.values())
        else:
            out[section] = sum(int(item.split()[0].rstrip("xX")) for item in value)
    return out


@pytest.mark.parametrize(
    ("case", "section", "need", "words"),
    [
        ("V102/bad_29.yaml", "spells", 30, ("spell card", "the Deck")),
        ("V102/bad_31.yaml", "spells", 30, ("spell card", "the Deck")),
        ("V102/bad_empty_section.yaml", "spells", 30, ("spell card", "the Deck")),
        ("V104/bad_7.yaml", "portals", 8, ("portal", "the Portal Deck")),
        ("V104/bad_9.yaml", "portals", 8, ("portal", "the Portal Deck")),
        ("V110/bad_8.yaml", "skills", 9, ("skill card", "the Skill Deck")),
        ("V110/bad_10.yaml", "skills", 9, ("skill card", "the Skill Deck")),
    ],
)
def test_size_messages_say_how_many_and_what_to_do(
    case: str, section: str, need: int, words: tuple[str, str]
) -> None:
    deck = CASES / case
    n = _sizes(deck)[section]
    assert n != need
    thing, deck_name = words
    plural = "" if n == 1 else "s"
    action = f"add {need - n}" if n < need else f"remove {n - need}"
    want = f"{n} {thing}{plural}; {deck_name} needs exactly {need} ({action})"
    (report,) = check_decks([deck], altdb(), date=on_date())
    assert [d.message for d in report.diagnostics if d.code == case[:4]] == [want]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        # 4 × Ember Imp (AB1-10), 3 allowed
        ("V103/bad_4_copies.yaml", "4 copies of 'Ember Imp'; at most 3 (all printings together): remove 1"),
        # Cinderling named by its two printings, 2 + 2
        ("V103/bad_two_printings.yaml", "4 copies of 'Cinderling'; at most 3 (all printings together): remove 1"),
        ("V105/bad_19.yaml", "19 Shield Life; needs exactly 20 (1 more: swap portals for ones of other Shield Life)"),
        ("V105/bad_21.yaml", "21 Shield Life; needs exactly 20 (1 less: swap portals for ones of other Shield Life)"),
        ("V106/bad_blue_basic_portal.yaml", "'Tide Gate' is a blue portal but the hero is red; use red or colorless portals"),
        ("V107/bad_two_sunken_doors.yaml", "2 copies of 'Sunken Door', a portal with an effect; at most 1: remove 1"),
        ("V108/bad_5_plain.yaml", "5 copies of 'Plain Gate', a basic portal; at most 4: remove 1"),
        ("V109/bad_three_effects.yaml", "3 portals with effects; Standard allows 2: replace 1 with basic portals"),
        ("V109/bad_highlander_one_effect.yaml", "1 portal with effects; Highlander allows 0: replace 1 with basic portals"),
        ("V111/bad_two_iron_fist.yaml", "2 copies of 'Iron Fist'; at most 1 of a skill that is not a VAZ skill: remove 1"),
        ("V112/bad_kagura_6_of_5.yaml", "6 non-VAZ skills; Kagura's Memory is 5: replace 1 with VAZ skills"),
        ("V113/bad_ninja_skill.yaml", "'Smoke Step' is a ninja skill; Kagura can use fighter, samurai or generic skills"),
        ("V114/bad_blue_spell_no_vaz.yaml", "'Frost Wisp' is blue but the hero is red and the skills have no blue VAZ skill; add one or cut the card"),
        ("V115/bad_banned_reprint.yaml", "'Ashfall Titan' is banned in Standard; replace it"),
        ("V116/bad_restricted_2.yaml", "2 copies of 'Phoenix Ember'; Standard restricts it to 1: remove 1"),
        ("V117/bad_qz2_spell.yaml", "'Starfall Oni' is only in set QZ2; Standard allows AB1, GT1: replace it"),
        ("W201/bad_cost_3_two_vaz.yaml", "'Mind Lock' costs 3 blue VAZ but the skills make at most 2; add 1 more blue VAZ skill"),
        ("W201/bad_cost_6_five_vaz.yaml", "'Glacier Wyrm' costs 6 blue VAZ but the skills make at most 5; add 1 more blue VAZ skill"),
        ("W202/bad_oberon_level_10.yaml", "Oberon's evolution level is 10 but a 9-card Skill Deck reaches level 9 at most: this hero never V-Syncs"),
    ],
)  # fmt: skip
def test_rule_messages_name_the_card_the_numbers_and_the_fix(case: str, message: str) -> None:
    """Written by hand from each case deck and the rule's wording (tests/cases/README.md)."""
    (report,) = check_decks([CASES / case], altdb(), date=on_date())
    assert [d.message for d in report.diagnostics if d.code == case[:4]] == [message]


def test_w201_counts_the_missing_vaz_skills() -> None:
    # Blue Sprite costs 2; with no Azure VAZ it is V114, with one it is W201 "add 1 more".
    database = _db()
    blue = Card(id="S1-020", name="Blue Sprite", type="spil", set="S1", color="blue", cost=3,
                power=1)  # fmt: skip
    azure = Card(id="S1-051", name="Azure VAZ", type="skill", set="S1", skill_class="generic",
                 vaz=True, color="blue")  # fmt: skip
    database = CardDatabase([*database.cards.values(), blue, azure], database.formats)
    text = LEGAL.replace("  Filler 0: 3\n", "  Blue Sprite: 3\n").replace(
        "  Crimson VAZ: 9\n", "  Crimson VAZ: 8\n  Azure VAZ: 1\n"
    )
    (d,) = [d for d in _check(database, text).diagnostics]
    assert d.code == "W201"
    assert d.message == (
        "'Blue Sprite' costs 3 blue VAZ but the skills make at most 1; add 2 more blue VAZ skills"
    )


# --------------------------------------------------------------------------- Azuki's rules

AZUKI_CASES = HERE / "cases_azuki"
AZUKI_DB = HERE.parent / "card_data" / "azuki"
SHAO_WATER = HERE.parent / "examples" / "azuki" / "stt02-shao-water.yaml"


@cache
def azuki_db() -> CardDatabase:
    return open_database(AZUKI_DB)


EVERY_CARD = "every card must be of the Leader's element or neutral"


@pytest.mark.parametrize(
    ("case", "section", "card", "message"),
    [
        ("A101/bad_no_leader_key.yaml", "leader", None, "no Leader; a deck has exactly one Leader card: add `leader: NAME`"),
        ("A101/bad_leader_null.yaml", "leader", None, "no Leader; a deck has exactly one Leader card: add `leader: NAME`"),
        ("A102/bad_gate_null.yaml", "gate", None, "no Gate; a deck has exactly one Gate card: add `gate: NAME`"),
        # Ikazhuchi 1 instead of 2 in the 50 of the example deck
        ("A103/bad_49.yaml", "main", None, "the main deck has 49 cards; it must have exactly 50"),
        ("A103/bad_51.yaml", "main", None, "the main deck has 51 cards; it must have exactly 50"),
        ("A103/bad_missing_main.yaml", "main", None, "the main deck has 0 cards; it must have exactly 50"),
        ("A104/bad_9_ikz.yaml", "ikz", None, "the deck has 9 IKZ and 1 IKZ Token; it must have exactly 10 IKZ and 1 IKZ Token"),
        ("A104/bad_two_tokens.yaml", "ikz", None, "the deck has 10 IKZ and 2 IKZ Token; it must have exactly 10 IKZ and 1 IKZ Token"),
        ("A104/bad_no_token.yaml", "ikz", None, "the deck has 10 IKZ and 0 IKZ Token; it must have exactly 10 IKZ and 1 IKZ Token"),
        # STT02-002 Hydromancy Gate [water] under STT01-001 Raizan [lightning]
        ("A105/bad_gate_other_element.yaml", "gate", "STT02-002", f"'Hydromancy Gate' is water, but the Leader 'Raizan' is lightning; {EVERY_CARD}"),
        # STT02-016 Water Orb [water] under STT03-001 Bobu [earth], list form
        ("A105/bad_water_spell_list.yaml", "main", "STT02-016", f"'Water Orb' is water, but the Leader 'Bobu' is earth; {EVERY_CARD}"),
        ("A106/bad_5_copies.yaml", "main", "STT01-003", "5 copies of 'Crate Rat Kurobo' (STT01-003); at most 4 of a card"),
        ("A106/bad_5_copies_list.yaml", "main", "STT03-003", "5 copies of 'Koyama Farm Potter' (STT03-003); at most 4 of a card"),
        ("A107/bad_rushfire_gate.yaml", "gate", "AZK01-122", "'Rushfire Gate' (AZK01-122) is banned in Standard"),
    ],
)  # fmt: skip
def test_azuki_rule_messages_name_the_card_the_numbers_and_the_fix(
    case: str, section: str, card: str | None, message: str
) -> None:
    """Written by hand from each case deck and the card data (card_data/azuki/sets/)."""
    code = case[:4]
    (report,) = check_decks([AZUKI_CASES / case], azuki_db(), date=on_date())
    (d,) = [d for d in report.diagnostics if d.code == code]
    assert (d.message, d.section, d.card) == (message, section, card)
    assert d.file == str(AZUKI_CASES / case)
    assert d.text is not None and d.text.context == code  # found under its code in a catalogue
    assert localized(d, "ja") != message  # every Azuki rule message is translated


def test_azuki_element_rule_reports_each_card_at_its_entry() -> None:
    # Ruby (STT04-005) and Collateral Burst (STT04-016) are fire; Shao is water
    (report,) = check_decks(
        [AZUKI_CASES / "A105" / "bad_two_cards.yaml"], azuki_db(), date=on_date()
    )
    found = [(d.line, d.column, d.card, d.message) for d in report.diagnostics]
    assert {d.file for d in report.diagnostics} == {
        str(AZUKI_CASES / "A105" / "bad_two_cards.yaml")
    }
    assert found == [
        (13, 3, "STT04-005", f"'Ruby' is fire, but the Leader 'Shao' is water; {EVERY_CARD}"),
        (
            20,
            3,
            "STT04-016",
            f"'Collateral Burst' is fire, but the Leader 'Shao' is water; {EVERY_CARD}",
        ),
    ]


def _azuki_with(cards: list[AzukiCard], banned: tuple[str, ...] = ()) -> CardDatabase:
    base = azuki_db()
    fmt = Format("standard", "Standard", banned=banned)
    return AzukiDatabase([*base.cards.values(), *cards], {"standard": fmt})


def _shao_deck(tmp_path: Path, replace: str = "", by: str = "") -> Path:
    text = SHAO_WATER.read_text(encoding="utf-8")
    assert replace in text
    deck = tmp_path / "deck.yaml"
    deck.write_text(text.replace(replace, by, 1), encoding="utf-8")
    return deck


def test_azuki_a_card_of_two_elements_is_allowed_when_one_is_the_leaders(tmp_path: Path) -> None:
    twins = [
        AzukiCard(id="TST-001", name="Tide Ember", type="entity", set="TST", elements=("fire", "water")),
        AzukiCard(id="TST-002", name="Ash Stone", type="entity", set="TST", elements=("fire", "earth")),
    ]  # fmt: skip
    database = _azuki_with(twins)
    assert [
        d.code for d in check_decks([_shao_deck(tmp_path)], database, date=on_date())[0].diagnostics
    ] == []
    ok = _shao_deck(tmp_path, "  Aya: 3\n", "  Tide Ember: 3\n")
    assert check_decks([ok], database, date=on_date())[0].diagnostics == ()
    bad = _shao_deck(tmp_path, "  Aya: 3\n", "  Ash Stone: 3\n")
    (d,) = check_decks([bad], database, date=on_date())[0].diagnostics
    assert (d.code, d.line, d.column, d.card) == ("A105", 14, 3, "TST-002")
    assert (d.file, d.section) == (str(bad), "main")
    assert d.message == f"'Ash Stone' is fire, earth, but the Leader 'Shao' is water; {EVERY_CARD}"


def test_azuki_a_card_banned_by_one_of_its_printed_ids_is_banned(tmp_path: Path) -> None:
    # the IKZ Token is AZP-001, also printed as AZP-002 and IKZ-002 (card_data/azuki/sets/ikz.yaml)
    for printed in ("IKZ-002", "AZP-001"):
        (report,) = check_decks(
            [_shao_deck(tmp_path)], _azuki_with([], banned=(printed,)), date=on_date()
        )
        (d,) = report.diagnostics
        assert (d.code, d.section, d.card, d.line, d.column) == ("A107", "ikz", "AZP-001", 25, 3)
        assert d.file == str(tmp_path / "deck.yaml")
        assert d.message == "'IKZ Token' (AZP-001) is banned in Standard"
    # and nothing is banned when the format bans nothing in the deck
    (report,) = check_decks(
        [_shao_deck(tmp_path)], _azuki_with([], banned=("AZK01-122",)), date=on_date()
    )
    assert report.diagnostics == ()


def test_azuki_a_banned_leader_and_main_card_are_reported_where_they_are(tmp_path: Path) -> None:
    # Shao is STT02-001 (line 5); Rei is STT02-004 (line 9)
    banned = ("STT02-001", "STT02-004")
    (report,) = check_decks([_shao_deck(tmp_path)], _azuki_with([], banned=banned), date=on_date())
    found = [(d.code, d.section, d.card, d.line, d.column, d.message) for d in report.diagnostics]
    assert {d.file for d in report.diagnostics} == {str(tmp_path / "deck.yaml")}
    assert found == [
        ("A107", "leader", "STT02-001", 5, 9, "'Shao' (STT02-001) is banned in Standard"),
        ("A107", "main", "STT02-004", 9, 3, "'Rei' (STT02-004) is banned in Standard"),
    ]


@pytest.mark.parametrize("deck", _failing_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_rule_message_is_found_in_the_catalogues(deck: Path) -> None:
    """Each message is looked up by its code and its English text (the singular for plural
    messages): a message that changed on one side only shows in English."""
    (report,) = check_decks([deck], altdb(), date=on_date())
    for d in report.diagnostics:
        if d.code[0] in "VW":
            for lang in ("ja", "zh"):
                assert localized(d, lang) != d.message, (lang, d.code, d.message)


def test_azuki_copy_limit_counts_the_cards_after_an_unknown_one(tmp_path: Path) -> None:
    # 1 unknown + 2 Hayabusa Itto + 5 Rei (STT02-004) for 4 + 4: still 50 cards
    deck = _shao_deck(
        tmp_path,
        "  Hayabusa Itto: 4\n  Rei: 4\n",
        "  Nobody Known: 1\n  Hayabusa Itto: 2\n  Rei: 5\n",
    )
    (report,) = check_decks([deck], azuki_db(), date=on_date())
    found = {(d.code, d.line, d.column) for d in report.diagnostics}
    assert ("F005", 8, 3) in found
    (d,) = [d for d in report.diagnostics if d.code == "A106"]
    assert (d.line, d.column, d.card) == (10, 3, "STT02-004")
    assert d.message == "5 copies of 'Rei' (STT02-004); at most 4 of a card"


# --------------------------------------------------------------------------- registering a rule
# The rule modules register on import, before any test runs; these register again on a fresh
# rulebook to pin what `rule(...)` records and when a rule of each kind runs (SPEC §4).


def _never(view: object) -> Iterator[Diagnostic]:
    yield from ()


def _view(
    hero: bool = True, pooled: bool = False, known: bool = True, leader: bool = True
) -> SimpleNamespace:
    return SimpleNamespace(
        hero=object() if hero else None,
        leader=object() if leader else None,
        format=SimpleNamespace(extra={"portals": "pooled"} if pooled else {}),
        format_known=known,
    )


def _register_each(
    book: Rulebook[object],
    rule: Any,
    kinds: dict[str, dict[str, bool]],
    views: dict[str, SimpleNamespace],
) -> dict[str, list[str]]:
    """Register `_never` under each code with its kind; check what the book recorded; give, for
    each code, the views its rule applies to."""
    for code, kind in kinds.items():
        assert rule(code, f"rule-{code}", f"{code[-1]}.1", **kind)(_never) is _never
    assert [(r.code, r.name, r.section, r.check) for r in book.rules.values()] == [
        (code, f"rule-{code}", f"{code[-1]}.1", _never) for code in kinds
    ]
    return {code: [k for k, v in views.items() if book.rules[code].applies(v)] for code in kinds}


def test_a_varz_rule_registers_its_code_name_section_and_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from varz_deck.games.varz.rules import _book

    book: Rulebook[object] = Rulebook()
    monkeypatch.setattr(_book, "RULEBOOK", book)
    kinds: dict[str, dict[str, bool]] = {
        "V901": {},
        "V902": {"needs_hero": True},
        "V903": {"portal_rule": True},
        "V904": {"format_rule": True},
        "V905": {"needs_hero": True, "portal_rule": True, "format_rule": True},
    }
    views = {
        "plain": _view(),
        "no hero": _view(hero=False),
        "pooled portals": _view(pooled=True),
        "unknown format": _view(known=False),
    }
    assert _register_each(book, _book.rule, kinds, views) == {
        "V901": ["plain", "no hero", "pooled portals", "unknown format"],
        "V902": ["plain", "pooled portals", "unknown format"],
        "V903": ["plain", "no hero", "unknown format"],
        "V904": ["plain", "no hero", "pooled portals"],
        "V905": ["plain"],
    }


def test_azukis_own_rules_are_the_ikz_deck_always_and_elements_with_a_known_leader() -> None:
    """What no declaration says stays Azuki's own (the rest is declared: test_azuki_declared.py):
    A104 runs on every deck, A105 only when the Leader is known."""
    from varz_deck.games.azuki.rules import RULEBOOK

    book = RULEBOOK.rules
    assert [(r.code, r.name, r.section, r.severity.value) for r in book.values()] == [
        ("A105", "element-mismatch", "Deck building", "error"),
        ("A104", "ikz-count-wrong", "Deck building", "error"),
    ]
    views = {"leader": SimpleNamespace(lead=object()), "no leader": SimpleNamespace(lead=None)}
    assert {code: [k for k, v in views.items() if r.applies(v)] for code, r in book.items()} == {
        "A104": ["leader", "no leader"],
        "A105": ["leader"],
    }


@pytest.mark.parametrize(
    ("line", "typed", "at"),
    [("  Rei: 4\n", "  Rei: 0\n", (9, 8)), ("  IKZ: 10\n", "  IKZ: ten\n", (24, 8))],
)
def test_azuki_a_section_with_an_unreadable_count_is_not_counted(
    tmp_path: Path, line: str, typed: str, at: tuple[int, int]
) -> None:
    """The count is F004; the section's size (A103, A104) is not judged from the rest."""
    (report,) = check_decks([_shao_deck(tmp_path, line, typed)], azuki_db(), date=on_date())
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == [("F004", *at)]


@pytest.mark.parametrize(
    ("line", "typed", "at"),
    [
        ("  Crimson VAZ: 9\n", "  Crimson VAZ: 0\n", (15, 16)),
        ("  Filler 0: 3\n", "  Filler 0: 0\n", (4, 13)),
        ("  Plain Gate: 4\n", "  Plain Gate: four\n", (17, 15)),
    ],
)
def test_a_section_with_an_unreadable_count_is_not_counted(
    line: str, typed: str, at: tuple[int, int]
) -> None:
    """The count is F004; the section's size (V102, V104, V110) is not judged from the rest."""
    report = _check(_db(), LEGAL.replace(line, typed))
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == [("F004", *at)]


def test_v112_a_hero_with_memory_0_allows_no_non_vaz_skill() -> None:
    base = _db()
    hero = dataclasses.replace(base.cards["S1-001"], memory=0)
    iron = Card(id="S1-060", name="Iron Fist", type="skill", set="S1", skill_class="generic",
                vaz=False, color="red")  # fmt: skip
    cards = [hero, *(c for c in base.cards.values() if c.id != "S1-001"), iron]
    database = CardDatabase(cards, base.formats)
    text = LEGAL.replace("  Crimson VAZ: 9\n", "  Crimson VAZ: 8\n  Iron Fist: 1\n")
    (d,) = _check(database, text).diagnostics
    assert (d.code, d.line, d.column, d.section) == ("V112", 14, 1, "skills")
    assert d.message == "1 non-VAZ skill; Akane's Memory is 0: replace 1 with VAZ skills"
    assert localized(d, "ja") != d.message


@pytest.mark.parametrize(
    ("text", "place"),
    [(LEGAL.replace("hero: Akane\n", ""), (None, None)), (LEGAL.replace("hero: Akane\n", "hero:\n"), (2, 1))],
)  # fmt: skip
def test_v101_names_the_hero_section_and_the_fix(text: str, place: tuple[int | None, ...]) -> None:
    (d,) = _check(_db(), text).diagnostics
    assert (d.code, d.section, d.card, d.file) == ("V101", "hero", None, "decks/akane.yaml")
    assert (d.line, d.column) == place
    assert d.message == "no hero; a deck has exactly one Hero card: add `hero: NAME`"
