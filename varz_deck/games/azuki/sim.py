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

from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from varz_deck.core.diagnostics import safe
from varz_deck.core.game import DeckUnusable, SimRequest
from varz_deck.core.i18n import Message, msg
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import read_deck

HAND = 7
MAX_IKZ = 10
MULLIGAN_BY_TURN = 3


@dataclass(frozen=True)
class SimCard:
    id: str
    name: str
    copies: int
    cost: int


@dataclass(frozen=True)
class Model:
    path: str
    name: str | None
    leader: tuple[str, str] | None
    cards: tuple[SimCard, ...]

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


def monte_carlo(
    model: Model, turns: int, on: str, games: int, seed: int
) -> tuple[float, list[dict[str, Any]]]:
    """P(mulligan) and per-card figures with standard errors under the `auto` mulligan."""
    import numpy as np

    rng = np.random.default_rng(seed)
    kinds = np.repeat(np.arange(len(model.cards)), [c.copies for c in model.cards])
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
    out = []
    for k, card in enumerate(model.cards):
        first = np.where(drawn_kinds == k, positions, n).min(axis=1)
        rows: dict[str, list[float]] = {"p": [], "se": [], "c": [], "c_se": []}
        for t in range(1, turns + 1):
            hit = first < seen_by(t, on)
            p = float(hit.mean())
            se = float(np.sqrt(p * (1 - p) / games))
            ok = card.cost <= ikz_on(t, on)
            rows["p"].append(p)
            rows["se"].append(se)
            rows["c"].append(p if ok else 0.0)
            rows["c_se"].append(se if ok else 0.0)
        opening = float((first < HAND).mean())
        out.append(
            {
                "p_in_opening_hand": opening,
                "p_in_opening_hand_se": float(np.sqrt(opening * (1 - opening) / games)),
                "p_drawn_by_turn": rows["p"],
                "p_drawn_by_turn_se": rows["se"],
                "p_castable_by_turn": rows["c"],
                "p_castable_by_turn_se": rows["c_se"],
            }
        )
    return float(mull.mean()), out


def build_model(path: Path, database: Any, shown: str | None = None) -> tuple[Model, Any]:
    """The main deck of an Azuki deck file, and its check report (legal or not)."""
    parsed, problems = read_deck(path, shown)
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
        cards[card.id] = SimCard(card.id, card.name, copies, card.cost or 0)
    leader = view.leader
    model = Model(
        report.path,
        report.name,
        (leader.id, leader.name) if leader is not None else None,
        tuple(cards.values()),
    )
    return model, report


def simulate(
    model: Model, *, games: int, seed: int, turns: int, on: str, mulligan: str, legal: bool
) -> dict[str, Any]:
    """The `sim --output json` document for an Azuki deck (the VARZ one's shape where it fits)."""
    if mulligan == "none":
        figures = exact(model, turns, on)
        for entry in figures:
            entry["p_in_opening_hand_se"] = 0.0
            entry["p_drawn_by_turn_se"] = [0.0] * turns
            entry["p_castable_by_turn_se"] = [0.0] * turns
        p_mulligan, p_mulligan_se = 0.0, 0.0
    else:
        p_mulligan, figures = monte_carlo(model, turns, on, games, seed)
        p_mulligan_se = (p_mulligan * (1 - p_mulligan) / games) ** 0.5
    cards = []
    for card, fig in zip(model.cards, figures, strict=True):
        cards.append(
            {
                "id": card.id,
                "name": card.name,
                "copies": card.copies,
                "cost": card.cost,
                "p_in_opening_hand": fig["p_in_opening_hand"],
                "p_in_opening_hand_se": fig["p_in_opening_hand_se"],
                "p_drawn_by_turn": fig["p_drawn_by_turn"],
                "p_drawn_by_turn_se": fig["p_drawn_by_turn_se"],
                "p_castable_by_turn": fig["p_castable_by_turn"],
                "p_castable_by_turn_se": fig["p_castable_by_turn_se"],
            }
        )
    return {
        "version": 1,
        "game": "azuki",
        "deck": model.path,
        "games": games if mulligan != "none" else 0,
        "seed": seed,
        "on": on,
        "mulligan": mulligan,
        "turns": [{"turn": t, "ikz": ikz_on(t, on)} for t in range(1, turns + 1)],
        "cards": cards,
        "name": model.name,
        "leader": {"id": model.leader[0], "name": model.leader[1]} if model.leader else None,
        "main_deck": model.size,
        "p_mulligan": p_mulligan,
        "p_mulligan_se": p_mulligan_se,
        "legal": legal,
    }


@dataclass(frozen=True)
class AzukiOutcome:
    """One Azuki deck's goldfish figures (the JSON document) and how to show them."""

    document: dict[str, Any]
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.document

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        document = self.document
        title = msg("sim", "{path}: P(drawn by turn t), P(castable on turn t); mulligan {mulligan}")
        lines = [title(path=str(document["deck"]), mulligan=document["mulligan"]).render(lang)]
        heads = "".join(f" {'T' + str(t['turn']):>4}" for t in document["turns"])
        lines.append(f"{'':32} {'':>4} {'':>5}{heads}")
        ikz = "".join(f" {t['ikz']:>4}" for t in document["turns"])
        lines.append(f"{'IKZ':32} {'':>4} {'':>5}{ikz}")
        for card in document["cards"]:
            drawn = "".join(f" {p:4.0%}" for p in card["p_drawn_by_turn"])
            castable = "".join(f" {p:4.0%}" for p in card["p_castable_by_turn"])
            label = safe(f"{card['copies']}x {card['name']}")[:32]
            opening = card["p_in_opening_hand"]
            lines.append(f"{label:32} {card['cost']:>4} {opening:5.0%}{drawn}")
            lines.append(f"{'':32} {'':>4} {'':>5}{castable}")
        return "\n".join(lines) + "\n"

    def plot(self, fmt: str, lang: str) -> bytes:
        raise NotImplementedError  # the options set below does not offer --plot


class AzukiGoldfish:
    """Exact hypergeometric figures; a NumPy Monte Carlo for the whole-hand mulligan."""

    options = frozenset({"mulligan", "on"})

    def simulate(self, request: SimRequest, database: Any) -> AzukiOutcome:
        model, report = build_model(request.deck, database)
        if model.size == 0:
            empty = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")
            raise DeckUnusable(message=empty(path=str(request.deck)))
        document = simulate(
            model,
            games=request.games,
            seed=request.seed,
            turns=request.turns,
            on=request.on,
            mulligan=request.mulligan,
            legal=report.legal,
        )
        return AzukiOutcome(document)


GOLDFISH = AzukiGoldfish()
