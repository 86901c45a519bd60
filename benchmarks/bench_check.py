"""`varz-deck check` speed, measured side by side with the import baseline in one run.

Targets: one deck costs at most 0.9x `python -c "import typer, rich.console, yaml, jsonschema"`
(issue 10; issue 2 asked 1.25x); 300 decks in one call at most 3x one deck. On a shared machine
wall time swings by a tenth from run to run, so the CPU time of the same commands is printed too. Runs alternate so machine noise hits
every variant alike; medians are compared.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from _timing import alternate, alternate_cpu

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
REPEATS = int(os.environ.get("BENCH_REPEATS", "15"))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        decks = []
        for i in range(300):
            target = Path(tmp) / f"deck{i:03}.yaml"
            shutil.copyfile(DECK, target)
            decks.append(str(target))
        env = dict(os.environ, VARZ_DECK_CACHE=str(Path(tmp) / "cache"))
        py = sys.executable
        variants = {
            "baseline (import typer, rich, yaml, jsonschema)": [
                py,
                "-c",
                "import typer, rich.console, yaml, jsonschema",
            ],
            "check 1 deck": [py, "-m", "varz_deck", "check", str(DECK)],
            "check 300 decks": [py, "-m", "varz_deck", "check", *decks],
        }
        med = alternate(variants, env, REPEATS)
        single = {k: variants[k] for k in list(variants)[:2]}
        cpu = alternate_cpu(single, env, REPEATS)
    base, one, many = med.values()
    cpu_base, cpu_one = cpu.values()
    print(f"runs per variant: {REPEATS} (alternating; medians)")
    for name, value in med.items():
        print(f"  {name:<50} {value * 1000:8.1f} ms")
    ratio_one, ratio_many = one / base, many / one
    ratio_cpu = cpu_one / cpu_base
    print(f"check 1 deck / baseline:   {ratio_one:.2f}x wall (target <= 0.9x)")
    print(
        f"check 1 deck / baseline:   {ratio_cpu:.2f}x CPU time "
        f"({cpu_one * 1000:.0f} ms against {cpu_base * 1000:.0f} ms)"
    )
    print(f"check 300 decks / 1 deck:  {ratio_many:.2f}x (target <= 3x)")
    return 0 if ratio_one <= 0.9 and ratio_many <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
