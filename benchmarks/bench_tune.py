"""`varz-deck tune` and `varz-deck stats` speed, measured side by side with `check` in one run.

Targets (issue 14): `tune` on an example deck, with the whole swap sweep and the tables, in at most
1 s (wall time of the whole command, start-up included); `stats` at most 1.1x `check` on the same
deck. Runs alternate so machine noise hits every variant alike; medians are compared.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from _timing import alternate

from varz_deck.core.dates import on_date

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "yellow-amane-red-splash.yaml"
REPEATS = int(os.environ.get("BENCH_REPEATS", "15"))
TUNE_MAX_S = 1.0
STATS_MAX_RATIO = 1.1


def in_process() -> float:
    """Median time of the sweep and tables alone (database loaded, modules imported)."""
    import statistics
    import time

    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import get_game, open_database
    from varz_deck.games.library import bundled_root

    database = open_database(bundled_root())
    tuner = get_game("varz").tuner
    assert tuner is not None
    times = []
    for _ in range(5):
        start = time.perf_counter()
        tuner.tune(
            DeckSource.from_path(DECK),
            database,
            target=0.9,
            on="draw",
            mulligan="auto",
            date=on_date(),
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, VARZ_DECK_CACHE=str(Path(tmp) / "cache"))
        py = sys.executable
        variants = {
            "check": [py, "-m", "varz_deck", "check", str(DECK)],
            "stats": [py, "-m", "varz_deck", "stats", str(DECK)],
            "tune (play, no mulligan)": [py, "-m", "varz_deck", "tune", str(DECK)],
            "tune (draw, auto mulligan)": [
                py, "-m", "varz_deck", "tune", str(DECK), "--on", "draw", "--mulligan", "auto",
            ],
        }  # fmt: skip
        med = alternate(variants, env, REPEATS)
    check, stats, tune_none, tune_auto = med.values()
    print(f"runs per variant: {REPEATS} (alternating; medians)")
    for name, value in med.items():
        print(f"  {name:<50} {value * 1000:8.1f} ms")
    ratio = stats / check
    slowest = max(tune_none, tune_auto)
    print(f"stats / check:             {ratio:.2f}x (target <= {STATS_MAX_RATIO}x)")
    print(f"tune, slowest variant:     {slowest:.2f} s (target <= {TUNE_MAX_S} s)")
    print(f"tune computation alone:    {in_process() * 1000:.0f} ms (in process, auto mulligan)")
    return 0 if ratio <= STATS_MAX_RATIO and slowest <= TUNE_MAX_S else 1


if __name__ == "__main__":
    sys.exit(main())
