"""Azuki goldfish: draw and IKZ odds, exact where a closed form exists (rules page, "Starting a
game", "Turns").

Model: the 50-card main deck is shuffled and 7 drawn. The first player (`on="play"`) skips the
first turn's draw; the second draws on turn 1. Each player gains 1 IKZ a turn up to 10 (the first
player's first turn starts with that gain), and the second player has the IKZ token: one extra IKZ
once, on any turn. So on turn t the most a player can pay for one card is min(t, 10), plus 1 on
the draw (the token spent that turn).

* Exact (no mulligan): P(a card in the opening 7) and P(drawn by turn t) are hypergeometric;
  P(castable on turn t) = P(drawn by turn t) × [cost ≤ IKZ on turn t] (the IKZ do not depend on
  the shuffle). Every exact figure has `_se` 0.
* Mulligan `auto` (Monte Carlo, vectorised NumPy): a hand with no card castable by turn 3 goes to
  the bottom of the deck whole, 7 new cards are drawn, then the deck is shuffled (once per game).
  Figures then carry a standard error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from varz_deck.core.game import NOT_LEGAL_SIMULATED, DeckUnusable, SimRequest
from varz_deck.core.i18n import Message, msg
from varz_deck.core.source import DeckSource
from varz_deck.core.tuning import refuse_oversized
from varz_deck.games.azuki.cards import NEUTRAL
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import read_deck
from varz_deck.games.azuki.rules import IKZ_COUNT, MAIN_SIZE, TOKEN_COUNT

HAND = 7
# The rules' size of each section: `sim` and `tune` refuse a deck far over them (core/tuning.py).
SECTION_SIZES = {"main": MAIN_SIZE, "ikz": IKZ_COUNT + TOKEN_COUNT}
MAX_IKZ = 10
MULLIGAN_BY_TURN = 3
DIGITS = 9
FIGURES = (
    "p_in_opening_hand", "p_in_opening_hand_se", "p_drawn_by_turn", "p_drawn_by_turn_se",
    "p_castable_by_turn", "p_castable_by_turn_se",
)  # fmt: skip
EXACT_KEYS = (
    "cards.p_in_opening_hand", "cards.p_drawn_by_turn", "cards.p_castable_by_turn",
    "costs.p_castable_by_turn", "p_mulligan",
)  # fmt: skip


@dataclass(frozen=True)
class SimCard:
    id: str
    name: str
    copies: int
    cost: int
    element: str = NEUTRAL
    names: tuple[tuple[str, str], ...] = ()  # (language, name)


@dataclass(frozen=True)
class Model:
    path: str
    name: str | None
    leader: tuple[str, str] | None
    cards: tuple[SimCard, ...]
    format: str | None = None
    # the gate and the IKZ deck, for `sim --vs` to list what changed: (section, id, name, copies)
    others: tuple[tuple[str, str, str, int], ...] = ()

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)


def seen_by(turn: int, on: str) -> int:
    """Cards drawn by the end of turn `turn`'s draw (the opening hand included)."""
    return HAND + turn - (1 if on == "play" else 0)


def ikz_on(turn: int, on: str) -> int:
    """The most IKZ a player can spend on one turn: 1 a turn up to 10, +1 token on the draw."""
    return min(turn, MAX_IKZ) + (1 if on == "draw" else 0)


def p_among(total: int, copies: int, seen: int) -> float:
    """P(at least one of `copies` among the first `seen` of `total` cards)."""
    seen = min(seen, total)
    return 1.0 - comb(total - copies, seen) / comb(total, seen)


def exact(model: Model, turns: int, on: str) -> list[dict[str, Any]]:
    """Per card: P(in the opening 7), P(drawn by turn t), P(castable on turn t); no mulligan."""
    n = model.size
    out = []
    for card in model.cards:
        drawn = [p_among(n, card.copies, seen_by(t, on)) for t in range(1, turns + 1)]
        castable = [p if card.cost <= ikz_on(t, on) else 0.0 for t, p in enumerate(drawn, start=1)]
        out.append(
            {
                "p_in_opening_hand": p_among(n, card.copies, HAND),
                "p_drawn_by_turn": drawn,
                "p_castable_by_turn": castable,
            }
        )
    return out


def sample(
    model: Model, turns: int, on: str, games: int, seed: int, first_ids: Sequence[str] = ()
) -> tuple[Any, Any]:
    """Per game under the `auto` mulligan: whether it mulliganed, and each card's first position
    in the order the cards are seen (the deck size when never seen).

    The cards named in `first_ids` take the first places of the shuffled slots, in that order, so
    two decks sampled with one seed and the same `first_ids` see those cards on the same random
    numbers (common random numbers, `sim --vs`)."""
    import numpy as np

    rank = {card_id: i for i, card_id in enumerate(first_ids)}
    slots = sorted(range(len(model.cards)), key=lambda k: rank.get(model.cards[k].id, len(rank)))
    kinds = np.repeat(np.array(slots, dtype=np.intp), [model.cards[k].copies for k in slots])
    rng = np.random.default_rng(seed)
    n = len(kinds)
    costs = np.array([c.cost for c in model.cards])
    perm = np.argsort(rng.random((games, n)), axis=1)
    hand = kinds[perm[:, :HAND]]
    playable = costs[hand] <= ikz_on(MULLIGAN_BY_TURN, on)
    mull = np.asarray(~playable.any(axis=1), dtype=bool)
    rest = np.concatenate([perm[:, 2 * HAND :], perm[:, :HAND]], axis=1)
    order = np.argsort(rng.random(rest.shape), axis=1)
    rest = np.take_along_axis(rest, order, axis=1)
    after = np.concatenate([perm[:, HAND : 2 * HAND], rest], axis=1)
    seq = np.where(mull[:, None], after, perm)
    drawn_kinds = kinds[seq]
    positions = np.arange(n)
    first = np.empty((games, len(model.cards)), dtype=np.intp)
    for k in range(len(model.cards)):
        first[:, k] = np.where(drawn_kinds == k, positions, n).min(axis=1)
    return mull, first


def _rate(hits: Any) -> tuple[float, float]:
    """The mean of a 0/1 (or -1/0/1) per-game array and its standard error."""
    import numpy as np

    games = len(hits)
    mean = float(hits.mean())
    return mean, float(np.sqrt(max(float(hits.var()), 0.0) / games))


def _sampled(first: Any, cost: int, turns: int, on: str) -> dict[str, Any]:
    """The figures of one card (or group of cards) from its first positions."""
    p, se, c, c_se = [], [], [], []
    for t in range(1, turns + 1):
        mean, err = _rate(first < seen_by(t, on))
        ok = cost <= ikz_on(t, on)
        p.append(mean)
        se.append(err)
        c.append(mean if ok else 0.0)
        c_se.append(err if ok else 0.0)
    opening, opening_se = _rate(first < HAND)
    return {
        "p_in_opening_hand": opening,
        "p_in_opening_hand_se": opening_se,
        "p_drawn_by_turn": p,
        "p_drawn_by_turn_se": se,
        "p_castable_by_turn": c,
        "p_castable_by_turn_se": c_se,
    }


def monte_carlo(
    model: Model, turns: int, on: str, games: int, seed: int
) -> tuple[float, list[dict[str, Any]]]:
    """P(mulligan) and per-card figures with standard errors under the `auto` mulligan."""
    mull, first = sample(model, turns, on, games, seed)
    out = [_sampled(first[:, k], card.cost, turns, on) for k, card in enumerate(model.cards)]
    return float(mull.mean()), out


def build_model(source: DeckSource, database: Any, *, bounded: bool = True) -> tuple[Model, Any]:
    """The main deck of an Azuki deck file, and its check report (legal or not); `bounded`
    (sim, tune): DeckTooLarge when a section is far over its size (core/tuning.py)."""
    parsed, problems = read_deck(source)
    if bounded:
        refuse_oversized(parsed.path, parsed.entries, SECTION_SIZES)
    report = check_parsed(parsed, problems, database, None)
    view = report.view
    if view is None:
        raise DeckUnusable(report.diagnostics)
    cards: dict[str, SimCard] = {}
    for slot in view.slots["main"]:
        card = slot.card
        if card is None:
            continue
        seen = cards.get(card.id)
        copies = slot.entry.count + (seen.copies if seen else 0)
        element = card.elements[0] if card.elements else NEUTRAL
        cards[card.id] = SimCard(
            card.id, card.name, copies, card.cost or 0, element, tuple(sorted(card.names.items()))
        )
    leader = view.leader
    model = Model(
        report.path,
        report.name,
        (leader.id, leader.name) if leader is not None else None,
        tuple(cards.values()),
        view.deck.format,
        _others_of(view),
    )
    return model, report


def _others_of(view: Any) -> tuple[tuple[str, str, str, int], ...]:
    """The gate and the IKZ deck's cards, as `Model.others` holds them."""
    gate = view.picked.get("gate")
    out = [("gate", gate.id, gate.name, 1)] if gate is not None else []
    ikz: dict[str, list[Any]] = {}
    for slot in view.slots.get("ikz", ()):
        if slot.card is not None:
            ikz.setdefault(slot.card.id, [slot.card.name, 0])[1] += slot.entry.count
    out.extend(("ikz", card_id, name, copies) for card_id, (name, copies) in ikz.items())
    return tuple(out)


def cost_groups(model: Model) -> list[tuple[int, list[int]]]:
    """The deck's costs, each with the indexes of its cards."""
    groups: dict[int, list[int]] = {}
    for k, card in enumerate(model.cards):
        groups.setdefault(card.cost, []).append(k)
    return sorted(groups.items())


def _exact_with_se(figures: dict[str, Any], turns: int) -> dict[str, Any]:
    figures["p_in_opening_hand_se"] = 0.0
    figures["p_drawn_by_turn_se"] = [0.0] * turns
    figures["p_castable_by_turn_se"] = [0.0] * turns
    return figures


def _r(value: Any) -> Any:
    """Floats rounded to DIGITS decimals (and never -0.0), in any nesting of lists."""
    if isinstance(value, list):
        return [_r(v) for v in value]
    if isinstance(value, float):
        return round(value, DIGITS) + 0.0
    return value


def _group_model(model: Model) -> Model:
    """One pseudo-card per cost, holding every copy of that cost (for P(a card of cost c))."""
    groups = cost_groups(model)
    cards = tuple(
        SimCard(f"cost {cost}", "", sum(model.cards[k].copies for k in ks), cost)
        for cost, ks in groups
    )
    return Model(model.path, model.name, model.leader, cards)


@dataclass(frozen=True)
class Run:
    """One deck's figures: per card and per cost, and the per-game samples (`auto` only)."""

    model: Model
    cards: list[dict[str, Any]]
    costs: list[dict[str, Any]]
    p_mulligan: float = 0.0
    p_mulligan_se: float = 0.0
    mull: Any = None
    first: Any = None  # (games, cards) first positions
    group_first: Any = None  # (games, costs)


def run(model: Model, request: SimRequest, first_ids: Sequence[str] = ()) -> Run:
    """The figures of one deck: exact without a mulligan, sampled with the `auto` one."""
    import numpy as np

    turns, on = request.turns, request.on
    grouped = _group_model(model)
    if request.mulligan == "none":
        cards = [_exact_with_se(f, turns) for f in exact(model, turns, on)]
        costs = [_exact_with_se(f, turns) for f in exact(grouped, turns, on)]
        return Run(model, cards, costs)
    mull, first = sample(model, turns, on, request.games, request.seed, first_ids)
    groups = cost_groups(model)
    group_first = np.stack([first[:, ks].min(axis=1) for _, ks in groups], axis=1)
    cards = [_sampled(first[:, k], c.cost, turns, on) for k, c in enumerate(model.cards)]
    costs = [_sampled(group_first[:, i], cost, turns, on) for i, (cost, _) in enumerate(groups)]
    p_mulligan, p_mulligan_se = _rate(mull)
    return Run(model, cards, costs, p_mulligan, p_mulligan_se, mull, first, group_first)


def _card_entry(card: SimCard, fig: dict[str, Any]) -> dict[str, Any]:
    entry = {
        "id": card.id,
        "name": card.name,
        "copies": card.copies,
        "cost": card.cost,
        "element": card.element,
    }
    entry.update({key: fig[key] for key in FIGURES})
    return {k: _r(v) for k, v in entry.items()}


def _others(model: Model, section: str) -> list[dict[str, Any]]:
    return [
        {"id": card_id, "name": name, "copies": copies}
        for place, card_id, name, copies in model.others
        if place == section
    ]


def to_json(result: Run, request: SimRequest, legal: bool) -> dict[str, Any]:
    """The `sim --output json` document for an Azuki deck (the VARZ one's shape where it fits)."""
    model, turns, on = result.model, request.turns, request.on
    sampled = request.mulligan != "none"
    costs = []
    for (cost, ks), fig in zip(cost_groups(model), result.costs, strict=True):
        entry: dict[str, Any] = {"cost": cost, "copies": sum(model.cards[k].copies for k in ks)}
        entry.update({key: fig[key] for key in FIGURES if key.startswith("p_castable")})
        costs.append({k: _r(v) for k, v in entry.items()})
    return {
        "version": 1,
        "game": "azuki",
        "deck": model.path,
        "games": request.games if sampled else 0,
        "seed": request.seed,
        "on": on,
        "mulligan": request.mulligan,
        "turns": [{"turn": t, "ikz": ikz_on(t, on)} for t in range(1, turns + 1)],
        "cards": [_card_entry(c, f) for c, f in zip(model.cards, result.cards, strict=True)],
        "costs": costs,
        "name": model.name,
        "leader": {"id": model.leader[0], "name": model.leader[1]} if model.leader else None,
        "main_deck": model.size,
        "format": model.format,
        "gate": _others(model, "gate"),
        "ikz_deck": _others(model, "ikz"),
        "p_mulligan": _r(result.p_mulligan),
        "p_mulligan_se": _r(result.p_mulligan_se),
        "legal": legal,
        "exact": [] if sampled else list(EXACT_KEYS),
        "sampled": list(EXACT_KEYS) if sampled else [],
    }


def simulate(
    model: Model, *, games: int, seed: int, turns: int, on: str, mulligan: str, legal: bool
) -> dict[str, Any]:
    """The `sim --output json` document of one deck."""
    request = SimRequest(DeckSource(model.path), games, seed, turns, on, mulligan)
    return to_json(run(model, request), request, legal)


def _difference(a: Any, b: Any, diff: Any) -> tuple[list[float], list[float]]:
    """Per turn: the mean of b - a and its standard error, or exact (se 0) when not sampled."""
    if diff is None:
        return [y - x for x, y in zip(a, b, strict=True)], [0.0] * len(a)
    pairs = [_rate(d) for d in diff]
    return [m for m, _ in pairs], [e for _, e in pairs]


def _paired(
    first_a: Any, first_b: Any, cost: tuple[int, int], turns: int, on: str
) -> dict[str, Any] | None:
    """Per-game differences b - a of a card's hits (None when not sampled)."""
    if first_a is None:
        return None
    out: dict[str, Any] = {"opening": (first_b < HAND).astype(int) - (first_a < HAND)}
    drawn, castable = [], []
    for t in range(1, turns + 1):
        seen = seen_by(t, on)
        hit_a, hit_b = (first_a < seen).astype(int), (first_b < seen).astype(int)
        drawn.append(hit_b - hit_a)
        castable.append(hit_b * (cost[1] <= ikz_on(t, on)) - hit_a * (cost[0] <= ikz_on(t, on)))
    out["drawn"], out["castable"] = drawn, castable
    return out


def _diff_entry(
    fa: dict[str, Any], fb: dict[str, Any], paired: dict[str, Any] | None
) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if paired is None:
        entry["p_in_opening_hand"] = fb["p_in_opening_hand"] - fa["p_in_opening_hand"]
        entry["p_in_opening_hand_se"] = 0.0
    else:
        mean, se = _rate(paired["opening"])
        entry["p_in_opening_hand"], entry["p_in_opening_hand_se"] = mean, se
    for key, name in (("p_drawn_by_turn", "drawn"), ("p_castable_by_turn", "castable")):
        mean_t, se_t = _difference(fa[key], fb[key], None if paired is None else paired[name])
        entry[key], entry[key + "_se"] = mean_t, se_t
    return entry


def _cost_differences(ra: Run, rb: Run, request: SimRequest) -> list[dict[str, Any]]:
    """Per cost either deck has: the difference of P(a card of that cost castable by turn t),
    paired game by game when sampled (a deck without the cost has 0)."""
    import numpy as np

    turns, on = request.turns, request.on
    groups_a = {cost: i for i, (cost, _) in enumerate(cost_groups(ra.model))}
    groups_b = {cost: i for i, (cost, _) in enumerate(cost_groups(rb.model))}
    zero = [0.0] * turns
    out = []
    for cost in sorted(set(groups_a) | set(groups_b)):
        ia, ib = groups_a.get(cost), groups_b.get(cost)
        pa = ra.costs[ia]["p_castable_by_turn"] if ia is not None else zero
        pb = rb.costs[ib]["p_castable_by_turn"] if ib is not None else zero
        if ra.group_first is None:
            mean, se = _difference(pa, pb, None)
        else:
            never = np.full(request.games, np.iinfo(np.intp).max)
            fa = ra.group_first[:, ia] if ia is not None else never
            fb = rb.group_first[:, ib] if ib is not None else never
            paired = _paired(fa, fb, (cost, cost), turns, on)
            assert paired is not None
            mean, se = _difference(pa, pb, paired["castable"])
        entry = {"cost": cost, "p_castable_by_turn": mean, "p_castable_by_turn_se": se}
        out.append({k: _r(v) for k, v in entry.items()})
    return out


def index_of(model: Model, card_id: str) -> int:
    return next(k for k, c in enumerate(model.cards) if c.id == card_id)


def compare(
    a: Model, b: Model, request: SimRequest, legal: tuple[bool, bool]
) -> tuple[dict[str, Any], Run, Run]:
    """The `sim --vs` document: the difference (vs − deck) first, then both decks' documents.
    Sampled figures use the same random numbers for both decks, the cards the two share in the
    same places, so the differences have small standard errors."""
    copies_b = {c.id: c.copies for c in b.cards}
    common = [c.id for c in a.cards if c.id in copies_b]
    # the cards with as many copies in both decks first: they take the same slots of the shuffle
    slots = sorted(common, key=lambda i: copies_b[i] != a.cards[index_of(a, i)].copies)
    ra, rb = run(a, request, slots), run(b, request, slots)
    turns, on = request.turns, request.on
    index_a = {c.id: k for k, c in enumerate(a.cards)}
    index_b = {c.id: k for k, c in enumerate(b.cards)}
    cards = []
    for card_id in common:
        ka, kb = index_a[card_id], index_b[card_id]
        paired = (
            _paired(
                ra.first[:, ka], rb.first[:, kb], (a.cards[ka].cost, b.cards[kb].cost), turns, on
            )
            if ra.first is not None
            else None
        )
        entry: dict[str, Any] = {
            "id": card_id,
            "name": a.cards[ka].name,
            "copies": b.cards[kb].copies - a.cards[ka].copies,
        }
        entry.update(_diff_entry(ra.cards[ka], rb.cards[kb], paired))
        cards.append({k: _r(v) for k, v in entry.items()})
    costs = _cost_differences(ra, rb, request)
    if ra.mull is not None:
        p_mulligan, p_mulligan_se = _rate(rb.mull.astype(int) - ra.mull)
    else:
        p_mulligan, p_mulligan_se = 0.0, 0.0
    sampled = request.mulligan != "none"
    document = {
        "version": 1,
        "game": "azuki",
        "deck": a.path,
        "vs": b.path,
        "games": request.games if sampled else 0,
        "seed": request.seed,
        "on": on,
        "mulligan": request.mulligan,
        "difference": {
            "of": "vs - deck",
            "cards": cards,
            "costs": costs,
            "main_deck": b.size - a.size,
            "p_mulligan": _r(p_mulligan),
            "p_mulligan_se": _r(p_mulligan_se),
        },
        "decks": [to_json(ra, request, legal[0]), to_json(rb, request, legal[1])],
    }
    return document, ra, rb


@dataclass(frozen=True)
class AzukiOutcome:
    """One Azuki deck's goldfish figures, or two decks compared (the JSON document), and how to
    show them."""

    document: dict[str, Any]
    names: dict[str, tuple[tuple[str, str], ...]]  # card id -> its names by language
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.document

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        from varz_deck.games.azuki.sim.report import render_compare_text, render_text

        if "vs" in self.document:
            return render_compare_text(
                self.document, self.names, width=width, lang=lang, color=color
            )
        return render_text(self.document, self.names, width=width, lang=lang, color=color)

    def plot(self, fmt: str, lang: str) -> bytes:
        from varz_deck.games.azuki.sim.plot import plot

        decks = self.document.get("decks", [self.document])
        return plot(decks, fmt, lang)


class AzukiGoldfish:
    """Exact hypergeometric figures; a NumPy Monte Carlo for the whole-hand mulligan."""

    options = frozenset({"vs", "plot", "mulligan", "on"})

    def _model(self, source: DeckSource, database: Any) -> tuple[Model, bool, tuple[Message, ...]]:
        """The deck's model, whether it is legal, and the warning to give when it is not."""
        model, report = build_model(source, database)
        if model.size == 0:
            empty = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")
            raise DeckUnusable(message=empty(path=source.name))
        warning = NOT_LEGAL_SIMULATED(path=source.name, n=report.errors)
        return model, report.legal, (warning,) if report.errors else ()

    def simulate(self, request: SimRequest, database: Any) -> AzukiOutcome:
        model, legal, warnings = self._model(request.deck, database)
        models = [model]
        if request.vs is None:
            document = to_json(run(model, request), request, legal)
        else:
            other, other_legal, other_warnings = self._model(request.vs, database)
            models.append(other)
            warnings += other_warnings
            document, _, _ = compare(model, other, request, (legal, other_legal))
        names = {c.id: c.names for m in models for c in m.cards}
        return AzukiOutcome(document, names, warnings)


GOLDFISH = AzukiGoldfish()
