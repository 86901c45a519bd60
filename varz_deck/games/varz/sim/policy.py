"""The goldfish policy in plain Python: the specification the NumPy engine is tested against.

Each turn, after the draw:

1. every spell that costs 0 is cast;
2. of the other spells in hand, the set that spends the most VAZ is cast, where the VAZ of colour X
   pays only X spells and all VAZ pays hero-colour and colourless spells (docs/guides/player.md);
3. ties: the set that spends the most on off-colour spells (colours in rulebook order), then, within
   a colour, the most expensive cards (a spell's copies are cast in deck-list order);
4. at the end of the turn, cards are discarded down to 6: most expensive first, off-colour before
   hero-colour at equal cost, the card listed last in the deck first.

The `auto` mulligan sends a hand back whole when it has no opener: no card that the Holder of turn 1
pays with probability ½ or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from varz_deck.games.varz.sim.exact import holder_size, is_opener
from varz_deck.games.varz.sim.model import HERO_CLASS, Model


@dataclass(frozen=True, slots=True)
class Kind:
    """Spells of one class and one cost; the policy never tells their copies apart."""

    cls: int
    cost: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Policy:
    """The policy's view of a deck for a run: what it casts, in which order, what it keeps."""

    cap: int
    free: tuple[int, ...]
    kinds: tuple[tuple[Kind, ...], ...]
    discard_order: tuple[int, ...]
    opener: tuple[bool, ...]


def make_policy(model: Model, turns: int, on: str) -> Policy:
    """Kinds by class (most expensive first), the discard order and the mulligan's openers."""
    cap = holder_size(turns, on, model.n_skills)
    cards = model.cards
    free = tuple(k for k, card in enumerate(cards) if card.cost == 0)
    kinds = []
    for cls in range(1 + len(model.colors)):
        costs = sorted({c.cost for c in cards if c.cls == cls and 0 < c.cost <= cap}, reverse=True)
        kinds.append(
            tuple(
                Kind(
                    cls,
                    cost,
                    tuple(k for k, c in enumerate(cards) if c.cls == cls and c.cost == cost),
                )
                for cost in costs
            )
        )
    discard = sorted(
        range(len(cards)), key=lambda k: (-cards[k].cost, cards[k].cls == HERO_CLASS, -k)
    )
    opener = tuple(is_opener(model, card, on) for card in cards)
    return Policy(cap, free, tuple(kinds), tuple(discard), opener)


def _bit(bits: int, i: int) -> bool:
    return i >= 0 and (bits >> i) & 1 == 1


def _sums(counts: Sequence[int], kinds: Sequence[Kind]) -> tuple[list[int], int]:
    """Subset sums (as bit sets) before each kind and after all of them."""
    reach = 1
    before = []
    for kind, n in zip(kinds, counts, strict=True):
        before.append(reach)
        for _ in range(n):
            reach |= reach << kind.cost
    return before, reach


def _sumset(a: int, b: int, cap: int) -> int:
    out = 0
    for x in range(cap + 1):
        if _bit(b, x):
            out |= a << x
    return out & ((1 << (cap + 1)) - 1)


def choose(policy: Policy, hand: Sequence[int], vaz: int, held: Sequence[int]) -> list[int]:
    """Copies of each card to cast from `hand` (copies per card) with `vaz` VAZ in the Holder,
    `held[j]` of them of the j-th off colour."""
    cast = [0] * len(hand)
    for k in policy.free:
        cast[k] = hand[k]
    classes = []
    for cls, kinds in enumerate(policy.kinds):
        counts = [sum(hand[k] for k in kind.cards) for kind in kinds]
        before, reach = _sums(counts, kinds)
        limit = vaz if cls == HERO_CLASS else min(vaz, held[cls - 1])
        classes.append((kinds, counts, before, reach & ((1 << (limit + 1)) - 1)))
    m = len(classes) - 1
    after = [0] * (m + 1)  # after[j]: sums that classes 0 and j+1..m can pay together
    after[m] = classes[HERO_CLASS][3]
    for j in range(m, 0, -1):
        after[j - 1] = _sumset(after[j], classes[j][3], vaz)
    rest = after[0].bit_length() - 1
    targets = [0] * (m + 1)
    for j in range(1, m + 1):
        x = max(x for x in range(rest + 1) if _bit(classes[j][3], x) and _bit(after[j], rest - x))
        targets[j] = x
        rest -= x
    targets[0] = rest
    for cls, (kinds, counts, before, _) in enumerate(classes):
        s = targets[cls]
        for q in range(len(kinds) - 1, -1, -1):
            cost = kinds[q].cost
            i = next(i for i in range(counts[q] + 1) if _bit(before[q], s - i * cost))
            s -= i * cost
            for k in kinds[q].cards:
                take = min(hand[k], i)
                cast[k] += take
                i -= take
    return cast


def discard(policy: Policy, hand: list[int], limit: int) -> int:
    """Discard from `hand` in place down to `limit` cards; how many were discarded."""
    excess = sum(hand) - limit
    if excess <= 0:
        return 0
    gone = excess
    for k in policy.discard_order:
        take = min(hand[k], excess)
        hand[k] -= take
        excess -= take
    return gone
