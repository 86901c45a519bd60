"""The organiser's guide, "Run it on a server", run as written: its settings file, its commands
(`varz-deck manage migrate`, `createcachetable`, `check --deploy`, `event create`) and its
systemd unit's gunicorn command line, twice (two machines on one PostgreSQL database), with this
test as the reverse proxy (Host, X-Forwarded-For, X-Forwarded-Proto). Only the placeholders are
replaced: the database URL, the key, the settings file's path, the programs' paths, the port."""

from __future__ import annotations

import re
import secrets
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from harness import ROOT, Database, LiveServer, PostgresCluster, run_cli

GUIDE = ROOT / "docs" / "guides" / "organiser.md"
LEGAL = ROOT / "examples" / "blue-minase-tide.yaml"
PROXY = {
    "Host": "decks.example.org",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
}


def _block(marker: str) -> str:
    """The fenced block that follows `<!-- marker -->` in the guide."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```[a-z]*\n(.*?)\n```", text, re.DOTALL)
    assert found is not None, f"the guide has no {marker} block"
    return found.group(1)


class UnitServer(LiveServer):
    """The unit's ExecStart, its gunicorn bound to a free port on 127.0.0.1."""

    def __init__(self, database: Database, exec_start: str, **kwargs: Any) -> None:
        super().__init__(database, **kwargs)
        self.exec_start = exec_start

    def argv(self) -> list[str]:
        words = shlex.split(self.exec_start.replace("127.0.0.1:8000", f"127.0.0.1:{self.port}"))
        assert words[0] == "/srv/varz-deck/.venv/bin/gunicorn", words[0]
        return [str(Path(sys.executable).with_name("gunicorn")), *words[1:]]


def test_the_guides_deployment_runs_as_written(
    make_database: Callable[..., Database], tmp_path: Path
) -> None:
    database = make_database("postgresql", "deployment-guide")
    settings = tmp_path / "varz-deck.env"
    settings.write_text(
        _block("deploy-env")
        .replace("postgresql://varzdeck:PASSWORD@db.example.org:5432/varzdeck", database.url)
        .replace("VARZ_DECK_SECRET_KEY=KEY", f"VARZ_DECK_SECRET_KEY={secrets.token_urlsafe(50)}")
        + "\n",
        encoding="utf-8",
    )
    env: dict[str, str] = {"VARZ_DECK_DATABASE": "", "VARZ_DECK_PUBLIC_URL": ""}
    outputs = []
    for line in _block("deploy-commands").splitlines():
        words = shlex.split(line)
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            assert (name, value) == ("VARZ_DECK_CONFIG", "/etc/varz-deck.env"), line
            env[name] = str(settings)
            continue
        assert words[0] == "varz-deck", line
        done = run_cli(words[1:], cwd=tmp_path, env=env)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
        outputs.append(done.stdout)
    assert "System check identified no issues (0 silenced)." in outputs[2]
    key = re.search(r"event (\w+) created: Spring Open", outputs[3])
    token = re.search(r"\(token ([\w-]+);", outputs[3])
    assert key is not None and token is not None, outputs[3]
    event, organiser = key.group(1), {"Authorization": f"Bearer {token.group(1)}"}

    unit = _block("deploy-unit")
    exec_start = re.search(r"^ExecStart=(.*)$", unit, re.MULTILINE)
    environment = re.findall(r"^Environment=(\w+)=(.*)$", unit, re.MULTILINE)
    assert exec_start is not None and environment == [("VARZ_DECK_CONFIG", "/etc/varz-deck.env")]
    machines = [UnitServer(database, exec_start.group(1), env=env) for _ in range(2)]
    try:
        for machine in machines:
            machine.start()
        first, second = (machine.client() for machine in machines)
        page = first.get(f"/events/{event}/submit", headers=PROXY)
        assert page.status == 200 and "Spring Open" in page.text, page
        assert "max-age=31536000" in (page.header("Strict-Transport-Security") or "")
        deck = LEGAL.read_text(encoding="utf-8")
        path = f"/api/v1/events/{event}/decklists"
        for client, player in ((first, "Ann"), (second, "Bob")):
            stored = client.post(path, json={"player": player, "deck": deck}, headers=PROXY)
            assert stored.status == 201, stored
        listed = first.get(path, headers={**PROXY, **organiser})
        assert [row["player"] for row in listed.json()] == ["Ann", "Bob"]
        plain = second.get(f"/events/{event}/submit", headers={"Host": "decks.example.org"})
        assert plain.status == 301, plain  # http: to https, as the proxy would
        assert plain.header("Location") == f"https://decks.example.org/events/{event}/submit"
        other = first.get(f"/events/{event}/submit", headers={**PROXY, "Host": "evil.example"})
        assert other.status == 400, other
    finally:
        for machine in machines:
            machine.stop()


def test_the_guides_one_machine_url_reaches_postgresql_through_its_socket(
    postgres_cluster: PostgresCluster, live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    line = _block("deploy-socket")
    name, _, url = line.partition("=")
    assert name == "VARZ_DECK_DATABASE", line
    expected = "postgresql://varzdeck@/varzdeck?host=/var/run/postgresql"
    assert url == expected, url  # what is replaced below
    database = postgres_cluster.create_database("deployment_socket").rsplit("/", 1)[1]
    ours = (
        url.replace("varzdeck@", "postgres@")  # the cluster's own user
        .replace("/varzdeck?", f"/{database}?")
        .replace("host=/var/run/postgresql", f"host={postgres_cluster.root}")
        + f"&port={postgres_cluster.port}"  # the cluster's free port (the guide's: 5432)
    )
    assert ours == postgres_cluster.socket_url(database)
    server = live_server(Database("postgresql", ours, tmp_path))
    event = server.create_event("Socket Open")
    path = f"/api/v1/events/{event['event']}/decklists"
    stored = server.post(path, json={"player": "Ann", "deck": LEGAL.read_text(encoding="utf-8")})
    assert stored.status == 201, stored
    listed = server.get(path, headers=event["headers"])
    assert [row["player"] for row in listed.json()] == ["Ann"]
    with psycopg.connect(postgres_cluster.url(database)) as connection:
        clients = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND client_port = -1",
            (database,),
        ).fetchone()
    assert clients is not None and clients[0] >= 1  # the server's pooled connection: a socket
