"""core/registration/diff.py by hand: slots that appear or go, and what a change carries."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from varz_decks import REGISTRAR, DeclaredDeck, Entry, new_deck

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.registration.diff import diff_decks
from varz_deck.games import open_database

canonicalize = REGISTRAR.canonicalize

ROOT = Path(__file__).resolve().parent.parent


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data" / "varz")


def deck(hero: str | None, spells: dict[str, int], fmt: str = "standard") -> DeclaredDeck:
    out = new_deck(path="x.yaml", hero=hero, format=fmt)
    out.entries["spells"] = [Entry("spells", ref, n, None) for ref, n in spells.items()]
    return out


def test_a_hero_that_appears_or_goes_is_a_slot_change() -> None:
    db = bundled()
    with_hero = canonicalize(deck("Hibiki Kagura", {"Ember Imp": 3}), db)
    without = canonicalize(deck(None, {"Ember Imp": 3}), db)
    gone = diff_decks(with_hero, without)
    (change,) = gone.slots
    assert change.slot == "hero" and change.presented is None
    assert change.registered is not None and change.registered.key == "VZ01-001"
    assert gone.slot("hero") is change and gone.slot("leader") is None
    assert not gone.same and gone.changes == () and gone.format is None
    came = diff_decks(without, with_hero)
    assert came.slots[0].registered is None and came.slots[0].presented is not None
    assert diff_decks(without, without).same


def test_a_hero_swapped_for_another_keeps_both() -> None:
    db = bundled()
    kagura = canonicalize(deck("Hibiki Kagura", {}), db)
    minase = canonicalize(deck("Shizuku Minase", {}), db)
    (change,) = diff_decks(kagura, minase).slots
    assert change.registered is not None and change.presented is not None
    assert (change.registered.name, change.presented.name) == ("Hibiki Kagura", "Shizuku Minase")


def test_card_changes_carry_section_name_counts_and_id() -> None:
    db = bundled()
    before = canonicalize(deck("Hibiki Kagura", {"Ember Imp": 3, "Mystery": 1}), db)
    after = canonicalize(deck("Hibiki Kagura", {"Ember Imp": 1, "Cinder Hound": 2}), db)
    result = diff_decks(before, after)
    assert [
        (c.section, c.name, c.registered, c.presented, c.delta, c.id) for c in result.changes
    ] == [
        ("spells", "Mystery", 1, 0, -1, None),  # "?mystery" sorts before the ids
        ("spells", "Ember Imp", 3, 1, -2, "VZ01-007"),
        ("spells", "Cinder Hound", 0, 2, 2, "VZ01-008"),
    ]
    assert diff_decks(before, canonicalize(deck("Hibiki Kagura", {}, "pioneer"), db)).format == (
        "standard",
        "pioneer",
    )
