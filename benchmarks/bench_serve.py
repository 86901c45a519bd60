"""`varz-deck serve` under load, on SQLite and on PostgreSQL (issue 13).

For each database: a fresh folder (SQLite) or a fresh throwaway PostgreSQL cluster with its default
durability (initdb in a temporary folder, 127.0.0.1 only), two events made with `varz-deck event
create` (a VARZ one and an Azuki one), then a freshly started `varz-deck serve` on 127.0.0.1.
50 clients, each with its own kept-alive connection (a new one when the server asks), send 1,250
submissions as fast as the server answers them (closed loop; one asyncio thread drives them all, so
the load generator stays light): 1,000 to the VARZ event (the organiser's list of 1,000) and 250
to the Azuki event, interleaved; every deck is different (the examples with copies moved between
cards: legal ones, and one in four over a copy limit), so every hash differs.

Checks (any failure: exit 1): every submission is answered 201; the organiser's list of each event
holds every returned id exactly once, with the returned hash, and nothing else.
Targets (exit 1 when missed): per-request latency p95 <= 250 ms; the organiser's list of 1,000
(GET /api/v1/events/{event}/decklists, and the dashboard page after signing in by link) <= 300 ms
(the median of 5 requests).

Run: .venv/bin/python benchmarks/bench_serve.py [sqlite] [postgresql]
     (BENCH_SERVE_DATABASES=sqlite,postgresql; BENCH_SERVE_CLIENTS=50; BENCH_SERVE_SUBMISSIONS=1000)
Loopback only; bounded (each request 60 s at most, the whole load 10 minutes at most).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from harness import (  # noqa: E402 (the shared harness of the server tests)
    HOST,
    Database,
    HarnessError,
    LiveServer,
    PostgresCluster,
    deck_variants,
    postgres_bindir,
    sqlite_database,
)

CLIENTS = int(os.environ.get("BENCH_SERVE_CLIENTS", "50"))
SUBMISSIONS = int(os.environ.get("BENCH_SERVE_SUBMISSIONS", "1000"))  # to the VARZ event
AZUKI = SUBMISSIONS // 4  # to the Azuki event, besides
REQUEST_TIMEOUT = 60.0
LOAD_TIMEOUT = 600.0
P95_TARGET = 0.250
LIST_TARGET = 0.300
LIST_REPEATS = 5


@dataclass
class Result:
    job: int
    event: str
    status: int = 0
    elapsed: float = 0.0
    id: Any = None
    deck_hash: str | None = None
    legal: bool | None = None
    error: str = ""
    reconnected: bool = False  # sent on a new connection: the server closed the one before


@dataclass
class Run:
    kind: str
    results: list[Result] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0  # the server's CPU seconds (user + system) during the load
    database_cpu: float = 0.0  # PostgreSQL's CPU seconds (its server processes) during the load
    client_cpu: float = 0.0  # this process's (the 50 clients') CPU seconds during the load
    idle: float = 0.0  # the machine's share of idle CPU during the load
    steal: float = 0.0  # the share the hypervisor gave to other machines (a noisy neighbour)
    api_list: list[float] = field(default_factory=list)
    dashboard: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds so far of a process and its children (its worker processes),
    on Linux; 0 elsewhere."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or fields[1] == str(pid):  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def machine_ticks() -> list[int]:
    """The machine's CPU ticks so far: user, nice, system, idle, iowait, irq, softirq, steal
    (Linux), [] elsewhere."""
    try:
        with open("/proc/stat") as stat:
            return [int(x) for x in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return []


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(len(ordered) * share)) - 1]


def load(server: LiveServer, jobs: list[tuple[str, str, str]]) -> tuple[list[Result], float]:
    """Send every job over CLIENTS kept-alive connections, each sending its next request the
    moment its answer is complete (closed loop)."""
    return asyncio.run(_load(server, jobs))


async def _load(server: LiveServer, jobs: list[tuple[str, str, str]]) -> tuple[list[Result], float]:
    """One thread, one event loop, CLIENTS connections: a load generator that stays light (the
    client shares this 2-core machine with the server), where 50 threads of http.client spent
    their CPU contending for one interpreter lock."""
    todo = list(range(len(jobs)))
    todo.reverse()
    results = [Result(number, jobs[number][0]) for number in range(len(jobs))]
    stop_at = time.monotonic() + LOAD_TIMEOUT
    host = f"{HOST}:{server.port}"

    async def client() -> None:
        reader, writer = await asyncio.open_connection(HOST, server.port)
        closed = False  # the server asked for a new connection after its last answer
        try:
            while todo and time.monotonic() < stop_at:
                number = todo.pop()
                event, player, deck = jobs[number]
                body = json.dumps({"player": player, "deck": deck}).encode()
                head = (
                    f"POST /api/v1/events/{event}/decklists HTTP/1.1\r\nHost: {host}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode()
                result = results[number]
                began = time.perf_counter()
                try:
                    if closed:  # as any client does, and within this request's time
                        writer.close()
                        reader, writer = await asyncio.open_connection(HOST, server.port)
                        result.reconnected = True
                    writer.write(head + body)
                    status, answer, closed = await asyncio.wait_for(
                        _answer(reader), REQUEST_TIMEOUT
                    )
                except (
                    OSError,
                    asyncio.TimeoutError,
                    asyncio.IncompleteReadError,
                    ValueError,
                ) as error:
                    result.error = f"{type(error).__name__}: {error}"
                    return
                result.status, result.elapsed = status, time.perf_counter() - began
                if status == 201:
                    found = json.loads(answer)
                    result.id, result.deck_hash = found.get("id"), found.get("deck_hash")
                    result.legal = found.get("legal")
                else:
                    result.error = answer[:200].decode("utf-8", "replace")
        finally:
            writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return results, time.perf_counter() - began


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    """One HTTP/1.1 answer with a Content-Length (what the server sends): its status, its body,
    and whether the server closes the connection after it (`Connection: close`)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length, closes = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "connection":
            closes = "close" in value.lower()
    return status, await reader.readexactly(length), closes


def verify(run: Run, server: LiveServer, event: dict[str, Any]) -> None:
    """The organiser's list holds every returned id exactly once, with its hash."""
    key = event["event"]
    answer = server.get(f"/api/v1/events/{key}/decklists", headers=event["headers"])
    if answer.status != 200:
        run.failures.append(f"{key}: the organiser's list answered {answer.status}")
        return
    rows = answer.json()
    listed: dict[Any, list[str | None]] = {}
    for row in rows:
        listed.setdefault(row["id"], []).append(row["deck_hash"])
    mine = [r for r in run.results if r.event == key and r.status == 201]
    doubled = sorted(i for i, hashes in listed.items() if len(hashes) > 1)
    missing = [r.id for r in mine if r.id not in listed]
    wrong = [r.id for r in mine if r.id in listed and listed[r.id] != [r.deck_hash]]
    stray = set(listed) - {r.id for r in mine}
    if len({r.id for r in mine}) != len(mine):
        run.failures.append(f"{key}: the same id was returned for two submissions")
    for what, ids in (("listed twice", doubled), ("missing", missing), ("with another hash",
                      wrong), ("never submitted", sorted(stray))):  # fmt: skip
        if ids:
            run.failures.append(f"{key}: {len(ids)} lists {what}, e.g. {list(ids)[:5]}")
    hashes = [r.deck_hash for r in mine]
    if len(set(hashes)) != len(hashes):
        run.failures.append(f"{key}: two different decks got the same hash")


def time_lists(run: Run, server: LiveServer, event: dict[str, Any]) -> None:
    """The organiser's list of the big event: the API's and the dashboard page's."""
    key = event["event"]
    client = server.client(REQUEST_TIMEOUT)
    try:
        for _ in range(LIST_REPEATS):
            answer = client.get(f"/api/v1/events/{key}/decklists", headers=event["headers"])
            if answer.status != 200 or len(answer.json()) != SUBMISSIONS:
                run.failures.append(f"the API list answered {answer.status}, not {SUBMISSIONS}")
                break
            run.api_list.append(answer.elapsed)
        signed = client.get(event["organiser_url"])  # signs in, redirects to the dashboard
        page = signed.header("Location") or ""
        if signed.status not in (302, 303) or not page.startswith("/"):
            run.failures.append(f"signing in by link answered {signed.status} {page!r}")
            return
        for _ in range(LIST_REPEATS):
            answer = client.get(page)
            shown = sum(f"Player {n:04}" in answer.text for n in range(SUBMISSIONS))
            if answer.status != 200 or shown != SUBMISSIONS:
                run.failures.append(
                    f"the dashboard answered {answer.status} showing {shown} of {SUBMISSIONS}"
                )
                break
            run.dashboard.append(answer.elapsed)
    finally:
        client.close()


def bench(kind: str, folder: Path, jobs_of: dict[str, list[tuple[str, str]]]) -> Run:
    run = Run(kind)
    cluster: PostgresCluster | None = None
    server: LiveServer | None = None
    try:
        if kind == "postgresql":
            bindir = postgres_bindir()
            if bindir is None:
                run.failures.append("PostgreSQL is not installed (apt-get install postgresql)")
                return run
            cluster = PostgresCluster(bindir, durable=True).start()
            database = Database(kind, cluster.create_database("bench"), folder)
        else:
            database = sqlite_database(folder)
        server = LiveServer(database)
        events = {game: server.create_event(f"Bench Open ({game})", game=game) for game in jobs_of}
        jobs: list[tuple[str, str, str]] = []
        varz, azuki = jobs_of["varz"], jobs_of["azuki"]
        every = max(1, len(varz) // max(1, len(azuki)))
        for number, (player, deck) in enumerate(varz):  # interleaved: 4 VARZ, 1 Azuki, ...
            jobs.append((events["varz"]["event"], player, deck))
            if number % every == every - 1 and azuki:
                jobs.append((events["azuki"]["event"], *azuki.pop()))
        jobs += [(events["azuki"]["event"], *rest) for rest in azuki]
        server.start()
        assert server.process is not None
        before, mine, ticks = cpu_seconds(server.process.pid), time.process_time(), machine_ticks()
        postmaster = cluster.pid if cluster is not None else None
        database_before = cpu_seconds(postmaster) if postmaster is not None else 0.0
        run.results, run.wall = load(server, jobs)
        run.cpu = cpu_seconds(server.process.pid) - before
        if postmaster is not None:
            run.database_cpu = cpu_seconds(postmaster) - database_before
        run.client_cpu = time.process_time() - mine
        spent = [b - a for a, b in zip(ticks, machine_ticks(), strict=False)]
        if len(spent) == 8 and sum(spent):
            run.idle, run.steal = spent[3] / sum(spent), spent[7] / sum(spent)
        bad = [r for r in run.results if r.status != 201]
        if bad:
            run.failures.append(
                f"{len(bad)} of {len(jobs)} submissions not answered 201, e.g. "
                f"{[(r.status, r.error[:120]) for r in bad[:3]]}"
            )
        for event in events.values():
            verify(run, server, event)
        time_lists(run, server, events["varz"])
    except HarnessError as error:
        run.failures.append(str(error))
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()
    return run


def report(runs: list[Run]) -> int:
    print(
        f"{SUBMISSIONS + AZUKI} submissions ({SUBMISSIONS} VARZ in one event, {AZUKI} Azuki) "
        f"from {CLIENTS} concurrent clients, 127.0.0.1"
    )
    header = ("database", "ok", "legal", "req/s", "server CPU ms/req", "PostgreSQL CPU ms/req",
              "client CPU ms/req", "new connections",
              "idle %", "steal %", "p50 ms", "p95 ms", "max ms", "API list ms",
              "dashboard ms")  # fmt: skip
    rows = [header]
    failed = False
    for run in runs:
        times = [r.elapsed for r in run.results if r.status == 201]
        ok = len(times)
        if times:
            p50, p95, top = (percentile(times, 0.5), percentile(times, 0.95), max(times))
            if p95 > P95_TARGET:
                run.failures.append(f"p95 {p95 * 1000:.0f} ms > {P95_TARGET * 1000:.0f} ms")
        else:
            p50 = p95 = top = float("nan")
        for name, values in (("API list", run.api_list), ("dashboard", run.dashboard)):
            if values and statistics.median(values) > LIST_TARGET:
                run.failures.append(
                    f"{name} of {SUBMISSIONS}: {statistics.median(values) * 1000:.0f} ms > "
                    f"{LIST_TARGET * 1000:.0f} ms"
                )
        legal = sum(1 for r in run.results if r.legal)
        rows.append(
            (
                run.kind,
                f"{ok}/{len(run.results)}",
                str(legal),
                f"{ok / run.wall:.0f}" if run.wall else "-",
                f"{run.cpu / len(run.results) * 1000:.1f}" if run.results and run.cpu else "-",
                f"{run.database_cpu / len(run.results) * 1000:.1f}" if run.database_cpu else "-",
                f"{run.client_cpu / len(run.results) * 1000:.1f}" if run.results else "-",
                str(sum(1 for r in run.results if r.reconnected)),
                f"{run.idle * 100:.0f}",
                f"{run.steal * 100:.0f}",
                f"{p50 * 1000:.0f}",
                f"{p95 * 1000:.0f}",
                f"{top * 1000:.0f}",
                _span(run.api_list),
                _span(run.dashboard),
            )
        )
        failed = failed or bool(run.failures)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print(
        f"targets: p95 <= {P95_TARGET * 1000:.0f} ms; the list of {SUBMISSIONS} <= "
        f"{LIST_TARGET * 1000:.0f} ms (median of {LIST_REPEATS}); every submission stored once"
    )
    for run in runs:
        for failure in run.failures:
            print(f"FAILED ({run.kind}): {failure}")
    print("all targets met" if not failed else "targets missed")
    return 1 if failed else 0


def _span(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values) * 1000:.0f} (max {max(values) * 1000:.0f})"


def main(argv: list[str] | None = None) -> int:
    kinds = argv or os.environ.get("BENCH_SERVE_DATABASES", "sqlite,postgresql").split(",")
    jobs_of = {
        "varz": [
            (f"Player {n:04}", deck) for n, deck in enumerate(deck_variants("varz", SUBMISSIONS))
        ],
        "azuki": [
            (f"Azuki Player {n:04}", deck) for n, deck in enumerate(deck_variants("azuki", AZUKI))
        ],
    }
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        for kind in kinds:
            folder = Path(tmp) / kind
            folder.mkdir()
            runs.append(bench(kind.strip(), folder, {k: list(v) for k, v in jobs_of.items()}))
    return report(runs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
