"""Behaviours no other test pinned down (issue 10, "First: a test net").

An audit hand-made mutants in the rules, the exact simulator formulas, the hash's canonical form,
the strict loader and the output sanitiser; these are the behaviours behind the mutants that
survived. Each test here fails when its behaviour breaks. Expected values come from SPEC.md and the
README, computed in the test (hashlib, math.comb, enumeration), never copied from the tool's output.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner
from varz_decks import LAYOUT, Entry, check_parsed, read_text, resolve

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, load
from varz_deck.core.messages.diagnostics import Mark
from varz_deck.core.messages.sanitize import safe
from varz_deck.core.registration.canonical import normalize_hash
from varz_deck.games.varz.cards import Card
from varz_deck.games.varz.sim import exact as ex
from varz_deck.games.varz.sim.model import Model, SpellCard, build_model

# --------------------------------------------------------------------------- a tiny database

S1 = "S1"  # the one set Standard allows here
PR = "PR"  # promos: legal only through a printing in S1


def _hero(card_id: str, set_code: str, evolution_level: int = 6) -> Card:
    return Card(
        id=card_id,
        name="Akane",
        type="hero",
        set=set_code,
        color="red",
        life=10,
        power=2,
        skill_classes=("fighter",),
        evolution_level=evolution_level,
        memory=5,
    )


def _spell(card_id: str, name: str, color: str, cost: int, set_code: str = S1) -> Card:
    return Card(id=card_id, name=name, type="spil", set=set_code, color=color, cost=cost, power=1)


def tiny_db(evolution_level: int = 6) -> CardDatabase:
    """Heroes, spells with a promo reprint, VAZ skills and basic portals; Standard = set S1."""
    cards = [
        _hero("S1-001", S1, evolution_level),
        _hero("PR-001", PR, evolution_level),  # a promo printing of the hero
        *(_spell(f"S1-01{i}", f"Filler {i}", "red", 1) for i in range(1, 10)),
        _spell("S1-020", "Blue Sprite", "blue", 2),
        _spell("PR-020", "Blue Sprite", "blue", 2, PR),  # a promo printing of a legal card
        _spell("PR-030", "Promo Only", "red", 1, PR),  # printed only as a promo
        Card(id="S1-050", name="Crimson VAZ", type="skill", set=S1, skill_class="generic",
             vaz=True, color="red"),
        Card(id="S1-051", name="Azure VAZ", type="skill", set=S1, skill_class="generic",
             vaz=True, color="blue"),
        Card(id="S1-100", name="Plain Gate", type="portal", set=S1, color="colorless",
             shield_life=2),
        Card(id="S1-101", name="Stone Gate", type="portal", set=S1, color="colorless",
             shield_life=3),
    ]  # fmt: skip
    formats = {
        "standard": Format("standard", "Standard", sets=(S1,), extra={"max_effect_portals": 2})
    }
    return CardDatabase(cards, formats)


PORTALS = "portals:\n  Plain Gate: 4\n  Stone Gate: 4\n"  # 8 portals, Shield Life 20
FILLERS = "".join(f"  Filler {i}: 3\n" for i in range(1, 10))  # 27 red spells


def check_text(text: str, database: CardDatabase | None = None) -> DeckReport:
    deck, problems = read_text(text)
    return check_parsed(deck, problems, database or tiny_db())


def places(report: DeckReport, code: str) -> list[tuple[int | None, int | None]]:
    return [(d.line, d.column) for d in report.diagnostics if d.code == code]


# --------------------------------------------------------------------------- V114 / W201


TWO_PRINTINGS = (
    "hero: Akane\n"
    "spells:\n"
    "  S1-020: 1\n"  # line 3: Blue Sprite
    "  PR-020: 2\n" + FILLERS + "skills:\n"  # line 4: Blue Sprite again, by its promo printing
    "  Crimson VAZ: {vaz}\n"
    "{azure}" + PORTALS
)


def test_off_colour_spell_named_by_two_printings_gives_one_v114() -> None:
    report = check_text(TWO_PRINTINGS.format(vaz=9, azure=""))
    assert places(report, "V114") == [(3, 3)]  # one, at the card's first entry
    (d,) = [d for d in report.diagnostics if d.code == "V114"]
    assert d.card == "S1-020" and d.section == "spells"


def test_off_colour_spell_named_by_two_printings_gives_one_w201() -> None:
    # Blue Sprite costs 2 blue VAZ; one Azure VAZ can never pay it: one W201, not two.
    report = check_text(TWO_PRINTINGS.format(vaz=8, azure="  Azure VAZ: 1\n"))
    assert places(report, "V114") == []
    assert places(report, "W201") == [(3, 3)]


# --------------------------------------------------------------------------- V117


def test_v117_a_promo_printing_of_a_card_legal_in_standard_is_legal() -> None:
    skills = "skills:\n  Crimson VAZ: 7\n  Azure VAZ: 2\n"
    text = "hero: PR-001\nspells:\n  PR-020: 3\n" + FILLERS + skills
    report = check_text(text + PORTALS)
    assert places(report, "V117") == []
    assert report.diagnostics == ()  # and nothing else either: the deck is legal


def test_v117_a_card_printed_only_as_a_promo_is_reported_once_at_its_entry() -> None:
    text = "hero: Akane\nspells:\n  Promo Only: 3\n" + FILLERS + "skills:\n  Crimson VAZ: 9\n"
    report = check_text(text + PORTALS)
    assert places(report, "V117") == [(3, 3)]
    (d,) = [d for d in report.diagnostics if d.code == "V117"]
    assert d.card == "PR-030"


# --------------------------------------------------------------------------- V-Sync turn


def test_a_level_9_hero_v_syncs_on_turn_5_on_the_play() -> None:
    """SPEC §6: level = skills in the Holder = min(2t, 9) on the play, min(2t+1, 9) on the draw."""
    text = "hero: Akane\nspells:\n" + FILLERS + "  S1-020: 3\nskills:\n  Crimson VAZ: 9\n"
    deck, problems = read_text(text + PORTALS)
    assert problems == []
    view, _ = resolve(deck, tiny_db(evolution_level=9))
    model = build_model(view)
    assert model.evolution_level == 9 and model.n_skills == 9
    play = next(t for t in range(1, 20) if min(2 * t, 9) >= 9)
    draw = next(t for t in range(1, 20) if min(2 * t + 1, 9) >= 9)
    assert (play, draw) == (5, 4)
    assert ex.exact(model, 8, "play").v_sync_turn == play
    assert ex.exact(model, 8, "draw").v_sync_turn == draw
    assert ex.first_turn_with(9, "play", 9) == 5
    assert ex.first_turn_with(10, "play", 9) is None  # level 10 is never reached (W202)


# --------------------------------------------------------------------------- a tie at ½


def _tiny_skill_model(on: str) -> Model:
    """A blue splash whose one Azure VAZ is in the turn-1 Holder with probability exactly ½.

    On the play the Holder of turn 1 holds 2 skills: with 4 skills, P(the one blue VAZ among
    them) = 1 - C(3,2)/C(4,2) = ½. On the draw it holds 3: with 6 skills, 1 - C(5,3)/C(6,3) = ½.
    """
    skills = 4 if on == "play" else 6
    cards = (
        SpellCard("T-1", "Blue Pixie", copies=2, cost=1, color="blue", cls=1),
        *(
            SpellCard(f"T-{i}", f"Red Ogre {i}", copies=2, cost=skills, color="red", cls=0)
            for i in range(2, 6)
        ),
    )
    return Model(
        path="tiny.yaml",
        name=None,
        hero_id="T-H",
        hero_name="Hero",
        hero_color="red",
        evolution_level=6,
        cards=cards,
        colors=("blue",),
        skills=(skills - 1, 1),
    )


def _p_pays_turn_1(model: Model, card: SpellCard, on: str) -> Fraction:
    """By enumeration of every turn-1 Holder: the share that can pay the card (SPEC §6)."""
    skills = [cls for cls, n in enumerate(model.skills) for _ in range(n)]
    held = min(2 + (on == "draw"), len(skills))
    holders = list(itertools.combinations(range(len(skills)), held))
    good = 0
    for holder in holders:
        classes = [skills[i] for i in holder]
        usable = len(classes) if card.cls == 0 else classes.count(card.cls)
        good += usable >= card.cost
    return Fraction(good, len(holders))


def _p_held_auto(model: Model, k: int, seen: int, openers: set[int]) -> Fraction:
    """P(card k among the first `seen` cards held) under the auto mulligan, by enumerating hands."""
    deck = [j for j, card in enumerate(model.cards) for _ in range(card.copies)]
    n, copies = len(deck), model.cards[k].copies
    fresh = 1 - Fraction(comb(n - copies, seen), comb(n, seen))
    total = Fraction(0)
    hands = list(itertools.combinations(range(n), 5))
    for hand in hands:
        cards = {deck[i] for i in hand}
        if not cards & openers:
            total += fresh  # sent back: the first `seen` cards of a new shuffle
        elif k in cards:
            total += 1
        else:
            total += 1 - Fraction(comb(n - 5 - copies, seen - 5), comb(n - 5, seen - 5))
    return total / len(hands)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_opening_hand_odds_with_a_tiny_skill_deck_count_the_tie_as_an_opener(on: str) -> None:
    """The `auto` mulligan keeps a hand with a card the turn-1 Holder pays with P ≥ ½ (README,
    simulator docstring): a card at exactly ½ is an opener."""
    model = _tiny_skill_model(on)
    assert [_p_pays_turn_1(model, c, on) for c in model.cards] == [Fraction(1, 2), 0, 0, 0, 0]
    openers = {0}
    for k in range(len(model.cards)):
        for seen in (5, 6, 8):
            want = _p_held_auto(model, k, seen, openers)
            assert ex.p_seen(model, k, seen, "auto", on) == want, (k, seen)
    # Had the tie not counted, every hand would go back: the odds would be the plain ones.
    plain = 1 - Fraction(comb(8, 5), comb(10, 5))
    assert ex.p_seen(model, 0, 5, "none", on) == plain
    got = ex.exact(model, 3, on, "auto").cards[0].p_in_opening_hand
    assert abs(got - float(_p_held_auto(model, 0, 5, openers))) < 1e-12
    assert got > float(plain) + 0.1


# --------------------------------------------------------------------------- typed hashes


def _hash_of(canonical_text: str) -> str:
    """README "Deck hash": v1- + the first 10 base32 characters (lower case) of SHA-256."""
    digest = hashlib.sha256(canonical_text.encode("utf-8")).digest()
    return "v1-" + base64.b32encode(digest).decode("ascii")[:10].lower()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("v1-0l1o0abc23", "v1-ollooabc23"),  # 0 → o, 1 → l
        ("V1-0L1O0ABC23", "v1-ollooabc23"),
        ("v1-o11o8 abc23", "v1-ollobabc23"),  # 8 → b, spaces dropped
        ("v1-ollooabc23", "v1-ollooabc23"),
        ("v0-ollooabc23", None),  # the version's own digits are not read as letters
        ("vl-ollooabc23", None),
        ("v1-ollooabc2", None),
        ("v1-ollooabc234", None),
        ("v1ollooabc23", None),
        ("v1-ollooabc29", None),  # 9 is not a base32 digit and has no letter it stands for
    ],
)
def test_typed_hash_with_digits_for_letters_is_normalised(typed: str, expected: str | None) -> None:
    assert normalize_hash(typed) == expected


def _typed_by_hand(deck_hash: str) -> str:
    """The hash as a person copies it from a sheet: o as 0, l as 1, b as 8, in upper case."""
    head, body = deck_hash.split("-")
    return (head + "-" + body.translate(str.maketrans("olb", "018"))).upper()


def test_verify_accepts_a_hash_typed_with_0_and_1(tmp_path: Path) -> None:
    from varz_deck.cli import app

    # Find a one-card deck whose hash has an o or an l (each count gives another hash).
    for count in range(1, 100):
        canonical = (
            "varz-deck-hash v1\nformat:standard\nhero:VZ01-001\n"
            f"spells:\nVZ01-007 {count}\nskills:\nportals:\n"
        )
        expected = _hash_of(canonical)
        if set(expected[3:]) & {"o", "l"}:
            break
    else:  # pragma: no cover - 99 hashes without an o or an l: about 1 chance in 10^27
        pytest.fail("no hash with o or l")
    deck = tmp_path / "deck.yaml"
    deck.write_text(f"hero: Hibiki Kagura\nspells:\n  Ember Imp: {count}\n", encoding="utf-8")
    typed = _typed_by_hand(expected)
    assert typed != expected.upper() and ("0" in typed or "1" in typed[3:])
    result = CliRunner().invoke(app, ["verify", str(deck), "--hash", typed, "-o", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["deck_hash"] == expected and report["expected"] == expected
    assert report["match"] is True
    # A hash one character off is not a match.
    wrong = expected[:-1] + ("a" if expected[-1] != "a" else "c")
    result = CliRunner().invoke(app, ["verify", str(deck), "--hash", wrong])
    assert result.exit_code == 1


# --------------------------------------------------------------------------- the strict loader

REPEATED_SPELLS = (
    "hero: X\n"
    "spells:\n"  # line 2
    "  Ember Imp: 3\n"
    "skills: {}\n"
    "spells:\n"  # line 5: the repeat
    "  Ember Imp: 2\n"
)


def test_a_duplicated_spells_key_is_f003_at_the_repeat() -> None:
    doc = load(REPEATED_SPELLS)
    (dup,) = doc.duplicates
    assert (dup.key, dup.path) == ("spells", ())
    assert dup.first == Mark(2, 1) and dup.second == Mark(5, 1)
    assert doc.data["spells"] == {"Ember Imp": 3}  # the first is kept
    assert doc.mark(("spells", "Ember Imp")) == Mark(3, 14)  # its places are kept too
    assert doc.key_mark(("spells",)) == Mark(2, 1)

    _deck, problems = read_text(REPEATED_SPELLS)
    assert [(p.code, p.line, p.column) for p in problems] == [("F003", 5, 1)]
    assert "'spells'" in problems[0].message and "line 2" in problems[0].message


def test_a_duplicated_key_inside_a_section_is_f003_at_the_repeat() -> None:
    text = "hero: X\nspells:\n  Ember Imp: 3\n  Ember Imp: 2\n"
    doc = load(text)
    (dup,) = doc.duplicates
    assert dup.path == ("spells",) and dup.first == Mark(3, 3) and dup.second == Mark(4, 3)
    assert doc.data["spells"] == {"Ember Imp": 3}


ANCHORED = "base: &b {cost: 1, power: 2, color: red}\n"


@pytest.mark.parametrize(
    "card",
    [
        "card:\n  <<: *b\n  cost: 3\n",  # the explicit key after the merge
        "card:\n  cost: 3\n  <<: *b\n",  # the explicit key before the merge
    ],
)
def test_explicit_keys_win_over_a_merge_key(card: str) -> None:
    doc = load(ANCHORED + card, aliases=True, node_cap=CARD_NODE_CAP)
    assert doc.data["card"] == {"cost": 3, "power": 2, "color": "red"}
    assert doc.duplicates == []  # overriding a merged key is not a duplicate
    line = 1 + card.splitlines().index("  cost: 3") + 1
    assert doc.key_mark(("card", "cost")) == Mark(line, 3)


def test_a_key_given_twice_after_a_merge_is_still_a_duplicate() -> None:
    doc = load(ANCHORED + "card:\n  <<: *b\n  cost: 3\n  cost: 4\n", aliases=True)
    assert doc.data["card"]["cost"] == 3
    (dup,) = doc.duplicates
    assert (dup.key, dup.first, dup.second) == ("cost", Mark(4, 3), Mark(5, 3))


def test_a_merge_key_copies_only_missing_keys_from_every_source() -> None:
    text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  z: 3\n  <<: [*a, *b]\n"
    doc = load(text, aliases=True)
    assert doc.data["c"] == {"z": 3, "x": 1, "y": 1}  # the first source wins over the second


# --------------------------------------------------------------------------- the sanitiser

ZERO_WIDTH_AND_MARKS = [
    "\u200b",  # ZERO WIDTH SPACE
    "\u200c",  # ZERO WIDTH NON-JOINER
    "\u200d",  # ZERO WIDTH JOINER
    "\u200e",  # LEFT-TO-RIGHT MARK
    "\u200f",  # RIGHT-TO-LEFT MARK
    "\u2028",  # LINE SEPARATOR
    "\u2029",  # PARAGRAPH SEPARATOR
    "\u202a",  # LRE
    "\u202e",  # RLO
    "\u2066",  # LRI
    "\u2069",  # PDI
    "\ufeff",  # ZERO WIDTH NO-BREAK SPACE (BOM)
]


@pytest.mark.parametrize("ch", ZERO_WIDTH_AND_MARKS, ids=lambda c: f"U+{ord(c):04X}")
def test_zero_width_and_direction_marks_are_escaped(ch: str) -> None:
    escaped = "\\u" + format(ord(ch), "04x")
    assert safe(f"Ember{ch}Imp") == f"Ember{escaped}Imp"


def test_u0085_is_escaped_as_backslash_x85() -> None:
    assert safe("a\x85b") == "a\\x85b"
    assert safe("\x85") == r"\x85"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x00", "\\x00"),
        ("\x1b[31m", "\\x1b[31m"),
        ("\x1f", "\\x1f"),
        ("\x7f", "\\x7f"),
        ("\x9f", "\\x9f"),
        ("\n", "\\x0a"),
        ("\t", "\\x09"),
    ],
)
def test_control_characters_are_escaped_with_two_hex_digits(raw: str, shown: str) -> None:
    assert safe(raw) == shown


@pytest.mark.parametrize(
    "ch", ["~", "\xa0", "é", "\u200a", "\u2010", "\u2027", "\u202f", "\u205f", "\u2070", "茉"]
)
def test_printable_neighbours_are_left_alone(ch: str) -> None:
    assert safe(f"a{ch}b") == f"a{ch}b"


def test_safe_shows_any_object_as_text() -> None:
    assert safe(12) == "12" and safe(None) == "None"
    assert safe("") == ""


def test_auto_mulligan_odds_of_a_card_with_more_copies_than_the_rest_of_the_deck() -> None:
    """A 10-card deck with 8 copies of one card and an opener: no kept hand lacks that card (it
    used to crash the closed form with "n must be a non-negative integer")."""
    cards = (
        SpellCard("T-1", "Pixie", copies=2, cost=1, color="red", cls=0),
        SpellCard("T-2", "Ogre", copies=8, cost=9, color="red", cls=0),
    )
    model = Model("t.yaml", None, "T-H", "Hero", "red", 6, cards, (), (9,))
    for seen in (5, 6, 10):
        for k in (0, 1):
            want = _p_held_auto(model, k, seen, {0})
            assert ex.p_seen(model, k, seen, "auto", "play") == want
    assert ex.p_seen(model, 1, 5, "auto", "play") == 1  # 5 of 10 cards always hold an Ogre


# --------------------------------------------------------------------------- sheet printings


def test_the_printing_a_sheet_shows_for_a_reference() -> None:
    """core/registration/canonical.py `shown_printing`: an id is shown as written; a name, by
    its first printing when that one is legal in the format (or the format lists no sets), else
    by the newest legal printing (highest id), else by the first one."""
    from varz_deck.core.registration.canonical import shown_printing

    def spell(card_id: str, set_code: str) -> Card:
        return _spell(card_id, "Fox", "red", 1, set_code)

    promo, old, new = spell("PR-7", PR), spell("S1-7", S1), spell("S2-7", "S2")
    formats = {
        "standard": Format("standard", "Standard", sets=(S1, "S2")),
        "open": Format("open", "Open"),
        "promos": Format("promos", "Promos", sets=("XX",)),
    }
    database = CardDatabase([promo, old, new], formats)

    def shown(ref: str, fmt: str) -> str:
        named = database.lookup(ref)[0]
        return str(shown_printing(database, named, ref, lambda c: c.name, fmt).id)

    assert shown("Fox", "standard") == "S2-7"  # the promo is not legal: the newest legal one
    assert shown("PR-7", "standard") == "PR-7"  # an id is shown as written
    assert shown("S1-7", "standard") == "S1-7"
    assert shown("Fox", "open") == "PR-7"  # no set list: the first printing
    assert shown("Fox", "promos") == "PR-7"  # no legal printing: the first one
    assert shown("Fox", "nosuchformat") == "PR-7"
    legal_first = CardDatabase([old, promo, new], formats)
    named = legal_first.lookup("Fox")[0]
    assert shown_printing(legal_first, named, "Fox", lambda c: c.name, "standard").id == "S1-7"


# --------------------------------------------------------------------------- canonical lines


def test_canonical_lines_keep_the_reference_the_card_and_the_printing_shown() -> None:
    """README "Deck hash": every printing becomes the smallest id; the first reference of a card
    is kept as written, with the printing the player named (shown on the sheet)."""
    from varz_deck.core.registration.canonical import canonicalize as canonical_form

    database = tiny_db()
    text = (
        "hero: PR-001\nspells:\n  S1-020: 2\n  PR-020: 1\n  Blue Sprite: 1\n  Nobody: 2\n"
        "skills:\n  Crimson VAZ: 9\n"
    )
    deck, problems = read_text(text, "d.yaml")
    assert problems == []
    canonical = canonical_form(
        LAYOUT,
        database,
        format=deck.format,
        slots={"hero": deck.pick("hero")},
        entries=deck.entries,
    )
    hero = canonical.slots["hero"]
    assert hero is not None
    assert (hero.key, hero.count, hero.ref) == ("PR-001", 1, "PR-001")
    assert hero.card is database.cards["PR-001"] and hero.printing.id == "PR-001"
    nobody, sprite = canonical.sections["spells"]  # "?" sorts before "P"
    assert (sprite.key, sprite.count, sprite.ref) == ("PR-020", 4, "S1-020")
    assert sprite.card is database.cards["PR-020"]  # the canonical (smallest id) printing
    assert sprite.printing.id == "S1-020" and sprite.shown_id == "S1-020"  # as first named
    assert (nobody.key, nobody.count, nobody.ref) == ("?nobody", 2, "Nobody")
    assert nobody.card is None and nobody.printing is None and nobody.shown_id == ""
    assert canonical.text().splitlines()[2:5] == ["hero:PR-001", "spells:", "?nobody 2"]

    unknown = canonical_form(
        LAYOUT, database, format="standard", slots={"hero": "Ghost"}, entries={}
    )
    ghost = unknown.slots["hero"]
    assert ghost is not None and (ghost.key, ghost.count, ghost.ref) == ("?ghost", 1, "Ghost")
    assert ghost.card is None and unknown.sections == {
        s: () for s in ("spells", "skills", "portals")
    }


def test_a_card_named_by_name_shows_its_printing_legal_in_the_format() -> None:
    from varz_deck.core.registration.canonical import canonicalize as canonical_form

    hero_promo = _hero("PR-001", PR)
    cards = [hero_promo, _hero("S1-001", S1), _spell("PR-050", "Fox", "red", 1, PR),
             _spell("S1-050", "Fox", "red", 1)]  # fmt: skip
    database = CardDatabase(cards, {"standard": Format("standard", "Standard", sets=(S1,))})
    canonical = canonical_form(
        LAYOUT,
        database,
        format="standard",
        slots={"hero": "Akane"},
        entries={"spells": [Entry("spells", "Fox", 3, None)]},
    )
    hero = canonical.slots["hero"]
    assert hero is not None and hero.key == "PR-001"  # the smallest id stands for the card
    assert hero.printing.id == "S1-001"  # but the sheet shows the printing Standard allows
    (fox,) = canonical.sections["spells"]
    assert fox.key == "PR-050" and fox.printing.id == "S1-050" and fox.shown_id == "S1-050"
