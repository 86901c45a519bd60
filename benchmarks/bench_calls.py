"""The server's work per request in numbers this noisy machine does not change: the Python calls
(cProfile) and the SQL statements (Django's CaptureQueriesContext, BEGIN and COMMIT included: on
PostgreSQL each is a round trip) of a live check, a submission
(POST) and a replacement (PUT), each through Django's WSGI handler in this process, on SQLite and
on PostgreSQL (a throwaway cluster on 127.0.0.1, when installed).

bench_serve's CPU figures swing by half from one hour to the next here; these counts do not, so
a change to the request path can be weighed by them. `--against CHECKOUT` counts another
checkout's package the same way (its `varz_deck` first on the path, this script's harness) and
prints the two side by side, with the ratio of the calls (this tree's over the other's). Each
count says which package it imported, and one that is not the tree asked for is refused.

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

from bench_serve import fresh_database  # also puts the server tests' harness on the path
from harness import HarnessError, deck_variants, postgres_bindir

KINDS = ("live check", "submit (POST)", "replace (PUT)")
WARM = 10  # requests of each kind first, not counted
REQUESTS = 50  # counted, of each kind


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
        # `total_calls` (what `print_stats` heads its table with): `get_stats_profile()` keys
        # functions by name alone, so two functions of one name would count as one
        calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
        counts[what] = {
            "calls": calls / requests,
            "statements": len(captured.captured_queries) / requests,
        }
    return counts


def _child(kind: str, requests: int) -> dict[str, Any]:
    import varz_deck

    with tempfile.TemporaryDirectory(prefix="bench-calls-") as tmp:
        cluster, database = fresh_database(kind, Path(tmp), "calls")
        try:
            counts: dict[str, Any] = dict(count(database.url, requests))
        finally:
            if cluster is not None:
                cluster.stop()
    counts["package"] = str(Path(varz_deck.__file__).resolve().parent)  # which tree was counted
    return counts


def _measure(kind: str, requests: int, checkout: Path) -> dict[str, dict[str, float]]:
    """One database's counts, in a process of their own (Django is configured once a process),
    with `checkout`'s package first on the path; HarnessError unless that package was counted."""
    env = dict(os.environ)
    rest = [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), *rest])
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
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    package = Path(found.pop("package"))
    if package != checkout / "varz_deck":
        raise HarnessError(f"{kind}: counted {package}, not the package of {checkout}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, counted side by side")
    parser.add_argument(
        "--requests", type=_positive, default=REQUESTS, help="counted, of each kind (1 to 10,000)"
    )
    parser.add_argument("--child", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])  # run.py calls main()
    if args.child:
        print(json.dumps(_child(args.child, args.requests)))
        return 0
    if args.against is not None and not (args.against / "varz_deck" / "__init__.py").is_file():
        parser.error(f"--against {args.against}: not a checkout of varz-deck (no varz_deck/)")
    try:
        return _table(args.requests, args.against)
    except HarnessError as error:
        print(f"bench_calls: {error}", file=sys.stderr)
        return 1


def _positive(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 10_000:
        raise argparse.ArgumentTypeError(f"{value} is not from 1 to 10,000")
    return value


def _table(requests: int, against: Path | None) -> int:
    """Count this tree (and `against`) on each database; print the table."""
    here = Path(__file__).resolve().parent.parent
    other = against.resolve() if against is not None else None
    kinds = ["sqlite"] + (["postgresql"] if postgres_bindir() is not None else [])
    print(
        f"per request, in-process through Django's WSGI handler ({requests} of each kind "
        f"after {WARM} not counted): Python calls (cProfile), SQL statements"
    )
    header = f"{'database':<11} {'request':<14} {'calls':>8} {'statements':>10}"
    if other is not None:
        header += f" {'against':>8} {'statements':>10} {'ratio':>6}"
    print(header)
    for kind in kinds:
        ours = _measure(kind, requests, here)
        theirs = _measure(kind, requests, other) if other is not None else None
        for what in KINDS:
            line = (
                f"{kind:<11} {what:<14} {ours[what]['calls']:>8,.0f} "
                f"{ours[what]['statements']:>10.2f}"
            )
            if theirs is not None:
                their_calls = theirs[what]["calls"]
                line += (
                    f" {their_calls:>8,.0f} {theirs[what]['statements']:>10.2f} "
                    f"{ours[what]['calls'] / their_calls:>6.3f}"
                )
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
