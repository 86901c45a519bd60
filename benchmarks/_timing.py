"""Timing whole commands side by side: the helpers the benchmarks share."""

from __future__ import annotations

import statistics
import subprocess
import time


def time_command(cmd: list[str], env: dict[str, str]) -> float:
    """Wall time of one run; exit codes 0 and 1 are results, anything else is a failure."""
    start = time.perf_counter()
    done = subprocess.run(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:5]} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


def alternate(
    variants: dict[str, list[str]], env: dict[str, str], repeats: int
) -> dict[str, float]:
    """Median wall time per variant, runs alternating so machine noise hits every variant alike."""
    for cmd in variants.values():  # warm caches (card database, OS file cache)
        time_command(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, cmd in variants.items():
            times[name].append(time_command(cmd, env))
    return {name: statistics.median(values) for name, values in times.items()}
