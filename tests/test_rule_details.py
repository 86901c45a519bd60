"""What each rule's diagnostic carries beyond its code and place (mutation testing found these
unchecked): the card and section it names, the hero's place for rules about the hero, and the
words of the game (colours, classes, sections, card types, formats) in every language.

The case corpora (tests/test_cases.py) pin code, line and column; these tests pin the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from varz_deck.core.cards import CardDatabase, Format
from varz_deck.core.check import DeckReport
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.i18n import CardName, Joined, Message, Term, localized, term
from varz_deck.games import check_decks, open_database
from varz_deck.games.varz.cards import COLORLESS, COLORS, SKILL_CLASSES, Card
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import Deck, parse_yaml

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
    (report,) = check_decks([deck], altdb())
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
    ],
)
def test_card_rules_name_the_card_and_its_section(
    case: str, code: str, card: str | None, section: str
) -> None:
    deck = CASES / case
    (report,) = check_decks([deck], altdb())
    (d,) = [d for d in report.diagnostics if d.code == code]
    assert d.section == section
    assert d.card is not None and d.card in altdb().cards
    if card is not None:
        assert d.card == card
    assert altdb().cards[d.card].name in d.message


# --------------------------------------------------------------------------- about the hero


def _db(
    hero_set: str = "S1", evolution_level: int = 6, banned: tuple[str, ...] = ()
) -> CardDatabase:
    cards = [
        Card(id=f"{hero_set}-001", name="Akane", type="hero", set=hero_set, color="red", life=10,
             power=2, skill_classes=("fighter",), evolution_level=evolution_level, memory=5),
        *(Card(id=f"S1-01{i}", name=f"Filler {i}", type="spil", set="S1", color="red", cost=1,
               power=1) for i in range(10)),
        Card(id="S1-050", name="Crimson VAZ", type="skill", set="S1", skill_class="generic",
             vaz=True, color="red"),
        Card(id="S1-100", name="Plain Gate", type="portal", set="S1", color="colorless",
             shield_life=2),
        Card(id="S1-101", name="Stone Gate", type="portal", set="S1", color="colorless",
             shield_life=3),
    ]  # fmt: skip
    fmt = Format("standard", "Standard", max_effect_portals=2, sets=("S1",), banned=banned)
    return CardDatabase(cards, {"standard": fmt})


LEGAL = (
    "name: Test\n"
    "hero: Akane\n"  # line 2, column 7
    "spells:\n" + "".join(f"  Filler {i}: 3\n" for i in range(10)) + "skills:\n  Crimson VAZ: 9\n"
    "portals:\n  Plain Gate: 4\n  Stone Gate: 4\n"
)


def _check(database: CardDatabase, text: str = LEGAL) -> DeckReport:
    deck = Deck(path="decks/akane.yaml")
    problems = parse_yaml(text, deck)
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
    database.formats["pioneer"] = Format("pioneer", "Pioneer", portals="pooled")
    text = "format: pioneer\n" + LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 9\n")
    assert _check(database, text).diagnostics == ()
    assert {
        d.code
        for d in _check(
            database, LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 9\n")
        ).diagnostics
    } >= {"V104", "V105", "V108"}


def test_format_rules_are_skipped_in_an_unknown_format() -> None:
    text = "format: casual\n" + LEGAL
    codes = [d.code for d in _check(_db(hero_set="PR", banned=("S1-010",)), text).diagnostics]
    assert codes == ["F007"]  # no V115/V117 against a format that does not exist
