"""`varz-deck lsp` on Tidewright decks, driven over stdio by pytest-lsp as an editor drives it,
with the installed package first on the server's path."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import cast

import pytest
from conftest import DECKS

for _module in ("pygls", "pytest_lsp"):  # the lsp extra, and the client that drives it
    if importlib.util.find_spec(_module) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{_module} is not installed; CI must install it", pytrace=False)
        pytest.skip(f"{_module} is not installed", allow_module_level=True)

from lsprotocol import types as t  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

TIMEOUT = 20.0


async def _diagnostics(env: dict[str, str], cards: Path | None, path: Path) -> list[t.Diagnostic]:
    import asyncio

    config = ClientServerConfig(server_command=[sys.executable, "-m", "varz_deck", "lsp"],
                                server_env=env)  # fmt: skip
    client = cast("LanguageClient", await config.start())
    try:
        options = {"lang": "en", **({"cards": str(cards)} if cards else {})}
        await client.initialize_session(
            t.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                initialization_options={"varz-deck": options},
                root_uri=DECKS.as_uri(),
            )
        )
        uri = path.as_uri()
        language = "plaintext" if path.suffix == ".txt" else "yaml"
        client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                t.TextDocumentItem(uri, language, 1, path.read_text(encoding="utf-8"))
            )
        )
        for _ in range(int(TIMEOUT / 0.01)):
            if uri in client.diagnostics:
                break
            await asyncio.sleep(0.01)
        found = list(client.diagnostics.get(uri, []))
        await client.shutdown_session()
        return found
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
        await client.stop()


def _shown(found: list[t.Diagnostic]) -> list[tuple[str, int, int, int]]:
    """(code, severity, 0-based line, 0-based character) of each diagnostic."""
    return [(str(d.code), int(d.severity or 0), d.range.start.line, d.range.start.character)
            for d in found]  # fmt: skip


@pytest.mark.asyncio
async def test_lsp_diagnostics_with_the_database_named(env: dict[str, str], cards: Path) -> None:
    got = await _diagnostics(env, cards, DECKS / "illegal-off-sea.yaml")
    assert _shown(got) == [("T105", 1, 15, 2)]  # line 16, column 3
    got = await _diagnostics(env, cards, DECKS / "legal-thin-crew.yaml")
    assert _shown(got) == [("T201", 2, 3, 0)]  # a warning
    got = await _diagnostics(env, cards, DECKS / "illegal-currents-size.txt")
    assert _shown(got) == [("T103", 1, 11, 0)]


@pytest.mark.asyncio
async def test_lsp_finds_the_game_of_a_deck(env: dict[str, str]) -> None:
    got = await _diagnostics(env, None, DECKS / "illegal-copies.yaml")
    assert _shown(got) == [("T104", 1, 4, 2)]
