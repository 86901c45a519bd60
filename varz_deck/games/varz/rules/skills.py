"""The skills the hero can use (rulebook 3-2 ❶ ❷ ❻, 5.2); the Skill Deck's size and copy limit are
declared (declaration.py)."""

from __future__ import annotations

from collections.abc import Iterator

from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import CardName, Joined, Term, msg, nmsg
from varz_deck.games.varz.cards import GENERIC
from varz_deck.games.varz.declaration import SECTION_SIZES
from varz_deck.games.varz.rules._book import rule
from varz_deck.games.varz.rules._util import at_entry, at_hero, at_section
from varz_deck.games.varz.view import VarzView

SKILL_DECK_SIZE = SECTION_SIZES["skills"]  # the most skills a Holder can reach (W202)


def skills_over_hero_memory(view: VarzView) -> Iterator[Diagnostic]:
    """No more non-VAZ skill cards than the hero's Memory.

    Legal:   hero with memory 4, four non-VAZ skills and five VAZ skills
    Illegal: hero with memory 4, five non-VAZ skills
    """
    hero = view.hero
    assert hero is not None
    memory = hero.memory or 0
    used = sum(entry.count for card, entry in view.resolved("skills") if not card.is_vaz)
    if used > memory:
        message = nmsg(
            "V112",
            "{n} non-VAZ skill; {hero}'s Memory is {memory}: replace {excess} with VAZ skills",
            "{n} non-VAZ skills; {hero}'s Memory is {memory}: replace {excess} with VAZ skills",
        )
        hero_name = CardName.of(hero, quote=False)
        yield at_section(
            view, message(n=used, hero=hero_name, memory=memory, excess=used - memory), "skills"
        )


rule(
    "V112",
    "skills-over-hero-memory",
    "3-2 ❶ ❻, ❷",
    needs_hero=True,
    fix="Swap non-VAZ skills for VAZ skills until no more than the hero's Memory remain.",
)(skills_over_hero_memory)


def skill_class_not_hero(view: VarzView) -> Iterator[Diagnostic]:
    """Every skill is of one of the hero's skill classes, or generic.

    Legal:   a fighter skill with a fighter/samurai hero
    Illegal: a ninja skill with a fighter/samurai hero
    """
    hero = view.hero
    assert hero is not None
    for card, entry in view.resolved("skills"):
        if card.skill_class not in (*hero.skill_classes, GENERIC, None):
            message = msg(
                "V113", "{card} is a {class} skill; {hero} can use {classes} or generic skills"
            )
            classes = Joined(tuple(Term("class", c) for c in hero.skill_classes))
            yield at_entry(
                view,
                message(
                    card=CardName.of(card),
                    hero=CardName.of(hero, quote=False),
                    classes=classes,
                    **{"class": Term("class", card.skill_class or "")},
                ),
                entry,
                card,
            )


rule(
    "V113",
    "skill-class-not-hero",
    "3-2 ❷",
    needs_hero=True,
    fix="Replace the skill with one of the hero's classes or a generic one.",
)(skill_class_not_hero)


def evolution_level_unreachable(view: VarzView) -> Iterator[Diagnostic]:
    """Warn when the hero's evolution level is above 9, the most skills a Holder can reach.

    Fine:    evolution_level 6
    Warning: evolution_level 10 (a 9-card Skill Deck tops out at level 9; V-Sync never happens)
    """
    hero = view.hero
    assert hero is not None
    level = hero.evolution_level or 0
    if level > SKILL_DECK_SIZE:
        message = msg(
            "W202",
            "{hero}'s evolution level is {level} but a {size}-card Skill Deck reaches level "
            "{size} at most: this hero never V-Syncs",
        )
        hero_name = CardName.of(hero, quote=False)
        yield at_hero(view, message(hero=hero_name, level=level, size=SKILL_DECK_SIZE))


rule(
    "W202",
    "evolution-level-unreachable",
    "3-2 ❶, 5.2",
    needs_hero=True,
    severity=Severity.WARNING,
    fix="Play another hero, or check the hero's evolution_level in the card data.",
)(evolution_level_unreachable)
