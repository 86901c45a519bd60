"""Real parts for the server tests and benchmarks/bench_serve.py: a throwaway PostgreSQL cluster and
a live `varz-deck serve` subprocess on 127.0.0.1, with a small HTTP client.

Standard library only (no pytest here), so the benchmark uses the same code as the tests.
Everything listens on and talks to the loopback address only.
"""

from __future__ import annotations

import contextlib
import http.client
import json as jsonlib
import os
import pwd
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

HOST = "127.0.0.1"
START_TIMEOUT = 30.0  # seconds for a server to answer GET /healthz
STOP_TIMEOUT = 10.0  # seconds between SIGTERM and SIGKILL


# what a request raises when the server went away under it (a refused or cut connection, an
# answer cut short)
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)


class HarnessError(RuntimeError):
    """A real part could not be set up (the message says what and shows its log)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the caller retries if another process takes it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return text[-limit:]


# --------------------------------------------------------------------------------------- PostgreSQL


def postgres_bindir() -> Path | None:
    """The folder of PostgreSQL's server binaries (initdb, postgres, createdb), or None when not installed.

    Debian keeps them in /usr/lib/postgresql/VERSION/bin (the newest is taken); elsewhere they are
    on PATH.
    """
    tools = ("initdb", "postgres", "createdb")
    versions = []
    for candidate in Path("/usr/lib/postgresql").glob("*/bin"):
        if all((candidate / tool).exists() for tool in tools):
            with contextlib.suppress(ValueError):
                versions.append((int(candidate.parent.name), candidate))
    found = shutil.which("initdb")
    if not versions and found:
        folder = Path(found).resolve().parent
        if all((folder / tool).exists() for tool in tools):
            return folder
    return max(versions)[1] if versions else None


class PostgresCluster:
    """A throwaway cluster: initdb in a temporary folder, trust authentication, listening on
    127.0.0.1 only (a random free port, its Unix socket inside the folder), deleted on stop().

    PostgreSQL refuses to run as root; under root (CI here) the cluster's commands run as the
    unprivileged `postgres` user that Debian's package creates, and the folder belongs to it.
    `durable=False` (the tests) turns fsync off; the benchmark keeps PostgreSQL's defaults.
    """

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable
        self.root = Path()
        self.port = 0
        self._user: dict[str, Any] = {}
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The postmaster's process id while the cluster runs."""
        return self._process.pid if self._process is not None else None

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "postgresql.log"

    def _as_owner(self, args: Sequence[str], timeout: float = 60.0) -> None:
        done = subprocess.run(
            list(args),
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "LC_ALL": "C.UTF-8", "PGTZ": "UTC"},
            **self._user,
        )
        if done.returncode != 0:
            raise HarnessError(
                f"{Path(args[0]).name} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n"
                f"{_tail(self.log)}"
            )

    def start(self) -> PostgresCluster:
        self.root = Path(tempfile.mkdtemp(prefix="varz-deck-pg-"))
        try:
            self._init()
            self._run()
        except BaseException:
            self.stop()
            raise
        return self

    def _init(self) -> None:
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise HarnessError(
                    "PostgreSQL refuses to run as root and there is no `postgres` user to run it "
                    "(apt-get install postgresql creates one)"
                ) from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._user = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}
        self._as_owner(
            [
                str(self.bindir / "initdb"),
                "-D", str(self.data),
                "-U", "postgres",
                "--auth-local=trust", "--auth-host=trust",
                "-E", "UTF8", "--locale=C.UTF-8",
                "--no-sync",
            ]
        )  # fmt: skip

    def _run(self) -> None:
        """The postmaster as a child of this process (not daemonised by pg_ctl): it stays in
        the caller's process group, so a `timeout` that ends the tests ends it too."""
        settings = [
            "-c", f"listen_addresses={HOST}",
            "-c", f"unix_socket_directories={self.root}",
            "-c", "max_connections=200",
        ]  # fmt: skip
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "full_page_writes=off"]
            settings += ["-c", "synchronous_commit=off"]
        for _attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            with self.log.open("ab") as log:
                self._process = subprocess.Popen(
                    [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
                     *settings],
                    cwd=self.root,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, "LC_ALL": "C.UTF-8"},
                    **self._user,
                )  # fmt: skip
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and self._process.poll() is None:
                if _ready(self.port) and "ready to accept connections" in _tail(self.log):
                    return
                time.sleep(0.05)
            self._halt()
            if "could not bind" not in _tail(self.log).lower():
                break
        raise HarnessError(f"PostgreSQL did not start:\n{_tail(self.log)}")

    def _halt(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGQUIT)  # immediate shutdown: the cluster is thrown away
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)

    def create_database(self, name: str) -> str:
        """A new empty database; its URL (for `--database`)."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(name)
        createdb = self.bindir / "createdb"
        done = subprocess.run(
            [str(createdb), "-h", HOST, "-p", str(self.port), "-U", "postgres", name],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode != 0:
            raise HarnessError(f"createdb {name} failed: {done.stderr}")
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/{name}"

    def socket_url(self, name: str) -> str:
        """The database's URL through the cluster's Unix socket (the organiser's guide: a database
        on the server's own machine), not TCP."""
        return f"postgresql://postgres@/{name}?host={quote(str(self.root))}&port={self.port}"

    def stop(self) -> None:
        """Stop the cluster and delete its folder."""
        self._halt()
        if self.root.name:
            shutil.rmtree(self.root, ignore_errors=True)


def _ready(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=1):
            return True
    except OSError:
        return False


# ------------------------------------------------------------------------------------------- HTTP


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    elapsed: float = 0.0  # seconds from sending the request to reading the whole answer

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return jsonlib.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name)

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.body[:300]!r}>"


@dataclass
class Client:
    """A tiny HTTP/1.1 client for one server: keeps its connection alive and its cookies.

    Not thread-safe: give each thread its own (`server.client()`). Redirects are not followed.
    """

    host: str
    port: int
    timeout: float = 30.0
    cookies: dict[str, str] = field(default_factory=dict)
    _connection: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        body: bytes | str | None = None,
        headers: Mapping[str, str] | None = None,
        form: Mapping[str, str] | None = None,
    ) -> Response:
        """Send one request; `json` (encoded as JSON), `form` (urlencoded) or a raw `body`."""
        sent: dict[str, str] = {"Accept": "application/json, text/html;q=0.9, */*;q=0.1"}
        data: bytes | None
        if json is not None:
            data = jsonlib.dumps(json).encode()
            sent["Content-Type"] = "application/json"
        elif form is not None:
            data = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = body.encode() if isinstance(body, str) else body
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        sent.update(headers or {})
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    self.host, self.port, timeout=self.timeout
                )
            started = time.perf_counter()
            try:
                self._connection.request(method, path, body=data, headers=sent)
                answer = self._connection.getresponse()
                payload = answer.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # the server closed a kept-alive connection before this request reached it:
                # only then is sending again safe (a request it received is never sent twice)
                self.close()
                if attempt == 2 or not _unsent(method):
                    raise
                continue
            except TRANSPORT_ERRORS:
                self.close()
                raise
            elapsed = time.perf_counter() - started
            self._keep(answer.headers)
            if answer.will_close:
                self.close()
            return Response(answer.status, answer.headers, payload, elapsed)
        raise AssertionError("unreachable")

    def _keep(self, headers: http.client.HTTPMessage) -> None:
        for line in headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Response:
        return self.request("PUT", path, **kwargs)


def _unsent(method: str) -> bool:
    """Only idempotent requests are sent again after a dropped keep-alive connection."""
    return method in {"GET", "HEAD", "OPTIONS"}  # not PUT: each PUT keeps a new version


# ------------------------------------------------------------------------------------ live server


def children(pid: int) -> set[int]:
    """The live processes whose parent is `pid` (Linux /proc; none found elsewhere)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def varz_deck_command() -> list[str]:
    """How to run this interpreter's varz-deck (`python -m varz_deck`, the package's __main__)."""
    return [sys.executable, "-m", "varz_deck"]


# One interpreter answering command lines one after another, each through `varz_deck.cli.main`
# exactly as `python -m varz_deck` runs it: a line of JSON (the arguments) in, a line of JSON
# (exit code, stdout, stderr) out.
_COMMAND_LOOP = """
import contextlib, io, json, sys
from varz_deck.cli.main import main
answers = sys.stdout
for line in sys.stdin:
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(json.loads(line))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    answers.write(json.dumps([code, out.getvalue(), err.getvalue()]) + "\\n")
    answers.flush()
"""


class CommandLine:
    """`varz-deck ARGS` run again and again in one process started once (in `cwd`, with `env`
    over this process's environment): a server's many `event create`s without an interpreter,
    Django and the command tree started for each. The commands that test the command line itself
    run it as a process of its own (`run_cli`)."""

    def __init__(self, cwd: Path, env: Mapping[str, str]) -> None:
        self.key = self.key_of(cwd, env)
        self.log = cwd / "commands.log"
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _COMMAND_LOOP],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                encoding="utf-8",
                env={**os.environ, **env},
            )  # fmt: skip

    @staticmethod
    def key_of(cwd: Path, env: Mapping[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
        """What makes two such processes the same: their folder and their environment."""
        return str(cwd), tuple(sorted(env.items()))

    def run(self, args: Sequence[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(jsonlib.dumps(list(args)) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise HarnessError(f"varz-deck {' '.join(args)} gave no answer:\n{_tail(self.log)}")
        code, out, err = jsonlib.loads(line)
        return subprocess.CompletedProcess(list(args), code, out, err)

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_cli(
    args: Sequence[str], *, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*varz_deck_command(), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, **(env or {})},
    )


@dataclass
class Database:
    """A fresh database for one server: its kind ("sqlite" or "postgresql"), URL and folder."""

    kind: str
    url: str
    folder: Path

    def __str__(self) -> str:
        return self.kind


def sqlite_database(folder: Path) -> Database:
    folder.mkdir(parents=True, exist_ok=True)
    return Database("sqlite", f"sqlite:///{(folder / 'varz-deck.sqlite3').resolve()}", folder)


class LiveServer:
    """`varz-deck serve --database URL --host 127.0.0.1 --port FREE` as a subprocess in the
    database's folder; start() waits for GET /healthz; stop() sends SIGTERM, then SIGKILL."""

    def __init__(
        self,
        database: Database,
        *,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        start_timeout: float = START_TIMEOUT,
        command: Sequence[str] | None = None,
    ) -> None:
        self.database = database
        self.command = list(command or varz_deck_command())
        self.extra_args = list(extra_args)
        self.env = dict(env or {})
        self.start_timeout = start_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.folder / "serve.log"
        self.starts = 0
        self._commands: CommandLine | None = None  # create_event's, started on first use

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def argv(self) -> list[str]:
        """The command line that starts the server on `self.port`."""
        return [
            *self.command, "serve",
            "--database", self.database.url,
            "--host", HOST,
            "--port", str(self.port),
            *self.extra_args,
        ]  # fmt: skip

    def start(self) -> LiveServer:
        last = ""
        for _attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            self.starts += 1
            with self.log.open("ab") as log:
                log.write(f"\n--- start {self.starts} on port {self.port}\n".encode())
            log_file = self.log.open("ab")
            try:
                self.process = subprocess.Popen(
                    self.argv(),
                    cwd=self.database.folder,
                    stdin=subprocess.DEVNULL,
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, **self.env},
                )  # fmt: skip
            finally:
                log_file.close()
            if self._wait_healthy():
                return self
            last = _tail(self.log)
            self.stop()
            if "address already in use" not in last.lower():
                break
        raise HarnessError(f"varz-deck serve did not answer GET /healthz:\n{last}")

    def _wait_healthy(self) -> bool:
        deadline = time.monotonic() + self.start_timeout
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    connection.close()
                    return True
                connection.close()
            except OSError:
                pass
            time.sleep(0.05)
        return False

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def commands(self) -> CommandLine:
        """The process that runs this server's `varz-deck` command lines (`create_event`)."""
        key = CommandLine.key_of(self.database.folder, self.env)
        if self._commands is not None and self._commands.key != key:
            self._commands.close()
            self._commands = None
        if self._commands is None:
            self._commands = CommandLine(self.database.folder, self.env)
        return self._commands

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after STOP_TIMEOUT seconds."""
        if self._commands is not None:
            self._commands.close()
            self._commands = None
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._sigkill(process)

    def kill(self) -> None:
        """SIGKILL to the server and its worker processes at once, as a crash of the machine or
        of the service would be (no shutdown of any kind: gunicorn's workers whose arbiter alone
        is killed finish their requests first)."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            workers = children(process.pid)
            process.kill()
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            process.wait(STOP_TIMEOUT)

    @staticmethod
    def _sigkill(process: subprocess.Popen[bytes]) -> None:
        process.kill()
        process.wait(STOP_TIMEOUT)

    def restart(self) -> LiveServer:
        self.stop()
        return self.start()

    def client(self, timeout: float = 30.0) -> Client:
        return Client(HOST, self.port, timeout)

    def request(self, method: str, path: str, **kwargs: Any) -> Response:
        """One request on a fresh connection (no cookies kept)."""
        client = self.client()
        try:
            return client.request(method, path, **kwargs)
        finally:
            client.close()

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Response:
        return self.request("PUT", path, **kwargs)

    def create_event(
        self,
        name: str,
        *,
        deadline: str | None = None,
        format: str | None = None,
        game: str | None = None,
        extra_args: Sequence[str] = (),
    ) -> dict[str, Any]:
        """`varz-deck event create NAME --database URL --output json [options]`: its JSON, plus
        "base_url" (this server) and "headers" (the organiser's Authorization header)."""
        args = ["event", "create", name, "--database", self.database.url, "--output", "json"]
        for option, value in (("--deadline", deadline), ("--format", format), ("--game", game)):
            if value is not None:
                args += [option, value]
        done = self.commands().run([*args, *extra_args])
        if done.returncode != 0:
            raise HarnessError(f"varz-deck {' '.join(args)} exited {done.returncode}:\n"
                               f"{done.stdout}\n{done.stderr}")  # fmt: skip
        event: dict[str, Any] = jsonlib.loads(done.stdout)
        event["base_url"] = self.base_url
        event["headers"] = {"Authorization": f"Bearer {event['organiser_token']}"}
        return event


# ------------------------------------------------------------------------------------------ decks

ROOT = Path(__file__).resolve().parents[2]
# game -> (the examples, the section varied, at most this many copies of one card in it)
DECK_SOURCES = {
    "varz": (sorted((ROOT / "examples").glob("*.yaml")), "spells", 3),
    "azuki": (sorted((ROOT / "examples" / "azuki").glob("*.yaml")), "main", 4),
}


def deck_variants(game: str, count: int, *, seed: int = 0, illegal_every: int = 4) -> list[str]:
    """`count` different decks of a game, from the bundled examples, as YAML texts.

    Each moves copies between two cards of the examples' main section (the section keeps its
    size, so the deck keeps its legality); every `illegal_every`-th deck puts one card over its
    copy limit instead (illegal). No two have the same card counts, so no two share a hash.
    VARZ's examples/illegal.yaml is one of the sources too (always illegal).
    """
    import random

    import yaml

    paths, section, limit = DECK_SOURCES[game]
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    bases = []
    for path in paths:
        deck = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        if isinstance(deck.get(section), dict):
            deck.pop("player", None)
            deck.pop("event", None)
            bases.append(deck)
    rest = [{k: v for k, v in deck.items() if k != section} for deck in bases]
    heads = [yaml.safe_dump(deck, allow_unicode=True, sort_keys=False) for deck in rest]
    rng = random.Random(f"{game}-{seed}")
    seen: set[tuple[int, tuple[tuple[str, int], ...]]] = set()
    texts: list[str] = []
    while len(texts) < count:
        which = len(texts) % len(bases)
        cards = dict(bases[which][section])
        names = list(cards)
        if len(texts) % illegal_every == illegal_every - 1:
            over = rng.choice(names)
            cards[over] = limit + 1
        for _move in range(rng.randint(1, 6)):
            give, take = rng.sample(names, 2)
            if 1 < cards[give] <= limit and cards[take] < limit:
                cards[give] -= 1
                cards[take] += 1
        signature = (which, tuple(sorted(cards.items())))
        if signature in seen:
            continue
        seen.add(signature)
        lines = [f"  {jsonlib.dumps(name, ensure_ascii=False)}: {n}" for name, n in cards.items()]
        texts.append(heads[which] + f"{section}:\n" + "\n".join(lines) + "\n")
    return texts


class GunicornServer(LiveServer):
    """The deployer's own gunicorn on `varz_deck.server.wsgi:application` (the organiser's guide,
    "Run it on a server"): `options` are gunicorn's, `env` the settings (VARZ_DECK_*)."""

    def __init__(self, database: Database, options: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(database, **kwargs)
        self.options = list(options)

    def argv(self) -> list[str]:
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        return [gunicorn, "--bind", f"{HOST}:{self.port}", *self.options,
                "varz_deck.server.wsgi:application"]  # fmt: skip
