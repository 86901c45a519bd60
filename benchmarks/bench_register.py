"""`varz-deck register` batch speed: 500 decks in one call against one deck, side by side.

Target (issue 5, "500 decks in one call must be as easy as one"): registering 500 decks in one
call costs at most 5x checking one deck (`varz-deck check`). The 500 decks are
generated: every example deck, each written with another player, in YAML or as a plain-text list.
Runs alternate so machine noise hits every variant alike; medians are compared. The sheets variant
(`--sheet DIR`, 500 HTML files) is reported beside it, without a target.

Run: python benchmarks/bench_register.py   (BENCH_REPEATS=N to change the number of runs)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from _timing import alternate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.*"))
ONE = ROOT / "examples" / "red-kagura-festival.yaml"
DECKS = 500
REPEATS = int(os.environ.get("BENCH_REPEATS", "11"))
TARGET = 5.0


def generate(folder: Path, count: int) -> list[str]:
    """`count` deck files: the examples in turn, each with its own player line."""
    paths = []
    for i in range(count):
        source = EXAMPLES[i % len(EXAMPLES)]
        text = source.read_text(encoding="utf-8")
        if source.suffix == ".txt":
            text = f"Player: Player {i:03}\nEvent: Bench Open\n{text}"
        else:
            text = "\n".join(
                line for line in text.splitlines() if not line.startswith(("player:", "event:"))
            )
            text = f"player: Player {i:03}\nevent: Bench Open\n{text}\n"
        target = folder / f"deck{i:03}{source.suffix}"
        target.write_text(text, encoding="utf-8")
        paths.append(str(target))
    return paths


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        decks = generate(Path(tmp), DECKS)
        env = dict(os.environ, VARZ_DECK_CACHE=str(Path(tmp) / "cache"))
        run = [sys.executable, "-m", "varz_deck", "register"]
        variants = {
            "check 1 deck": [sys.executable, "-m", "varz_deck", "check", str(ONE)],
            "register 1 deck": [*run, str(ONE)],
            f"register {DECKS} decks": [*run, *decks],
            f"register {DECKS} decks -o csv": [*run, *decks, "-o", "csv"],
            f"register {DECKS} decks --sheet DIR": [*run, *decks, "--sheet", str(Path(tmp) / "s")],
        }
        med = alternate(variants, env, REPEATS)
    one = med["check 1 deck"]
    print(f"runs per variant: {REPEATS} (alternating; medians)")
    for name, value in med.items():
        print(f"  {name:<36} {value * 1000:8.1f} ms   {value / one:5.2f}x checking one deck")
    ratio = med[f"register {DECKS} decks"] / one
    print(f"register {DECKS} decks / check 1 deck: {ratio:.2f}x (target <= {TARGET:g}x)")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
