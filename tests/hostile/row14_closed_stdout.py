"""Row 14: run varz-deck with stdout closed (`>&-`) and with a reader that has gone (`| head`).

`python row14_closed_stdout.py closed|broken ARGS...` prints the exit status and stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys


def run(mode: str, args: list[str]) -> tuple[int, str]:
    command = [sys.executable, "-m", "varz_deck", *args]
    if mode == "closed":
        proc = subprocess.run(
            command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, close_fds=True,
            preexec_fn=lambda: os.close(1), timeout=60,
        )  # fmt: skip
    else:
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first byte
        try:
            proc = subprocess.run(command, stdout=write, stderr=subprocess.PIPE, timeout=60)
        finally:
            os.close(write)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


if __name__ == "__main__":
    code, err = run(sys.argv[1], sys.argv[2:])
    print(code, err)
