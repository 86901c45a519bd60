"""The Monte Carlo engine: the model of docs/guides/player.md and the policy of `policy.py`, vectorised over games.

Games run in chunks of a fixed size; chunk i draws from its own streams (children of
SeedSequence(seed): one for the spell deck, one for the skill deck), so a run depends only on its
arguments, and two decks run on one seed see the same random numbers (common random numbers).
Arrays are card-major, (cards, games) and (turns, games), so that each row is contiguous; per-game
figures are summed as integers, so the sums do not depend on the order the chunks finish in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from varz_deck.games.varz.sim.exact import (
    HAND_LIMIT,
    OPENING_HAND,
    draws_on,
    first_turn_with,
    holder_size,
)
from varz_deck.games.varz.sim.model import HERO_CLASS, Model
from varz_deck.games.varz.sim.policy import Kind, Policy, make_policy

CHUNK = 1 << 16
TABLE_CAP = 10
MULLIGAN_DRAWS = OPENING_HAND
CHUNK_BYTES = 64 << 20

Array = npt.NDArray[Any]
Progress = Callable[[int, int], None]


# --------------------------------------------------------------------------- subset sums


def _dp(counts: Sequence[Array], costs: Sequence[int], cap: int) -> tuple[list[Array], Array]:
    """Per game, as bit sets (uint64): the sums up to `cap` the kinds before each kind can make,
    and those all of them can make."""
    size = len(counts[0]) if len(counts) else 0
    mask = np.uint64((1 << (cap + 1)) - 1)
    reach: Array = np.ones(size, dtype=np.uint64)
    before = []
    for n, cost in zip(counts, costs, strict=True):
        before.append(reach)
        top = min(cap // cost, int(n.max(initial=0)))
        acc = reach.copy()
        shifted = reach
        for i in range(1, top + 1):
            shifted = shifted << np.uint64(cost)
            acc |= np.where(n >= i, shifted, np.uint64(0))
        reach = acc & mask
    return before, reach


def _backtrack(
    before: Sequence[Array], counts: Sequence[Array], costs: Sequence[int], target: Array, cap: int
) -> list[Array]:
    """Copies of each kind that spend exactly `target`: as few of the later kinds as can be."""
    out: list[Array] = [np.zeros(0)] * len(costs)
    s = target.astype(np.int64)
    for q in range(len(costs) - 1, -1, -1):
        cost, n = costs[q], counts[q]
        top = min(cap // cost, int(n.max(initial=0)))
        chosen = np.zeros(len(s), dtype=np.int64)
        undecided = np.ones(len(s), dtype=bool)
        for i in range(top + 1):
            rem = s - i * cost
            ok = undecided & (n >= i) & (rem >= 0)
            ok &= ((before[q] >> np.maximum(rem, 0).astype(np.uint64)) & np.uint64(1)).astype(bool)
            chosen[ok] = i
            undecided &= ~ok
        out[q] = chosen
        s = s - chosen * cost
    return out


@dataclass(frozen=True)
class Table:
    """Every hand of one class, as copies per cost 1..cap (at most cap // cost), solved once:
    its subset sums and, for every target, the copies per cost the policy casts."""

    cap: int
    radix: tuple[int, ...]  # by cost
    reach: Array  # (states,) uint16 bit sets
    choice: Array  # (cap + 1, states * (cap + 1)) uint8: [cost][state * (cap + 1) + target]
    highbit: Array  # (2 ** (cap + 1),) int8
    masks: Array  # (cap + 1,) uint16: bits 0..limit
    contrib: Array  # (cap + 1, 128) int32: [cost][copies] -> the copies' share of the state index


@lru_cache(maxsize=4)
def table(cap: int) -> Table:
    """The solved table for capacity `cap` (at most TABLE_CAP)."""
    costs = list(range(cap, 0, -1))
    sizes = [cap // c + 1 for c in costs]
    grid = np.indices(sizes).reshape(len(costs), -1)
    states = grid.shape[1]
    before, reach = _dp(list(grid), costs, cap)
    choice = np.zeros((cap + 1, states, cap + 1), dtype=np.uint8)
    for s in range(cap + 1):
        cast = _backtrack(before, list(grid), costs, np.full(states, s), cap)
        for q, c in enumerate(costs):
            choice[c, :, s] = cast[q]
    radix = [0] * (cap + 1)
    for q, c in enumerate(costs):
        radix[c] = int(np.prod(sizes[q + 1 :], dtype=np.int64))
    values = np.arange(1 << (cap + 1))
    highbit = np.zeros(len(values), dtype=np.int8)
    for b in range(cap + 1):
        highbit[(values >> b) & 1 == 1] = b
    return Table(
        cap=cap,
        radix=tuple(radix),
        reach=reach.astype(np.uint16),
        choice=choice.reshape(cap + 1, states * (cap + 1)),
        highbit=highbit,
        masks=np.array([(1 << (lim + 1)) - 1 for lim in range(cap + 1)], dtype=np.uint16),
        contrib=np.array(
            [[min(n, cap // c) * radix[c] if c else 0 for n in range(128)] for c in range(cap + 1)],
            dtype=np.int32,
        ),
    )


def _bit(bits: Array, at: Array | int) -> Array:
    """Whether bit `at` (clipped at 0) of each bit set is on."""
    if not isinstance(at, np.ndarray):
        return (bits & bits.dtype.type(1 << at)) != 0
    return ((bits >> np.maximum(at, 0).astype(bits.dtype)) & bits.dtype.type(1)).astype(bool)


def _sumset(a: Array, b: Array, cap: int) -> Array:
    """The sums a + b, for a in bit set `a` and b in `b`, up to `cap`."""
    out = np.zeros_like(a)
    for x in range(cap + 1):
        has = _bit(b, x)
        if has.any():
            out |= np.where(has, a << a.dtype.type(x), a.dtype.type(0))
    return out & a.dtype.type((1 << (cap + 1)) - 1)


def _highbit(bits: Array, cap: int) -> Array:
    out = np.full(len(bits), -1, dtype=np.int64)
    for b in range(cap + 1):
        out[_bit(bits, b)] = b
    return out


# --------------------------------------------------------------------------- the plan of a run


@dataclass(frozen=True)
class Options:
    """What a run simulates: the command line's numbers."""

    games: int = 100_000
    seed: int = 1
    turns: int = 8
    on: str = "play"
    mulligan: str = "auto"


@dataclass
class Plan:
    """A model compiled for the engine: arrays the chunks read and never change."""

    model: Model
    options: Options
    policy: Policy
    deck: Array  # (N,) card index per deck position
    skill_deck: Array  # (S,) VAZ class per skill-deck position
    cost: Array  # (K,)
    cls: Array  # (K,)
    vaz: tuple[int, ...]  # per turn
    curve: Array  # (K,) curve turn, 0 if after the last turn or never
    table: Table | None

    @property
    def n_cards(self) -> int:
        return len(self.model.cards)

    @property
    def on_curve_at(self) -> dict[int, list[int]]:
        """Turn -> the cards whose curve turn it is."""
        out: dict[int, list[int]] = {t: [] for t in range(1, self.options.turns + 1)}
        for k, t in enumerate(self.curve.tolist()):
            if t:
                out[t].append(k)
        return out


def _layout(mine: Sequence[tuple[str, int]], like: Sequence[str] | None = None) -> list[int]:
    """Deck positions -> index into `mine` (name, copies).

    With `like` (the other deck's names by position), each copy goes where the other deck has the
    same card, so that on common random numbers a one-card swap changes only the draws of that card.
    """
    if like is None:
        return [k for k, (_, n) in enumerate(mine) for _ in range(n)]
    left = dict(mine)
    index = {name: k for k, (name, _) in enumerate(mine)}
    slots: list[int | None] = []
    for name in like:
        if left.get(name, 0) > 0:
            left[name] -= 1
            slots.append(index[name])
        else:
            slots.append(None)
    extra = [index[name] for name, _ in mine for _ in range(left[name])]
    out = []
    for slot in slots:
        if slot is not None:
            out.append(slot)
        elif extra:
            out.append(extra.pop(0))
    return out + extra


def _names(model: Model) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(name, copies) of the spells, and of the skills by VAZ colour ("" for the hero's)."""
    skills = [
        (model.colors[j - 1] if j != HERO_CLASS else "", n) for j, n in enumerate(model.skills)
    ]
    return [(c.name, c.copies) for c in model.cards], skills


def plan(model: Model, options: Options, like: Model | None = None) -> Plan:
    """Compile `model`; with `like`, lay it out like that deck for common random numbers."""
    turns, on = options.turns, options.on
    policy = make_policy(model, turns, on)
    cards, skills = _names(model)
    if like is None:
        deck, skill_deck = _layout(cards), _layout(skills)
    else:
        their_cards, their_skills = _names(like)
        deck = _layout(cards, [their_cards[k][0] for k in _layout(their_cards)])
        skill_deck = _layout(skills, [their_skills[k][0] for k in _layout(their_skills)])
    curve = [first_turn_with(c.cost, on, model.n_skills) or 0 for c in model.cards]
    return Plan(
        model=model,
        options=options,
        policy=policy,
        deck=np.array(deck, dtype=np.int8 if len(cards) <= 127 else np.int32),
        skill_deck=np.array(skill_deck, dtype=np.int8),
        cost=np.array([c.cost for c in model.cards], dtype=np.int64),
        cls=np.array([c.cls for c in model.cards], dtype=np.int64),
        vaz=tuple(holder_size(t, on, model.n_skills) for t in range(1, turns + 1)),
        curve=np.array([t if t <= turns else 0 for t in curve], dtype=np.int64),
        table=table(policy.cap) if 0 < policy.cap <= TABLE_CAP else None,
    )


# --------------------------------------------------------------------------- one chunk


@dataclass
class Games:
    """What happened in the games of one chunk (G games, T turns, K cards, m off colours)."""

    spent: Array  # (T, G) VAZ spent
    hand: Array  # (T, G) cards in hand at the end of the turn
    discarded: Array  # (T, G) bool
    first: Array  # (K, G) turn a copy was first held: 0 the opening hand, T + 1 never
    on_curve: Array  # (K, G) bool: a copy was cast on the card's curve turn
    held: Array  # (m, T, G) VAZ skills of each off colour in the Holder


def _deal(plan: Plan, u: Array, rows: Array) -> tuple[Array, int]:
    """Shuffle by a partial Fisher–Yates, deal the opening hand and take the mulligan.

    Returns the deck, (G, N) card indices with the hand in positions 0..h-1, and h."""
    g, n = len(rows), len(plan.deck)
    deck = np.broadcast_to(plan.deck, (g, n)).copy()
    flat = deck.reshape(-1)
    base = rows * n
    hand = min(OPENING_HAND, n)

    def swap(at: Array, uniform: Array, pos: int) -> None:
        a = at + pos
        b = a + (uniform * (n - pos)).astype(np.int64)
        flat[a], flat[b] = flat[b], flat[a]

    for i in range(hand):
        swap(base, u[:, i], i)
    if plan.options.mulligan == "auto" and hand:
        back = ~np.array(plan.policy.opener, dtype=bool)[deck[:, :hand]].any(axis=1)
        again = np.flatnonzero(back)
        for i in range(hand):  # a hand sent back is shuffled in and a new one drawn
            swap(base[again], u[again, OPENING_HAND + i], i)
    return deck, hand


def _holder(plan: Plan, u: Array, rows: Array) -> Array:
    """VAZ skills of each off colour in the Holder, (m, T, G)."""
    g, turns, m = len(rows), plan.options.turns, len(plan.model.colors)
    s = len(plan.skill_deck)
    held = np.zeros((m, turns, g), dtype=np.int8)
    if m == 0 or s == 0:
        return held
    deck = np.broadcast_to(plan.skill_deck, (g, s)).copy()
    flat = deck.reshape(-1)
    base = rows * s
    placed = max(plan.vaz)
    for i in range(placed):
        pick = i + (u[:, i] * (s - i)).astype(np.int64)
        a, b = base + i, base + pick
        flat[a], flat[b] = flat[b], flat[a]
    placed_skills = deck[:, :placed].T  # (placed, G)
    for j in range(m):
        count = np.cumsum(placed_skills == 1 + j, axis=0, dtype=np.int8)
        for t, v in enumerate(plan.vaz):
            if v > 0:
                held[j, t] = count[v - 1]
    return held


def _count(hand: Array, kind: Kind) -> Array:
    if len(kind.cards) == 1:
        return hand[kind.cards[0]]
    return hand[list(kind.cards)].sum(axis=0, dtype=np.int8)


def _cast(plan: Plan, hand: Array, vaz: int, held: Array) -> tuple[Array, Array]:
    """Cast the policy's choice from `hand` (K, G), in place: (copies cast per card, VAZ spent)."""
    policy = plan.policy
    g = hand.shape[1]
    cast = np.zeros_like(hand)
    for k in policy.free:
        cast[k] = hand[k]
    if vaz <= 0:
        hand -= cast
        return cast, np.zeros(g, dtype=np.int64)
    cap, tab = policy.cap, plan.table
    classes: list[tuple[tuple[Kind, ...], list[Array], Any, Array]] = []
    for cls, kinds in enumerate(policy.kinds):
        counts = [_count(hand, kind) for kind in kinds]
        if tab is not None:
            state = np.zeros(g, dtype=np.int32)
            for n, kind in zip(counts, kinds, strict=True):
                state += np.take(tab.contrib[kind.cost], n)
            mask = (
                tab.masks[vaz]
                if cls == HERO_CLASS
                else np.take(tab.masks, np.minimum(held[cls - 1], vaz))
            )
            classes.append((kinds, counts, state, np.take(tab.reach, state) & mask))
        else:
            before, reach = (
                _dp(counts, [k.cost for k in kinds], cap) if kinds else ([], np.ones(g, np.uint64))
            )
            limit = vaz if cls == HERO_CLASS else np.minimum(held[cls - 1], vaz).astype(np.uint64)
            mask = (np.uint64(1) << (np.uint64(limit) + np.uint64(1))) - np.uint64(1)
            classes.append((kinds, counts, before, reach & mask))
    m = len(classes) - 1
    after = [classes[HERO_CLASS][3]] * (m + 1)  # after[j]: what classes 0, j+1..m pay together
    for j in range(m, 0, -1):
        after[j - 1] = _sumset(after[j], classes[j][3], vaz)
    rest = (
        np.take(tab.highbit, after[0]).astype(np.int32)
        if tab is not None
        else _highbit(after[0], vaz)
    )
    spent = rest
    targets = [rest] * (m + 1)
    for j in range(1, m + 1):
        x = np.full(g, -1, dtype=rest.dtype)
        for v in range(min(vaz, int(held[j - 1].max(initial=0))), -1, -1):
            ok = (x < 0) & (rest >= v) & _bit(classes[j][3], v) & _bit(after[j], rest - v)
            x[ok] = v
        targets[j] = x
        rest = rest - x
    targets[HERO_CLASS] = rest
    for cls, (kinds, counts, ctx, _) in enumerate(classes):
        if not kinds:
            continue
        if tab is not None:
            at = ctx * (cap + 1) + targets[cls]
            by_kind = [np.take(tab.choice[kind.cost], at) for kind in kinds]
        else:
            by_kind = _backtrack(ctx, counts, [k.cost for k in kinds], targets[cls], cap)
        for left, kind in zip(by_kind, kinds, strict=True):
            if len(kind.cards) == 1:
                cast[kind.cards[0]] = left
                continue
            left = left.astype(np.int8)
            for k in kind.cards:
                take = np.minimum(hand[k], left)
                cast[k] = take
                left = left - take
    hand -= cast
    return cast, spent


def run_chunk(plan: Plan, spell_u: Array, skill_u: Array) -> Games:
    """Play len(spell_u) games of `plan` on the given uniforms."""
    g = len(spell_u)
    turns, on = plan.options.turns, plan.options.on
    cards, n = plan.n_cards, len(plan.deck)
    rows = np.arange(g, dtype=np.int64)
    held = _holder(plan, skill_u, rows)
    hand = np.zeros((cards, g), dtype=np.int8)
    on_curve = np.zeros((cards, g), dtype=bool)
    spent = np.zeros((turns, g), dtype=np.int8)
    size = np.zeros((turns, g), dtype=np.int8)
    discarded = np.zeros((turns, g), dtype=bool)
    hand_flat = hand.reshape(-1)
    deck, top = _deal(plan, spell_u, rows)
    deck_flat, deck_base = deck.reshape(-1), rows * n
    for i in range(top):
        hand_flat[deck[:, i].astype(np.int64) * g + rows] += 1
    first = np.where(hand > 0, np.int8(0), np.int8(turns + 1))
    first_flat = first.reshape(-1)
    col = OPENING_HAND + MULLIGAN_DRAWS
    curve_at = plan.on_curve_at
    for t in range(1, turns + 1):
        if draws_on(t, on) and top < n:
            j = top + (spell_u[:, col + t - 1] * (n - top)).astype(np.int64)
            at_deck = deck_base + j
            drawn = np.take(deck_flat, at_deck)
            deck_flat[at_deck] = deck[:, top]
            at = drawn.astype(np.int64) * g + rows
            hand_flat[at] += 1
            first_flat[at] = np.minimum(first_flat[at], t)
            top += 1
        cast, spent_now = _cast(plan, hand, plan.vaz[t - 1], held[:, t - 1])
        spent[t - 1] = spent_now
        for k in curve_at[t]:
            on_curve[k] = cast[k] > 0
        total = hand.sum(axis=0, dtype=np.int16)
        over = total > HAND_LIMIT
        if over.any():
            excess = np.maximum(total - HAND_LIMIT, 0).astype(np.int8)
            for k in plan.policy.discard_order:
                take = np.minimum(hand[k], excess)
                hand[k] -= take
                excess -= take
        discarded[t - 1] = over
        size[t - 1] = np.minimum(total, HAND_LIMIT)
    return Games(spent, size, discarded, first, on_curve, held)


# --------------------------------------------------------------------------- figures


def figures(plan: Plan, games: Games) -> dict[str, Array]:
    """The per-game figures the report averages, by name; games on the last axis."""
    turns = plan.options.turns
    vaz = np.array(plan.vaz, dtype=np.int8)
    spent = games.spent
    t = np.arange(1, turns + 1, dtype=np.int8)
    drawn = games.first[:, None, :] <= t[None, :, None]  # (K, T, G)
    castable = drawn & (vaz[None, :] >= plan.cost[:, None])[:, :, None]
    for k in np.flatnonzero(plan.cls != HERO_CLASS):
        castable[k] &= games.held[plan.cls[k] - 1] >= plan.cost[k]
    total = spent.sum(axis=0, dtype=np.int32)
    return {
        "spent": spent,
        "all_spent": spent == vaz[:, None],
        "hand": games.hand,
        "discard": games.discarded,
        "total": total,
        "score": np.cumsum(spent, axis=0, dtype=np.int32).sum(axis=0, dtype=np.int32),
        "opening": games.first == 0,
        "drawn": drawn,
        "castable": castable,
        "on_curve": games.on_curve,
    }


CARD_FIGURES = ("opening", "drawn", "castable", "on_curve")


def _totals(values: Array) -> tuple[Array, Array]:
    """Sums over games (the last axis) of the values and of their squares, as int64."""
    if values.dtype == np.bool_:
        count = np.count_nonzero(values, axis=-1).astype(np.int64)
        return count, count
    v = values.astype(np.int64)
    return v.sum(axis=-1), (v * v).sum(axis=-1)


@dataclass
class Sums:
    """Integer sums and sums of squares of per-game figures, by name."""

    games: int = 0
    total: dict[str, Array] = field(default_factory=dict)
    squares: dict[str, Array] = field(default_factory=dict)

    def add(self, name: str, values: Array) -> None:
        s, q = _totals(values)
        self._add(name, s, q)

    def add_difference(self, name: str, a: Array, b: Array) -> None:
        """Add the per-game differences b − a."""
        if a.dtype == np.bool_:
            s = np.count_nonzero(b, axis=-1).astype(np.int64) - np.count_nonzero(a, axis=-1)
            self._add(name, s, np.count_nonzero(a ^ b, axis=-1).astype(np.int64))
        else:
            self.add(name, b.astype(np.int64) - a.astype(np.int64))

    def _add(self, name: str, s: Array, q: Array) -> None:
        if name in self.total:
            self.total[name] = self.total[name] + s
            self.squares[name] = self.squares[name] + q
        else:
            self.total[name], self.squares[name] = s, q

    def merge(self, other: Sums) -> None:
        self.games += other.games
        for name in other.total:
            self._add(name, other.total[name], other.squares[name])

    def mean(self, name: str) -> Any:
        """The mean: a float, or nested lists of floats in the figure's shape."""
        return _apply(self.total[name].tolist(), lambda s: s / self.games)

    def se(self, name: str) -> Any:
        """The standard error of the mean, from the sample variance (0 for one game)."""
        n = self.games

        def one(pair: tuple[int, int]) -> float:
            s, q = pair
            return float(((n * q - s * s) / (n * n * (n - 1))) ** 0.5) if n > 1 else 0.0

        return _apply(_zip(self.total[name].tolist(), self.squares[name].tolist()), one)


def _zip(a: object, b: Any) -> object:
    if isinstance(a, list):
        return [_zip(x, y) for x, y in zip(a, b, strict=True)]
    return (a, b)


def _apply(value: object, fn: Callable[[Any], float]) -> object:
    if isinstance(value, list):
        return [_apply(v, fn) for v in value]
    return fn(value)


# --------------------------------------------------------------------------- runs


def chunk_size(models: Sequence[Model], turns: int) -> int:
    """Games per chunk: CHUNK, halved while one chunk's arrays would outgrow CHUNK_BYTES."""
    per_game = max(
        4 * len(m.cards) * (turns + 4) + 8 * (m.n_spells + m.n_skills) + 32 * turns for m in models
    )
    size = CHUNK
    while size > 64 and size * per_game > CHUNK_BYTES:
        size //= 2
    return size


def uniforms(seed: int, chunk: int, games: int, turns: int) -> tuple[Array, Array]:
    """The random numbers of one chunk: (games, 10 + turns) for spells, (games, 2 turns + 1) skills."""
    spells, skills = np.random.SeedSequence(seed, spawn_key=(chunk,)).spawn(2)
    spell_u = np.random.Generator(np.random.PCG64(spells)).random(
        (games, OPENING_HAND + MULLIGAN_DRAWS + turns)
    )
    skill_u = np.random.Generator(np.random.PCG64(skills)).random((games, 2 * turns + 1))
    return spell_u, skill_u


def _workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def _run(
    plans: Sequence[Plan],
    options: Options,
    reduce: Callable[[list[Games]], Sums],
    progress: Progress | None,
) -> Sums:
    size = chunk_size([p.model for p in plans], options.turns)
    chunks = [
        (i, min(size, options.games - start))
        for i, start in enumerate(range(0, options.games, size))
    ]

    def one(chunk: tuple[int, int]) -> Sums:
        index, n = chunk
        spell_u, skill_u = uniforms(options.seed, index, n, options.turns)
        return reduce([run_chunk(p, spell_u, skill_u) for p in plans])

    out = Sums()
    done = 0
    with ThreadPoolExecutor(max_workers=_workers()) as pool:
        for part in _in_order(pool, one, chunks):
            out.merge(part)
            done += part.games
            if progress is not None:
                progress(done, options.games)
    return out


def _in_order(
    pool: ThreadPoolExecutor, fn: Callable[[tuple[int, int]], Sums], chunks: list[tuple[int, int]]
) -> Iterator[Sums]:
    """Results in chunk order, with at most two chunks per worker in flight (bounded memory)."""
    window = 2 * _workers()
    pending = [pool.submit(fn, c) for c in chunks[:window]]
    following = window
    while pending:
        result = pending.pop(0).result()
        if following < len(chunks):
            pending.append(pool.submit(fn, chunks[following]))
            following += 1
        yield result


def simulate_sums(
    model: Model, options: Options, progress: Progress | None = None
) -> tuple[Plan, Sums]:
    """Play the games of one deck and sum their figures."""
    p = plan(model, options)

    def reduce(results: list[Games]) -> Sums:
        sums = Sums(games=results[0].spent.shape[1])
        for name, values in figures(p, results[0]).items():
            sums.add(name, values)
        return sums

    return p, _run([p], options, reduce, progress)


@dataclass
class Pair:
    """Two decks run on common random numbers: each one's sums and those of b − a, game by game.

    The difference's card figures are for `common`: (index in a, index in b) of each card name in
    both decks, in a's order."""

    a: Plan
    b: Plan
    sums_a: Sums
    sums_b: Sums
    difference: Sums
    common: list[tuple[int, int]]


def compare_sums(a: Model, b: Model, options: Options, progress: Progress | None = None) -> Pair:
    """Run deck `a` and deck `b` on the same random numbers."""
    pa, pb = plan(a, options), plan(b, options, like=a)
    index_b = {c.name: k for k, c in enumerate(b.cards)}
    common = [(k, index_b[c.name]) for k, c in enumerate(a.cards) if c.name in index_b]
    ia = np.array([i for i, _ in common], dtype=np.int64)
    ib = np.array([j for _, j in common], dtype=np.int64)

    def reduce(results: list[Games]) -> Sums:
        fa, fb = figures(pa, results[0]), figures(pb, results[1])
        packed = Sums(games=results[0].spent.shape[1])
        for name in fa:
            packed.add("a:" + name, fa[name])
            packed.add("b:" + name, fb[name])
            x, y = (fa[name][ia], fb[name][ib]) if name in CARD_FIGURES else (fa[name], fb[name])
            packed.add_difference("d:" + name, x, y)
        return packed

    sums = _run([pa, pb], options, reduce, progress)
    parts = {tag: Sums(games=sums.games) for tag in "abd"}
    for key in sums.total:
        tag, name = key.split(":", 1)
        parts[tag].total[name], parts[tag].squares[name] = sums.total[key], sums.squares[key]
    return Pair(pa, pb, parts["a"], parts["b"], parts["d"], common)
