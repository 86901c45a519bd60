"""`varz-deck serve` under load, on SQLite and on PostgreSQL (issues 13 and 26).

`varz-deck serve` is gunicorn (gthread workers) serving Django; these figures are its own.

Back to back (issue 13):
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

Cost: the server's CPU (its arbiter and workers, from /proc) per submission of the back-to-back
load, against the bare in-process check of the same decks (`varz_deck.games.check_deck`, timed
here in the same run): target <= 2x.

Deadline rush (issue 26): 5,000 rostered players in the last 30 minutes before a deadline, each
making 10 live checks (POST /api/v1/events/{e}/check) and 2 submissions (a POST, then a PUT with
its edit token): 5 checks, the POST, 5 checks, the PUT, a pause of exponential length (mean
PAUSE s) before each. Players arrive as a Poisson process whose rate triples in the last 5
minutes. Each request on a connection of its own, from an address of its own (X-Forwarded-For
through the trusted proxy 127.0.0.1: the live check is limited per address). Open loop: requests
are sent at their time whatever the answers. Target: p95 <= 200 ms, every request answered (200,
201), every 201 stored exactly once. `--scale S` (default 0.1) runs S x 5,000 players over S x 30
minutes: the same request rate a second, a shorter run; --scale 1 is the full half hour.
`--event-size N` takes an event of N players (their rate a second is N/5,000 times as high);
`--burst B` puts the 3x rate in the last B seconds. Three times the biggest event, ten minutes:
`--only rush --event-size 15000 --scale 0.3333 --burst 30` (5,000 players in 600 s: about 100
requests a second, 300 in the last 30 s).

CPU per kind (issue 40): the server's CPU per live check, per submission (POST) and per
replacement (PUT), each kind alone: COST_REQUESTS different decks sent one after another on one
kept-alive connection after a warm-up, the server's CPU (from /proc) over the count. Target: a
submission, POST and PUT each, <= 3 ms. `postgresql-socket` reaches PostgreSQL through its Unix
socket, as the guide's database on the server's own machine does; `postgresql`, over TCP.

Run: .venv/bin/python benchmarks/bench_serve.py [sqlite] [postgresql] [postgresql-socket] [--scale S]
     [--only back-to-back|rush|cost] [--event-size N] [--burst B]
     (BENCH_SERVE_DATABASES=sqlite,postgresql; BENCH_SERVE_CLIENTS=50; BENCH_SERVE_SUBMISSIONS=1000)
Loopback only; bounded (each request 60 s at most, a back-to-back load 10 minutes at most).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
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

from varz_deck.core.dates import on_date  # noqa: E402

CLIENTS = int(os.environ.get("BENCH_SERVE_CLIENTS", "50"))
SUBMISSIONS = int(os.environ.get("BENCH_SERVE_SUBMISSIONS", "1000"))  # to the VARZ event
AZUKI = SUBMISSIONS // 4  # to the Azuki event, besides
REQUEST_TIMEOUT = 60.0
LOAD_TIMEOUT = 600.0
P95_TARGET = 0.250
LIST_TARGET = 0.300
LIST_REPEATS = 5
COST_TARGET = 2.0  # server CPU per submission / the bare check of the same deck
RUSH_PLAYERS = 5000
RUSH_SECONDS = 1800.0
RUSH_BURST = 300.0  # the last 5 minutes, at 3x the rate
RUSH_P95_TARGET = 0.200
PAUSE = 3.0  # mean seconds a player waits before each request
COST_REQUESTS = int(os.environ.get("BENCH_SERVE_COST_REQUESTS", "300"))  # of each kind
COST_WARM = 30  # requests of each kind first, not counted
SUBMISSION_CPU_TARGET = 0.003  # a submission: its first list (POST) and each replacement (PUT)
KINDS = ("sqlite", "postgresql", "postgresql-socket")


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
    bare_check: float = 0.0  # CPU seconds of the in-process check of one deck (the mean)


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
                # each submission from an address of its own (through the trusted proxy
                # 127.0.0.1): submissions are limited per address
                address = f"10.{number // 65536}.{number // 256 % 256}.{number % 256}"
                head = (
                    f"POST /api/v1/events/{event}/decklists HTTP/1.1\r\nHost: {host}\r\n"
                    f"X-Forwarded-For: {address}\r\n"
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


def fresh_database(kind: str, folder: Path, name: str) -> tuple[PostgresCluster | None, Database]:
    """A fresh SQLite file in `folder`, or a database `name` in a new throwaway PostgreSQL cluster
    with its default durability (the caller stops the cluster), reached over TCP on 127.0.0.1
    (`postgresql`) or through its Unix socket (`postgresql-socket`, the guide's database on the
    server's own machine); HarnessError without PostgreSQL."""
    if kind == "sqlite":
        return None, sqlite_database(folder)
    bindir = postgres_bindir()
    if bindir is None:
        raise HarnessError("PostgreSQL is not installed (apt-get install postgresql)")
    cluster = PostgresCluster(bindir, durable=True).start()
    url = cluster.create_database(name)
    if kind == "postgresql-socket":
        url = cluster.socket_url(name)
    return cluster, Database(kind, url, folder)


def bench(kind: str, folder: Path, jobs_of: dict[str, list[tuple[str, str]]]) -> Run:
    run = Run(kind)
    cluster: PostgresCluster | None = None
    server: LiveServer | None = None
    try:
        cluster, database = fresh_database(kind, folder, "bench")
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
        spent: list[int] = [b - a for a, b in zip(ticks, machine_ticks(), strict=False)]
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


def bare_check_seconds(jobs_of: dict[str, list[tuple[str, str]]]) -> float:
    """The mean CPU seconds of `varz_deck.games.check_deck` of the benchmark's decks, in this
    process (each game's database loaded first, as the server's workers have it loaded)."""
    from varz_deck.cli.common import load_database
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import check_deck

    spent, count = 0.0, 0
    for game, jobs in jobs_of.items():
        database = load_database(None, "en", game, progress=False)
        check_deck(DeckSource.from_text("<deck>", jobs[0][1]), database, date=on_date())  # warm
        began = time.process_time()
        for _player, deck in jobs:
            check_deck(DeckSource.from_text("<deck>", deck), database, date=on_date())
        spent += time.process_time() - began
        count += len(jobs)
    return spent / max(1, count)


@dataclass
class Rush:
    kind: str
    scale: float
    players: int = 0
    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)  # kind of request -> seconds
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    stored: int = 0
    cpu: float = 0.0
    failures: list[str] = field(default_factory=list)
    burst: float = 0.0
    event_size: int = RUSH_PLAYERS


def arrivals(players: int, seconds: float, burst: float, rng: random.Random) -> list[float]:
    """`players` start times in [0, seconds): a Poisson process whose rate is 3x in the last
    `burst` seconds (the order statistics of a density 1 : 3)."""
    weight_calm, weight_burst = seconds - burst, 3 * burst
    starts = []
    for _ in range(players):
        if rng.random() * (weight_calm + weight_burst) < weight_calm:
            starts.append(rng.uniform(0, seconds - burst))
        else:
            starts.append(rng.uniform(seconds - burst, seconds))
    return sorted(starts)


async def _rush(
    server: LiveServer, event: dict[str, Any], decks: list[str], rush: Rush, seed: int
) -> list[tuple[int, str]]:
    """Every player's session at its time; the ids and players of the lists answered 201."""
    rng = random.Random(seed)
    starts = arrivals(rush.players, rush.seconds, rush.burst, rng)
    key = event["event"]
    host = f"{HOST}:{server.port}"
    stored: list[tuple[int, str]] = []
    began = time.monotonic()

    async def send(kind: str, method: str, path: str, body: dict[str, Any], headers: str) -> Any:
        data = json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{headers}"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode()
        sent = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection(HOST, server.port)
            try:
                writer.write(head + data)
                status, answer, _ = await asyncio.wait_for(_answer(reader), REQUEST_TIMEOUT)
            finally:
                writer.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            status, answer = 0, b""
        rush.times.setdefault(kind, []).append(time.perf_counter() - sent)
        counts = rush.statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1
        return status, answer

    async def player(number: int, start: float) -> None:
        pauses = [rng.expovariate(1 / PAUSE) for _ in range(12)]
        await asyncio.sleep(max(0.0, began + start - time.monotonic()))
        address = f"X-Forwarded-For: 10.{number // 65536}.{number // 256 % 256}.{number % 256}\r\n"
        deck, second = decks[number % len(decks)], decks[(number + 1) % len(decks)]
        name = f"Rush Player {number:05}"
        edit: tuple[int, str] | None = None
        for step, wait in enumerate(pauses):
            await asyncio.sleep(wait)
            if step == 5:
                status, answer = await send(
                    "submit (POST)", "POST", f"/api/v1/events/{key}/decklists",
                    {"player": name, "deck": deck}, address,
                )  # fmt: skip
                if status == 201:
                    found = json.loads(answer)
                    edit = (found["id"], found["edit_token"])
                    stored.append((found["id"], name))
            elif step == 11:
                if edit is not None:
                    await send(
                        "replace (PUT)", "PUT", f"/api/v1/decklists/{edit[0]}",
                        {"deck": second}, f"{address}X-Edit-Token: {edit[1]}\r\n",
                    )  # fmt: skip
            else:
                await send(
                    "live check", "POST", f"/api/v1/events/{key}/check", {"deck": deck}, address
                )

    await asyncio.gather(*(player(n, t) for n, t in enumerate(starts)))
    return stored


def rush_bench(
    kind: str, folder: Path, scale: float, event_size: int = RUSH_PLAYERS, burst: float = 0.0
) -> Rush:
    """The rush of `scale` x the half hour before the deadline of an event of `event_size`
    players: its players arrive in `scale` x 30 minutes at the event's rate, 3x in the last
    `burst` seconds (0: the last sixth)."""
    seconds = RUSH_SECONDS * scale
    rush = Rush(kind, scale, players=max(1, round(event_size * scale)), seconds=seconds,
                burst=burst or seconds / 6, event_size=event_size)  # fmt: skip
    cluster: PostgresCluster | None = None
    server: LiveServer | None = None
    try:
        cluster, database = fresh_database(kind, folder, "rush")
        server = LiveServer(database)
        event = server.create_event("Rush Open")
        server.start()
        assert server.process is not None
        decks = deck_variants("varz", 400, seed=2026)
        before = cpu_seconds(server.process.pid)
        stored = asyncio.run(_rush(server, event, decks, rush, seed=26))
        rush.cpu = cpu_seconds(server.process.pid) - before
        rush.stored = len(stored)
        answer = server.get(f"/api/v1/events/{event['event']}/decklists", headers=event["headers"])
        rows = answer.json() if answer.status == 200 else []
        listed = [row["id"] for row in rows]
        if sorted(listed) != sorted(i for i, _ in stored) or len(set(listed)) != len(listed):
            rush.failures.append(
                f"{len(stored)} lists answered 201, {len(listed)} listed "
                f"({len(set(listed))} different ids)"
            )
        names = {row["id"]: row["player"] for row in rows}
        if any(names.get(i) != name for i, name in stored):
            rush.failures.append("a list is listed under another player's name")
        for what, counts in rush.statuses.items():
            wrong = {s: n for s, n in counts.items() if s not in (200, 201)}
            if wrong:
                rush.failures.append(f"{what}: answers other than 200/201: {wrong}")
    except HarnessError as error:
        rush.failures.append(str(error))
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()
    return rush


@dataclass
class Cost:
    kind: str
    cpu: dict[str, float] = field(default_factory=dict)  # kind of request -> CPU s per request
    failures: list[str] = field(default_factory=list)


async def _one_by_one(
    server: LiveServer, requests: list[tuple[str, str, dict[str, Any], str]]
) -> list[tuple[int, bytes]]:
    """Each request in turn on one kept-alive connection (a new one when the server closes it)."""
    host = f"{HOST}:{server.port}"
    reader, writer = await asyncio.open_connection(HOST, server.port)
    answers = []
    try:
        for method, path, body, headers in requests:
            data = json.dumps(body).encode()
            head = (
                f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            ).encode()
            writer.write(head + data)
            status, answer, closes = await asyncio.wait_for(_answer(reader), REQUEST_TIMEOUT)
            answers.append((status, answer))
            if closes:
                writer.close()
                reader, writer = await asyncio.open_connection(HOST, server.port)
    finally:
        writer.close()
    return answers


def cost_bench(kind: str, folder: Path) -> Cost:
    """The server's CPU per live check, per submission and per replacement, each kind alone."""
    cost = Cost(kind)
    cluster: PostgresCluster | None = None
    server: LiveServer | None = None
    try:
        cluster, database = fresh_database(kind, folder, "cost")
        server = LiveServer(database)
        event = server.create_event("Cost Open")["event"]
        server.start()
        assert server.process is not None
        total = COST_WARM + COST_REQUESTS
        decks = deck_variants("varz", 2 * total, seed=40)

        def address(n: int) -> str:
            return f"X-Forwarded-For: 10.{n // 65536}.{n // 256 % 256}.{n % 256}\r\n"

        stored: list[tuple[int, str]] = []
        kinds = {
            "live check": lambda n: ("POST", f"/api/v1/events/{event}/check", {"deck": decks[n]},
                                     address(n)),
            "submit (POST)": lambda n: ("POST", f"/api/v1/events/{event}/decklists",
                                        {"player": f"Cost Player {n:05}", "deck": decks[n]},
                                        address(total + n)),
            "replace (PUT)": lambda n: ("PUT", f"/api/v1/decklists/{stored[n][0]}",
                                        {"deck": decks[total + n]},
                                        f"{address(total + n)}X-Edit-Token: {stored[n][1]}\r\n"),
        }  # fmt: skip
        for what, make in kinds.items():
            warm = asyncio.run(_one_by_one(server, [make(n) for n in range(COST_WARM)]))
            before = cpu_seconds(server.process.pid)
            counted = asyncio.run(_one_by_one(server, [make(n) for n in range(COST_WARM, total)]))
            cost.cpu[what] = (cpu_seconds(server.process.pid) - before) / COST_REQUESTS
            answers = warm + counted
            wrong = [status for status, _ in answers if status not in (200, 201)]
            if wrong:
                cost.failures.append(f"{what}: {len(wrong)} answers not 200/201, e.g. {wrong[:3]}")
            if what == "submit (POST)":
                stored = [
                    (found["id"], found["edit_token"])
                    for found in (json.loads(answer) for status, answer in answers if status == 201)
                ]
                if len(stored) < total:
                    cost.failures.append("some submissions were not stored")
                    break
    except HarnessError as error:
        cost.failures.append(str(error))
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()
    return cost


def cost_report(costs: list[Cost]) -> bool:
    """Print the server's CPU per request of each kind; whether the submission's target is met."""
    if not costs:
        return True
    print()
    print(
        f"server CPU per request, each kind alone ({COST_REQUESTS} different decks one after "
        f"another, after {COST_WARM} not counted):"
    )
    ok = True
    for cost in costs:
        figures = ", ".join(f"{what} {cpu * 1000:.2f} ms" for what, cpu in cost.cpu.items())
        print(f"  {cost.kind}: {figures}")
        for what in ("submit (POST)", "replace (PUT)"):
            spent = cost.cpu.get(what)
            if spent is not None and spent > SUBMISSION_CPU_TARGET:
                cost.failures.append(
                    f"{what} costs {spent * 1000:.2f} ms of server CPU > "
                    f"{SUBMISSION_CPU_TARGET * 1000:.0f} ms"
                )
        for failure in cost.failures:
            print(f"FAILED ({cost.kind}, cost): {failure}")
        ok = ok and not cost.failures
    print(
        f"target: a submission (POST) and a replacement (PUT) each <= "
        f"{SUBMISSION_CPU_TARGET * 1000:.0f} ms of server CPU"
    )
    return ok


def rush_report(rushes: list[Rush]) -> bool:
    """Print the deadline rush's figures; whether every target was met."""
    if not rushes:
        return True
    scale = rushes[0].scale
    players, seconds = rushes[0].players, rushes[0].seconds
    print()
    size, burst = rushes[0].event_size, rushes[0].burst
    print(
        f"deadline rush: {players} players in {seconds:.0f} s (--scale {scale:g} of {size:,} in "
        f"30 min: the same requests a second), 10 live checks and 2 submissions each, 3x "
        f"in the last {burst:.0f} s"
    )
    header = ("database", "requests", "req/s", "server CPU ms/req", "request", "p50 ms",
              "p95 ms", "max ms", "lists stored")  # fmt: skip
    rows = [header]
    ok = True
    for rush in rushes:
        every = [t for values in rush.times.values() for t in values]
        if not every:
            rows.append((rush.kind, "0", "-", "-", "-", "-", "-", "-", "-"))
            ok = False
            continue
        p95 = percentile(every, 0.95)
        if p95 > RUSH_P95_TARGET:
            rush.failures.append(f"p95 {p95 * 1000:.0f} ms > {RUSH_P95_TARGET * 1000:.0f} ms")
        for what, values in [("all", every), *sorted(rush.times.items())]:
            rows.append(
                (
                    rush.kind if what == "all" else "",
                    str(len(values)),
                    f"{len(values) / rush.seconds:.1f}",
                    f"{rush.cpu / len(every) * 1000:.1f}" if what == "all" else "",
                    what,
                    f"{percentile(values, 0.5) * 1000:.0f}",
                    f"{percentile(values, 0.95) * 1000:.0f}",
                    f"{max(values) * 1000:.0f}",
                    str(rush.stored) if what == "all" else "",
                )
            )
        ok = ok and not rush.failures
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print(f"target: p95 <= {RUSH_P95_TARGET * 1000:.0f} ms; every 201 stored exactly once")
    for rush in rushes:
        for failure in rush.failures:
            print(f"FAILED ({rush.kind}, rush): {failure}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="varz-deck serve under load")
    parser.add_argument(
        "databases",
        nargs="*",
        help="sqlite, postgresql (TCP on 127.0.0.1), postgresql-socket (its Unix socket); "
        "default: sqlite and postgresql",
    )
    parser.add_argument("--scale", type=float, default=0.1, help="of the deadline rush")
    parser.add_argument(
        "--event-size", type=int, default=RUSH_PLAYERS, help="players of the event (rush)"
    )
    parser.add_argument(
        "--burst", type=float, default=0.0, help="seconds at 3x the rate (rush; 0: a sixth)"
    )
    parser.add_argument("--only", choices=("back-to-back", "rush", "cost"))
    options = parser.parse_args(argv)
    given = options.databases or os.environ.get("BENCH_SERVE_DATABASES", "sqlite,postgresql").split(
        ","
    )
    kinds = [kind.strip() for kind in given]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        parser.error(f"unknown database {unknown[0]!r}: choose from {', '.join(KINDS)}")
    jobs_of = {
        "varz": [
            (f"Player {n:04}", deck) for n, deck in enumerate(deck_variants("varz", SUBMISSIONS))
        ],
        "azuki": [
            (f"Azuki Player {n:04}", deck) for n, deck in enumerate(deck_variants("azuki", AZUKI))
        ],
    }
    runs: list[Run] = []
    rushes: list[Rush] = []
    costs: list[Cost] = []
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        for kind in kinds:
            if options.only in (None, "cost"):
                folder = Path(tmp) / f"{kind}-cost"
                folder.mkdir()
                costs.append(cost_bench(kind, folder))
            if options.only in (None, "back-to-back"):
                folder = Path(tmp) / kind
                folder.mkdir()
                runs.append(bench(kind, folder, {k: list(v) for k, v in jobs_of.items()}))
            if options.only in (None, "rush"):
                folder = Path(tmp) / f"{kind}-rush"
                folder.mkdir()
                rushes.append(
                    rush_bench(kind, folder, options.scale, options.event_size, options.burst)
                )
    failed = 0
    if runs:
        bare = bare_check_seconds(jobs_of)
        failed = report(runs)
        print()
        print(f"cost: the bare in-process check of the same decks: {bare * 1000:.2f} ms CPU each")
        for run in runs:
            if run.cpu and run.results:
                ratio = run.cpu / len(run.results) / bare
                print(
                    f"  {run.kind}: server CPU {run.cpu / len(run.results) * 1000:.2f} ms per "
                    f"submission = {ratio:.2f}x the bare check (target <= {COST_TARGET:g}x)"
                )
                if ratio > COST_TARGET:
                    print(f"FAILED ({run.kind}): cost {ratio:.2f}x > {COST_TARGET:g}x")
                    failed = 1
    if not rush_report(rushes):
        failed = 1
    if not cost_report(costs):
        failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
