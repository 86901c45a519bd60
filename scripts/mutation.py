"""Mutation testing of the code a restructuring must not break (issue 10), with mutmut.

    python scripts/mutation.py                  # every module below, then the table of scores
    python scripts/mutation.py sanitiser exact  # some modules only
    python scripts/mutation.py --report         # the table from the last run, nothing re-run
    python scripts/mutation.py --list           # the modules and their mutant-name patterns
    python scripts/mutation.py --retry exact    # only the last run's survivors (after new tests)
    python scripts/mutation.py --resume         # only the mutants an interrupted run left

mutmut (configured in pyproject.toml, `[tool.mutmut]`) copies the package to mutants/, mutates
the files `only_mutate` names, and runs, for each mutant, only the tests that call the mutated
function. This script picks the functions of each module (the exact part of the Azuki goldfish,
`safe` and its helper in sanitize.py), runs them module by module, and counts the results;
the mutants judged equivalent (no test can tell them from the original) are listed with their
reason in scripts/mutation_equivalent.txt and left out of the score.

Slow: minutes per module on two cores. It never runs as part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "scripts" / "mutation_equivalent.txt"


@dataclass(frozen=True)
class Target:
    """A module under mutation testing: its file (the first of `paths` that exists; the canonical
    form may move), and the functions mutated in it ("*" for all)."""

    key: str
    title: str
    paths: tuple[str, ...]
    functions: tuple[str, ...] = ("*",)

    def files(self, root: Path = ROOT) -> list[Path]:
        for path in self.paths:
            found = root / path
            if found.is_dir():
                return sorted(found.glob("*.py"))
            if found.is_file():
                return [found]
        return []

    def patterns(self, root: Path = ROOT) -> list[str]:
        """mutmut mutant-name patterns: `module.x_function__mutmut_N` (methods: `xǁClassǁname`)."""
        out = []
        for file in self.files(root):
            module = ".".join(file.relative_to(root).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            for function in self.functions:
                if function == "*":
                    out.append(f"{module}.x*__mutmut_*")
                else:
                    out.append(f"{module}.x_{function}__mutmut_*")
        return out


TARGETS = (
    Target("varz-rules", "VARZ rules", ("varz_deck/games/varz/rules",)),
    Target("azuki-rules", "Azuki rules", ("varz_deck/games/azuki/rules.py",)),
    Target("varz-exact", "VARZ exact formulas", ("varz_deck/games/varz/sim/exact.py",)),
    Target(
        "azuki-exact",
        "Azuki exact formulas",
        ("varz_deck/games/azuki/sim.py",),
        ("seen_by", "ikz_on", "p_among", "exact", "_exact_with_se"),
    ),
    Target(
        "canonical",
        "Deck hash canonical form",
        (
            "varz_deck/core/registration/canonical.py",
            "varz_deck/games/varz/registration/canonical.py",
        ),
    ),
    Target("strictyaml", "Strict YAML loader", ("varz_deck/core/strictyaml.py",)),
    Target("sanitiser", "Output sanitiser", ("varz_deck/core/sanitize.py",), ("safe", "_escape")),
)
BY_KEY = {t.key: t for t in TARGETS}

# mutmut's exit codes (mutmut/stats.py) by what they mean here.
KILLED = {1, 3, 37}
SURVIVED = {0}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}


def equivalent(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """Mutant name -> why it is equivalent (one `name  reason` a line; # starts a comment)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def results(target: Target, root: Path = ROOT) -> dict[str, int | None]:
    """Exit code by mutant name from mutmut's files in mutants/ (None: not run yet)."""
    patterns = target.patterns(root)
    out: dict[str, int | None] = {}
    for file in target.files(root):
        meta = root / "mutants" / (str(file.relative_to(root)) + ".meta")
        if not meta.exists():
            continue
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        for name, code in codes.items():
            if any(fnmatch(name, p) for p in patterns):
                out[name] = code
    return out


def score(target: Target, root: Path = ROOT) -> dict[str, int]:
    found = results(target, root)
    same = equivalent()
    counts: Counter[str] = Counter()
    for name, code in found.items():
        if name in same:
            counts["equivalent"] += 1
        elif code in KILLED:
            counts["killed"] += 1
        elif code in SURVIVED:
            counts["survived"] += 1
        elif code in TIMEOUT:
            counts["timeout"] += 1
        elif code in NO_TESTS:
            counts["no tests"] += 1
        elif code is None:
            counts["not run"] += 1
        else:
            counts["other"] += 1
    counts["total"] = len(found)
    return dict(counts)


def table(targets: list[Target]) -> str:
    head = "| module | mutants | killed | survived | equivalent | timeout | no tests | score |"
    lines = [head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for target in targets:
        c = score(target)
        judged = c.get("killed", 0) + c.get("timeout", 0) + c.get("survived", 0)
        judged += c.get("no tests", 0)
        rate = (
            f"{100 * (c.get('killed', 0) + c.get('timeout', 0)) / judged:.1f}%" if judged else "-"
        )
        lines.append(
            f"| {target.title} | {c.get('total', 0)} | {c.get('killed', 0)} | "
            f"{c.get('survived', 0)} | {c.get('equivalent', 0)} | {c.get('timeout', 0)} | "
            f"{c.get('no tests', 0)} | {rate} |"
        )
    return "\n".join(lines)


def survivors(targets: list[Target]) -> list[str]:
    same = equivalent()
    return sorted(
        name
        for target in targets
        for name, code in results(target).items()
        if code in SURVIVED | NO_TESTS and name not in same
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE", help=", ".join(BY_KEY))
    parser.add_argument("--report", action="store_true", help="print the last results only")
    parser.add_argument("--list", action="store_true", help="print the modules and patterns")
    parser.add_argument("--retry", action="store_true", help="re-run only the last survivors")
    parser.add_argument("--resume", action="store_true", help="run only the mutants not run yet")
    parser.add_argument("--max-children", type=int, default=2, help="parallel test processes")
    args = parser.parse_args(argv)
    unknown = [k for k in args.modules if k not in BY_KEY]
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}; choose from {', '.join(BY_KEY)}")
    targets = [BY_KEY[k] for k in args.modules] or list(TARGETS)
    if args.list:
        for target in targets:
            print(target.key, *target.patterns())
        return 0
    if not args.report:
        for target in targets:
            for file in target.files():
                # A copy mutmut made before the file was under mutation is never mutated later.
                copy = ROOT / "mutants" / file.relative_to(ROOT)
                if copy.exists() and not copy.with_name(copy.name + ".meta").exists():
                    copy.unlink()
            if args.retry:
                names = survivors([target])
            elif args.resume:
                names = sorted(n for n, code in results(target).items() if code is None)
            else:
                names = target.patterns()
            if not names:
                continue
            print(f"== {target.title}", flush=True)
            command = [sys.executable, "-m", "mutmut", "run", "--max-children"]
            command += [str(args.max_children), *names]
            done = subprocess.run(command, cwd=ROOT, check=False)
            if done.returncode != 0:
                print(f"mutmut stopped with exit code {done.returncode}", file=sys.stderr)
                return done.returncode
    print(table(targets))
    left = survivors(targets)
    if left:
        print("\nSurviving mutants not judged equivalent (`mutmut show NAME`):")
        print("\n".join(f"  {name}" for name in left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
