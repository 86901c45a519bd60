"""Timing whole commands side by side: the helpers the benchmarks share."""

from __future__ import annotations

import os
import statistics
import subprocess
import time


def as_installed(env: dict[str, str]) -> dict[str, str]:
    """The environment without PYTHONDONTWRITEBYTECODE: an installed package runs from the
    bytecode pip compiled at install, so a checkout must not recompile every changed module on
    every run of a start-up benchmark (the warm-up run writes the bytecode)."""
    return {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}


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
    env = as_installed(env)
    for cmd in variants.values():  # warm caches (card database, OS file cache)
        time_command(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, cmd in variants.items():
            times[name].append(time_command(cmd, env))
    return {name: statistics.median(values) for name, values in times.items()}


def cpu_command(cmd: list[str], env: dict[str, str]) -> float:
    """User + system CPU seconds of one run (its own and its children's): less sensitive than
    wall time to what else the shared machine is doing."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:5]} failed with exit {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def alternate_cpu(
    variants: dict[str, list[str]], env: dict[str, str], repeats: int
) -> dict[str, float]:
    """Median CPU time per variant, runs alternating as in `alternate`."""
    env = as_installed(env)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, cmd in variants.items():
            times[name].append(cpu_command(cmd, env))
    return {name: statistics.median(values) for name, values in times.items()}
