"""`varz-deck.date` in the language server's settings (SPEC §10, §12): every deck is checked as
of it; a setting that is not a day is said once (window/showMessage) and decks are checked as of
today. Driven over stdio by pytest-lsp, as tests/test_lsp.py does.

The database is the bundled one with Scorch Shot (three copies in the example deck) banned from
2027-01-15, written here by hand: V115 from that day on, none the day before.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_lsp import stop

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
BUNDLED = ROOT / "card_data" / "varz"
SERVER = [sys.executable, "-m", "varz_deck", "lsp"]
TIMEOUT = 20.0
ANCHOR = "    restricted: {VZ01-040: 1}    # sample restriction: Soul Harvest, at most 1 copy\n"
DATED_BAN = "    changes:\n      - date: 2027-01-15\n        banned: [VZ01-010]\n"


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lsp-dated") / "cards"
    shutil.copytree(BUNDLED, folder)
    formats = folder / "formats.yaml"
    text = formats.read_text(encoding="utf-8")
    assert ANCHOR in text
    formats.write_text(text.replace(ANCHOR, ANCHOR + DATED_BAN), encoding="utf-8")
    return folder


async def until(found: Any, what: str) -> Any:
    for _ in range(int(TIMEOUT / 0.01)):
        value = found()
        if value:
            return value
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {what}")


async def session(**options: Any) -> LanguageClient:
    client = await ClientServerConfig(server_command=SERVER).start()
    await client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"varz-deck": {"lang": "en", **options}},
            root_uri=ROOT.as_uri(),
        )
    )
    return client


async def codes_after(client: LanguageClient, action: Any) -> set[str]:
    """The deck's codes as published after `action` (an open or a change of settings)."""
    uri = DECK.as_uri()
    client.diagnostics.pop(uri, None)
    action()
    got = await until(lambda: client.diagnostics.get(uri) is not None, "diagnostics")
    assert got
    return {d.code for d in client.diagnostics[uri]}


def open_deck(client: LanguageClient) -> None:
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            t.TextDocumentItem(DECK.as_uri(), "yaml", 1, DECK.read_text(encoding="utf-8"))
        )
    )


def configure(client: LanguageClient, settings: dict[str, Any]) -> None:
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=settings))


@pytest.mark.asyncio
async def test_the_date_setting_decides_what_is_banned(dated: Path) -> None:
    client = await session(cards=str(dated), date="2027-01-14")
    try:
        codes = await codes_after(client, lambda: open_deck(client))
        assert "V115" not in codes and "F001" not in codes  # the database is read
        codes = await codes_after(
            client, lambda: configure(client, {"varz-deck.date": "2027-01-15"})
        )
        assert "V115" in codes
        codes = await codes_after(
            client, lambda: configure(client, {"varz-deck": {"date": "2027-01-14"}})
        )
        assert "V115" not in codes
        assert client.messages == []  # good dates: nothing said
        await client.shutdown_session()
    finally:
        await stop(client)


@pytest.mark.asyncio
@pytest.mark.parametrize("bad", ["2027-02-30", "tomorrow", 20270115])
async def test_a_date_setting_that_is_not_a_day_is_said_once_and_today_is_used(bad: Any) -> None:
    client = await session(date=bad)
    try:
        (said,) = await until(lambda: client.messages, "message")
        assert said.type == t.MessageType.Warning
        assert said.message == (
            f"the setting varz-deck.date {str(bad)!r} is not a date (write it YYYY-MM-DD); "
            "checking as of today"
        )
        await codes_after(client, lambda: open_deck(client))  # still checked
        await codes_after(client, lambda: configure(client, {"varz-deck.format": "standard"}))
        assert len(client.messages) == 1  # the same bad date is not said again
        await client.shutdown_session()
    finally:
        await stop(client)


@pytest.mark.asyncio
async def test_the_warning_is_in_the_editors_language() -> None:
    client = await session(date="2027-13-01", lang="ja")
    try:
        (said,) = await until(lambda: client.messages, "message")
        assert "varz-deck.date" in said.message and "'2027-13-01'" in said.message
        assert "is not a date" not in said.message
        await client.shutdown_session()
    finally:
        await stop(client)
