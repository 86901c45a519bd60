"""`varz-deck cards lint` against `check-jsonschema` on a generated 10,000-card database.

Run: `python benchmarks/bench_lint.py [--cards 10000] [--files 100] [--repeats 5] [--keep DIR]`.

It writes a deterministic database (100 card files of 100 cards, plus formats.yaml) into a temporary
folder, installs check-jsonschema into this Python's environment if it is missing, then times both
tools as subprocesses, alternating, and compares the medians. Our linter does everything `cards lint`
does (cross-file checks included); check-jsonschema validates the same card files against
schemas/varz/card-file.schema.json. Exit 1 if we are less than 5× faster or use 200 MiB or more.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schemas" / "varz" / "card-file.schema.json"
MIN_RATIO = 5.0
MAX_RSS_MIB = 200.0

COLORS = ("red", "blue", "green", "purple", "yellow", "silver")
CLASSES = (
    "fighter", "samurai", "ninja", "tamer", "archer", "gunner",
    "warlock", "sherman", "cleric", "hacker", "bard", "alchemist",
)  # fmt: skip
KEYWORDS = ("overstrike", "menace", "lethal", "haste", "flash", "atk+1", "block+2", "move2", "veil")
RARITIES = ("C", "U", "R", "SR")
WORDS = (
    "ember", "tide", "grove", "shade", "dawn", "rift", "neon", "abyss", "gale", "iron",
    "lotus", "spark", "frost", "veil", "thorn", "echo", "drift", "blaze", "mist", "storm",
)  # fmt: skip
KANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"


def _name(rng: random.Random, serial: int) -> str:
    return f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {serial:05d}"


def _kana(serial: int) -> str:
    digits = f"{serial:05d}"
    return "".join(KANA[(int(d) * 7 + i) % len(KANA)] for i, d in enumerate(digits)) + digits


def _card(rng: random.Random, card_id: str, serial: int) -> list[str]:
    kind = rng.choices(
        ("hero", "skill", "portal", "spil", "command", "slash"), (3, 20, 12, 40, 15, 10)
    )[0]
    name = _name(rng, serial)
    color = rng.choice(COLORS)
    out = [
        f"  - id: {card_id}",
        f"    name: {name}",
        f"    names: {{ja: {_kana(serial)}, zh: 卡{serial:05d}}}",
        f"    type: {kind}",
    ]
    if kind == "hero":
        out += [
            f"    color: {color}",
            f"    life: {rng.randint(9, 14)}",
            f"    power: {rng.randint(2, 5)}",
            f"    skill_classes: [{', '.join(rng.sample(CLASSES, 2))}]",
            f"    evolution_level: {rng.randint(4, 8)}",
            f"    memory: {rng.randint(3, 7)}",
            "    v_sync:",
            f"      name: {name} Ascendant",
            f"      power: {rng.randint(4, 8)}",
            '      text: "#Overstrike. Attack Declaration: deal 1 damage to each enemy unit."',
        ]
    elif kind == "skill":
        if rng.random() < 0.15:
            out += ["    skill_class: generic", "    vaz: true", f"    color: {color}"]
        else:
            out.append(f"    skill_class: {rng.choice((*CLASSES, 'generic'))}")
    elif kind == "portal":
        out += [
            f"    color: {rng.choice((*COLORS, 'colorless'))}",
            f"    shield_life: {rng.randint(1, 4)}",
        ]
    else:
        out += [
            f"    color: {rng.choice((*COLORS, 'colorless'))}",
            f"    cost: {rng.randint(0, 7)}",
        ]
        if kind == "spil":
            out.append(f"    power: {rng.randint(1, 8)}")
            out.append(f"    classes: [{rng.choice(CLASSES)}]")
        out.append(f"    keywords: [{', '.join(rng.sample(KEYWORDS, rng.randint(0, 2)))}]")
    out += [
        '    text: "Action: Until end of turn, a unit you control gets #Atk+1 and #Block+1."',
        f'    flavor: "The {rng.choice(WORDS)} remembers what the {rng.choice(WORDS)} forgot."',
        f"    rarity: {rng.choice(RARITIES)}",
    ]
    return out


def generate(dest: Path, cards: int = 10_000, files: int = 100, seed: int = 2026) -> list[Path]:
    """Write a valid database of `cards` cards in `files` files; return the card files."""
    rng = random.Random(seed)
    per_file = cards // files
    written = []
    serial = 0
    sets: list[str] = []
    reprint: list[str] = []
    first: list[str] = []
    for n in range(files):
        code = f"B{n + 1:03d}"
        sets.append(code)
        lines = [
            f"# Generated benchmark set {code}: not real cards.",
            "set:",
            f"  code: {code}",
            f"  name: Benchmark {n + 1}",
            f"  released: 2026-{n % 12 + 1:02d}-01",
            "cards:",
        ]
        for i in range(per_file):
            card_id = f"{code}-{i + 1:03d}"
            if i == per_file - 1 and reprint:  # a reprint of the previous set's first card
                lines += [f"  - id: {card_id}", *reprint[1:-1], "    rarity: PR"]
                continue
            serial += 1
            card = _card(rng, card_id, serial)
            lines += card
            if i == 0:
                first = card
        reprint = first
        folder = dest / "sets" / f"{n // 10:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{code.lower()}.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    legal = sets[: max(1, files // 2)]
    banned = ", ".join(f"{code}-{n % per_file + 1:03d}" for n, code in enumerate(legal[::7]))
    (dest / "formats.yaml").write_text(
        "formats:\n"
        "  standard:\n"
        "    name: Standard\n"
        "    max_effect_portals: 2\n"
        f"    sets: [{', '.join(legal)}]\n"
        f"    banned: [{banned}]\n"
        "    restricted: {B001-002: 1}\n"
        "  pioneer:\n"
        "    name: Pioneer\n"
        "    portals: pooled\n",
        encoding="utf-8",
    )
    return written


def _ensure_check_jsonschema() -> Path:
    exe = Path(sys.executable).parent / "check-jsonschema"
    if not exe.exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "check-jsonschema"], check=True
        )
    return exe


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall time in seconds, peak RSS in MiB (this child alone), and the exit code."""
    wrapped = [
        sys.executable,
        "-c",
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
        "t = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(t, rss, rc)\n",
        *cmd,
    ]
    out = subprocess.run(wrapped, env=env, capture_output=True, text=True, check=True).stdout
    seconds, rss, rc = out.split()
    return float(seconds), float(rss), int(rc)


def main(argv: list[str] | None = None) -> int:
    """Generate, time both tools side by side, print the figures; 0 when within the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="varz-bench-")) if args.keep is None else args.keep
    try:
        card_files = generate(tmp / "db", args.cards, args.files)
        cjs = _ensure_check_jsonschema()
        env = dict(os.environ, VARZ_DECK_NO_CACHE="1", NO_COLOR="1")
        ours = [sys.executable, "-m", "varz_deck", "cards", "lint", str(tmp / "db")]
        theirs = [str(cjs), "--schemafile", str(SCHEMA), *map(str, card_files)]
        ours_t: list[float] = []
        theirs_t: list[float] = []
        rss: list[float] = []
        for _ in range(args.repeats):
            seconds, peak, rc = _run(ours, env)
            if rc != 0:
                print(
                    f"varz-deck cards lint exited {rc} on the generated database", file=sys.stderr
                )
                return 1
            ours_t.append(seconds)
            rss.append(peak)
            seconds, _peak, rc = _run(theirs, env)
            if rc != 0:
                print(f"check-jsonschema exited {rc} on the generated database", file=sys.stderr)
                return 1
            theirs_t.append(seconds)
        ours_m, theirs_m = statistics.median(ours_t), statistics.median(theirs_t)
        ratio = theirs_m / ours_m
        peak = max(rss)
        print(f"database: {args.cards:,} cards in {args.files} files ({tmp / 'db'})")
        print(
            f"varz-deck cards lint: median {ours_m:.3f} s  ({', '.join(f'{t:.3f}' for t in ours_t)})"
        )
        print(
            f"check-jsonschema:     median {theirs_m:.3f} s  ({', '.join(f'{t:.3f}' for t in theirs_t)})"
        )
        print(f"speed ratio: {ratio:.1f}x (target >= {MIN_RATIO:.0f}x)")
        print(f"peak RSS of cards lint: {peak:.1f} MiB (target < {MAX_RSS_MIB:.0f} MiB)")
        ok = ratio >= MIN_RATIO and peak < MAX_RSS_MIB
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
