"""The server's work per request in numbers this noisy machine does not change: the Python calls
(cProfile) and the SQL statements (Django's CaptureQueriesContext, BEGIN and COMMIT included: on
PostgreSQL each is a round trip) of a live check, a submission
(POST) and a replacement (PUT), each through Django's WSGI handler in this process, on SQLite and
on PostgreSQL (a throwaway cluster on 127.0.0.1, when installed).

bench_serve's CPU figures swing by half from one hour to the next here; these counts do not, so
a change to the request path can be weighed by them. `--against CHECKOUT` counts another
checkout's package the same way (its `varz_deck` first on the path, this script's harness) and
prints the two side by side, with the ratio of the calls (this tree's over the other's).

Run: .venv/bin/python benchmarks/bench_calls.py [--against CHECKOUT] [--requests N]
No target: it reports.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from harness import (  # noqa: E402 (the shared harness of the server tests)
    HarnessError,
    PostgresCluster,
    deck_variants,
    postgres_bindir,
)

KINDS = ("live check", "submit (POST)", "replace (PUT)")
WARM = 10  # requests of each kind first, not counted
REQUESTS = 50  # counted, of each kind


def _database_url(kind: str, folder: Path) -> tuple[str, PostgresCluster | None]:
    if kind == "sqlite":
        return str(folder / "calls.sqlite3"), None
    bindir = postgres_bindir()
    if bindir is None:
        raise HarnessError("PostgreSQL is not installed (apt-get install postgresql)")
    cluster = PostgresCluster(bindir).start()
    return cluster.create_database("calls"), cluster


def count(url: str, requests: int) -> dict[str, dict[str, float]]:
    """Calls and statements per request of each kind, on the database at `url` (in this process:
    Django is configured for it here)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from varz_deck.server import app

    app.prepare(url)  # Django is configured here: the service's models come after
    from varz_deck.server import service

    app.load_cards(None)
    app.warm_up()
    wsgi = app.application()
    event, _token = service.create_event("Calls Open", game="varz")
    decks = deck_variants("varz", 3 * (WARM + requests), seed=49)

    def call(method: str, path: str, body: dict[str, Any], n: int, **headers: str) -> Any:
        data = json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1:8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
            "CONTENT_LENGTH": str(len(data)), "CONTENT_TYPE": "application/json",
            "REMOTE_ADDR": f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", **headers,
        }  # fmt: skip
        status: list[str] = []

        def start_response(given: str, _headers: Any, _info: Any = None) -> Callable[[bytes], Any]:
            status.append(given)
            return lambda _data: None

        answer = wsgi(environ, start_response)
        body_bytes = b"".join(answer)
        close = getattr(answer, "close", None)
        if close is not None:
            close()  # as a WSGI server does: Django's request_finished
        if status[0][:3] not in ("200", "201"):
            raise HarnessError(f"{method} {path}: {status[0]} {body_bytes[:300]!r}")
        return json.loads(body_bytes)

    submit = f"/api/v1/events/{event.key}/decklists"
    stored: list[tuple[int, str]] = []

    def post(n: int) -> None:
        answer = call("POST", submit, {"player": f"Player {n:04}", "deck": decks[n]}, n)
        stored.append((answer["id"], answer["edit_token"]))

    def put(n: int) -> None:
        number, token = stored[n]
        body = {"deck": decks[2 * (WARM + requests) + n]}
        call("PUT", f"/api/v1/decklists/{number}", body, n, HTTP_X_EDIT_TOKEN=token)

    def check(n: int) -> None:
        call("POST", f"/api/v1/events/{event.key}/check", {"deck": decks[n]}, n)

    counts: dict[str, dict[str, float]] = {}
    kinds: dict[str, Callable[[int], None]] = dict(zip(KINDS, (check, post, put), strict=True))
    for what, make in kinds.items():
        for n in range(WARM):
            make(n)
        profile = cProfile.Profile()
        with CaptureQueriesContext(connection) as captured:
            profile.enable()
            for n in range(WARM, WARM + requests):
                make(n)
            profile.disable()
        calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
        counts[what] = {
            "calls": calls / requests,
            "statements": len(captured.captured_queries) / requests,
        }
    return counts


def _child(kind: str, requests: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="bench-calls-") as tmp:
        url, cluster = _database_url(kind, Path(tmp))
        try:
            return count(url, requests)
        finally:
            if cluster is not None:
                cluster.stop()


def _measure(kind: str, requests: int, checkout: Path | None) -> dict[str, dict[str, float]]:
    """One database's counts, in a process of their own (Django is configured once a process),
    with `checkout`'s package first on the path when given."""
    env = dict(os.environ)
    if checkout is not None:
        rest = [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []
        env["PYTHONPATH"] = os.pathsep.join([str(checkout.resolve()), *rest])
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--requests", str(requests)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise HarnessError(f"{kind}: {done.stderr.strip()[-2000:]}")
    found: dict[str, dict[str, float]] = json.loads(done.stdout.splitlines()[-1])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, counted side by side")
    parser.add_argument("--requests", type=int, default=REQUESTS, help="counted, of each kind")
    parser.add_argument("--child", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])  # run.py calls main()
    if args.child:
        print(json.dumps(_child(args.child, args.requests)))
        return 0
    kinds = ["sqlite"] + (["postgresql"] if postgres_bindir() is not None else [])
    print(
        f"per request, in-process through Django's WSGI handler ({args.requests} of each kind "
        f"after {WARM} not counted): Python calls (cProfile), SQL statements"
    )
    header = f"{'database':<11} {'request':<14} {'calls':>8} {'statements':>10}"
    if args.against is not None:
        header += f" {'against':>8} {'statements':>10} {'ratio':>6}"
    print(header)
    for kind in kinds:
        ours = _measure(kind, args.requests, None)
        theirs = _measure(kind, args.requests, args.against) if args.against else None
        for what in KINDS:
            line = (
                f"{kind:<11} {what:<14} {ours[what]['calls']:>8,.0f} "
                f"{ours[what]['statements']:>10.2f}"
            )
            if theirs is not None:
                other = theirs[what]["calls"]
                line += (
                    f" {other:>8,.0f} {theirs[what]['statements']:>10.2f} "
                    f"{ours[what]['calls'] / other:>6.3f}"
                )
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
