"""`benchmarks/run.py`, the README's one command for every benchmark, can load each of them (the
benchmarks themselves are run by hand: they time this shared machine, CI does not)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"

LOAD_ALL = """
import run
loaded = {name: run.load(name) for name in run.names()}
missing = [name for name, module in loaded.items() if not callable(getattr(module, "main", None))]
assert not missing, missing
print(" ".join(sorted(loaded)))
"""


def test_run_loads_every_benchmark_with_a_main() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOAD_ALL],
        cwd=BENCHMARKS,  # as `python benchmarks/run.py` puts this folder first on sys.path
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))
    assert done.stdout.split() == expected
    assert "bench_serve" in expected
