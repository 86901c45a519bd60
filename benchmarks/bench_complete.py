"""`varz-deck complete` speed beside `check`, in one run: a VARZ deck with its hero and 10 spells
given, completed against the bundled database and against bench_scale's 100,000-card database.

Run: `python benchmarks/bench_complete.py [--repeats 5] [--bundled-only] [--folder DIR]`.
Target: each completion at most 1 s (median wall time, warm cache). Exit 1 when one is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.0
DECK = """\
name: Ten spells given
format: standard
hero: Hibiki Kagura
spells:
  Ember Imp: 3
  Flame Ronin: 3
  Scorch Shot: 3
  Street Brawler: 1
"""


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=False)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("BENCH_REPEATS", "5")))
    parser.add_argument("--bundled-only", action="store_true")
    parser.add_argument("--folder", type=Path, default=None)
    ns = parser.parse_args(argv)
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "ten.yaml"
        deck.write_text(DECK, encoding="utf-8")
        env = dict(os.environ, VARZ_DECK_CACHE=str(Path(tmp) / "cache"))
        databases: dict[str, list[str]] = {"bundled": []}
        if not ns.bundled_only:
            from bench_scale import prepare

            folder = ns.folder or Path(tempfile.gettempdir()) / "varz-bench-scale"
            root, _deck, _names = prepare(folder)
            databases["100k"] = ["--cards", str(root)]
        variants = {}
        for name, cards in databases.items():
            variants[f"check {name}"] = [py, "-m", "varz_deck", "check", str(deck), *cards]
            variants[f"complete {name}"] = [py, "-m", "varz_deck", "complete", str(deck), *cards]
        for cmd in variants.values():  # warm the caches
            subprocess.run(cmd, env=env, capture_output=True, check=False)
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(ns.repeats):  # alternating: machine noise hits every variant alike
            for name, cmd in variants.items():
                times[name].append(wall(cmd, env))
    print(f"runs per variant: {ns.repeats} (alternating; medians)")
    ok = True
    for name, found in times.items():
        median = statistics.median(found)
        goal = f" (target <= {TARGET:.1f} s)" if name.startswith("complete") else ""
        print(f"  {name:<20} {median * 1000:8.1f} ms{goal}")
        if name.startswith("complete") and median > TARGET:
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
