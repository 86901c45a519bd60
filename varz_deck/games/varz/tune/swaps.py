"""Every legal one-card swap of the skill deck, with its exact figures, ranked."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from varz_deck.core.cards.formats import Legality
from varz_deck.games.varz.cards import GENERIC, Card
from varz_deck.games.varz.declaration import DECLARATION
from varz_deck.games.varz.sim.model import HERO_CLASS, Model
from varz_deck.games.varz.tune.odds import DrawCache, SpellOdds, mean_on_curve, spell_odds
from varz_deck.games.varz.view import VarzView

_SKILLS = DECLARATION.section("skills")


@dataclass(frozen=True)
class Swap:
    out: Card
    into: Card
    odds: tuple[SpellOdds, ...]
    mean: Fraction

    @property
    def lowest(self) -> Fraction:
        return min((o.p_on_curve for o in self.odds), default=Fraction(0))

    def rank_key(self) -> tuple[tuple[Fraction, ...], Fraction]:
        return tuple(sorted(o.p_on_curve for o in self.odds)), self.mean


def skill_class_of(model: Model, card: Card) -> int:
    """The VAZ class a skill is in the model (sim/model.py's rule)."""
    if card.is_vaz and card.color in model.colors:
        return 1 + model.colors.index(card.color)
    return HERO_CLASS


def swap_candidates(view: VarzView, model: Model) -> list[tuple[Card, Card]]:
    """Every legal one-card skill swap (out, in), by card name, in a stable order."""
    hero = view.hero
    if hero is None or hero.type != "hero":
        return []
    classes = {*hero.skill_classes, GENERIC, None}
    memory = hero.memory or 0
    present = {
        name: (card, count)
        for name, (card, count, _) in view.by_name("skills").items()
        if card.type == "skill"
    }
    non_vaz = sum(count for card, count in present.values() if not card.is_vaz)
    off_colours = {c.color for c in model.cards if c.cls != HERO_CLASS}
    vaz_of = {
        color: sum(n for card, n in present.values() if card.is_vaz and card.color == color)
        for color in off_colours
    }
    legality = Legality(view.format, view.database, view.date)
    ins: list[Card] = []
    skills = sorted(legality.candidates(("skill",)), key=lambda found: found[0])
    for _name, card in skills:  # the format's: not banned, in its sets, released
        if card.type == "skill" and card.skill_class in classes:
            ins.append(card)
    out: list[tuple[Card, Card]] = []
    for out_name in sorted(present):
        out_card, _ = present[out_name]
        for in_card in ins:
            if in_card.name == out_name:
                continue
            last_of_colour = (
                out_card.is_vaz and out_card.color in off_colours and vaz_of[out_card.color] == 1
            )
            if last_of_colour and not (in_card.is_vaz and in_card.color == out_card.color):
                continue  # V114: the last VAZ skill of an off colour stays
            have = present.get(in_card.name, (in_card, 0))[1]
            most = _SKILLS.copies_of(in_card)  # the declaration's copy limit (V111)
            if most is not None and most.limit is not None and have >= most.limit:
                continue
            after = non_vaz - (0 if out_card.is_vaz else 1) + (0 if in_card.is_vaz else 1)
            if after > memory:
                continue  # V112
            limit = legality.limits.get(in_card.name)
            if limit is not None and have + 1 > limit.copies:
                continue  # V116
            out.append((out_card, in_card))
    return out


def sweep(view: VarzView, model: Model, on: str, mulligan: str, cache: DrawCache) -> list[Swap]:
    """Every legal swap with its exact figures, best first (module docstring)."""
    by_skills: dict[tuple[int, ...], tuple[tuple[SpellOdds, ...], Fraction]] = {}
    swaps = []
    for out_card, in_card in swap_candidates(view, model):
        skills = list(model.skills)
        skills[skill_class_of(model, out_card)] -= 1
        skills[skill_class_of(model, in_card)] += 1
        key = tuple(skills)
        found = by_skills.get(key)
        if found is None:
            swapped = replace(model, skills=key)
            odds = spell_odds(swapped, on, cache(swapped, on, mulligan))
            found = (odds, mean_on_curve(swapped, odds))
            by_skills[key] = found
        swaps.append(Swap(out_card, in_card, found[0], found[1]))
    swaps.sort(key=lambda s: (s.out.name, s.into.name))
    swaps.sort(key=Swap.rank_key, reverse=True)
    return swaps
