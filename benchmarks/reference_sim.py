"""The simulator's model and policy in plain Python, one game at a time: the benchmark's baseline
and an independent check of the NumPy engine (same model, same policy, its own random numbers)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from varz_deck.games.varz.sim.exact import (
    HAND_LIMIT,
    OPENING_HAND,
    draws_on,
    first_turn_with,
    holder_size,
)
from varz_deck.games.varz.sim.model import HERO_CLASS, Model
from varz_deck.games.varz.sim.policy import choose, discard, keeps, make_policy


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
    vaz = [holder_size(t, on, model.n_skills) for t in range(1, turns + 1)]
    curve = [first_turn_with(card.cost, on, model.n_skills) for card in cards]
    spent_sum, full_sum = [0] * turns, [0] * turns
    hand_sum, discard_sum = [0] * turns, [0] * turns
    score_sum = total_sum = 0
    on_curve_sum = [0] * n_cards
    castable_sum = [[0] * turns for _ in cards]
    for _ in range(games):
        deck = spells[:]
        rng.shuffle(deck)
        size = min(OPENING_HAND, len(deck))
        if mulligan == "auto" and size and not keeps(policy, deck[:size]):
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
            if draws_on(t, on) and top < len(deck):
                k = deck[top]
                top += 1
                hand[k] += 1
                first[k] = min(first[k], t)
            available = vaz[t - 1]
            held = [0] * n_colors
            for cls in order[:available]:
                if cls != HERO_CLASS:
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
                    and (card.cls == HERO_CLASS or held[card.cls - 1] >= card.cost)
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
