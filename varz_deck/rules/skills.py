"""The 9-card Skill Deck (rulebook 2.1, 3-2 ❶ ❷ ❻, 5.2)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.cards import GENERIC
from varz_deck.diagnostics import Diagnostic, quoted
from varz_deck.resolve import DeckView
from varz_deck.rules import rule
from varz_deck.rules._util import at_entry, at_hero, at_section, plural

SKILL_DECK_SIZE = 9
SKILL_COPY_LIMIT = 1


@rule("V110", "skill-deck-size-wrong", "2.1")
def skill_deck_size_wrong(view: DeckView) -> Iterator[Diagnostic]:
    """The Skill Deck holds exactly 9 cards.

    Legal:   skills adding up to 9
    Illegal: skills adding up to 8
    """
    if not view.counted("skills"):
        return
    size = view.size("skills")
    if size != SKILL_DECK_SIZE:
        fix = (
            f"add {SKILL_DECK_SIZE - size}"
            if size < SKILL_DECK_SIZE
            else f"remove {size - SKILL_DECK_SIZE}"
        )
        yield at_section(
            view,
            "V110",
            f"{plural(size, 'skill card')}; the Skill Deck needs exactly {SKILL_DECK_SIZE} ({fix})",
            "skills",
        )


@rule("V111", "skill-copy-limit-exceeded", "2.1, 3-2 ❷")
def skill_copy_limit_exceeded(view: DeckView) -> Iterator[Diagnostic]:
    """At most 1 copy of each skill, except VAZ skills (any number).

    Legal:   Iron Fist: 1, Crimson VAZ: 5
    Illegal: Iron Fist: 2
    """
    for name, (card, count, first) in view.by_name("skills").items():
        if not card.is_vaz and count > SKILL_COPY_LIMIT:
            yield at_entry(
                view,
                "V111",
                f"{count} copies of {quoted(name)}; at most {SKILL_COPY_LIMIT} of a "
                f"skill that is not a VAZ skill: remove {count - SKILL_COPY_LIMIT}",
                first,
                card,
            )


@rule("V112", "skills-over-hero-memory", "3-2 ❶ ❻, ❷", needs_hero=True)
def skills_over_hero_memory(view: DeckView) -> Iterator[Diagnostic]:
    """No more non-VAZ skill cards than the hero's Memory.

    Legal:   hero with memory 4, four non-VAZ skills and five VAZ skills
    Illegal: hero with memory 4, five non-VAZ skills
    """
    hero = view.hero
    assert hero is not None
    memory = hero.memory or 0
    used = sum(entry.count for card, entry in view.resolved("skills") if not card.is_vaz)
    if used > memory:
        yield at_section(
            view,
            "V112",
            f"{plural(used, 'non-VAZ skill')}; {hero.name}'s Memory is "
            f"{memory}: replace {used - memory} with VAZ skills",
            "skills",
        )


@rule("V113", "skill-class-not-hero", "3-2 ❷", needs_hero=True)
def skill_class_not_hero(view: DeckView) -> Iterator[Diagnostic]:
    """Every skill is of one of the hero's skill classes, or generic.

    Legal:   a fighter skill with a fighter/samurai hero
    Illegal: a ninja skill with a fighter/samurai hero
    """
    hero = view.hero
    assert hero is not None
    for card, entry in view.resolved("skills"):
        if card.skill_class not in (*hero.skill_classes, GENERIC, None):
            classes = ", ".join(hero.skill_classes)
            yield at_entry(
                view,
                "V113",
                f"{quoted(card.name)} is a {card.skill_class} skill; {hero.name} "
                f"can use {classes} or generic skills",
                entry,
                card,
            )


@rule("W202", "evolution-level-unreachable", "3-2 ❶, 5.2", needs_hero=True)
def evolution_level_unreachable(view: DeckView) -> Iterator[Diagnostic]:
    """Warn when the hero's evolution level is above 9, the most skills a Holder can reach.

    Fine:    evolution_level 6
    Warning: evolution_level 10 (a 9-card Skill Deck tops out at level 9; V-Sync never happens)
    """
    hero = view.hero
    assert hero is not None
    level = hero.evolution_level or 0
    if level > SKILL_DECK_SIZE:
        yield at_hero(
            view,
            "W202",
            f"{hero.name}'s evolution level is {level} but a "
            f"{SKILL_DECK_SIZE}-card Skill Deck reaches level {SKILL_DECK_SIZE} at most: "
            "this hero never V-Syncs",
        )
