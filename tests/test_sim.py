"""The simulator's core: exact figures against math.comb, the policy against brute force, Monte
Carlo against the exact figures, determinism and common random numbers (issue 4)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from varz_decks import read_deck, resolve

from varz_deck.core.files.source import DeckSource
from varz_deck.games import open_database
from varz_deck.games.varz.cards import COLORLESS, COLORS
from varz_deck.games.varz.sim import (
    Model,
    ModelError,
    Options,
    build_model,
    compare,
    compare_to_json,
    dumps,
    render_compare_text,
    render_text,
    simulate,
    to_json,
)
from varz_deck.games.varz.sim import exact as ex
from varz_deck.games.varz.sim import montecarlo as mc
from varz_deck.games.varz.sim import policy as pol
from varz_deck.games.varz.sim.model import SpellCard

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent


def make_model(
    spells: Sequence[tuple[str, int, int]],
    vaz: dict[str, int] | None = None,
    skills: int = 9,
    hero: str = "red",
    evolution: int = 6,
) -> Model:
    """A model from (colour, cost, copies) per spell and off-colour VAZ skills by colour."""
    vaz = vaz or {}
    colors = tuple(c for c in COLORS if c != hero and any(s[0] == c for s in spells))
    cards = tuple(
        SpellCard(
            id=f"T-{i:03d}",
            name=f"Card {i}",
            copies=copies,
            cost=cost,
            color=color,
            cls=1 + colors.index(color) if color in colors else 0,
        )
        for i, (color, cost, copies) in enumerate(spells)
    )
    off = [vaz.get(c, 0) for c in colors]
    return Model(
        path="test.yaml",
        name="Test deck",
        hero_id="T-HERO",
        hero_name="Hero",
        hero_color=hero,
        evolution_level=evolution,
        cards=cards,
        colors=colors,
        skills=(skills - sum(off), *off),
    )


SPLASH = make_model(
    [("red", 1, 3), ("red", 2, 3), ("red", 2, 3), ("red", 3, 3), ("red", 3, 2), ("red", 4, 2),
     ("red", 5, 2), ("red", 7, 1), (COLORLESS, 0, 2), (COLORLESS, 2, 2), ("blue", 1, 3),
     ("blue", 2, 2), ("blue", 3, 1), ("green", 2, 1)],
    vaz={"blue": 3, "green": 1},
)  # fmt: skip
MONO = make_model([("red", c % 6 + 1, 3) for c in range(10)])
HEAVY = make_model(  # few skills, expensive spells: hands fill up and get discarded
    [("red", 1, 2), ("red", 3, 3), ("red", 4, 3), ("red", 5, 3), ("red", 6, 3), ("red", 7, 3),
     ("blue", 2, 3), ("blue", 4, 3), (COLORLESS, 5, 3), (COLORLESS, 0, 1), ("red", 2, 3)],
    vaz={"blue": 2},
    skills=4,
)  # fmt: skip


# --------------------------------------------------------------------------- exact


def test_issue_example_three_of_in_opening_hand() -> None:
    model = make_model([("red", 2, 3), ("red", 1, 27)])
    got = ex.exact(model, 8, "play").cards[0].p_in_opening_hand
    assert abs(got - (1 - comb(27, 5) / comb(30, 5))) < 1e-9
    assert round(got, 5) == 0.43350


@pytest.mark.parametrize("on", ["play", "draw"])
def test_drawn_by_turn_is_hypergeometric(on: str) -> None:
    figures = ex.exact(SPLASH, 8, on)
    n = SPLASH.n_spells
    for card, got in zip(SPLASH.cards, figures.cards, strict=True):
        for t in range(1, 9):
            seen = 5 + t - 1 + (on == "draw")
            want = 1 - comb(n - card.copies, seen) / comb(n, seen)
            assert abs(got.p_drawn_by_turn[t - 1] - want) < 1e-9


@pytest.mark.parametrize("on", ["play", "draw"])
def test_holder_colour_odds_and_castable_product(on: str) -> None:
    figures = ex.exact(SPLASH, 8, on)
    blue = SPLASH.skills_of("blue")
    for t in range(1, 9):
        held = min(2 * t + (on == "draw"), 9)
        assert figures.vaz[t - 1] == held
        for need in range(1, blue + 1):
            want = sum(
                comb(blue, i) * comb(9 - blue, held - i) for i in range(need, min(blue, held) + 1)
            )
            assert abs(figures.p_color[t - 1]["blue"][need - 1] - want / comb(9, held)) < 1e-9
        for card, got in zip(SPLASH.cards, figures.cards, strict=True):
            if card.color in SPLASH.colors:
                good = SPLASH.skills_of(card.color)
                pays = sum(
                    comb(good, i) * comb(9 - good, held - i)
                    for i in range(card.cost, min(good, held) + 1)
                ) / comb(9, held)
            else:
                pays = 1.0 if held >= card.cost else 0.0
            want = got.p_drawn_by_turn[t - 1] * pays
            assert abs(got.p_castable_by_turn[t - 1] - want) < 1e-9


def _auto_by_enumeration(model: Model, k: int, seen: int, on: str) -> Fraction:
    """P(card k among the first `seen` held) under the auto mulligan, over every opening hand."""
    deck = [j for j, card in enumerate(model.cards) for _ in range(card.copies)]
    n = len(deck)
    opener = _load_reference().opener  # SPEC §6 by enumeration of turn-1 Holders, not the code's
    openers = {j for j, card in enumerate(model.cards) if opener(model, card, on)}
    fresh = 1 - Fraction(comb(n - model.cards[k].copies, seen), comb(n, seen))
    total = Fraction(0)
    hands = list(itertools.combinations(range(n), 5))
    for hand in hands:
        cards = [deck[i] for i in hand]
        if not openers & set(cards):
            total += fresh
        elif k in cards:
            total += 1
        else:
            left = n - 5
            copies = model.cards[k].copies
            total += 1 - Fraction(comb(left - copies, seen - 5), comb(left, seen - 5))
    return total / len(hands)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_auto_mulligan_odds_by_enumeration(on: str) -> None:
    model = make_model([("red", 1, 2), ("red", 4, 3), ("red", 5, 3), ("blue", 1, 2)], {"blue": 2})
    for k in range(len(model.cards)):
        for seen in (5, 6, 8, 10):
            got = ex.p_seen(model, k, seen, "auto", on)
            assert abs(float(got) - float(_auto_by_enumeration(model, k, seen, on))) < 1e-12


def test_v_sync_curve_and_deck_out_turns() -> None:
    figures = ex.exact(make_model([("red", 7, 3), ("red", 1, 3)], evolution=6), 30, "play")
    assert figures.v_sync_turn == 3
    assert [c.curve_turn for c in figures.cards] == [4, 1]
    assert figures.deck_out_turn == 3  # 6 cards: the opening 5, a draw on turn 2, none on turn 3
    on_draw = ex.exact(make_model([("red", 1, 30)], evolution=7), 8, "draw")
    assert on_draw.v_sync_turn == 3 and on_draw.deck_out_turn is None
    assert ex.exact(make_model([("red", 1, 30)], evolution=10), 8, "play").v_sync_turn is None


# --------------------------------------------------------------------------- the policy


def _brute_force(
    policy: pol.Policy, model: Model, hand: list[int], vaz: int, held: list[int]
) -> list[int]:
    """The policy by its definition: every subset, ranked by the documented keys."""
    cards = model.cards
    best: tuple[Any, ...] | None = None
    choice: list[int] = []
    for cast in itertools.product(*(range(n + 1) for n in hand)):
        by_class = [0] * (1 + len(model.colors))
        for k, n in enumerate(cast):
            by_class[cards[k].cls] += n * cards[k].cost
        if sum(by_class) > vaz or any(by_class[j] > held[j - 1] for j in range(1, len(by_class))):
            continue
        if any(cast[k] != hand[k] for k in policy.free):
            continue
        kinds = [
            tuple(-sum(cast[k] for k in kind.cards) for kind in reversed(kinds))
            for kinds in policy.kinds
        ]
        within = [tuple(cast[k] for k in kind.cards) for kinds in policy.kinds for kind in kinds]
        key = (sum(by_class), *by_class[1:], *kinds, *within)
        if best is None or key > best:
            best, choice = key, list(cast)
    return choice


def _random_hands(model: Model, count: int, seed: int, most: int = 9) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = np.zeros((len(model.cards), count), dtype=np.int8)
    for g in range(count):
        for _ in range(int(rng.integers(0, most))):
            hands[rng.integers(0, len(model.cards)), g] += 1
    return hands


def test_policy_choice_is_the_documented_optimum() -> None:
    model = make_model(
        [("red", 1, 3), ("red", 2, 3), ("red", 3, 2), (COLORLESS, 0, 1), ("blue", 1, 2),
         ("blue", 2, 2), ("green", 2, 2)],
        {"blue": 3, "green": 2},
    )  # fmt: skip
    policy = pol.make_policy(model, 8, "play")
    hands = _random_hands(model, 300, seed=2, most=7)
    rng = np.random.default_rng(3)
    for g in range(hands.shape[1]):
        hand = hands[:, g].tolist()
        vaz = int(rng.integers(0, 10))
        held = [int(rng.integers(0, min(vaz, 3) + 1)), int(rng.integers(0, min(vaz, 2) + 1))]
        assert pol.choose(policy, hand, vaz, held) == _brute_force(policy, model, hand, vaz, held)


def test_discard_most_expensive_off_colour_and_last_listed_first() -> None:
    model = make_model(
        [("red", 3, 3), ("blue", 3, 3), ("red", 5, 3), ("red", 1, 3), ("red", 3, 3)], {"blue": 2}
    )
    policy = pol.make_policy(model, 8, "play")
    assert policy.discard_order == (2, 1, 4, 0, 3)
    hand = [1, 1, 1, 2, 2]
    assert pol.discard(policy, hand, 6) == 1 and hand == [1, 1, 0, 2, 2]
    assert pol.discard(policy, hand, 3) == 3 and hand == [1, 0, 0, 2, 0]
    assert pol.discard(policy, hand, 6) == 0


@pytest.mark.parametrize("table_cap", [mc.TABLE_CAP, 0])
@pytest.mark.parametrize("model", [SPLASH, MONO], ids=["splash", "mono"])
def test_engine_casts_what_the_policy_casts(
    model: Model, table_cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mc, "TABLE_CAP", table_cap)
    plan = mc.plan(model, Options(turns=8, on="draw"))
    assert (plan.table is None) == (table_cap == 0)
    hands = _random_hands(model, 1500, seed=5, most=12)
    rng = np.random.default_rng(7)
    for vaz in range(0, 10):
        held = rng.integers(0, 4, size=(len(model.colors), hands.shape[1])).astype(np.int8)
        held = np.minimum(held, vaz).astype(np.int8)
        hand = hands.copy()
        cast, spent = mc._cast(plan, hand, vaz, held)
        assert (hand == hands - cast).all()
        for g in range(hands.shape[1]):
            want = pol.choose(plan.policy, hands[:, g].tolist(), vaz, held[:, g].tolist())
            assert cast[:, g].tolist() == want
            assert spent[g] == sum(n * c.cost for n, c in zip(want, model.cards, strict=True))


def test_fallback_solver_gives_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    options = Options(games=3000, seed=4, turns=8, on="play", mulligan="auto")
    _, tabled = mc.simulate_sums(SPLASH, options)
    monkeypatch.setattr(mc, "TABLE_CAP", 0)
    _, solved = mc.simulate_sums(SPLASH, options)
    for name in tabled.total:
        assert (tabled.total[name] == solved.total[name]).all(), name


# --------------------------------------------------------------------------- Monte Carlo


def _load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "reference_sim", ROOT / "benchmarks" / "reference_sim.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reference_sim", module)
    spec.loader.exec_module(module)
    return module


@st.composite
def legal_decks(draw: st.DrawFn) -> Model:
    """A 30-card deck (at most 3 copies a card) and a 9-card skill deck with VAZ for each splash."""
    splash = draw(st.lists(st.sampled_from(["blue", "green", "purple"]), max_size=2, unique=True))
    spells: list[tuple[str, int, int]] = []
    left = 30
    while left:
        copies = min(left, draw(st.integers(1, 3)))
        color = draw(st.sampled_from(["red", "red", "red", COLORLESS, *splash]))
        spells.append((color, draw(st.integers(0, 7)), copies))
        left -= copies
    for color in splash:
        if not any(s[0] == color for s in spells):
            spells[0] = (color, spells[0][1], spells[0][2])
    colors = [c for c in splash if any(s[0] == c for s in spells)]
    vaz = {c: draw(st.integers(1, 4)) for c in colors}
    return make_model(spells, vaz, evolution=draw(st.integers(1, 12)))


def _within(sampled: Any, se: Any, exact: Any, games: int) -> None:
    sampled, se, exact = np.asarray(sampled), np.asarray(se), np.asarray(exact)
    exact_se = np.sqrt(exact * (1 - exact) / games)
    tolerance = 4.5 * np.maximum(se, exact_se) + 1e-12
    assert (np.abs(sampled - exact) <= tolerance).all(), np.abs(sampled - exact) / tolerance


@settings(
    max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    model=legal_decks(),
    on=st.sampled_from(["play", "draw"]),
    mulligan=st.sampled_from(["none", "auto"]),
)
def test_monte_carlo_agrees_with_exact(model: Model, on: str, mulligan: str) -> None:
    games = 20_000
    options = Options(games=games, seed=11, turns=8, on=on, mulligan=mulligan)
    _, sums = mc.simulate_sums(model, options)
    figures = ex.exact(model, 8, on, mulligan)
    _within(
        sums.mean("opening"),
        sums.se("opening"),
        [c.p_in_opening_hand for c in figures.cards],
        games,
    )
    _within(sums.mean("drawn"), sums.se("drawn"), [c.p_drawn_by_turn for c in figures.cards], games)
    _within(
        sums.mean("castable"),
        sums.se("castable"),
        [c.p_castable_by_turn for c in figures.cards],
        games,
    )
    plan = mc.plan(model, options)
    spell_u, skill_u = mc.uniforms(3, 0, games, 8)
    held = mc.run_chunk(plan, spell_u, skill_u).held
    for j, color in enumerate(model.colors):
        for t in range(8):
            odds = figures.p_color[t][color]
            sampled = [(held[j, t] >= need).mean() for need in range(1, len(odds) + 1)]
            _within(sampled, [0.0] * len(odds), odds, games)
    for name in ("spent", "all_spent", "hand", "discard", "score", "total"):
        assert np.all(np.asarray(sums.se(name)) >= 0)
    for name in ("all_spent", "discard", "on_curve", "opening", "drawn", "castable"):
        assert np.min(sums.mean(name), initial=0) >= 0 and np.max(sums.mean(name), initial=0) <= 1


@pytest.mark.parametrize("mulligan", ["none", "auto"])
@pytest.mark.parametrize(
    ("model", "on"), [(SPLASH, "draw"), (HEAVY, "play")], ids=["splash", "heavy"]
)
def test_engine_agrees_with_plain_python_reference(model: Model, on: str, mulligan: str) -> None:
    reference = _load_reference()
    ref_games, games = 2500, 60_000
    ref = reference.simulate(model, ref_games, 8, on, mulligan, seed=1)
    options = Options(games=games, seed=2, turns=8, on=on, mulligan=mulligan)
    _, sums = mc.simulate_sums(model, options)
    scale = (games * (1 / ref_games + 1 / games)) ** 0.5  # per-game sd -> se of the difference
    for name, got in (("spent", ref.spent), ("all_spent", ref.all_spent), ("hand", ref.hand),
                      ("discard", ref.discard), ("score", ref.score), ("on_curve", ref.on_curve),
                      ("castable", ref.castable)):  # fmt: skip
        mean, se = np.asarray(sums.mean(name)), np.asarray(sums.se(name))
        bound = 4.5 * np.maximum(se * scale, 1 / ref_games)
        assert (np.abs(np.asarray(got) - mean) <= bound).all(), name
    if model is HEAVY:
        assert max(ref.discard) > 0.1 and max(sums.mean("discard")) > 0.1


def test_model_from_a_database_leaves_unknown_cards_out(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "cards.yaml").write_text(
        "cards:\n"
        "  - {id: T1-001, name: Aka, type: hero, color: red, life: 12, power: 4,"
        " skill_classes: [fighter], evolution_level: 6, memory: 4}\n"
        "  - {id: T1-002, name: Imp, type: spil, color: red, cost: 2, power: 2}\n"
        "  - {id: T1-003, name: Wave, type: command, color: blue, cost: 3}\n"
        "  - {id: T1-004, name: Blue VAZ, type: skill, skill_class: generic, vaz: true, color: blue}\n"
        "  - {id: T1-005, name: Red VAZ, type: skill, skill_class: generic, vaz: true, color: red}\n"
        "  - {id: T1-006, name: Punch, type: skill, skill_class: fighter}\n",
        encoding="utf-8",
    )
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "hero: Aka\nspells:\n  Imp: 3\n  T1-003: 2\n  Nobody: 3\n  Punch: 1\n"
        "skills:\n  Blue VAZ: 2\n  Red VAZ: 3\n  Punch: 1\n",
        encoding="utf-8",
    )
    view, _ = resolve(read_deck(src(deck))[0], open_database(tmp_path / "db"))
    model = build_model(view)
    assert [(c.name, c.copies, c.cost, c.cls) for c in model.cards] == [
        ("Imp", 3, 2, 0),
        ("Wave", 2, 3, 1),
    ]
    assert model.colors == ("blue",) and model.skills == (4, 2) and model.left_out == 4
    deck.write_text("spells:\n  Imp: 3\n", encoding="utf-8")
    view, _ = resolve(read_deck(src(deck))[0], open_database(tmp_path / "db"))
    with pytest.raises(ModelError):
        build_model(view)


# --------------------------------------------------------------------------- runs and reports


def test_same_seed_same_bytes_and_different_seed_different_sample() -> None:
    options = Options(games=5000, seed=9, turns=6, on="draw", mulligan="auto")
    one = dumps(to_json(simulate(SPLASH, options)))
    assert one == dumps(to_json(simulate(SPLASH, options)))
    assert render_text(simulate(SPLASH, options)) == render_text(simulate(SPLASH, options))
    other = dumps(to_json(simulate(SPLASH, Options(games=5000, seed=10, turns=6, on="draw"))))
    assert one != other
    first, second = json.loads(one), json.loads(other)
    assert first["turns"][3]["mean_vaz_spent"] != second["turns"][3]["mean_vaz_spent"]
    assert first["cards"][0]["p_drawn_by_turn"] == second["cards"][0]["p_drawn_by_turn"]  # exact


def test_results_do_not_depend_on_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    options = Options(games=mc.CHUNK + 1234, seed=3, turns=5)
    _, two = mc.simulate_sums(MONO, options)
    monkeypatch.setattr(mc, "_workers", lambda: 1)
    _, one = mc.simulate_sums(MONO, options)
    assert all((one.total[n] == two.total[n]).all() for n in one.total)
    assert one.games == options.games


def test_json_keys_follow_the_spec_and_probabilities_are_probabilities() -> None:
    options = Options(games=2000, seed=1, turns=8, on="play", mulligan="none")
    doc = to_json(simulate(SPLASH, options), legal=True)
    assert list(doc)[:9] == [
        "version",
        "deck",
        "games",
        "seed",
        "on",
        "mulligan",
        "turns",
        "cards",
        "v_sync_turn",
    ]
    assert list(doc["turns"][0])[:5] == [
        "turn",
        "vaz",
        "mean_vaz_spent",
        "mean_vaz_spent_se",
        "p_all_vaz_spent",
    ]
    card = doc["cards"][0]
    assert list(card)[:8] == [
        "id",
        "name",
        "copies",
        "cost",
        "color",
        "p_in_opening_hand",
        "p_in_opening_hand_se",
        "p_drawn_by_turn",
    ]
    assert card["p_in_opening_hand_se"] == 0 and card["p_castable_by_turn_se"] == [0.0] * 8

    def probabilities(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                probabilities(v, k)
        elif isinstance(node, list):
            for v in node:
                probabilities(v, key)
        elif key.startswith("p_") and not key.endswith("_se") and node is not None:
            assert 0 <= node <= 1, key

    probabilities(doc)
    text = render_text(simulate(SPLASH, options))
    assert "±" in text and "Cost curve by colour" in text and "█" in text


def test_identical_decks_differ_by_exactly_zero() -> None:
    comparison = compare(SPLASH, SPLASH, Options(games=4000, seed=2, turns=8, mulligan="auto"))
    for name, total in comparison.difference.total.items():
        assert not total.any() and not comparison.difference.squares[name].any(), name
    doc = compare_to_json(comparison)
    assert doc["difference"]["curve_score"] == 0 and doc["difference"]["curve_score_se"] == 0
    assert all(t["mean_vaz_spent"] == 0 for t in doc["difference"]["turns"])
    assert doc["decks"][0] == to_json(comparison.a)
    assert "+0.00" in render_compare_text(comparison)


def test_common_random_numbers_shrink_the_error_of_a_one_card_swap() -> None:
    swapped = make_model(
        [("red", 1, 3), ("red", 2, 3), ("red", 2, 3), ("red", 3, 3), ("red", 3, 2), ("red", 4, 2),
         ("red", 5, 2), ("red", 6, 1), (COLORLESS, 0, 2), (COLORLESS, 2, 2), ("blue", 1, 3),
         ("blue", 2, 2), ("blue", 3, 1), ("green", 2, 1)],
        vaz={"blue": 3, "green": 1},
    )  # fmt: skip
    options = Options(games=20_000, seed=5, turns=8)
    comparison = compare(SPLASH, swapped, options)
    independent = (comparison.a.sums.se("score") ** 2 + comparison.b.sums.se("score") ** 2) ** 0.5
    assert comparison.difference.se("score") < independent / 3
    assert comparison.a.sums.total["score"] == simulate(SPLASH, options).sums.total["score"]


@pytest.mark.parametrize(
    "model",
    [
        make_model([]),
        make_model([("red", 2, 3)]),
        make_model([("red", 1, 30)], skills=0),
        make_model([("red", 2, 10), ("blue", 3, 10)], {"blue": 0}, skills=14),
    ],
    ids=["no spells", "3 spells", "no skills", "14 skills"],
)
def test_odd_decks_still_simulate(model: Model) -> None:
    for on in ("play", "draw"):
        result = simulate(model, Options(games=500, seed=1, turns=30, on=on, mulligan="auto"))
        doc = to_json(result)
        assert len(doc["turns"]) == 30
        spent = [t["mean_vaz_spent"] for t in doc["turns"]]
        assert all(0 <= s <= t["vaz"] for s, t in zip(spent, doc["turns"], strict=True))
        assert "Goldfish" in render_text(result)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_examples_simulate(examples_dir: Path, bundled_db_path: Path, on: str) -> None:
    """Each example's exact figures against math.comb and SPEC §6 (JSON rounds to 9 places)."""
    database = open_database(bundled_db_path)
    extra = on == "draw"
    for path in sorted(examples_dir.glob("*.yaml")):
        view, _ = resolve(read_deck(src(path))[0], database)
        hero = view.hero
        result = simulate(build_model(view), Options(games=2000, seed=1, on=on, mulligan="none"))
        doc = to_json(result)
        assert doc["games"] == 2000 and result.sums.games == 2000
        assert [t["vaz"] for t in doc["turns"]] == [min(2 * t + extra, 9) for t in range(1, 9)]
        level = hero.evolution_level
        want_sync = next((t for t in range(1, 9) if min(2 * t + extra, 9) >= level), None)
        assert doc["v_sync_turn"] == want_sync, path
        n = view.size("spells")
        assert n == 30
        listed = {card.name: count for card, count, _ in view.by_name("spells").values()}
        assert {c["name"]: c["copies"] for c in doc["cards"]} == listed
        for card in doc["cards"]:
            copies = card["copies"]
            assert abs(card["p_in_opening_hand"] - (1 - comb(n - copies, 5) / comb(n, 5))) < 1e-8
            for t in range(1, 9):
                seen = 5 + t - 1 + extra
                want = 1 - comb(n - copies, seen) / comb(n, seen)
                assert abs(card["p_drawn_by_turn"][t - 1] - want) < 1e-8
                if card["color"] in (hero.color, COLORLESS):  # any VAZ pays it
                    pays = 1.0 if min(2 * t + extra, 9) >= card["cost"] else 0.0
                    assert abs(card["p_castable_by_turn"][t - 1] - want * pays) < 1e-8
        for turn in doc["turns"]:  # sampled: spent no more than the Holder makes
            assert 0 <= turn["mean_vaz_spent"] <= turn["vaz"]
