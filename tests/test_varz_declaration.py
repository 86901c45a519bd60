"""VARZ is a declared game: its deck construction (the hero, 30 spells, 9 skills, 8 portals and
their copy limits) and its format checks are the core's checks (core/decks/construction.py,
legality.py) under VARZ's codes, as its declaration says (varz_deck/games/varz/declaration.py);
what no declaration can say stays a VARZ rule (rules/). Codes, docs and messages are the same as
before the port: every expected value below is written by hand from SPEC §4 and the rulebook.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from pathlib import Path

import pytest
from varz_decks import AKANE, akane_db, check_parsed, read_text

from varz_deck.core.cards.model import CardDatabase, Format, FormatChange
from varz_deck.core.dates import on_date
from varz_deck.core.decks.declaration import Size
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.code import Severity
from varz_deck.games import all_codes, get_game
from varz_deck.games.varz.cards import Card
from varz_deck.games.varz.declaration import DECLARATION
from varz_deck.games.varz.rules import RULEBOOK
from varz_deck.games.varz.view import VarzView

PACKAGE = Path(__file__).resolve().parent.parent / "varz_deck" / "games" / "varz"

# code: (name, rulebook section, summary, fix, severity): SPEC §4's table and the rules' pages
DECLARED = {
    "V101": ("hero-missing", "2.1, 3-2 ❶", "A deck names exactly one Hero card.",
             "Add `hero: NAME` naming one Hero card.", "error"),
    "V102": ("spell-deck-size-wrong", "2.1, 3-2 ❹", "The spell deck holds exactly 30 cards.",
             "Add or remove spells until they add up to 30.", "error"),
    "V103": ("spell-copy-limit-exceeded", "2.1",
             "At most 3 copies of a spell, counting every printing of its name together.",
             "Cut copies until at most 3 remain, all printings of the name together.", "error"),
    "V104": ("portal-deck-size-wrong", "2.1, 3-2 ❸", "The Portal Deck holds exactly 8 cards.",
             "Add or remove portals until they add up to 8.", "error"),
    "V107": ("effect-portal-copy-limit-exceeded", "2.1, 3-2 ❸",
             "At most 1 copy of each portal with an effect.",
             "Keep one copy of each portal with an effect.", "error"),
    "V108": ("basic-portal-copy-limit-exceeded", "2.1 (Japanese/Chinese)",
             "At most 4 copies of each basic portal (one with no effect).",
             "Keep at most 4 copies of each basic portal.", "error"),
    "V110": ("skill-deck-size-wrong", "2.1", "The Skill Deck holds exactly 9 cards.",
             "Add or remove skills until they add up to 9.", "error"),
    "V111": ("skill-copy-limit-exceeded", "2.1, 3-2 ❷",
             "At most 1 copy of each skill, except VAZ skills (any number).",
             "Keep one copy of each skill; only VAZ skills may repeat.", "error"),
    "V115": ("banned-card", "format data (2.2)",
             "No card the format bans; a ban covers every printing of the card.",
             "Remove the banned card, every printing of it.", "error"),
    "V116": ("restricted-card-over-limit", "format data (2.2)",
             "No more copies of a restricted card than the format allows.",
             "Cut the restricted card down to the number the format allows.", "error"),
    "V117": ("card-not-in-format-sets", "format data (2.2)",
             "Every card is printed in a set the format allows (any printing of it counts).",
             "Replace the card with one printed in the format's sets, or play another format.",
             "error"),
    "V118": ("not-yet-released", "format data (2.2), dated formats",
             "A card is legal once a printing of it in a set the format allows is released.",
             "Replace the card, or check the deck for a day on or after its set's release.",
             "error"),
    "W203": ("announced-change", "format data (2.2), dated formats",
             "Warn of a change 1 to 60 days ahead that bans, restricts or rotates out a card "
             "played.",
             "Replace the card before the change is in force, or check for the day of your event.",
             "warning"),
}  # fmt: skip
OWN = ("V105", "V106", "V109", "V112", "V113", "V114", "W201", "W202")


def test_the_declared_codes_are_the_cores_checks_and_the_rest_varzs_rules() -> None:
    book = get_game("varz").rulebook.rules
    assert sorted(book) == sorted([*DECLARED, *OWN])
    assert sorted(RULEBOOK.rules) == list(OWN)
    for code in DECLARED:
        assert book[code].check.__module__ == "varz_deck.core.game.declared", code
    for code in OWN:
        assert book[code].check.__module__.startswith("varz_deck.games.varz.rules."), code


@pytest.mark.parametrize("code", sorted(DECLARED))
def test_a_declared_code_keeps_its_name_section_docs_and_fix(code: str) -> None:
    name, section, summary, fix, severity = DECLARED[code]
    info = get_game("varz").rules()[code].info
    assert (info.id, info.name, info.section, info.title) == (code, name, section, summary)
    assert (info.fix, info.severity) == (fix, Severity(severity))
    assert info.doc.splitlines()[0] == summary
    assert [label for label, _ in info.examples] in (
        ["Legal", "Illegal"],
        ["Fine", "Fine", "Warning"],
    )


def test_rules_lists_the_varz_codes_in_code_order() -> None:
    """`varz-deck rules`, SARIF and the docs list a game's codes together, declared or not."""
    listed = [c for c in all_codes(["varz"]) if c[0] in "VW"]
    assert listed == sorted([*DECLARED, *OWN])


def test_the_declaration_says_the_deck() -> None:
    """Rulebook 2.1: one hero; 30 spells, at most 3 of a name; 9 skills, 1 of each but VAZ
    skills; 8 portals, 1 of each with an effect, 4 of each basic one; portals are not the
    player's in a format whose portals are pooled."""
    hero = DECLARATION.lead
    assert hero is not None and (hero.key, hero.required) == ("hero", True)
    assert hero.code is not None and hero.code.id == "V101"
    sections = {s.key: s for s in DECLARATION.sections}
    assert list(sections) == ["spells", "skills", "portals"]
    sizes = {
        key: (s.size.exact, s.size_code.id if s.size_code else None) for key, s in sections.items()
    }
    assert sizes == {"spells": (30, "V102"), "skills": (9, "V110"), "portals": (8, "V104")}
    limits = {
        key: [(c.limit, dict(c.where), c.code.id if c.code else None) for c in s.copies]
        for key, s in sections.items()
    }
    assert limits == {
        "spells": [(3, {}, "V103")],
        "skills": [(None, {"vaz": (True,)}, None), (1, {}, "V111")],
        "portals": [(1, {"has_effect": (True,)}, "V107"), (4, {}, "V108")],
    }
    assert [dict(s.unless) for s in sections.values()] == [{}, {}, {"portals": ("pooled",)}]
    codes = DECLARATION.format_codes
    found = [c.id if c else None for c in (codes.banned, codes.restricted, codes.sets, codes.released, codes.announced)]  # fmt: skip
    assert found == ["V115", "V116", "V117", "V118", "W203"]
    types = {
        t: DECLARATION.home(t) for t in ("hero", "spil", "command", "slash", "skill", "portal")
    }
    assert types == {
        "hero": "hero", "spil": "spells", "command": "spells", "slash": "spells",
        "skill": "skills", "portal": "portals",
    }  # fmt: skip


def test_only_the_declaration_names_a_declared_code_in_the_package() -> None:
    """No VARZ module checks what the core checks: a declared code is a string in its Python
    only in declaration.py (its catalogues translate their messages)."""
    pattern = re.compile(r"[\"'](" + "|".join(DECLARED) + r")[\"']")
    found = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["declaration.py"]


# ------------------------------------------------------------------ checks follow the declaration


_db = akane_db
LEGAL = AKANE


def test_the_base_deck_is_legal() -> None:
    assert check_parsed(*read_text(LEGAL), _db()).diagnostics == ()


def test_a_size_the_declaration_changes_is_the_one_checked(tmp_path: Path) -> None:
    """The core checks the size the declaration gives, in VARZ's words: a game made from VARZ's
    declaration with 33 spells finds the 30-spell deck 3 short."""
    spells = replace(DECLARATION.section("spells"), size=Size(exact=33))
    sections = tuple(spells if s.key == "spells" else s for s in DECLARATION.sections)
    game = DeclaredGame(
        replace(DECLARATION, sections=sections),
        tmp_path,
        rules=RULEBOOK,
        view_class=VarzView,
        schemas=get_game("varz").schemas,
    )
    deck, problems = read_text(LEGAL)
    (said,) = game.check_parsed(deck, problems, _db(), None, date=on_date()).diagnostics
    assert (said.code, said.section, said.line, said.column) == ("V102", "spells", 3, 1)
    assert said.message == "30 spell cards; the Deck needs exactly 33 (add 3)"


def test_a_copy_limit_follows_the_card_field_the_declaration_names() -> None:
    """VAZ skills repeat; a portal with rules text is 1 copy, a basic one 4 (V107, V108)."""
    shrine = Card(id="S1-102", name="Shrine Gate", type="portal", set="S1", color="colorless",
                  shield_life=3, text="When this portal is destroyed, draw a card.")  # fmt: skip
    blank = Card(id="S1-103", name="Blank Gate", type="portal", set="S1", color="colorless",
                 shield_life=2, text="   ")  # fmt: skip
    base = _db()
    database = CardDatabase([*base.cards.values(), shrine, blank], base.formats)
    two = LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 2\n  Shrine Gate: 2\n")
    found = [
        (d.code, d.card, d.message) for d in check_parsed(*read_text(two), database).diagnostics
    ]
    assert found == [
        (
            "V107",
            "S1-102",
            "2 copies of 'Shrine Gate', a portal with an effect; at most 1: remove 1",
        )
    ]
    five = LEGAL.replace("  Plain Gate: 4\n", "  Blank Gate: 5\n")  # blank text: a basic portal
    codes = [(d.code, d.card) for d in check_parsed(*read_text(five), database).diagnostics]
    assert ("V108", "S1-103") in codes and "V107" not in {c for c, _ in codes}


def test_a_pooled_format_skips_the_portal_checks_the_declaration_exempts() -> None:
    database = _db()
    database.formats["pioneer"] = Format("pioneer", "Pioneer", extra={"portals": "pooled"})
    text = "format: pioneer\n" + LEGAL.replace("  Stone Gate: 4\n", "  Stone Gate: 9\n")
    assert check_parsed(*read_text(text), database).diagnostics == ()
    without = "format: pioneer\n" + LEGAL.split("portals:")[0]  # no portals at all
    assert check_parsed(*read_text(without), database).diagnostics == ()


def test_a_section_is_named_in_the_players_language() -> None:
    """The declaration's names of the sections are the rulebooks' words (and the catalogues')."""
    names = {s.key: dict(s.names) for s in DECLARATION.sections}
    assert names == {
        "spells": {"en": "spells", "ja": "スペルデッキ", "zh": "法术牌组"},
        "skills": {"en": "skills", "ja": "スキルデッキ", "zh": "技能牌组"},
        "portals": {"en": "portals", "ja": "ポータルデッキ", "zh": "传送门牌组"},
    }


# ------------------------------------------------------------------ the hero, read by the core


def test_an_unknown_hero_is_said_in_the_heros_section() -> None:
    """As a hero of another type (F008) always was, and as every declared game's lead card."""
    (said,) = check_parsed(
        *read_text(LEGAL.replace("hero: Akane", "hero: Akan")), _db()
    ).diagnostics
    assert (said.code, said.section, said.card, said.line, said.column) == (
        "F005",
        "hero",
        None,
        2,
        7,
    )
    assert said.message == "unknown card 'Akan'; did you mean 'Akane'?"


def test_a_name_a_hero_shares_with_a_spell_is_the_hero_in_the_hero_slot() -> None:
    """Two cards called 茜 in Japanese: as the hero, the Hero card (it was F006, ambiguous); in
    the spells it is still F006."""
    base = _db()
    hero = replace(base.cards["S1-001"], names={"ja": "茜"})
    root = Card(id="S1-090", name="Madder Root", names={"ja": "茜"}, type="spil", set="S1",
                color="red", cost=1, power=1)  # fmt: skip
    others = [c for c in base.cards.values() if c.id != "S1-001"]
    database = CardDatabase([hero, *others, root], base.formats)
    report = check_parsed(*read_text(LEGAL.replace("hero: Akane", "hero: 茜")), database)
    assert report.diagnostics == ()
    assert report.lead_card is not None and report.lead_card.id == "S1-001"
    spells = LEGAL.replace("  Filler 0: 3\n", "  Filler 0: 2\n  茜: 1\n")
    found = [(d.code, d.section) for d in check_parsed(*read_text(spells), database).diagnostics]
    assert found == [("F006", "spells")]


def test_a_card_a_date_both_rotates_out_and_restricts_is_said_to_rotate_out() -> None:
    """W203 says each card once per date: that it will not be legal at all, rather than the
    restriction the same changes bring (rotation leaves it no copy)."""
    base = _db()
    change = FormatChange(dt.date(2027, 3, 1), restricted={"S1-010": 1}, sets=("S2",))
    fmt = replace(base.formats["standard"], changes=(change,))
    database = CardDatabase(base.cards.values(), {"standard": fmt})
    report = check_parsed(*read_text(LEGAL), database, None, dt.date(2027, 2, 19))
    said = {(d.code, d.card, d.message) for d in report.diagnostics if d.card == "S1-010"}
    assert said == {
        (
            "W203",
            "S1-010",
            "'Filler 0' rotates out of Standard on 2027-03-01, in 10 days: it allows S2",
        )
    }
    codes = {d.code for d in report.diagnostics}
    assert (
        codes == {"W203"} and len(report.diagnostics) == 14
    )  # hero, 10 spells, 1 skill, 2 portals
