"""The simulator's model and policy in plain Python, one game at a time: the benchmark's baseline
and an independent check of the NumPy engine (same model, same policy, its own random numbers).

The game model of SPEC §6 (Holder size, draws, curve turns, which hands the `auto` mulligan keeps)
is written out here from the specification, not imported from the simulator, so a mistake there
shows up as a disagreement; only the casting and discarding choices come from its policy module,
which tests/test_sim.py checks against a brute-force search of its own.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction

from varz_deck.games.varz.sim.model import Model, SpellCard
from varz_deck.games.varz.sim.policy import choose, discard, make_policy

OPENING_HAND = 5  # SPEC §6: a 5-card opening hand
HAND_LIMIT = 6  # discard down to 6 at the end of a turn
ANY_VAZ = 0  # the class of a spell of the hero's colour or colourless: any VAZ pays it


def holder(turn: int, on: str, skills: int) -> int:
    """Skills in the Holder on `turn`: 2 a turn, 1 more before the game on the draw, at most all."""
    return min(2 * turn + (1 if on == "draw" else 0), skills)


def draws(turn: int, on: str) -> bool:
    """On the play there is no draw on turn 1; otherwise 1 card a turn."""
    return on == "draw" or turn >= 2


def curve_turn(cost: int, on: str, skills: int) -> int | None:
    """The first turn whose Holder holds at least `cost` skills, or None when none ever does."""
    for turn in range(1, skills + 2):
        if holder(turn, on, skills) >= cost:
            return turn
    return None


def opener(model: Model, card: SpellCard, on: str) -> bool:
    """Whether the turn-1 Holder pays the card with probability ½ or more, by trying every Holder."""
    deck = [cls for cls, n in enumerate(model.skills) for _ in range(n)]
    held = holder(1, on, len(deck))
    ways = list(itertools.combinations(deck, held))
    if not ways:
        return False
    paid = 0
    for classes in ways:
        usable = len(classes) if card.cls == ANY_VAZ else classes.count(card.cls)
        paid += usable >= card.cost
    return Fraction(paid, len(ways)) >= Fraction(1, 2)


@dataclass
class Means:
    """Per-game means of the reference run (lists by turn, or by card, or by card then turn)."""

    games: int
    spent: list[float]
    all_spent: list[float]
    hand: list[float]
    discard: list[float]
    score: float
    total: float
    on_curve: list[float]
    castable: list[list[float]]


def simulate(
    model: Model,
    games: int,
    turns: int = 8,
    on: str = "play",
    mulligan: str = "auto",
    seed: int = 1,
) -> Means:
    """Play `games` goldfish games of `model` with simple loops."""
    rng = random.Random(seed)
    policy = make_policy(model, turns, on)
    cards = model.cards
    n_cards, n_colors = len(cards), len(model.colors)
    spells = [k for k, card in enumerate(cards) for _ in range(card.copies)]
    skills = [cls for cls, n in enumerate(model.skills) for _ in range(n)]
    vaz = [holder(t, on, len(skills)) for t in range(1, turns + 1)]
    curve = [curve_turn(card.cost, on, len(skills)) for card in cards]
    openers = {k for k, card in enumerate(cards) if opener(model, card, on)}
    spent_sum, full_sum = [0] * turns, [0] * turns
    hand_sum, discard_sum = [0] * turns, [0] * turns
    score_sum = total_sum = 0
    on_curve_sum = [0] * n_cards
    castable_sum = [[0] * turns for _ in cards]
    for _ in range(games):
        deck = spells[:]
        rng.shuffle(deck)
        size = min(OPENING_HAND, len(deck))
        if mulligan == "auto" and size and not openers & set(deck[:size]):
            rng.shuffle(deck)  # the hand goes back into the deck and 5 new cards are drawn
        hand = [0] * n_cards
        first = [turns + 1] * n_cards
        for k in deck[:size]:
            hand[k] += 1
            first[k] = 0
        top = size
        order = skills[:]
        rng.shuffle(order)
        so_far = 0
        for t in range(1, turns + 1):
            if draws(t, on) and top < len(deck):
                k = deck[top]
                top += 1
                hand[k] += 1
                first[k] = min(first[k], t)
            available = vaz[t - 1]
            held = [0] * n_colors
            for cls in order[:available]:
                if cls != ANY_VAZ:
                    held[cls - 1] += 1
            cast = choose(policy, hand, available, held)
            spent = 0
            for k in range(n_cards):
                hand[k] -= cast[k]
                spent += cast[k] * cards[k].cost
                if cast[k] and curve[k] == t:
                    on_curve_sum[k] += 1
                card = cards[k]
                if (
                    first[k] <= t
                    and available >= card.cost
                    and (card.cls == ANY_VAZ or held[card.cls - 1] >= card.cost)
                ):
                    castable_sum[k][t - 1] += 1
            gone = discard(policy, hand, HAND_LIMIT)
            spent_sum[t - 1] += spent
            full_sum[t - 1] += spent == available
            hand_sum[t - 1] += sum(hand)
            discard_sum[t - 1] += gone > 0
            so_far += spent
            score_sum += so_far
        total_sum += so_far
    return Means(
        games=games,
        spent=[s / games for s in spent_sum],
        all_spent=[s / games for s in full_sum],
        hand=[s / games for s in hand_sum],
        discard=[s / games for s in discard_sum],
        score=score_sum / games,
        total=total_sum / games,
        on_curve=[s / games for s in on_curve_sum],
        castable=[[s / games for s in row] for row in castable_sum],
    )
