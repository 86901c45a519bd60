"""The real parts the server tests stand on: the throwaway PostgreSQL cluster is real, reachable on
127.0.0.1 only, and every server gets a database of its own."""

from __future__ import annotations

import socket

import pytest
from harness import HOST, free_port, postgres_bindir


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
