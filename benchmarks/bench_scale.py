"""`check` and `cards lint` against a 100,000-card database, side by side with the bundled one
(issue 27).

Run: `python benchmarks/bench_scale.py [--repeats 3] [--folder DIR] [--record] [--unknown-only]`.

It generates, once, a deterministic database of the default game: 500 set files of 200 cards
(bench_lint's cards: English, Japanese and Chinese names, every card type, a reprint per set),
plus the bundled sets and a formats.yaml with the bundled formats and one naming every generated
set. It is kept in DIR (default: `varz-bench-scale` in the temporary folder) and reused while the
generator is unchanged. Then, in one run, each command a subprocess with its own peak RSS
(`wait4`):

- warm `check` of a legal deck (examples/red-kagura-festival.yaml) on the bundled database and
  on the 100k one, alternating; the ratio of the medians, and each one's peak memory. The first
  100k check fills the cache: its time is the cold build;
- warm `check` of a 1 MiB deck of 25,000 names no card has (typos of the cards' names in every
  language, each line padded with a comment), against the 100k cards. Its first 50 "did you mean"
  suggestions are compared with benchmarks/data/scale-suggestions.txt (written when missing, or
  with --record): the answers the index must keep;
- `cards lint` cold (an empty cache folder) and again after one set file changed (restored
  afterwards), same cache folder;
- the size of the cache folder holding the 100k database.

Targets (issue 27): 100k check / bundled check <= 1.5x with <= 80 MiB; the unknown-names deck
<= 2 s with the recorded suggestions; lint after one change / cold lint <= 0.1x. Exit 1 when one
is missed (before the index, all are: this run gives the figures to compare against).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _timing import as_installed
from bench_lint import WORDS, _card

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
RECORDED = Path(__file__).resolve().parent / "data" / "scale-suggestions.txt"
GENERATOR = "1"  # change when the generated database changes: a new folder is generated
SETS, PER_SET = 500, 200
UNKNOWN_NAMES = 25_000
DECK_BYTES = 1024 * 1024 - 256  # just within the 1 MiB a deck file may have
SUGGESTED = 50  # "did you mean" is searched for this many unknown names of a deck

MAX_CHECK_RATIO = 1.5
MAX_CHECK_MIB = 80.0
MAX_UNKNOWN_SECONDS = 2.0
MAX_LINT_RATIO = 0.1

KANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"


@dataclass(frozen=True)
class Run:
    seconds: float
    rss_mib: float  # this child's peak resident memory
    code: int
    stdout: bytes


TIME = Path("/usr/bin/time")
# Without GNU time: a small Python process runs the command and writes its child's peak RSS (KiB).
_WRAPPER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[2:])\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def measure(cmd: list[str], env: dict[str, str]) -> Run:
    """One run of a command: wall time, its peak RSS, exit code and output. The RSS is taken by
    a small process that starts the command (GNU time, else _WRAPPER), not by this one: a child
    forked from this process would count this process's memory in its own peak."""
    with tempfile.TemporaryDirectory() as tmp:
        rss_file = Path(tmp) / "rss"
        if TIME.exists():
            wrapped = [str(TIME), "-f", "%M", "-o", str(rss_file), *cmd]
        else:
            wrapped = [sys.executable, "-c", _WRAPPER, str(rss_file), *cmd]
        start = time.perf_counter()
        done = subprocess.run(wrapped, env=env, capture_output=True, check=False)
        seconds = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(
                f"{cmd[2:5]} failed with exit {done.returncode}: "
                + done.stderr.decode(errors="replace")
            )
        rss_kib = int(rss_file.read_text(encoding="utf-8").split()[-1])
    return Run(seconds, rss_kib / 1024, done.returncode, done.stdout)


# --- the database ---------------------------------------------------------------------------


def generate(dest: Path) -> list[tuple[str, str, str]]:
    """Write the database into dest (which must not exist); return each generated card's
    (English, Japanese, Chinese) name, for the unknown-names deck."""
    rng = random.Random(27)
    names: list[tuple[str, str, str]] = []
    shutil.copytree(BUNDLED / "sets", dest / "sets" / "bundled")
    serial = 0
    first: list[str] = []
    reprint: list[str] = []
    codes = []
    for n in range(SETS):
        code = f"S{n + 1:03d}"
        codes.append(code)
        lines = [
            f"# Generated benchmark set {code} (benchmarks/bench_scale.py): not real cards.",
            "set:",
            f"  code: {code}",
            f"  name: Scale {n + 1}",
            f"  released: {2000 + n // 12:04d}-{n % 12 + 1:02d}-01",
            "cards:",
        ]
        for i in range(PER_SET):
            card_id = f"{code}-{i + 1:03d}"
            if i == PER_SET - 1 and reprint:  # a reprint of the previous set's first card
                lines += [f"  - id: {card_id}", *reprint[1:-1], "    rarity: PR"]
                continue
            serial += 1
            card = _card(rng, card_id, serial)
            lines += card
            english = card[1].removeprefix("    name: ")
            ja, zh = card[2].removeprefix("    names: {ja: ").removesuffix("}").split(", zh: ")
            names.append((english, ja, zh))
            if i == 0:
                first = card
        reprint = first
        folder = dest / "sets" / f"{n // 50:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{code.lower()}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    banned = ", ".join(f"{code}-{n % PER_SET + 1:03d}" for n, code in enumerate(codes[::25]))
    formats = (BUNDLED / "formats.yaml").read_text(encoding="utf-8").rstrip("\n")
    formats += (
        "\n  scale:\n"
        "    name: Scale\n"
        "    max_effect_portals: 2\n"
        f"    sets: [{', '.join(codes)}]\n"
        f"    banned: [{banned}]\n"
        f"    restricted: {{{codes[1]}-002: 1}}\n"
    )
    (dest / "formats.yaml").write_text(formats, encoding="utf-8")
    return names


def _typo(rng: random.Random, name: str) -> str:
    """The name with one edit: two neighbours swapped, one character dropped, doubled or
    changed (to a letter, or a kana in a Japanese name)."""
    i = rng.randrange(1, len(name) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]
    if kind == 1:
        return name[:i] + name[i + 1 :]
    if kind == 2:
        return name[:i] + name[i] + name[i:]
    other = rng.choice(KANA) if not name[i].isascii() else rng.choice("aeiourstnl")
    return name[:i] + other + name[i + 1 :]


def unknown_deck(names: list[tuple[str, str, str]], known: set[str]) -> str:
    """A text-list deck of UNKNOWN_NAMES names no card has, DECK_BYTES long: each a typo of a
    card's name (English, Japanese or Chinese), its line padded with a comment."""
    from varz_deck.core.cards.model import normalize

    rng = random.Random(2027)
    header = "# Generated: 25,000 names no card has (benchmarks/bench_scale.py)\n"
    header += "Hero: Hibiki Kagura\nFormat: standard\n\nSpells:\n"
    lines: list[str] = []
    while len(lines) < UNKNOWN_NAMES:
        english, ja, zh = rng.choice(names)
        name = rng.choices((english, ja, zh), (6, 3, 1))[0]
        typo = _typo(rng, name)
        if normalize(typo) in known or typo.strip() != typo:
            continue
        lines.append(f"1 {typo}")
    budget = DECK_BYTES - len(header.encode())
    used = sum(len(line.encode()) + 1 for line in lines)
    spare, extra = divmod(budget - used, len(lines))
    padded = []
    for n, line in enumerate(lines):
        pad = spare + (1 if n < extra else 0)
        if pad >= 4:
            words = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(pad // 4 + 1))
            line += ("  # " + words)[:pad]
        padded.append(line)
    text = header + "\n".join(padded) + "\n"
    assert len(text.encode()) <= DECK_BYTES, len(text.encode())
    return text


def prepare(folder: Path) -> tuple[Path, Path, list[tuple[str, str, str]]]:
    """The database and the unknown-names deck in folder, generated when missing."""
    base = folder / f"generator-{GENERATOR}"
    db, deck, listed = base / "db", base / "unknown-names.txt", base / "names.json"
    if not (db.is_dir() and deck.is_file() and listed.is_file()):
        from varz_deck.core.cards.model import normalize

        print(f"generating {SETS * PER_SET:,} cards in {base} ...", flush=True)
        shutil.rmtree(base, ignore_errors=True)
        work = folder / f".generating-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        names = generate(work / "db")
        known = {normalize(n) for triple in names for n in triple}
        (work / "unknown-names.txt").write_text(unknown_deck(names, known), encoding="utf-8")
        (work / "names.json").write_text(json.dumps(names, ensure_ascii=False), encoding="utf-8")
        os.replace(work, base)  # whole or not at all: a run cut short generates again
    names = [(en, ja, zh) for en, ja, zh in json.loads(listed.read_text(encoding="utf-8"))]
    return db, deck, names


# --- what is measured -----------------------------------------------------------------------


def suggestions(output: bytes) -> list[str]:
    """The messages of the F005 diagnostics of `check --output json` that suggest names."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("code") == "F005" and "did you mean" in str(node.get("message", "")):
                found.append(str(node["message"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(output))
    return found[:SUGGESTED]


def compare_suggestions(found: list[str], names_digest: str, record: bool) -> str:
    """Whether the suggestions are the recorded ones (recording them when asked or missing)."""
    header = f"# bench_scale generator {GENERATOR}, names {names_digest}"
    if record or not RECORDED.is_file():
        RECORDED.parent.mkdir(parents=True, exist_ok=True)
        RECORDED.write_text("\n".join([header, *found]) + "\n", encoding="utf-8")
        return f"recorded in {RECORDED.relative_to(ROOT)}"
    first, *recorded = RECORDED.read_text(encoding="utf-8").splitlines()
    if first != header:
        return "not compared: the database is not the recorded one (--record to record it)"
    if recorded == found:
        return "the same as recorded"
    differ = sum(1 for a, b in zip(recorded, found, strict=False) if a != b)
    return f"DIFFERENT from recorded: {differ + abs(len(recorded) - len(found))} of {SUGGESTED}"


def folder_size(folder: Path) -> tuple[int, list[tuple[str, int]]]:
    files = [(p.name, p.stat().st_size) for p in folder.iterdir() if p.is_file()]
    return sum(size for _, size in files), sorted(files, key=lambda f: -f[1])


def _mib(n: float) -> str:
    return f"{n / 1024 / 1024:.1f} MiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("BENCH_REPEATS", "3")))
    parser.add_argument(
        "--folder", type=Path, default=Path(tempfile.gettempdir()) / "varz-bench-scale"
    )
    parser.add_argument("--record", action="store_true", help="record the suggestions anew")
    parser.add_argument(
        "--unknown-only",
        action="store_true",
        help="only the unknown-names deck (its time and suggestions), after the cold build",
    )
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    db, unknown, names = prepare(args.folder)

    from varz_deck.core.cards._hash import blake2b

    names_digest = blake2b(json.dumps(names).encode(), digest_size=8).hexdigest()
    py = sys.executable
    base_env = as_installed(dict(os.environ, NO_COLOR="1"))
    base_env.pop("VARZ_DECK_NO_CACHE", None)
    base_env.pop("VARZ_DECK_CARDS", None)
    caches = args.folder / "caches"
    shutil.rmtree(caches, ignore_errors=True)  # every run starts cold: the first check builds
    env_bundled = dict(base_env, VARZ_DECK_CACHE=str(caches / "bundled"))
    env_scale = dict(base_env, VARZ_DECK_CACHE=str(caches / "scale"))
    check = [py, "-m", "varz_deck", "check"]
    legal_bundled = [*check, str(DECK)]
    legal_scale = [*check, "--cards", str(db), str(DECK)]
    unknown_scale = [*check, "--cards", str(db), "--output", "json", str(unknown)]

    print(f"database: {SETS * PER_SET:,} generated cards in {SETS} files + the bundled sets ({db})")
    measure(legal_bundled, env_bundled)  # fills its cache
    cold = measure(legal_scale, env_scale)
    print(f"cold build (first check, 100k): {cold.seconds:.2f} s, {cold.rss_mib:.0f} MiB")
    if cold.code != 0:
        print("the legal deck is not legal against the generated database", file=sys.stderr)
        return 1
    runs: dict[str, list[Run]] = {"bundled": [], "scale": []}
    for _ in range(0 if args.unknown_only else args.repeats):
        runs["bundled"].append(measure(legal_bundled, env_bundled))
        runs["scale"].append(measure(legal_scale, env_scale))
    if not args.unknown_only:
        wall = {k: statistics.median(r.seconds for r in v) for k, v in runs.items()}
        rss = {k: max(r.rss_mib for r in v) for k, v in runs.items()}
        ratio = wall["scale"] / wall["bundled"]
        print(f"runs per variant: {args.repeats} (alternating; medians; peak RSS the highest)")
        print(f"  check, bundled database:  {wall['bundled']:6.2f} s  {rss['bundled']:6.0f} MiB")
        print(f"  check, 100k database:     {wall['scale']:6.2f} s  {rss['scale']:6.0f} MiB")
        print(
            f"check 100k / bundled: {ratio:.1f}x wall (target <= {MAX_CHECK_RATIO}x), "
            f"{rss['scale']:.0f} MiB (target <= {MAX_CHECK_MIB:.0f} MiB)"
        )

    unknown_runs = [measure(unknown_scale, env_scale) for _ in range(args.repeats)]
    unknown_wall = statistics.median(r.seconds for r in unknown_runs)
    unknown_rss = max(r.rss_mib for r in unknown_runs)
    found = suggestions(unknown_runs[0].stdout)
    if any(suggestions(r.stdout) != found for r in unknown_runs[1:]):
        print("the suggestions differ from run to run", file=sys.stderr)
        return 1
    same = compare_suggestions(found, names_digest, args.record)
    print(
        f"1 MiB deck, {UNKNOWN_NAMES:,} unknown names, warm: {unknown_wall:.2f} s "
        f"(target <= {MAX_UNKNOWN_SECONDS:.0f} s), {unknown_rss:.0f} MiB; "
        f"{len(found)} suggestions, {same}"
    )
    size, files = folder_size(caches / "scale")
    print(
        f"cache of the 100k database: {_mib(size)} ({', '.join(f'{n} {_mib(s)}' for n, s in files)})"
    )
    if args.unknown_only:
        ok = unknown_wall <= MAX_UNKNOWN_SECONDS and not same.startswith("DIFFERENT")
        print("OK" if ok else "FAILED")
        return 0 if ok else 1

    lint = [py, "-m", "varz_deck", "cards", "lint", str(db)]
    changed_file = sorted((db / "sets").glob("*/s250.yaml"))[0]
    original = changed_file.read_bytes()
    cold_t: list[float] = []
    again_t: list[float] = []
    lint_rss: list[float] = []
    try:
        for n in range(args.repeats):
            lint_env = dict(base_env, VARZ_DECK_CACHE=str(caches / f"lint-{n}"))
            first_lint = measure(lint, lint_env)
            changed_file.write_bytes(
                original.replace(b'flavor: "The ', f'flavor: "Once ({n}) the '.encode(), 1)
            )
            second = measure(lint, lint_env)
            changed_file.write_bytes(original)
            if first_lint.code != 0 or second.code != 0:
                print("cards lint finds errors in the generated database", file=sys.stderr)
                return 1
            cold_t.append(first_lint.seconds)
            again_t.append(second.seconds)
            lint_rss += [first_lint.rss_mib, second.rss_mib]
            shutil.rmtree(caches / f"lint-{n}", ignore_errors=True)
    finally:
        changed_file.write_bytes(original)
    cold_m, again_m = statistics.median(cold_t), statistics.median(again_t)
    lint_ratio = again_m / cold_m
    print(
        f"cards lint: cold {cold_m:.2f} s, after one set file changed {again_m:.2f} s: "
        f"{lint_ratio:.2f}x (target <= {MAX_LINT_RATIO}x); {max(lint_rss):.0f} MiB"
    )
    ok = (
        ratio <= MAX_CHECK_RATIO
        and rss["scale"] <= MAX_CHECK_MIB
        and unknown_wall <= MAX_UNKNOWN_SECONDS
        and not same.startswith("DIFFERENT")
        and lint_ratio <= MAX_LINT_RATIO
    )
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
