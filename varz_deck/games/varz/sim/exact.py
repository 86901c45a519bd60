"""Closed forms: what the two shuffled decks alone decide, with no play involved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from varz_deck.games.varz.sim.model import HERO_CLASS, Model, SpellCard

OPENING_HAND = 5
HAND_LIMIT = 6


def on_draw(on: str) -> int:
    """1 on the draw (one extra card and one extra skill), 0 on the play."""
    return 1 if on == "draw" else 0


def holder_size(turn: int, on: str, n_skills: int) -> int:
    """Skills in the Holder on a turn: the VAZ available and the hero's level."""
    return min(2 * turn + on_draw(on), n_skills)


def opening_size(n_spells: int) -> int:
    return min(OPENING_HAND, n_spells)


def draws_on(turn: int, on: str) -> bool:
    """Whether a turn has a draw step (not turn 1 on the play)."""
    return turn > 1 or on == "draw"


def seen_by(turn: int, on: str, n_spells: int) -> int:
    """Cards seen once turn `turn`'s draw is done (docs/guides/player.md)."""
    return min(OPENING_HAND + turn - 1 + on_draw(on), n_spells)


def first_turn_with(amount: int, on: str, n_skills: int) -> int | None:
    """The first turn whose Holder has at least `amount` skills; None if never."""
    if amount > n_skills:
        return None
    turn = 1
    while holder_size(turn, on, n_skills) < amount:
        turn += 1
    return turn


def deck_out_turn(n_spells: int, on: str, turns: int) -> int | None:
    """The first turn (up to `turns`) that must draw from an empty spell deck; None if none."""
    for turn in range(1, turns + 1):
        if draws_on(turn, on) and OPENING_HAND + turn - 1 + on_draw(on) > n_spells:
            return turn
    return None


def p_among(total: int, copies: int, seen: int) -> Fraction:
    """P(at least one of `copies` cards among `seen` drawn from `total`)."""
    if seen <= 0 or copies <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(total - copies, seen), comb(total, seen))


def p_at_least(total: int, good: int, drawn: int, need: int) -> Fraction:
    """P(at least `need` of `good` cards among `drawn` from `total`): the hypergeometric tail."""
    if need <= 0:
        return Fraction(1)
    hits = sum(
        comb(good, i) * comb(total - good, drawn - i) for i in range(need, min(good, drawn) + 1)
    )
    return Fraction(hits, comb(total, drawn)) if drawn >= 0 and total >= drawn else Fraction(0)


def p_pays(model: Model, card: SpellCard, turn: int, on: str) -> Fraction:
    """P(the Holder on `turn` can pay the card's cost) over the skill deck's shuffle."""
    holder = holder_size(turn, on, model.n_skills)
    if card.cost > holder:
        return Fraction(0)
    if card.cls == HERO_CLASS:
        return Fraction(1)
    return p_at_least(model.n_skills, model.skills[card.cls], holder, card.cost)


def is_opener(model: Model, card: SpellCard, on: str) -> bool:
    """A card the Holder of turn 1 pays with probability ½ or more (the `auto` mulligan keeps a
    hand that has one)."""
    return 2 * p_pays(model, card, 1, on) >= 1


def p_seen(
    model: Model,
    k: int,
    seen: int,
    mulligan: str,
    on: str,
    openers: Sequence[bool] | None = None,
) -> Fraction:
    """P(card k is among the first `seen` cards held), the `auto` mulligan taken into account.

    A kept hand is followed by draws from the rest of the deck; a hand sent back is shuffled in and
    the cards held are then the first ones of a new shuffle. `openers` (is_opener of every card,
    in order) may be given when the caller has it already."""
    n, copies = model.n_spells, model.cards[k].copies
    if mulligan != "auto":
        return p_among(n, copies, seen)
    hand = opening_size(n)
    if openers is None:
        openers = [is_opener(model, c, on) for c in model.cards]
    own = openers[k]
    others = sum(c.copies for j, c in enumerate(model.cards) if j != k and openers[j])
    rest = n - copies - others
    total = comb(n, hand)
    kept = Fraction(0)
    sent_back = Fraction(0)
    for i in range(min(copies, hand) + 1):
        for j in range(min(others, hand - i) + 1):
            ways = Fraction(comb(copies, i) * comb(others, j) * comb(rest, hand - i - j), total)
            if not ways:
                continue  # no such hand (a card with more copies than the rest of the deck holds)
            if j > 0 or (own and i > 0):
                kept += ways * (1 if i > 0 else p_among(n - hand, copies, seen - hand))
            else:
                sent_back += ways
    return kept + sent_back * p_among(n, copies, seen)


@dataclass(frozen=True, slots=True)
class CardExact:
    """A card's exact odds; lists are indexed by turn (element 0 is turn 1)."""

    p_in_opening_hand: float
    p_drawn_by_turn: tuple[float, ...]
    p_pays: tuple[float, ...]
    p_castable_by_turn: tuple[float, ...]
    curve_turn: int | None


@dataclass(frozen=True, slots=True)
class Exact:
    """Every closed-form figure of a deck for a number of turns, on the play or the draw."""

    vaz: tuple[int, ...]
    p_color: tuple[dict[str, tuple[float, ...]], ...]
    cards: tuple[CardExact, ...]
    v_sync_turn: int | None
    deck_out_turn: int | None


def exact(model: Model, turns: int, on: str, mulligan: str = "none") -> Exact:
    """The closed forms of docs/guides/player.md for turns 1..turns.

    The spell and skill decks are shuffled apart and the mulligan looks only at the spells, so
    P(castable by turn t) = P(drawn by turn t) × P(the Holder pays it on turn t)."""
    n, s = model.n_spells, model.n_skills
    cards = []
    for k, card in enumerate(model.cards):
        drawn = [p_seen(model, k, seen_by(t, on, n), mulligan, on) for t in range(1, turns + 1)]
        pays = [p_pays(model, card, t, on) for t in range(1, turns + 1)]
        cards.append(
            CardExact(
                p_in_opening_hand=float(p_seen(model, k, opening_size(n), mulligan, on)),
                p_drawn_by_turn=tuple(float(p) for p in drawn),
                p_pays=tuple(float(p) for p in pays),
                p_castable_by_turn=tuple(float(d * p) for d, p in zip(drawn, pays, strict=True)),
                curve_turn=first_turn_with(card.cost, on, s),
            )
        )
    vaz = tuple(holder_size(t, on, s) for t in range(1, turns + 1))
    p_color = tuple(
        {
            color: tuple(
                float(p_at_least(s, model.skills[1 + j], held, need))
                for need in range(1, model.skills[1 + j] + 1)
            )
            for j, color in enumerate(model.colors)
        }
        for held in vaz
    )
    return Exact(
        vaz=vaz,
        p_color=p_color,
        cards=tuple(cards),
        v_sync_turn=first_turn_with(model.evolution_level, on, s),
        deck_out_turn=deck_out_turn(n, on, turns),
    )


def p_opener(model: Model, on: str, mulligan: str) -> Fraction:
    """P(the hand kept holds an opener): 1 − q without a mulligan, 1 − q² with `auto`, q being
    P(a hand of `opening_size` cards holds none)."""
    n = model.n_spells
    hand = opening_size(n)
    openers = sum(c.copies for c in model.cards if is_opener(model, c, on))
    if n == 0 or hand == 0:
        return Fraction(0)
    none = Fraction(comb(n - openers, hand), comb(n, hand))
    return 1 - (none * none if mulligan == "auto" else none)
