"""`varz-deck lsp` under a real LSP client (pytest-lsp): the places the second red-team pass and the
mutation audit found (issue 24): row 13 (a request whose params do not fit gets error -32602; a
change to a document that is not open is a quiet log line) and the positions and severities of
diagnostics (columns after an incremental edit on a non-ASCII line, a byte-order mark, warnings,
trailing comments, quoted references).

Every expected place is written by hand here (UTF-16 columns counted by `utf16`); the expected
codes of an edited text come from `varz-deck check` of that text, written by hand too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient
from test_lsp import (
    EXAMPLES,
    SERVER,
    TIMEOUT,
    check_json,
    edit,
    expected,
    open_doc,
    shown,
    start,
    stop,
    utf16,
)

ROOT = Path(__file__).resolve().parent.parent
ALTDB = ROOT / "tests" / "data" / "altdb"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def until(found: object, what: str) -> None:
    for _ in range(int(TIMEOUT / 0.01)):
        if callable(found) and found():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never saw {what}")


# --------------------------------------------------------------------------- row 13


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_at_line_minus_one_is_answered_with_invalid_params(
    client: LanguageClient,
) -> None:
    path = EXAMPLES / "illegal.yaml"
    await open_doc(client, path)
    line = path.read_text(encoding="utf-8").split("\n").index("  Scorch Shot: 4")
    shown_before = len(client.messages)
    position = t.Position(0, 0)
    object.__setattr__(position, "line", -1)  # past lsprotocol's check, as a buggy client sends it
    params = t.HoverParams(t.TextDocumentIdentifier(path.as_uri()), position)
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(client.text_document_hover_async(params), TIMEOUT)
    assert raised.value.code == -32602
    assert "position" in str(raised.value) and "-1" in str(raised.value)
    assert len(client.messages) == shown_before  # no window/showMessage pop-up
    hover = await client.text_document_hover_async(
        t.HoverParams(t.TextDocumentIdentifier(path.as_uri()), t.Position(line, 5))
    )
    assert hover is not None  # still serving


@pytest.mark.asyncio(loop_scope="module")
async def test_a_change_to_a_document_never_opened_is_a_quiet_log_line(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "never-opened.yaml").as_uri()
    shown_before, logged_before = len(client.messages), len(client.log_messages)
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [t.TextDocumentContentChangeWholeDocument(text="hero: x\n")],
        )
    )
    await until(lambda: len(client.log_messages) > logged_before, "a log message")
    line = client.log_messages[logged_before]
    assert line.type == t.MessageType.Log
    assert uri in line.message and "not open" in line.message and "didOpen" in line.message
    assert "KeyError" not in line.message
    # the server still works and showed nothing
    path = EXAMPLES / "illegal.yaml"
    assert await open_doc(client, path)
    assert len(client.messages) == shown_before
    assert uri not in client.diagnostics


# --------------------------------------------------------------------------- positions


@pytest.mark.asyncio(loop_scope="module")
async def test_incremental_edits_on_non_ascii_lines_count_utf16_units(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "cjk.yaml"
    text = (
        "hero: Hibiki Kagura\n"
        "spells:\n"
        "  スコーチショット: 3\n"  # BMP CJK: one UTF-16 unit each
        "  \U0001f525Cinder Hound: 3\n"  # astral: two UTF-16 units
        "  Ember Imp: 3 # \U0001f525 x\n"
    )
    await open_doc(client, deck, text)
    # "スコーチショット" is columns 2..10: replaced by "Ember Imp"; a column off by one would leave
    # "ス" or "ト" behind ("  スEmber Imp: 3"), an unknown card
    await edit(client, deck, (2, 2), (2, 2 + utf16("スコーチショット")), "Flame Ronin", 2)
    # after the emoji (columns 2..4, two units), "Cinder Hound" is columns 4..16: replaced
    await edit(client, deck, (3, 4), (3, 16), "Magma Brawler", 3)
    # then the emoji itself is removed
    got = await edit(client, deck, (3, 2), (3, 4), "", 4)
    final = (
        "hero: Hibiki Kagura\n"
        "spells:\n"
        "  Flame Ronin: 3\n"
        "  Magma Brawler: 3\n"
        "  Ember Imp: 3 # \U0001f525 x\n"
    )
    check_file = tmp_path / "final.yaml"
    check_file.write_text(final, encoding="utf-8")
    assert shown(got) == expected(final, check_json(check_file))
    assert "F005" not in {d.code for d in got}


@pytest.mark.asyncio(loop_scope="module")
async def test_a_byte_order_mark_does_not_shift_line_one(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "bom.yaml"
    text = "\ufeffhero: Nope Hero\nspells:\n  Ember Imp: 3\n"
    got = await open_doc(client, deck, text)
    f005 = [d for d in got if d.code == "F005"]
    assert len(f005) == 1
    # "N" of "Nope Hero" is the 8th UTF-16 unit of the buffer's first line (the BOM is one)
    assert (f005[0].range.start.line, f005[0].range.start.character) == (0, 7)
    assert (f005[0].range.end.line, f005[0].range.end.character) == (0, 16)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_diagnostic_range_ends_before_a_trailing_comment(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "comment.yaml"
    text = "hero: Hibiki Kagura\nspells:\n  Nope Card: 3  # a comment\n"
    got = await open_doc(client, deck, text)
    f005 = next(d for d in got if d.code == "F005")
    assert f005.range.start == t.Position(2, 2)
    assert f005.range.end == t.Position(2, len("  Nope Card: 3"))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_quoted_reference_spans_the_name_inside_the_quotes(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "quoted.yaml"
    text = 'hero: "Hibiki Kagura"\nspells:\n  "Ember Imp": 3\n  \'Cinder Hound\': 3\n'
    await open_doc(client, deck, text)
    for line, at, name in ((0, 7, "Hibiki Kagura"), (2, 3, "Ember Imp"), (3, 3, "Cinder Hound")):
        hover = await client.text_document_hover_async(
            t.HoverParams(t.TextDocumentIdentifier(deck.as_uri()), t.Position(line, at + 2))
        )
        assert hover is not None and hover.range is not None
        assert hover.range == t.Range(t.Position(line, at), t.Position(line, at + len(name)))


# --------------------------------------------------------------------------- a long buffer


@pytest.mark.asyncio(loop_scope="module")
async def test_a_5000_line_buffer_is_edited_and_completed_at_its_end(
    client: LanguageClient, tmp_path: Path
) -> None:
    """5,000 lines (a long deck with notes), edited one character at a time near its end: each
    change gives check's diagnostics at their places, and completion works on the last line."""
    deck = tmp_path / "long.yaml"
    head = (EXAMPLES / "red-kagura-festival.yaml").read_text(encoding="utf-8")
    notes = "".join(f"  # note {i}: スコーチ \U0001f525\n" for i in range(5000))
    text = head.replace("skills:", notes + "  Nope Card: 1\nskills:", 1)
    lines = text.split("\n")
    assert len(lines) > 5000
    last = lines.index("  Nope Card: 1")
    got = await open_doc(client, deck, text)
    assert [(d.code, d.range.start.line) for d in got if d.code == "F005"] == [("F005", last)]
    got = await edit(client, deck, (last, 2), (last, 11), "Ember Imp", 2)
    text = text.replace("  Nope Card: 1\n", "  Ember Imp: 1\n")
    deck.write_text(text, encoding="utf-8")
    assert shown(got) == expected(text, check_json(deck))
    assert "F005" not in {d.code for d in got}
    items = await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(deck.as_uri()), t.Position(last, 5))
    )
    assert isinstance(items, t.CompletionList) and items.items
    assert all(i.label.lower().startswith("emb") for i in items.items[:1])


# --------------------------------------------------------------------------- severities


@pytest.mark.asyncio(loop_scope="module")
async def test_warnings_are_published_as_warnings_and_errors_as_errors() -> None:
    config = ClientServerConfig(server_command=[*SERVER, "--cards", str(ALTDB)])
    client = await config.start()
    try:
        await start(client)
        warned = ROOT / "tests" / "cases" / "W201" / "bad_cost_3_two_vaz.yaml"
        got = await open_doc(client, warned)
        w201 = [d for d in got if d.code == "W201"]
        assert [(d.severity, d.range.start.line, d.range.start.character) for d in w201] == [
            (2, 12, 2)  # DiagnosticSeverity.Warning is 2 (LSP)
        ]
        broken = (
            ROOT
            / "tests"
            / "cases"
            / "V103"
            / sorted(p.name for p in (ROOT / "tests" / "cases" / "V103").glob("bad_*.yaml"))[0]
        )
        errors = [d for d in await open_doc(client, broken) if d.code == "V103"]
        assert errors and {d.severity for d in errors} == {1}  # DiagnosticSeverity.Error is 1
        await client.shutdown_session()
    finally:
        await stop(client)
