"""`varz-deck lsp` speed and memory, measured from the client (issue 15).

Targets: diagnostics on a 60-line deck within 30 ms (median) of a change being sent; completion
over a generated 10,000-card database within 30 ms (median); at most 150 MiB resident with that
database open. With `--scale` (issue 27): completion over bench_scale's generated 100,000-card
database (generated once and kept in `$TMPDIR/varz-bench-scale`, its index built once in a cache
folder there) within 30 ms (median), at most 150 MiB peak resident. The server runs as an editor
runs it (`varz-deck lsp` over stdio, pytest-lsp's
client); times are from sending the message to receiving the answer or the diagnostics.

With `--against DIR` (a checkout of another version, e.g. `git worktree add /tmp/before main`),
both servers are measured side by side, in alternating rounds on the same database, and the
table gives each figure for both and their ratio (this checkout / DIR).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from lsprotocol import types as t
from pytest_lsp import client_capabilities, make_test_lsp_client

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
CARDS = int(os.environ.get("BENCH_CARDS", "10000"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "60"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))  # with --against: rounds of each server
SERVER = [sys.executable, "-m", "varz_deck", "lsp"]

_LATIN = [
    "ka",
    "ri",
    "dra",
    "gon",
    "mi",
    "zu",
    "ho",
    "ra",
    "shi",
    "ne",
    "to",
    "va",
    "rel",
    "bo",
    "xen",
]
_KANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモラリルレロ"
_HAN = "火水木金土龙虎风雷光影剑盾星月日山海云花"


def generate_database(folder: Path, count: int, seed: int = 15) -> list[str]:
    """A card database of `count` cards: the bundled VZ01 cards as templates (so every card is
    valid), each with a new id and made-up English, Japanese and Chinese names. Returns the
    English names."""
    rng = random.Random(seed)
    source = yaml.safe_load(
        (ROOT / "card_data" / "varz" / "sets" / "vz01.yaml").read_text(
            "utf-8"
        )
    )
    templates = [c for c in source["cards"] if c["type"] != "hero"]
    cards, names = [], []
    for i in range(count):
        card = dict(templates[i % len(templates)])
        words = [
            "".join(rng.choice(_LATIN) for _ in range(rng.randint(1, 3))).title()
            for _ in range(rng.randint(1, 3))
        ]
        name = f"{' '.join(words)} {i}"
        card["id"] = f"GEN-{i:05d}"
        card["name"] = name
        card["names"] = {
            "ja": "".join(rng.choice(_KANA) for _ in range(rng.randint(3, 7))) + str(i),
            "zh": "".join(rng.choice(_HAN) for _ in range(rng.randint(2, 5))) + str(i),
        }
        cards.append(card)
        names.append(name)
    heroes = [c for c in source["cards"] if c["type"] == "hero"]
    (folder / "sets").mkdir(parents=True)
    data = {"set": {"code": "GEN", "name": "Generated"}, "cards": cards}
    (folder / "sets" / "gen.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    data = {"set": {"code": "VZ01", "name": "Heroes"}, "cards": heroes}
    (folder / "sets" / "heroes.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return names


def sixty_lines() -> str:
    """The example deck, padded with comments to 60 lines."""
    lines = DECK.read_text("utf-8").rstrip("\n").split("\n")
    lines += [f"# note {i}" for i in range(60 - len(lines))]
    return "\n".join(lines[:60]) + "\n"


def server_pid() -> int:
    """The running server's process id: this process's one child (pytest-lsp's client gives no
    public handle on the process it starts)."""
    children = [
        int(pid)
        for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]
    assert len(children) == 1, children
    return children[0]


def resident_mib(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory now (VmRSS) or at its peak (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Client:
    """A pytest-lsp client with a count of diagnostics publications per document; the server is
    this checkout's, or the one in `code` (another checkout's varz_deck, first on the path)."""

    def __init__(self, code: Path | None = None) -> None:
        self.code = code
        self.lsp = make_test_lsp_client()
        self.count: dict[str, int] = {}
        outer = self

        class Counting(dict):  # type: ignore[type-arg]
            def __setitem__(self, uri: str, value: Any) -> None:
                outer.count[uri] = outer.count.get(uri, 0) + 1
                super().__setitem__(uri, value)

        self.lsp.diagnostics = Counting()

        @self.lsp.feature(t.CLIENT_REGISTER_CAPABILITY)
        def register_capability(params: t.RegistrationParams) -> None:
            """Accepted, as an editor does (the server asks to watch card files)."""

    async def start(self, *args: str) -> None:
        env = dict(os.environ)
        if self.code is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(self.code), env.get("PYTHONPATH", "")])
        await self.lsp.start_io(*SERVER, *args, env=env, cwd=str(self.code or ROOT))
        await self.lsp.initialize_session(
            t.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                initialization_options={"varz-deck": {"lang": "en"}},
            )
        )

    async def published(self, uri: str, before: int) -> None:
        while self.count.get(uri, 0) <= before:
            await asyncio.sleep(0)

    async def open(self, path: Path, text: str) -> None:
        before = self.count.get(path.as_uri(), 0)
        self.lsp.text_document_did_open(
            t.DidOpenTextDocumentParams(t.TextDocumentItem(path.as_uri(), "yaml", 1, text))
        )
        await asyncio.wait_for(self.published(path.as_uri(), before), 300)

    async def stop(self) -> None:
        await self.lsp.shutdown_session()
        await self.lsp.stop()


async def diagnostics_latency(tmp: Path, code: Path | None = None) -> list[float]:
    client = Client(code)
    await client.start()
    deck = tmp / "sixty.yaml"
    text = sixty_lines()
    await client.open(deck, text)
    line = text.split("\n").index("  Scorch Shot: 3")
    times = []
    for i in range(REPEATS):
        before = client.count[deck.as_uri()]
        change = t.TextDocumentContentChangePartial(
            range=t.Range(t.Position(line, 15), t.Position(line, 16)), text="23"[i % 2]
        )
        started = time.perf_counter()
        client.lsp.text_document_did_change(
            t.DidChangeTextDocumentParams(
                t.VersionedTextDocumentIdentifier(version=i + 2, uri=deck.as_uri()), [change]
            )
        )
        await client.published(deck.as_uri(), before)
        times.append(time.perf_counter() - started)
    await client.stop()
    return times


async def completion_latency(
    tmp: Path, code: Path | None = None, names: list[str] | None = None
) -> tuple[list[float], float, float, int]:
    """Completion times over the generated database (made in tmp unless `names` says it is
    there already), the server's resident memory, its start, and the answers with items."""
    folder = tmp / "cards"
    if names is None:
        names = generate_database(folder, CARDS)
    client = Client(code)
    started = time.perf_counter()
    await client.start("--cards", str(folder))
    deck = tmp / "big.yaml"
    text = "hero: Hibiki Kagura\nspells:\n  Ka\n"
    await client.open(deck, text)
    loaded = time.perf_counter() - started
    times, found = await complete_each(client, deck, typed_texts(names, random.Random(1)))
    rss = resident_mib(server_pid())
    await client.stop()
    return times, rss, loaded, found


def typed_texts(names: list[str], rng: random.Random) -> list[str]:
    """What a player types: the start of a name (1 to 6 characters), or 4 of its first 8
    characters in any order (found by the letters-in-order pass)."""
    typed = []
    for i in range(REPEATS):
        name = rng.choice(names)
        typed.append(name[: rng.randint(1, 6)] if i % 2 else "".join(rng.sample(name[:8], 4)))
    return typed


async def complete_each(client: Client, deck: Path, typed: list[str]) -> tuple[list[float], int]:
    """Type each text on the deck's third line and ask for completion there: the times of the
    answers, and how many had items."""
    times, found = [], 0
    for i, text in enumerate(typed):
        line = f"  {text}"
        change = t.TextDocumentContentChangePartial(
            range=t.Range(t.Position(2, 0), t.Position(2, 200)), text=line
        )
        client.lsp.text_document_did_change(
            t.DidChangeTextDocumentParams(
                t.VersionedTextDocumentIdentifier(version=i + 2, uri=deck.as_uri()), [change]
            )
        )
        began = time.perf_counter()
        result = await client.lsp.text_document_completion_async(
            t.CompletionParams(t.TextDocumentIdentifier(deck.as_uri()), t.Position(2, len(line)))
        )
        times.append(time.perf_counter() - began)
        found += bool(result and result.items)
    return times, found


async def scale_completion(folder: Path) -> tuple[list[float], float, float, int]:
    """Completion over bench_scale's 100,000 cards (every language's names typed), then a hover
    and a definition: the completion times, the server's peak RSS (its database index already built: a cold build is bench_scale's
    figure, not the editor's), the time to start and first diagnostics, the answers with items."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_scale import prepare

    db, _, triples = prepare(folder)
    os.environ["VARZ_DECK_CACHE"] = str(folder / "lsp-cache")
    check = [sys.executable, "-m", "varz_deck", "check", "--cards", str(db), str(DECK)]
    subprocess.run(check, stdout=subprocess.DEVNULL, check=False)  # builds the index once
    names = [name for triple in triples for name in triple]
    client = Client()
    started = time.perf_counter()
    await client.start("--cards", str(db))
    deck = folder / "lsp-deck.yaml"
    text = "hero: Hibiki Kagura\nspells:\n  Ka\n"
    await client.open(deck, text)
    loaded = time.perf_counter() - started
    times, found = await complete_each(client, deck, typed_texts(names, random.Random(1)))
    hero = t.Position(0, 8)  # hover and go to definition read the one card too, not all
    document = t.TextDocumentIdentifier(deck.as_uri())
    hover = await client.lsp.text_document_hover_async(t.HoverParams(document, hero))
    where = await client.lsp.text_document_definition_async(t.DefinitionParams(document, hero))
    assert hover is not None and where, "no hover or definition for the deck's hero"
    peak = resident_mib(server_pid(), "VmHWM")
    await client.stop()
    return times, peak, loaded, found


async def run_scale(folder: Path) -> int:
    comp, peak, loaded, found = await scale_completion(folder)
    c_med = statistics.median(comp) * 1000
    p90 = statistics.quantiles(comp, n=10)[-1] * 1000
    print(f"requests: {REPEATS} (median; p90 in brackets)")
    print(f"  completion, 100,000-card database: {c_med:6.1f} ms  [{p90:.1f}]"
          f"  (target <= 30 ms; {found}/{REPEATS} with items)")  # fmt: skip
    print(f"  peak resident memory of the server: {peak:6.1f} MiB  (target <= 150 MiB)")
    print(f"  start, open and first diagnostics (indexed database): {loaded:.1f} s")
    return 0 if c_med <= 30 and peak <= 150 else 1


async def run() -> int:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        os.environ["VARZ_DECK_CACHE"] = str(tmp / "cache")
        diag = await diagnostics_latency(tmp)
        comp, rss, loaded, found = await completion_latency(tmp)
    d_med, c_med = statistics.median(diag) * 1000, statistics.median(comp) * 1000
    print(f"requests per measure: {REPEATS} (medians; p90 in brackets)")
    p90 = statistics.quantiles
    print(f"  diagnostics after a change, 60-line deck: {d_med:6.1f} ms"
          f"  [{p90(diag, n=10)[-1] * 1000:.1f}]  (target <= 30 ms)")  # fmt: skip
    print(f"  completion, {CARDS:,}-card database:     {c_med:6.1f} ms"
          f"  [{p90(comp, n=10)[-1] * 1000:.1f}]  (target <= 30 ms; {found}/{REPEATS} with items)")  # fmt: skip
    print(f"  resident memory with it open:            {rss:6.1f} MiB  (target <= 150 MiB)")
    print(f"  start, open and first diagnostics (uncached database): {loaded:.1f} s")
    return 0 if d_med <= 30 and c_med <= 30 and rss <= 150 else 1


async def run_against(other: Path) -> int:
    """This checkout's server and `other`'s, side by side: rounds alternate between them, on the
    same generated database, each server with its own cache folder."""
    measures: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        names = generate_database(tmp / "cards", CARDS)
        servers = {"before": other.resolve(), "after": None}
        for _ in range(ROUNDS):
            for label, code in servers.items():
                os.environ["VARZ_DECK_CACHE"] = str(tmp / f"cache-{label}")
                got = measures.setdefault(label, {})
                got.setdefault("diag", []).extend(await diagnostics_latency(tmp, code))
                comp, rss, loaded, _ = await completion_latency(tmp, code, names)
                got.setdefault("comp", []).extend(comp)
                got.setdefault("rss", []).append(rss)
                got.setdefault("start", []).append(loaded)
    rows = [
        ("diagnostics after a change, 60-line deck (ms)", "diag", 1000),
        (f"completion, {CARDS:,}-card database (ms)", "comp", 1000),
        ("resident memory with it open (MiB)", "rss", 1),
        ("start, open, first diagnostics (s)", "start", 1),
    ]
    print(f"{ROUNDS} rounds each, {REPEATS} requests per measure a round; medians")
    print(f"  {'measure':48} {'before':>9} {'after':>9} {'after/before':>13}")
    for title, key, scale in rows:
        before = statistics.median(measures["before"][key]) * scale
        after = statistics.median(measures["after"][key]) * scale
        print(f"  {title:48} {before:9.2f} {after:9.2f} {after / before:13.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", action="store_true", help="completion at 100,000 cards")
    parser.add_argument(
        "--against", type=Path, help="another checkout: both servers side by side, with ratios"
    )
    parser.add_argument(
        "--folder", type=Path, default=Path(tempfile.gettempdir()) / "varz-bench-scale"
    )
    args = parser.parse_args()
    if args.against is not None:
        return asyncio.run(run_against(args.against))
    if args.scale:
        args.folder.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run_scale(args.folder))
    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
