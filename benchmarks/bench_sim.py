"""Simulator speed: the NumPy engine against the plain-Python reference, side by side in one run.

Targets (issue 4): at least 10× the reference's games per second; 1,000,000 games of 8 turns in
under 4 s of wall time; peak memory under 500 MiB. Exit status 1 when a target is missed.
Run: python benchmarks/bench_sim.py
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reference_sim

from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import get_game, open_database
from varz_deck.games.varz.sim import Model, Options, build_model, simulate

REFERENCE_GAMES = 5_000
ENGINE_GAMES = 1_000_000
TURNS = 8
MIN_RATIO = 10.0
MAX_SECONDS = 4.0
MAX_MIB = 500.0

CARDS = """\
set: {code: BN, name: Bench}
cards:
  - {id: BN-001, name: Bench Hero, type: hero, color: red, life: 12, power: 4,
     skill_classes: [fighter], evolution_level: 6, memory: 5}
  - {id: BN-010, name: Red VAZ, type: skill, skill_class: generic, vaz: true, color: red}
  - {id: BN-011, name: Blue VAZ, type: skill, skill_class: generic, vaz: true, color: blue}
  - {id: BN-012, name: Punch, type: skill, skill_class: fighter}
  - {id: BN-013, name: Kick, type: skill, skill_class: fighter}
  - {id: BN-014, name: Guard, type: skill, skill_class: fighter}
  - {id: BN-020, name: Gate, type: portal, shield_life: 4, color: colorless}
  - {id: BN-021, name: Wall, type: portal, shield_life: 2, color: colorless}
"""
SPELLS = [  # name, colour, cost, copies: a red deck with a blue splash, 30 cards
    ("Imp", "red", 1, 3), ("Hound", "red", 2, 3), ("Ronin", "red", 2, 3), ("Shot", "red", 1, 2),
    ("Rush", "red", 3, 3), ("Dancer", "red", 3, 3), ("Brawler", "red", 4, 2), ("Burst", "red", 5, 2),
    ("Drake", "red", 6, 1), ("Lance", "colorless", 2, 2), ("Wave", "blue", 2, 3),
    ("Tide", "blue", 3, 2), ("Storm", "blue", 4, 1),
]  # fmt: skip


def build(folder: Path) -> Model:
    """A generated database and deck in `folder`, resolved into the simulator's model."""
    spells = "\n".join(
        f"  - {{id: BN-{100 + i}, name: {name}, type: spil, color: {color}, cost: {cost}, power: 1}}"
        for i, (name, color, cost, _) in enumerate(SPELLS)
    )
    (folder / "cards").mkdir()
    (folder / "cards" / "bench.yaml").write_text(CARDS + spells + "\n", encoding="utf-8")
    deck_lines = "\n".join(f"  {name}: {n}" for name, _, _, n in SPELLS)
    deck = folder / "deck.yaml"
    deck.write_text(
        "hero: Bench Hero\nspells:\n" + deck_lines + "\n"
        "skills:\n  Red VAZ: 3\n  Blue VAZ: 3\n  Punch: 1\n  Kick: 1\n  Guard: 1\n"
        "portals:\n  Gate: 4\n  Wall: 2\n",
        encoding="utf-8",
    )
    database = open_database(folder / "cards")
    view = (
        get_game("varz").check_deck(DeckSource.from_path(deck), database, None, date=on_date()).view
    )
    return build_model(view)


def main() -> int:
    os.environ.setdefault("VARZ_DECK_NO_CACHE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        model = build(Path(tmp))
    started = time.perf_counter()
    reference = reference_sim.simulate(model, REFERENCE_GAMES, TURNS, "play", "auto", seed=1)
    reference_seconds = time.perf_counter() - started
    options = Options(games=ENGINE_GAMES, seed=1, turns=TURNS, on="play", mulligan="auto")
    started = time.perf_counter()
    result = simulate(model, options)
    engine_seconds = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    reference_rate = REFERENCE_GAMES / reference_seconds
    engine_rate = ENGINE_GAMES / engine_seconds
    ratio = engine_rate / reference_rate
    score = result.sums.mean("score")
    print(f"deck: {model.n_spells} spells ({len(model.cards)} cards, colours: red + blue splash)")
    print(
        f"reference (plain Python): {REFERENCE_GAMES:>9,} games {reference_seconds:7.2f} s "
        f"{reference_rate:>11,.0f} games/s  curve score {reference.score:.2f}"
    )
    print(
        f"engine (NumPy):           {ENGINE_GAMES:>9,} games {engine_seconds:7.2f} s "
        f"{engine_rate:>11,.0f} games/s  curve score {score:.2f}"
    )
    print(f"speed-up: {ratio:.1f}x (target >= {MIN_RATIO:.0f}x)")
    print(
        f"1,000,000 games x {TURNS} turns: {engine_seconds:.2f} s wall (target < {MAX_SECONDS:.0f} s)"
    )
    print(f"peak memory (max RSS): {peak_mib:.0f} MiB (target < {MAX_MIB:.0f} MiB)")
    missed = []
    if ratio < MIN_RATIO:
        missed.append("speed-up")
    if engine_seconds >= MAX_SECONDS:
        missed.append("wall time")
    if peak_mib >= MAX_MIB:
        missed.append("memory")
    print("all targets met" if not missed else "missed: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
