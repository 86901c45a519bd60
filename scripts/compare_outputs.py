"""Compare varz-deck's output in two source trees, byte for byte (issue 25, "Keep: Output").

Runs the same list of invocations (`python -m varz_deck ...`) in a base tree (today's commit) and a
new tree, and compares exit code, stdout, stderr and every file written, printing a unified diff per
difference and a summary. Exit 0 when everything is the same, 1 when anything differs (with
`--fail-on regressions`, only when something differs that is not expected), 2 on a usage error.

Usage (from the new tree; stdlib only; the interpreter runs both trees):

    /work/main/.venv/bin/python scripts/compare_outputs.py                # base /work/wt/base, new .
    python scripts/compare_outputs.py --base /work/wt/base --new /tmp/cmp-main
    python scripts/compare_outputs.py --list                              # print the invocations
    python scripts/compare_outputs.py --only 'sim|tune' --save /tmp/cmp-out

Each tree runs with PYTHONPATH=<tree>, cwd=<tree>, a fresh cache folder of its own (VARZ_DECK_CACHE),
LANG=C.UTF-8, VARZ_DECK_LANG=en, COLUMNS fixed, no TTY, no bytecode written. Nothing is written in
either tree: written files go to a temporary folder per invocation (OUT). Deck paths are relative to
the tree (examples/...). A tree should have its compiled catalogues (.mo beside every .po, as
hatch_build.py writes them), else its ja and zh output depends on compiling them in memory; the
script warns about each missing one.

The invocations cover every example deck (examples/*.yaml, examples/*.txt, examples/azuki/*), each
without --game (detection) and the second game's also with --game azuki: check in every output and
in ja and zh; register (text, json, csv) and --sheet OUT (every HTML file), --combined per game; code;
verify with the hash today's register prints (and another deck's hash); diff against itself and the
next example of its game; stats, tune and sim --games 2000 --seed 1 (text and json) and one --plot
each per game; the deck on stdin; its deck code as argument (check, code, sim); cards show, search
and lint; rules; schema; --help of every command and group; --version.

Before comparing, both sides are normalised the same way:
- the output folder, the cache folder and the tree's own absolute path become <OUT>, <CACHE>, <TREE>;
- the bundled card database's root becomes <cards:GAME>, for the two known layouts:
  today's `card_data/` (the second game nested at `card_data/azuki/`) and the new
  `varz_deck/games/<game>/card_data/`. The lines this touches are counted and named in the summary
  (e.g. `cards show`'s `file` row, `cards lint`'s file names);
- where such a path sits in a boxed panel (`cards show`), its length sets the panel's width, so in
  those outputs only the panel's borders and padding are collapsed.

Differences are classified:
- expected, detection: a deck of the second game without --game whose new output equals today's
  output of the same invocation with --game azuki (the issue: every command finds the deck's game);
- expected, help names no game: a help text whose removed lines named a game or its words;
- regression: everything else (with the exact invocation and the diff's head).
Also flagged in both trees' runs: a traceback, exit 3 or more, or a time-out.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_BASE = Path("/work/wt/base")
SECOND = "azuki"  # the second bundled game: its examples live in examples/<SECOND>/
GAME_OPT = ("--game", SECOND)
SIM = ("--games", "2000", "--seed", "1")
TIMEOUT = 600.0
OUT = "{out}"

# Cards per game, by id and name; search filters per game (each needs --game for the second one).
SHOW_FIRST = ("VZ02-001", "Homura Tendo", "VZ01-100", "PR-001")
SEARCH_FIRST = (
    ("homura",),
    ("--type", "portal"),
    ("--color", "blue", "--cost", "2"),
    ("--class", "ninja"),
    ("--keyword", "haste"),
    ("nothing-matches-this",),
)
SHOW_SECOND = ("STT01-001", "IKZ-001", "Raizan's Riposte")
SEARCH_SECOND = (
    ("raizan",),
    ("--type", "gate"),
    ("--color", "fire", "--cost", "2"),
    ("--class", "Steelborn"),
    ("--keyword", "response"),
)
RULE_CODES = ("V105", "A101", "F005", "C001", "W201", "Z999")
SCHEMAS = ("card", "deck", "formats", "azuki-card", "azuki-deck")
HELP_PATHS = (
    (),
    ("check",),
    ("rules",),
    ("schema",),
    ("sim",),
    ("stats",),
    ("tune",),
    ("register",),
    ("verify",),
    ("diff",),
    ("code",),
    ("lsp",),
    ("serve",),
    ("cards",),
    ("cards", "lint"),
    ("cards", "show"),
    ("cards", "search"),
    ("cache",),
    ("cache", "info"),
    ("cache", "clear"),
    ("event",),
    ("event", "create"),
    ("event", "list"),
)
# Words that name a game in a help text (the games' names, their lead cards, sections and resources).
GAME_WORDS = re.compile(
    r"\b(varz|azuki|heroe?s?|portals?|leaders?|gates?|ikz|vaz|v-sync|spil|skill classe?s?|elements?)\b"
    r"(?![-_]deck)",
    re.IGNORECASE,
)
# The bundled database's root in either layout, relative to the tree or after <TREE>/ (kept, so a
# path printed relative in one tree and absolute in the other still differs).
_START = r"(?:(?<=<TREE>/)|(?<![\w./<>-]))"
DB_ROOTS = (
    (re.compile(_START + r"varz_deck/games/(\w+)/card_data(?![\w-]|\.\w)"), r"<cards:\1>"),
    (re.compile(_START + rf"card_data/{SECOND}(?![\w-]|\.\w)"), f"<cards:{SECOND}>"),
    # the bundled data at the top, one folder per game (card_data/varz, card_data/azuki)
    (re.compile(_START + r"card_data/(varz)(?![\w-]|\.\w)"), r"<cards:\1>"),
    (re.compile(_START + r"card_data(?![\w-]|\.\w)"), "<cards:varz>"),
)
PANEL_EDGE = re.compile(r"─+")
TRACEBACK = "Traceback (most recent call last)"


@dataclass(frozen=True)
class Invocation:
    """One run of the command line: arguments (OUT marks the output folder) and stdin's file."""

    args: tuple[str, ...]
    stdin: str | None = None
    help: bool = False
    pair: str | None = None  # the same run with --game: what detection must reproduce

    @property
    def key(self) -> str:
        text = " ".join(shlex.quote(a).replace(OUT, "OUT") for a in self.args)
        return text + (f" < {self.stdin}" if self.stdin else "")


@dataclass
class Result:
    """What one invocation did in one tree, already normalised."""

    rc: int | str
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes]
    seconds: float
    db_lines: list[str] = field(default_factory=list)
    panel: bool = False

    def same(self, other: Result) -> bool:
        return (self.rc, self.stdout, self.stderr, self.files) == (
            other.rc,
            other.stdout,
            other.stderr,
            other.files,
        )


@dataclass(frozen=True)
class Tree:
    """A source tree and the folders its runs use."""

    label: str
    root: Path
    work: Path

    @property
    def cache(self) -> Path:
        return self.work / "cache"


def decks(base: Path) -> tuple[list[str], list[str]]:
    """The example decks of the first and second game, relative to the tree."""
    first = sorted(
        p.relative_to(base).as_posix()
        for pattern in ("examples/*.yaml", "examples/*.txt")
        for p in base.glob(pattern)
        if p.is_file()
    )
    second = sorted(
        p.relative_to(base).as_posix()
        for p in (base / "examples" / SECOND).glob("*")
        if p.is_file()
    )
    return first, second


def _with_game(args: Sequence[str]) -> tuple[str, ...]:
    return (*args, *GAME_OPT)


def _variants(args: Sequence[str], second: bool, stdin: str | None = None) -> list[Invocation]:
    """The run without --game and, for the second game, the run with it (its detection pair)."""
    plain = Invocation(tuple(args), stdin)
    if not second:
        return [plain]
    paired = Invocation(_with_game(args), stdin)
    return [Invocation(tuple(args), stdin, pair=paired.key), paired]


def first_phase(first: list[str], second: list[str]) -> list[Invocation]:
    """Every invocation that needs nothing from another's output."""
    runs: list[Invocation] = []
    for games_decks, is_second in ((first, False), (second, True)):
        for i, deck in enumerate(games_decks):
            other = games_decks[(i + 1) % len(games_decks)]
            per_deck: list[tuple[str, ...]] = [
                *(("check", deck, "--output", o) for o in ("text", "json", "github", "sarif")),
                *(("check", deck, "--lang", lang) for lang in ("ja", "zh")),
                *(("register", deck, "--output", o) for o in ("text", "json", "csv")),
                ("register", deck, "--sheet", f"{OUT}/sheets"),
                ("code", deck),
                ("diff", deck, deck),
                ("diff", deck, other),
                ("diff", deck, other, "--output", "json"),
                *((cmd, deck, *o) for cmd in ("stats", "tune") for o in ((), ("--output", "json"))),
                ("sim", deck, *SIM),
                ("sim", deck, *SIM, "--output", "json"),
            ]
            if i == 0:
                per_deck += [
                    ("stats", deck, "--plot", f"{OUT}/stats.svg"),
                    ("tune", deck, "--plot", f"{OUT}/tune.svg"),
                    ("sim", deck, *SIM, "--plot", f"{OUT}/sim.svg"),
                    ("register", deck, "--lang", "ja"),
                    ("sim", "-", *SIM),
                    ("register", "-"),
                ]
            for args in per_deck:
                stdin = deck if "-" in args else None
                runs += _variants(args, is_second, stdin)
            runs += _variants(("check", "-"), is_second, deck)
        combined = ("register", *games_decks, "--sheet", f"{OUT}/sheets", "--combined")
        runs += _variants(combined, is_second)
    runs += [Invocation(("cards", "show", ref)) for ref in SHOW_FIRST]
    runs += [Invocation(("cards", "show", SHOW_FIRST[0], "--lang", "ja"))]
    runs += [Invocation(("cards", "search", *f)) for f in SEARCH_FIRST]
    runs += [Invocation(("cards", "show", ref, *GAME_OPT)) for ref in SHOW_SECOND]
    runs += [Invocation(("cards", "show", SHOW_SECOND[0]))]
    runs += [Invocation(("cards", "search", *f, *GAME_OPT)) for f in SEARCH_SECOND]
    runs += [Invocation(("cards", "lint", "--output", o)) for o in ("text", "json", "sarif")]
    runs += [Invocation(("rules",)), Invocation(("rules", "--lang", "ja"))]
    runs += [Invocation(("rules", code)) for code in RULE_CODES]
    runs += [Invocation(("rules", RULE_CODES[0], "--lang", "zh"))]
    runs += [Invocation(("schema", name)) for name in SCHEMAS]
    runs += [Invocation((*path, "--help"), help=True) for path in HELP_PATHS]
    runs += [Invocation(("--version",))]
    return runs


def _stdout_text(result: Result | None) -> str:
    return result.stdout.decode("utf-8", "replace") if result else ""


def _deck_hash(result: Result | None) -> str | None:
    try:
        found = json.loads(_stdout_text(result))["registrations"][0]["deck_hash"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return found if isinstance(found, str) else None


def sources(first: list[str], second: list[str]) -> list[Invocation]:
    """Today's runs the second phase reads: each deck's registration JSON and its code."""
    runs = []
    for games_decks, is_second in ((first, False), (second, True)):
        extra = GAME_OPT if is_second else ()
        for deck in games_decks:
            runs.append(Invocation(("register", deck, "--output", "json", *extra)))
            runs.append(Invocation(("code", deck, *extra)))
    return runs


def second_phase(
    first: list[str], second: list[str], today: Callable[[Invocation], Result | None]
) -> list[Invocation]:
    """verify with today's hashes, and today's deck codes as arguments."""
    runs: list[Invocation] = []
    for games_decks, is_second in ((first, False), (second, True)):
        extra = GAME_OPT if is_second else ()

        def hash_of(deck: str, extra: tuple[str, ...] = extra) -> str:
            found = _deck_hash(today(Invocation(("register", deck, "--output", "json", *extra))))
            return found or "v1-0000000000"

        for i, deck in enumerate(games_decks):
            other = games_decks[(i + 1) % len(games_decks)]
            runs += _variants(("verify", deck, "--hash", hash_of(deck)), is_second)
            runs += _variants(("verify", deck, "--hash", hash_of(other)), is_second)
            runs += _variants(("verify", deck, "--hash", hash_of(deck), "-o", "json"), is_second)
            coded = today(Invocation(("code", deck, *extra)))
            code = _stdout_text(coded).strip()
            if coded and coded.rc == 0 and code and "\n" not in code:
                for args in (("check", code), ("code", code), ("sim", code, *SIM)):
                    runs += _variants(args, is_second)
    return runs


def normalise(data: bytes, tree: Tree, out: Path) -> tuple[bytes, list[str]]:
    """The placeholders both trees share; with the lines a database root was replaced in."""
    text = data.decode("utf-8", "surrogateescape")
    for path, mark in ((out, "<OUT>"), (tree.cache, "<CACHE>"), (tree.work, "<WORK>")):
        text = text.replace(str(path), mark)
    for root in {str(tree.root), str(tree.root.resolve())}:
        text = text.replace(root, "<TREE>")
    touched: list[str] = []
    lines = text.split("\n")
    for n, line in enumerate(lines):
        new = line
        for pattern, mark in DB_ROOTS:
            new = pattern.sub(mark, new)
        if new != line:
            touched.append(new.strip())
            lines[n] = new
    return "\n".join(lines).encode("utf-8", "surrogateescape"), touched


def collapse_panels(data: bytes) -> bytes:
    """A boxed panel without its width: borders shortened, padding stripped."""
    lines = []
    for line in data.decode("utf-8", "surrogateescape").split("\n"):
        if line[:1] in "╭╰":
            line = PANEL_EDGE.sub("─", line)
        elif line[:1] == "│" and line.rstrip().endswith("│"):
            line = "│ " + line.strip()[1:-1].strip() + " │"
        lines.append(line)
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def run(py: str, tree: Tree, inv: Invocation, index: int, columns: int) -> Result:
    """Run one invocation in one tree, its output folder fresh, and normalise what it did."""
    out = tree.work / f"{index:05d}"
    out.mkdir(parents=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tree.work / "home"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "VARZ_DECK_LANG": "en",
        "VARZ_DECK_CACHE": str(tree.cache),
        "MPLCONFIGDIR": str(tree.work / "mpl"),
        "COLUMNS": str(columns),
        "LINES": "50",
        "PYTHONPATH": str(tree.root),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
    }
    args = [a.replace(OUT, str(out)) for a in inv.args]
    stdin = (tree.root / inv.stdin).read_bytes() if inv.stdin else b""
    started = time.monotonic()
    try:
        done = subprocess.run(
            [py, "-m", "varz_deck", *args],
            input=stdin,
            capture_output=True,
            cwd=tree.root,
            env=env,
            timeout=TIMEOUT,
            check=False,
        )
        rc: int | str = done.returncode
        raw_out, raw_err = done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        rc, raw_out, raw_err = "timeout", exc.stdout or b"", exc.stderr or b""
    seconds = time.monotonic() - started
    stdout, db_out = normalise(raw_out, tree, out)
    stderr, db_err = normalise(raw_err, tree, out)
    files: dict[str, bytes] = {}
    db_lines = db_out + db_err
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        files[path.relative_to(out).as_posix()], touched = normalise(path.read_bytes(), tree, out)
        db_lines += touched
    shutil.rmtree(out, ignore_errors=True)
    result = Result(rc, stdout, stderr, files, seconds, db_lines)
    if db_lines and b"\xe2\x94\x82" in stdout:  # "│": a boxed panel holds the path
        result.stdout, result.panel = collapse_panels(stdout), True
    return result


def run_all(
    py: str, trees: Sequence[Tree], runs: Sequence[Invocation], start: int, jobs: int, columns: int
) -> list[dict[str, Result]]:
    """Run every invocation in every tree, interleaved, in one pool of `jobs` workers."""
    work = [(t, inv, start + i) for i, inv in enumerate(runs) for t in range(len(trees))]
    results: list[dict[str, Result]] = [{} for _ in trees]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [(t, inv, pool.submit(run, py, trees[t], inv, i, columns)) for t, inv, i in work]
        for n, (t, inv, future) in enumerate(futures, 1):
            results[t][inv.key] = future.result()
            if n % 50 == 0 or n == len(futures):
                print(f"  {n}/{len(futures)} runs", file=sys.stderr, flush=True)
    return results


def _text(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def unified(a: bytes, b: bytes, what: str, limit: int) -> list[str]:
    """The head of a unified diff of two outputs (or a note when only bytes differ)."""
    lines = list(
        difflib.unified_diff(_text(a), _text(b), f"base/{what}", f"new/{what}", n=1, lineterm="")
    )
    lines = [line.rstrip("\n") for line in lines]
    if not lines:
        return [f"  {what}: differs in bytes only (line endings, trailing newline or encoding)"]
    more = len(lines) - limit
    head = ["  " + line for line in lines[:limit]]
    return head + ([f"  ... {more} more diff lines"] if more > 0 else [])


def describe(base: Result, new: Result, limit: int) -> list[str]:
    """Every way two results differ, as diff heads."""
    out: list[str] = []
    if base.rc != new.rc:
        out.append(f"  exit: {base.rc} -> {new.rc}")
    if base.stdout != new.stdout:
        out += unified(base.stdout, new.stdout, "stdout", limit)
    if base.stderr != new.stderr:
        out += unified(base.stderr, new.stderr, "stderr", limit)
    for name in sorted(set(base.files) | set(new.files)):
        if name not in new.files:
            out.append(f"  file {name}: written only by base")
        elif name not in base.files:
            out.append(f"  file {name}: written only by new")
        elif base.files[name] != new.files[name]:
            out += unified(base.files[name], new.files[name], f"file {name}", limit)
    return out


def _help_names_game(base: Result, new: Result) -> bool:
    removed = [
        line[1:]
        for line in difflib.unified_diff(_text(base.stdout), _text(new.stdout), n=0)
        if line.startswith("-") and not line.startswith("---")
    ]
    return (
        base.rc == new.rc
        and base.stderr == new.stderr
        and any(GAME_WORDS.search(line) for line in removed)
    )


def check_trees(roots: Iterable[Path]) -> tuple[list[str], list[str]]:
    """Why a tree cannot be compared (not a source tree), and what may make it differ (a
    catalogue not compiled: ja and zh then depend on the tree compiling it in memory)."""
    problems, warnings = [], []
    for root in roots:
        if not (root / "varz_deck" / "__main__.py").is_file():
            problems.append(f"{root}: no varz_deck/__main__.py here")
            continue
        for po in sorted((root / "varz_deck").rglob("*.po")):
            if not po.with_suffix(".mo").is_file():
                warnings.append(f"{po}: no compiled {po.with_suffix('.mo').name} beside it")
    return problems, warnings


def save(folder: Path, trees: Sequence[Tree], results: list[dict[str, Result]]) -> None:
    """Write each tree's normalised outputs, one file set per invocation, to compare by hand."""
    for tree, found in zip(trees, results, strict=True):
        for n, (key, result) in enumerate(sorted(found.items())):
            stem = folder / tree.label / f"{n:04d}"
            stem.parent.mkdir(parents=True, exist_ok=True)
            stem.with_suffix(".cmd").write_text(f"{key}\nexit {result.rc}\n", encoding="utf-8")
            stem.with_suffix(".out").write_bytes(result.stdout)
            stem.with_suffix(".err").write_bytes(result.stderr)
            for name, data in result.files.items():
                (stem.parent / f"{n:04d}.file.{name.replace('/', '_')}").write_bytes(data)


Found = list[tuple[Invocation, list[str]]]


@dataclass
class Findings:
    """Every invocation whose outputs differ, by kind."""

    same: int = 0
    regressions: Found = field(default_factory=list)
    detection: Found = field(default_factory=list)
    help_texts: Found = field(default_factory=list)
    undetected: list[str] = field(default_factory=list)


def classify(
    runs: Sequence[Invocation], base: dict[str, Result], new: dict[str, Result], limit: int
) -> Findings:
    """Sort the differences: detection, help naming a game, or regression."""
    found = Findings()
    for inv in runs:
        b, n = base[inv.key], new[inv.key]
        paired = base.get(inv.pair) if inv.pair else None
        detected = new.get(inv.pair) if inv.pair else None
        if detected is not None and not detected.same(n):
            found.undetected.append(inv.key)
        if b.same(n):
            found.same += 1
            continue
        lines = describe(b, n, limit)
        if paired is not None and paired.same(n):
            found.detection.append((inv, lines))
        elif inv.help and _help_names_game(b, n):
            found.help_texts.append((inv, lines))
        else:
            if detected is not None and detected.same(n):
                lines.append(
                    f"  (the same as the new `{inv.pair}`: the game is found; see that run)"
                )
            elif paired is not None:
                lines.append(f"  against today's `{inv.pair}` (what detection should give):")
                lines += describe(paired, n, limit)
            found.regressions.append((inv, lines))
    return found


def alarms(
    runs: Sequence[Invocation], trees: Sequence[Tree], results: list[dict[str, Result]]
) -> list[str]:
    """Runs that crashed (a traceback), exited 3 or more, or timed out, in either tree."""
    out = []
    for tree, found in zip(trees, results, strict=True):
        for inv in runs:
            result = found[inv.key]
            crashed = TRACEBACK.encode() in result.stderr
            if crashed or not isinstance(result.rc, int) or result.rc not in (0, 1, 2):
                out.append(
                    f"  {tree.label}: {inv.key}: exit {result.rc}"
                    + (" (traceback)" if crashed else "")
                )
    return out


def _section(title: str, found: Found, diffs: bool) -> None:
    print(f"\n== {title}: {len(found)}")
    for inv, lines in found:
        print(f"--- {inv.key}")
        if diffs:
            print("\n".join(lines))


def report(
    runs: Sequence[Invocation],
    trees: Sequence[Tree],
    results: list[dict[str, Result]],
    found: Findings,
    crashes: list[str],
    show_expected: bool,
) -> None:
    """Print the differences by kind, the normalised lines and a summary."""
    _section("REGRESSIONS (differ, not expected)", found.regressions, True)
    _section(
        f"EXPECTED, detection (new output = today's run with --game {SECOND})",
        found.detection,
        show_expected,
    )
    _section("EXPECTED, help names no game", found.help_texts, True)
    print(f"\n== Crashes, exit >= 3, time-outs: {len(crashes)}")
    print("\n".join(crashes))
    print(
        f"\n== Detection not reaching: runs without --game whose new output is not the new tree's"
        f" with --game {SECOND}: {len(found.undetected)}"
    )
    print("\n".join(f"  {key}" for key in found.undetected))
    touched = [
        (tree.label, inv.key, result)
        for tree, by_key in zip(trees, results, strict=True)
        for inv in runs
        if (result := by_key[inv.key]).db_lines
    ]
    print(
        f"\n== Database paths normalised: {sum(len(r.db_lines) for *_, r in touched)} lines "
        f"in {len({k for _, k, _ in touched})} invocations"
    )
    for label, key, result in touched:
        panel = " (panel collapsed)" if result.panel else ""
        print(f"  {label}: {key}{panel}: {len(result.db_lines)} lines, e.g. {result.db_lines[0]!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, default=DEFAULT_BASE, help="today's tree")
    parser.add_argument("--new", type=Path, default=Path.cwd(), help="the tree to check")
    parser.add_argument("--python", default=sys.executable, help="interpreter for both trees")
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="runs at once")
    parser.add_argument("--columns", type=int, default=80, help="terminal width (COLUMNS)")
    parser.add_argument("--only", help="regular expression: run the invocations it matches")
    parser.add_argument("--list", action="store_true", help="print the invocations and stop")
    parser.add_argument("--max-diff-lines", type=int, default=30, help="diff lines per output")
    parser.add_argument("--show-expected", action="store_true", help="diff detection ones too")
    parser.add_argument("--save", type=Path, help="write both trees' normalised outputs here")
    parser.add_argument("--fail-on", choices=("any", "regressions"), default="any")
    ns = parser.parse_args(argv)
    base_root, new_root = ns.base.resolve(), ns.new.resolve()
    first, second = decks(base_root)
    only = re.compile(ns.only) if ns.only else None

    def chosen(runs: list[Invocation]) -> list[Invocation]:
        """The runs --only matches, each once, with the --game runs their detection needs."""
        unique = {r.key: r for r in runs if only is None or only.search(r.key)}
        pairs = {r.key: r for r in runs if r.key in {u.pair for u in unique.values()}}
        return list({**unique, **pairs}.values())

    phase_one = first_phase(first, second)
    if ns.list:
        listed = {"register": b'{"registrations": [{"deck_hash": "HASH"}]}', "code": b"CODE"}

        def placeholder(inv: Invocation) -> Result:
            return Result(0, listed[inv.args[0]], b"", {}, 0.0)

        for inv in chosen(phase_one + second_phase(first, second, placeholder)):
            print(inv.key)
        return 0
    problems, warnings = check_trees([base_root, new_root])
    if warnings:
        print("compare_outputs: warning:\n  " + "\n  ".join(warnings), file=sys.stderr)
    if base_root == new_root:
        problems.append("--base and --new are the same tree")
    if problems:
        print("compare_outputs: cannot compare:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="cmp-outputs-"))
    # Same-length work folders, so a path that reaches the output wraps the same in both trees.
    trees = [Tree("base", base_root, work / "a"), Tree("new", new_root, work / "b")]
    for tree in trees:
        for sub in ("cache", "home", "mpl"):
            (tree.work / sub).mkdir(parents=True)
    started = time.monotonic()
    runs = chosen(phase_one)
    print(
        f"base {base_root}\nnew  {new_root}\nphase 1: {len(runs)} invocations x 2 trees",
        file=sys.stderr,
    )
    results = run_all(ns.python, trees, runs, 0, ns.jobs, ns.columns)
    # The second phase reads hashes and codes from today's runs: run those --only left out.
    missing = [inv for inv in sources(first, second) if inv.key not in results[0]]
    support = run_all(ns.python, trees[:1], missing, len(runs), ns.jobs, ns.columns)[0]
    phase_two = chosen(
        second_phase(first, second, lambda i: results[0].get(i.key) or support.get(i.key))
    )
    print(f"phase 2: {len(phase_two)} invocations x 2 trees", file=sys.stderr)
    more = run_all(ns.python, trees, phase_two, len(runs) + len(missing), ns.jobs, ns.columns)
    for t in range(2):
        results[t].update(more[t])
    elapsed = time.monotonic() - started
    all_runs = runs + phase_two
    found = classify(all_runs, results[0], results[1], ns.max_diff_lines)
    crashes = alarms(all_runs, trees, results)
    report(all_runs, trees, results, found, crashes, ns.show_expected)
    new_first, new_second = decks(new_root)
    only_one = sorted(set(first + second) ^ set(new_first + new_second))
    if only_one:
        print(f"\n== Example decks in one tree only (not run): {', '.join(only_one)}")
    slowest = max(
        (r.seconds, t.label, k) for t, rs in zip(trees, results, strict=True) for k, r in rs.items()
    )
    print(
        f"\n== Summary: {len(all_runs)} invocations per tree, {found.same} the same, "
        f"{len(found.regressions)} regressions, {len(found.detection)} detection, "
        f"{len(found.help_texts)} help texts, {len(crashes)} crashes; {elapsed:.0f} s "
        f"(slowest run {slowest[0]:.1f} s: {slowest[1]} {slowest[2]})"
    )
    if ns.save:
        save(ns.save, trees, results)
        print(f"outputs saved in {ns.save}/base and {ns.save}/new")
    shutil.rmtree(work, ignore_errors=True)
    differ = found.regressions
    if ns.fail_on == "any":
        differ = differ + found.detection + found.help_texts
    return 1 if differ or crashes else 0


if __name__ == "__main__":
    sys.exit(main())
