"""The real parts the server tests stand on: the throwaway PostgreSQL cluster is real, reachable on
127.0.0.1 only, every server gets a database of its own, and the process that runs a server's
`event create`s answers as `varz-deck` run alone does."""

from __future__ import annotations

import json
import socket

import pytest
from harness import HOST, CommandLine, free_port, postgres_bindir, run_cli


def test_postgres_cluster_is_real_and_listens_on_loopback_only(postgres_cluster):
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_cluster.url("postgres"), connect_timeout=5) as connection:
        version = connection.execute("SHOW server_version_num").fetchone()[0]
        listen = connection.execute("SHOW listen_addresses").fetchone()[0]
        rules = connection.execute("SELECT address FROM pg_hba_file_rules").fetchall()
    assert int(version) >= 130000
    assert listen == HOST
    assert {row[0] for row in rules} <= {None, "127.0.0.1", "::1"}  # trust for loopback only
    assert postgres_cluster.bindir == postgres_bindir()


def test_each_database_is_fresh_and_distinct(make_database):
    psycopg = pytest.importorskip("psycopg")
    first, second = make_database("postgresql", "a"), make_database("postgresql", "b")
    assert first.url != second.url and first.folder != second.folder
    with psycopg.connect(first.url, connect_timeout=5) as connection:
        tables = connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()[0]
    assert tables == 0
    lite = make_database("sqlite", "c")
    assert lite.url == f"sqlite:///{lite.folder / 'varz-deck.sqlite3'}"
    assert not (lite.folder / "varz-deck.sqlite3").exists()


def test_free_port_is_bindable_on_loopback():
    port = free_port()
    with socket.socket() as sock:
        sock.bind((HOST, port))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_command_process_answers_as_varz_deck_alone_does(make_database, kind):
    database = make_database(kind, "commands")
    env = {"TZ": "Asia/Tokyo"}
    commands = CommandLine(database.folder, env)
    try:
        create = ["event", "create", "--database", database.url, "--output", "json"]
        kept = [commands.run([*create, f"Kept Cup {n}"]) for n in range(2)]
        alone = run_cli([*create, "Alone Cup"], cwd=database.folder, env=env)
        refused = ["event", "create", "", "--database", database.url]
        wrong, wrong_alone = commands.run(refused), run_cli(refused, cwd=database.folder, env=env)
    finally:
        commands.close()
    assert [done.returncode for done in (*kept, alone)] == [0, 0, 0]
    documents = [json.loads(done.stdout) for done in (*kept, alone)]
    assert [d["name"] for d in documents] == ["Kept Cup 0", "Kept Cup 1", "Alone Cup"]
    assert len({d["event"] for d in documents}) == 3  # three events in the one database
    assert {d["timezone"] for d in documents} == {"Asia/Tokyo"}  # the environment given
    assert (wrong.returncode, wrong.stdout, wrong.stderr) == (
        wrong_alone.returncode, wrong_alone.stdout, wrong_alone.stderr,
    )  # fmt: skip
    assert wrong.returncode == 2 and wrong.stderr
    assert commands.process.poll() is not None  # closed
