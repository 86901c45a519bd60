"""Node tools some tests run (Microsoft's SARIF multitool, ajv-cli), installed once into a cache.

The packages are pinned and installed with `npm install --prefix` into one folder under the
user's cache ($VARZ_DECK_NODE_TOOLS, default ~/.cache/varz-deck-test-tools), so a test session
pays for the download once and later sessions not at all. Without npm (or without the network)
the tests that need them skip, except under the environment variable CI, where they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGES = {"@microsoft/sarif-multitool": "5.7.0", "ajv-cli": "5.0.0", "ajv-formats": "3.0.1"}
TOOLS = Path(
    os.environ.get("VARZ_DECK_NODE_TOOLS") or Path.home() / ".cache" / "varz-deck-test-tools"
)


def missing(reason: str) -> None:
    """Skip the test; under CI fail it, since CI must run every real part."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: this test must run)")
    pytest.skip(reason)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One installer at a time (two pytest processes may start together)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as handle:
        if sys.platform != "win32":
            import fcntl

            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def install() -> Path:
    """The prefix folder with every package of PACKAGES installed (at most one npm run)."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        missing("node and npm are not installed")
    assert npm is not None
    stamp = TOOLS / "installed.json"
    wanted = json.dumps(PACKAGES, sort_keys=True)
    with _locked(TOOLS):
        if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
            return TOOLS
        specs = [f"{name}@{version}" for name, version in PACKAGES.items()]
        done = subprocess.run(
            [npm, "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund", *specs],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            missing(f"npm install {' '.join(specs)} failed: {done.stderr[-2000:]}")
        stamp.write_text(wanted, encoding="utf-8")
    return TOOLS


def sarif_multitool() -> Path:
    """The multitool's own executable (its npm wrapper runs it through a shell, which splits
    arguments at spaces and semicolons, so the tests call it directly)."""
    prefix = install()
    found = subprocess.run(
        ["node", "-p", "require('@microsoft/sarif-multitool')"],
        cwd=prefix,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    tool = Path(found.stdout.strip())
    if found.returncode != 0 or not tool.is_file():
        missing(f"the SARIF multitool is not in {prefix}: {found.stderr[-500:]}")
    if not os.access(tool, os.X_OK):  # npm may skip its postinstall `chmod u+x`
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return tool


def ajv() -> list[str]:
    """The command line of ajv-cli (`node .../ajv`)."""
    script = install() / "node_modules" / "ajv-cli" / "dist" / "index.js"
    if not script.is_file():
        missing(f"ajv-cli is not in {TOOLS}")
    return ["node", str(script)]
