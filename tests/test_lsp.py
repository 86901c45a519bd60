"""`varz-deck lsp` (SPEC §10, issue 15), driven over stdio by pytest-lsp as an editor drives it.

Expected diagnostics come from `varz-deck check --output json` (and `cards lint`) run on the
same text as a file: the contract is "the same codes, messages and places as check"; the places
are turned into LSP's (0-based lines, UTF-16 columns) by this file's own small converter. Card
facts (types, ids, lines) are read from the card files with PyYAML, not from the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
import yaml
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CARDS = ROOT / "card_data" / "varz"
AZUKI_CARDS = ROOT / "card_data" / "azuki"
SERVER = [sys.executable, "-m", "varz_deck", "lsp"]
TIMEOUT = 20.0

# --------------------------------------------------------------------------- helpers


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def check_json(path: Path, *args: str) -> list[dict[str, Any]]:
    """`varz-deck check --output json` of one file (the command's entry point, in this
    process): its diagnostics."""
    from varz_deck.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["check", "--output", "json", *args, str(path)])
    assert done.value.code in (0, 1)
    return list(json.loads(out.getvalue())["decks"][0]["diagnostics"])


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def expected(
    text: str, diagnostics: list[dict[str, Any]], lang: str = "en", units: Any = utf16
) -> list[tuple]:
    """(code, message, line, character) as LSP should show check's diagnostics of text."""
    lines = text.split("\n")
    out = []
    for d in diagnostics:
        line = (d["line"] or 1) - 1
        column = (d["column"] or 1) - 1
        if line >= len(lines):  # past the end of the text (a missing last line break): its end
            line, column = len(lines) - 1, len(lines[-1])
        character = units(lines[line][:column]) if d["line"] else 0
        message = d.get("message_localized", d["message"]) if lang != "en" else d["message"]
        out.append((d["code"], message, line if d["line"] else 0, character))
    return sorted(out, key=lambda x: (x[2], x[3], x[0]))


def shown(diagnostics: Any) -> list[tuple]:
    return sorted(
        ((d.code, d.message, d.range.start.line, d.range.start.character) for d in diagnostics),
        key=lambda x: (x[2], x[3], x[0]),
    )


class Published(dict):  # type: ignore[type-arg]
    """The client's diagnostics by uri, counting every publication (two empty lists look the
    same, so "a new publication" cannot be told by the value)."""

    def __init__(self) -> None:
        super().__init__()
        self.count: dict[str, int] = {}

    def __setitem__(self, uri: str, value: Any) -> None:
        self.count[uri] = self.count.get(uri, 0) + 1
        super().__setitem__(uri, value)


def seen(client: LanguageClient, uri: str) -> int:
    """How many times diagnostics were published for uri so far."""
    if not isinstance(client.diagnostics, Published):
        client.diagnostics = Published()
    return client.diagnostics.count.get(uri, 0)


async def published(client: LanguageClient, uri: str, before: int) -> list[t.Diagnostic]:
    """Wait until the server publishes diagnostics for uri a new time (after `before`)."""
    for _ in range(int(TIMEOUT / 0.005)):
        if seen(client, uri) > before:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.005)
    raise AssertionError(f"no diagnostics for {uri}")


async def open_doc(
    client: LanguageClient, path: Path, text: str | None = None
) -> list[t.Diagnostic]:
    uri = path.as_uri()
    before = seen(client, uri)
    language = "plaintext" if path.suffix == ".txt" else "yaml"
    body = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, language, 1, body))
    )
    return await published(client, uri, before)


async def replace_all(
    client: LanguageClient, path: Path, text: str, version: int
) -> list[t.Diagnostic]:
    uri = path.as_uri()
    before = seen(client, uri)
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [t.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await published(client, uri, before)


async def edit(
    client: LanguageClient, path: Path, start: tuple[int, int], end: tuple[int, int], new: str,
    version: int,
) -> list[t.Diagnostic]:  # fmt: skip
    uri = path.as_uri()
    before = seen(client, uri)
    change = t.TextDocumentContentChangePartial(
        range=t.Range(t.Position(*start), t.Position(*end)), text=new
    )
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]
        )
    )
    return await published(client, uri, before)


def apply_edits(text: str, edits: list[t.TextEdit], units: Any = None) -> str:
    """Apply LSP text edits (UTF-16 columns, or as `units` counts), last first, as an editor
    does."""
    units_of = units or utf16
    lines = text.split("\n")

    def offset(p: t.Position) -> int:
        before = sum(len(x) + 1 for x in lines[: p.line])
        line = lines[p.line] if p.line < len(lines) else ""
        units = 0
        for i, ch in enumerate(line):
            if units >= p.character:
                return before + i
            units += units_of(ch)
        return before + len(line)

    for e in sorted(
        edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
    ):
        a, b = offset(e.range.start), offset(e.range.end)
        text = text[:a] + e.new_text + text[b:]
    return text


@functools.cache
def varz_cards() -> list[dict[str, Any]]:
    return [c for p in sorted((CARDS / "sets").glob("*.yaml")) for c in cards_in(p)]


@functools.cache
def azuki_cards() -> list[dict[str, Any]]:
    return [c for p in sorted((AZUKI_CARDS / "sets").glob("*.yaml")) for c in cards_in(p)]


def cards_in(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    lines = text.split("\n")
    out = []
    for card in data.get("cards") or []:
        line = next(
            i
            for i, x in enumerate(lines)
            if x.strip().replace("'", "").replace('"', "") == f"- id: {card['id']}"
        )
        out.append({**card, "_file": path, "_line": line})
    return out


def server_process(client: LanguageClient) -> asyncio.subprocess.Process | None:
    """The server's process. pytest-lsp gives no public handle on it (pygls's client keeps it in
    a private attribute): this is the one place the tests reach it."""
    return client._server


async def stop(client: LanguageClient) -> None:
    """Stop a client started by hand; a server a failed test left running is killed."""
    server = server_process(client)
    if server is not None and server.returncode is None:
        server.kill()
    await client.stop()


async def start(client: LanguageClient, **options: Any) -> t.InitializeResult:
    """Initialize as VS Code does; the client accepts the server's registrations, as an editor
    does, and keeps them in `client.registrations`."""
    registrations: list[t.Registration] = []
    client.registrations = registrations  # type: ignore[attr-defined]

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: t.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    return await client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"varz-deck": {"lang": "en", **options}},
            root_uri=ROOT.as_uri(),
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """One server for the module's tests (it starts in about a second: lsprotocol's types)."""
    lsp_client.initialize_result = await start(lsp_client)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


# --------------------------------------------------------------------------- the session


@pytest.mark.asyncio(loop_scope="module")
async def test_initialize_announces_every_feature(client: LanguageClient) -> None:
    result = client.initialize_result  # type: ignore[attr-defined]
    caps = result.capabilities
    assert result.server_info is not None and result.server_info.name == "varz-deck"
    assert caps.completion_provider is not None
    assert caps.hover_provider and caps.definition_provider and caps.code_action_provider
    assert caps.text_document_sync is not None
    assert caps.position_encoding == t.PositionEncodingKind.Utf16  # VS Code offers UTF-16 only


@pytest.mark.parametrize(
    "name",
    sorted(
        p.relative_to(EXAMPLES).as_posix()
        for p in EXAMPLES.rglob("*")
        if p.suffix in (".yaml", ".txt")
        and "third-game" not in p.relative_to(EXAMPLES).parts  # a package of its own
        and "card_data" not in p.relative_to(EXAMPLES).parts  # card data, linted, not checked
    ),
)
@pytest.mark.asyncio(loop_scope="module")
async def test_open_gives_checks_diagnostics_every_game(client: LanguageClient, name: str) -> None:
    path = EXAMPLES / name
    got = await open_doc(client, path)
    text = path.read_text(encoding="utf-8")
    assert shown(got) == expected(text, check_json(path))
    assert all(d.source == "varz-deck" for d in got)


@pytest.mark.asyncio(loop_scope="module")
async def test_change_rechecks_and_lines_are_lsp_lines(client: LanguageClient) -> None:
    path = EXAMPLES / "illegal.yaml"
    text = path.read_text(encoding="utf-8")
    got = await open_doc(client, path)
    assert "V103" in {d.code for d in got}
    line = text.split("\n").index("  Scorch Shot: 4")
    v103 = next(d for d in got if d.code == "V103")
    assert (v103.range.start.line, v103.range.start.character) == (line, 2)
    assert v103.range.end.character == len("  Scorch Shot: 4")
    got = await edit(client, path, (line, 15), (line, 16), "3", 2)
    codes = {d.code for d in got}
    assert "V103" not in codes and "V102" in codes  # one spell short now: 29
    assert [d.severity for d in got if d.code == "V102"] == [t.DiagnosticSeverity.Error]


@pytest.mark.asyncio(loop_scope="module")
async def test_utf16_columns_after_an_astral_character(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "emoji.yaml"
    text = (
        "hero: Hibiki Kagura\nspells:\n  \U0001f525 Scorch Shot: 3\n  Nope Card: 1 # \U0001f525\n"
    )
    deck.write_text(text, encoding="utf-8")
    got = await open_doc(client, deck, text)
    assert shown(got) == expected(text, check_json(deck))
    f005 = [d for d in got if d.code == "F005"]
    assert f005 and f005[0].range.start.line == 2
    assert f005[0].range.end.character == utf16("  \U0001f525 Scorch Shot: 3")


@pytest.mark.asyncio(loop_scope="module")
async def test_japanese_deck_and_messages(tmp_path: Path) -> None:
    """A deck written with the Japanese names, messages in Japanese (initializationOptions)."""
    by_id = {c["id"]: c for c in varz_cards()}
    english = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")
    text = english
    for card in by_id.values():
        ja = (card.get("names") or {}).get("ja")
        if ja:
            text = text.replace(f"  {card['name']}:", f"  {ja}:")
            text = text.replace(f"hero: {card['name']}\n", f"hero: {ja}\n")
    assert "スコーチショット" in text and "神楽 響" in text
    deck = tmp_path / "japanese.yaml"
    deck.write_text(text, encoding="utf-8")
    config = ClientServerConfig(server_command=SERVER)
    client = await config.start()
    try:
        result = await client.initialize_session(
            t.InitializeParams(capabilities=client_capabilities("neovim"), locale="ja-JP")
        )
        # Neovim offers UTF-8 first: the server takes it, and counts columns in bytes
        assert result.capabilities.position_encoding == t.PositionEncodingKind.Utf8
        text = text.replace("  スコーチショット: 4", "  スコーチショット: 4\n  ネオン街の亡霊: 1")
        deck.write_text(text, encoding="utf-8")
        got = await open_doc(client, deck, text)
        assert shown(got) == expected(text, check_json(deck, "--lang", "ja"), "ja", utf8)
        assert any("スコーチショット" in d.message for d in got)
        unknown = next(d for d in got if d.code == "F005")
        assert unknown.range.end.character == utf8("  ネオン街の亡霊: 1")
        line = text.split("\n").index("  スコーチショット: 4")
        items = await client.text_document_completion_async(
            t.CompletionParams(
                t.TextDocumentIdentifier(deck.as_uri()), t.Position(line, utf8("  スコ"))
            )
        )
        assert items is not None
        first = items.items[0]
        assert (
            first.label.startswith("スコ") and first.detail and first.detail.startswith("VZ01-010")
        )
        await client.shutdown_session()
    finally:
        await stop(client)


# --------------------------------------------------------------------------- completion


async def complete(
    client: LanguageClient, path: Path, text: str, line: int, character: int
) -> list[t.CompletionItem]:
    await open_doc(client, path, text)
    result = await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(path.as_uri()), t.Position(line, character))
    )
    assert isinstance(result, t.CompletionList)
    return list(result.items)


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_prefix_fuzzy_and_detail(client: LanguageClient, tmp_path: Path) -> None:
    deck = tmp_path / "d.yaml"
    text = "hero: Hibiki Kagura\nspells:\n  dragn\n"
    items = await complete(client, deck, text, 2, 7)
    dragons = [c for c in varz_cards() if "dragon" in c["name"].lower()]
    assert dragons and dragons[0]["name"] in [i.label for i in items]
    item = next(i for i in items if i.label == dragons[0]["name"])
    card = dragons[0]
    assert item.detail is not None
    for part in (card["id"], card["type"], str(card["cost"]), card["color"]):
        assert part in item.detail
    assert item.text_edit is not None and item.text_edit.new_text == f"{card['name']}: 1"
    # a prefix: every spell whose name starts with "Em", first
    items = await complete(client, deck, "hero: Hibiki Kagura\nspells:\n  Em\n", 2, 4)
    starts = {
        c["name"]
        for c in varz_cards()
        if c["name"].lower().startswith("em") and c["type"] in ("spil", "command", "slash")
    }
    assert starts and {i.label for i in items[: len(starts)]} == starts


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_after_hero_and_leader_offers_only_that_type(
    client: LanguageClient, tmp_path: Path
) -> None:
    deck = tmp_path / "h.yaml"
    items = await complete(client, deck, "hero: \nspells:\n  Ember Imp: 3\n", 0, 6)
    heroes = {c["name"] for c in varz_cards() if c["type"] == "hero"}
    assert heroes and {i.label for i in items} >= heroes
    assert all(
        i.label in heroes
        or any(
            i.label in (c.get("names") or {}).values() for c in varz_cards() if c["type"] == "hero"
        )
        for i in items
    )
    azuki = tmp_path / "a.yaml"
    items = await complete(client, azuki, "leader: \ngate: Surge Gate\nmain:\n  IKZ: 1\n", 0, 8)
    leaders = {c["id"] for c in azuki_cards() if c["type"] == "leader"}
    assert leaders and {i.detail.split(" · ")[0] for i in items if i.detail} == leaders


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_follows_the_files_count_format(
    client: LanguageClient, tmp_path: Path
) -> None:
    listed = tmp_path / "l.yaml"
    items = await complete(
        client, listed, "hero: Shizuku Minase\nskills:\n  - 3 Azure VAZ\n  - Foc\n", 3, 7
    )
    assert items[0].text_edit is not None and items[0].text_edit.new_text == "1 Focus"
    items = await complete(
        client, listed, "hero: Shizuku Minase\nskills:\n  - 3 Azure VAZ\n  Foc\n", 3, 5
    )
    assert items[0].text_edit is not None and items[0].text_edit.new_text == "- 1 Focus"
    plain = tmp_path / "p.txt"
    items = await complete(client, plain, "Hero: Shizuku Minase\nSkills:\nFoc\n", 2, 3)
    assert items[0].text_edit is not None and items[0].text_edit.new_text == "1 Focus"
    items = await complete(client, plain, "Hero: Shizuku Minase\nSkills:\n2x Foc\n", 2, 6)
    assert items[0].text_edit is not None and items[0].text_edit.new_text == "Focus"
    skills = {c["name"] for c in varz_cards() if c["type"] == "skill"}
    assert all(i.label in skills or i.label not in {c["name"] for c in varz_cards()} for i in items)


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_the_cards_legal_in_the_decks_format_first(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Standard bans Grove Tender (formats.yaml): after every legal spell (those starting with G
    first), with the other cards that are not legal in Standard."""
    items = await complete(client, tmp_path / "g.yaml", "hero: Hibiki Kagura\nspells:\n  G\n", 2, 3)
    labels = [i.label for i in items]
    at = labels.index("Grove Tender")
    marked = ["not legal" in str(i.label_details) for i in items]
    assert marked == [False] * at + [True] * (len(items) - at)
    legal_with_g = {
        c["name"]
        for c in varz_cards()
        if c["name"].startswith("G") and c["type"] in ("spil", "command", "slash")
    } - {"Grove Tender"}
    assert set(labels[: len(legal_with_g)]) == legal_with_g
    grove = items[at].label_details
    assert grove is not None and (grove.description or "").startswith(
        "not legal in Standard: banned"
    )


# --------------------------------------------------------------------------- hover, definition


async def hover_on(client: LanguageClient, path: Path, entry: str) -> str | None:
    """The hover's Markdown on the deck line `entry` (opened first), or None for no hover."""
    await open_doc(client, path)
    line = path.read_text(encoding="utf-8").split("\n").index(entry)
    hover = await client.text_document_hover_async(
        t.HoverParams(t.TextDocumentIdentifier(path.as_uri()), t.Position(line, 4))
    )
    if hover is None:
        return None
    assert isinstance(hover.contents, t.MarkupContent)
    return hover.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_the_card(client: LanguageClient) -> None:
    value = await hover_on(client, EXAMPLES / "illegal.yaml", "  Scorch Shot: 4")
    assert value is not None
    card = next(c for c in varz_cards() if c["name"] == "Scorch Shot")
    for part in (
        card["id"],
        card["text"],
        card["names"]["ja"],
        f"cost: {card['cost']}",
        f"color: {card['color']}",
    ):
        assert part in value
    printings = [c["id"] for c in varz_cards() if c["name"] == "Scorch Shot"]
    assert f"printings: [{', '.join(printings)}]" in value


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_the_hero_is_yaml_that_parses(client: LanguageClient) -> None:
    value = await hover_on(client, EXAMPLES / "red-kagura-festival.yaml", "hero: Hibiki Kagura")
    assert value is not None
    block = value.split("```yaml\n", 1)[1].split("\n```", 1)[0]
    card = next(c for c in varz_cards() if c["id"] == "VZ01-001")
    shown = yaml.safe_load(block)
    assert shown["v_sync"] == card["v_sync"] and shown["type"] == "hero"
    assert shown["skill_classes"] == card["skill_classes"]


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_in_a_deck_gives_the_cards_figures_by_their_glossary_names(
    client: LanguageClient,
) -> None:
    path = EXAMPLES / "red-kagura-festival.yaml"
    value = await hover_on(client, path, "  Ember Imp: 3")
    assert value is not None
    from typer.testing import CliRunner

    from varz_deck.cli.main import build_app

    tuned = CliRunner().invoke(build_app(), ["tune", str(path), "-o", "json"])
    spell = next(s for s in json.loads(tuned.stdout)["spells"] if s["name"] == "Ember Imp")
    assert "In this deck as it is now (on the play, mulligan auto):" in value
    assert f"- castable on curve: {100 * spell['p_on_curve']:.1f}%" in value
    assert f"- curve turn: {spell['on_curve_turn']}" in value
    assert "varz-deck explain TERM" in value
    # a portal is in no per-spell table: the card alone
    gate = await hover_on(client, path, "  Crimson Gate: 4")
    assert gate is None or "In this deck" not in gate


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_opens_the_cards_line(client: LanguageClient) -> None:
    path = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"
    text = path.read_text(encoding="utf-8")
    await open_doc(client, path)
    line = next(i for i, x in enumerate(text.split("\n")) if x.startswith("gate:"))
    found = await client.text_document_definition_async(
        t.DefinitionParams(t.TextDocumentIdentifier(path.as_uri()), t.Position(line, 8))
    )
    assert isinstance(found, list) and len(found) == 1
    name = text.split("\n")[line].split(":", 1)[1].split("#")[0].strip()
    card = next(c for c in azuki_cards() if c["name"] == name)
    assert found[0].uri == card["_file"].as_uri()
    assert found[0].range.start.line == card["_line"]


# --------------------------------------------------------------------------- quick fixes


async def actions_for(
    client: LanguageClient, path: Path, diagnostic: t.Diagnostic
) -> list[t.CodeAction]:
    found = await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(path.as_uri()),
            diagnostic.range,
            t.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [a for a in found or [] if isinstance(a, t.CodeAction)]


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fix_did_you_mean(client: LanguageClient, tmp_path: Path) -> None:
    path = EXAMPLES / "illegal.yaml"
    text = path.read_text(encoding="utf-8").replace("  Scorch Shot: 4", "  Scorch Shoot: 3")
    deck = tmp_path / "typo.yaml"
    got = await open_doc(client, deck, text)
    f005 = next(d for d in got if d.code == "F005")
    actions = await actions_for(client, deck, f005)
    assert actions and actions[0].kind == t.CodeActionKind.QuickFix and actions[0].is_preferred
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    fixed = apply_edits(text, actions[0].edit.changes[deck.as_uri()])
    assert "  Scorch Shot: 3\n" in fixed
    got = await replace_all(client, deck, fixed, 2)
    assert "F005" not in {d.code for d in got}


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fix_merges_a_repeat_keeping_the_first_reference(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = EXAMPLES / "illegal.yaml"
    text = path.read_text(encoding="utf-8").replace("  Ember Imp: 3\n", "  Ember Imp: 2\n")
    text = text.replace("  Counterwave: 2\n", "  Counterwave: 2\n  VZ01-007: 1\n")
    deck = tmp_path / "repeat.yaml"
    got = await open_doc(client, deck, text)
    f003 = next(d for d in got if d.code == "F003")
    actions = await actions_for(client, deck, f003)
    assert len(actions) == 1 and actions[0].edit is not None and actions[0].edit.changes
    fixed = apply_edits(text, actions[0].edit.changes[deck.as_uri()])
    assert fixed == path.read_text(encoding="utf-8")
    got = await replace_all(client, deck, fixed, 2)
    assert "F003" not in {d.code for d in got}


@pytest.mark.asyncio(loop_scope="module")
async def test_a_short_deck_is_completed_only_when_asked(
    client: LanguageClient, tmp_path: Path
) -> None:
    """ "Complete this deck" is offered, never preferred; its edit keeps the player's lines in
    place and makes the deck `varz-deck complete` prints, which `check` passes."""
    from typer.testing import CliRunner

    from varz_deck.cli.main import build_app

    deck = tmp_path / "short.yaml"
    text = "# my deck\nhero: Hibiki Kagura\nspells:\n  Ember Imp: 3  # the core\n"
    got = await open_doc(client, deck, text)
    short = next(d for d in got if d.code == "V102")
    actions = await actions_for(client, deck, short)
    assert [a.title for a in actions] == ["Complete this deck (44 cards added)"]
    assert not actions[0].is_preferred
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    fixed = apply_edits(text, actions[0].edit.changes[deck.as_uri()])
    assert fixed.startswith(
        "# my deck\nhero: Hibiki Kagura\nspells:\n  Ember Imp: 3  # the core\n"
    ), fixed
    got = await replace_all(client, deck, fixed, 2)
    assert [d for d in got if d.severity == t.DiagnosticSeverity.Error] == []
    short_deck = tmp_path / "short-on-disk.yaml"
    short_deck.write_text(text, encoding="utf-8")
    printed = CliRunner().invoke(build_app(), ["complete", str(short_deck)])
    assert printed.exit_code == 0
    whole = tmp_path / "whole.yaml"
    whole.write_text(fixed, encoding="utf-8")
    again = CliRunner().invoke(build_app(), ["complete", str(whole), "--explain"])
    assert again.exit_code == 0 and "+" not in again.stderr  # nothing left to add
    assert yaml.safe_load(again.stdout) == yaml.safe_load(printed.stdout)  # the same deck


@pytest.mark.asyncio(loop_scope="module")
async def test_neovim_completes_a_japanese_deck_counting_columns_in_bytes(tmp_path: Path) -> None:
    """Neovim's capabilities (UTF-8 positions): "Complete this deck" on a deck of Japanese
    names and comments keeps the player's lines byte for byte and makes a legal deck."""
    written = "# 私のデッキ\nhero: 神楽 響\nspells:\n  スコーチショット: 3  # 核となる呪文\n"
    deck = tmp_path / "short.yaml"
    config = ClientServerConfig(server_command=SERVER)
    client = await config.start()
    try:
        result = await client.initialize_session(
            t.InitializeParams(capabilities=client_capabilities("neovim"), locale="ja-JP")
        )
        assert result.capabilities.position_encoding == t.PositionEncodingKind.Utf8
        got = await open_doc(client, deck, written)
        short = next(d for d in got if d.code == "V102")
        actions = await actions_for(client, deck, short)
        assert len(actions) == 1 and not actions[0].is_preferred
        assert actions[0].edit is not None and actions[0].edit.changes is not None
        fixed = apply_edits(written, actions[0].edit.changes[deck.as_uri()], utf8)
        assert fixed.startswith(written), fixed
        got = await replace_all(client, deck, fixed, 2)
        assert [d for d in got if d.severity == t.DiagnosticSeverity.Error] == []
        deck.write_text(fixed, encoding="utf-8")
        assert [d["code"] for d in check_json(deck) if d["severity"] == "error"] == []
        await client.shutdown_session()
    finally:
        await client.stop()


# --------------------------------------------------------------------------- settings, card files


@pytest.mark.asyncio(loop_scope="module")
async def test_card_file_edit_updates_open_decks(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    config = ClientServerConfig(server_command=SERVER)
    client = await config.start()
    try:
        await start(client, cards=str(folder))
        deck = EXAMPLES / "illegal.yaml"
        got = await open_doc(client, deck)
        assert "F005" not in {d.code for d in got}
        card_file = folder / "sets" / "vz01.yaml"
        text = card_file.read_text(encoding="utf-8")
        before = seen(client, deck.as_uri())
        got = await open_doc(client, card_file, text)
        assert got == []
        await published(client, deck.as_uri(), before)  # checked again with the buffer's cards
        before = seen(client, deck.as_uri())
        assert [c["name"] for c in varz_cards()].count("Counterwave") == 1
        renamed = text.replace("name: Counterwave\n", "name: Counterswell\n", 1)
        assert renamed != text
        await replace_all(client, card_file, renamed, 2)
        got = await published(client, deck.as_uri(), before)
        assert "F005" in {d.code for d in got}
        broken = await replace_all(client, card_file, "cards: [\n", 3)
        assert [d.code for d in broken] == ["F002"]
        lint = subprocess.run(
            [*SERVER[:-1], "cards", "lint", "--output", "json", str(folder)],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )  # fmt: skip
        assert lint.returncode == 0, lint.stdout  # the file on disk was never touched
        await client.shutdown_session()
    finally:
        await stop(client)


async def until(found: Any, what: str) -> Any:
    """Wait until found() gives something true, and give it."""
    for _ in range(int(TIMEOUT / 0.005)):
        value = found()
        if value:
            return value
        await asyncio.sleep(0.005)
    raise AssertionError(f"no {what}")


@pytest.mark.asyncio(loop_scope="module")
async def test_card_files_changed_on_disk_update_open_decks(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    client = await ClientServerConfig(server_command=SERVER).start()
    card_file = folder / "sets" / "vz01.yaml"
    deck = EXAMPLES / "illegal.yaml"

    def on_disk(text: str) -> int:
        """Write the card file as a pull would, tell the server as the editor's watcher would;
        how many times the deck's diagnostics were published before."""
        card_file.write_text(text, encoding="utf-8")
        before = seen(client, deck.as_uri())
        change = t.FileEvent(card_file.as_uri(), t.FileChangeType.Changed)
        client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams([change]))
        return before

    try:
        await start(client, cards=str(folder))
        (watch,) = await until(lambda: client.registrations, "watcher registered")
        assert watch.method == "workspace/didChangeWatchedFiles"
        globs = sorted(w["globPattern"] for w in watch.register_options["watchers"])
        assert globs == ["**/*.yaml", "**/*.yml"]
        got = await open_doc(client, deck)
        assert "F005" not in {d.code for d in got}
        text = card_file.read_text(encoding="utf-8")
        renamed = text.replace("name: Counterwave\n", "name: Counterswell\n", 1)
        assert renamed != text
        got = await published(client, deck.as_uri(), on_disk(renamed))
        assert any("unknown card 'Counterwave'" in d.message for d in got if d.code == "F005")
        before = on_disk("cards: [\n")  # broken: said once, decks keep the last clean cards
        (said,) = await until(lambda: client.messages, "message")
        assert said.type == t.MessageType.Warning
        assert f"card files in {folder.resolve()} changed on disk" in said.message
        assert f"varz-deck cards lint {folder.resolve()}" in said.message
        assert seen(client, deck.as_uri()) == before
        got = await published(client, deck.as_uri(), on_disk(text))
        assert "F005" not in {d.code for d in got}
        assert len(client.messages) == 1
        await client.shutdown_session()
    finally:
        await stop(client)


@pytest.mark.asyncio(loop_scope="module")
async def test_no_watcher_is_asked_of_an_editor_that_cannot_register_one() -> None:
    client = await ClientServerConfig(server_command=SERVER).start()
    asked: list[t.RegistrationParams] = []

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: t.RegistrationParams) -> None:
        asked.append(params)

    try:
        capabilities = client_capabilities("visual-studio-code")
        assert capabilities.workspace and capabilities.workspace.did_change_watched_files
        capabilities.workspace.did_change_watched_files.dynamic_registration = False
        await client.initialize_session(t.InitializeParams(capabilities=capabilities))
        await open_doc(client, EXAMPLES / "illegal.yaml")  # answered after `initialized`
        assert asked == []
        await client.shutdown_session()
    finally:
        await stop(client)


@pytest.mark.asyncio(loop_scope="module")
async def test_settings_choose_format_and_database(tmp_path: Path) -> None:
    client = await ClientServerConfig(server_command=SERVER).start()
    try:
        await start(client)
        path = EXAMPLES / "red-homura-pioneer.yaml"
        text = path.read_text(encoding="utf-8")
        got = await open_doc(client, path)
        assert shown(got) == expected(text, check_json(path))
        before = seen(client, path.as_uri())
        client.workspace_did_change_configuration(
            t.DidChangeConfigurationParams(settings={"varz-deck.format": "standard"})
        )
        got = await published(client, path.as_uri(), before)
        assert shown(got) == expected(text, check_json(path, "--format", "standard"))
        assert shown(got) != expected(text, check_json(path))
        before = seen(client, path.as_uri())
        client.workspace_did_change_configuration(
            t.DidChangeConfigurationParams(
                settings={"varz-deck": {"format": "standard", "cards": str(AZUKI_CARDS)}}
            )
        )
        got = await published(client, path.as_uri(), before)
        assert [d.code for d in got] == ["F010"]
        await client.shutdown_session()
    finally:
        await stop(client)


# --------------------------------------------------------------------------- malformed input


MALFORMED = {
    "half-typed": "hero: Hibiki Kagura\nspells:\n  Ember Imp: 3\n  Scorch",
    "tab": "hero: Hibiki Kagura\nspells:\n\tEmber Imp: 3\n",
    "unterminated quote": 'hero: "Hibiki Kagura\nspells:\n  Ember Imp: 3\n',
    "one MiB paste": "hero: Hibiki Kagura\nspells:\n" + "  Ember Imp: 3\n" * 80_000,
    "binary junk": "\x00\x01\x02\ufffd\x7f\x1b[31m\udcff\x00hero: \x00",
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
@pytest.mark.asyncio(loop_scope="module")
async def test_malformed_input_gets_diagnostics_and_a_working_server(
    client: LanguageClient, tmp_path: Path, kind: str
) -> None:
    deck = tmp_path / "bad.yaml"
    text = MALFORMED[kind]
    got = await open_doc(client, deck, text)
    assert got, kind
    if kind != "binary junk":  # a lone surrogate cannot be written to a file for check
        deck.write_text(text, encoding="utf-8")
        assert shown(got) == expected(text, check_json(deck))
    else:
        assert all("\x1b" not in d.message and "\x00" not in d.message for d in got)
    got = await edit(client, deck, (0, 0), (0, 0), "# x\n", 2)
    assert got
    hover = await client.text_document_hover_async(
        t.HoverParams(t.TextDocumentIdentifier(deck.as_uri()), t.Position(1, 8))
    )
    assert hover is None or isinstance(hover.contents, t.MarkupContent)
    items = await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(deck.as_uri()), t.Position(3, 3))
    )
    assert items is None or isinstance(items, t.CompletionList)


HOSTILE_URIS = {
    "a NUL": "file:///tmp/%00bad.yaml",
    "a name too long": "file:///tmp/" + "a" * 300 + "/" + "b/" * 2000 + "bad.yaml",
    "a host": "file://elsewhere/share/bad.yaml",
    "bytes not UTF-8": "file:///tmp/%ff%fe.yaml",
    "no scheme's path": "untitled:Untitled-1",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_URIS))
@pytest.mark.asyncio(loop_scope="module")
async def test_a_deck_at_a_hostile_uri_is_checked_like_any_other(
    client: LanguageClient, kind: str
) -> None:
    uri = HOSTILE_URIS[kind]
    path = EXAMPLES / "illegal.yaml"
    text = path.read_text(encoding="utf-8")
    before = seen(client, uri)
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "yaml", 1, text))
    )
    got = await published(client, uri, before)
    assert [d.code for d in got] == [d[0] for d in expected(text, check_json(path))]
    client.workspace_did_change_watched_files(  # nothing to read again, and no failure
        t.DidChangeWatchedFilesParams([t.FileEvent(uri, t.FileChangeType.Changed)])
    )
    client.text_document_did_close(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(uri)))
    assert await published(client, uri, before + 1) == []


# --------------------------------------------------------------------------- the command


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_without_the_extra_says_how_to_install_it() -> None:
    code = "import sys; sys.modules['pygls'] = None; from varz_deck.cli import main; main(['lsp'])"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={**os.environ, "VARZ_DECK_LANG": "en"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "pip install pygls lsprotocol" in done.stderr


@pytest.mark.asyncio(loop_scope="module")
async def test_shutdown_and_exit_end_the_process() -> None:
    config = ClientServerConfig(server_command=SERVER)
    client = await config.start()
    try:
        await start(client)
        await client.shutdown_session()
        server = server_process(client)
        assert server is not None and server.returncode == 0
    finally:
        await stop(client)


# --------------------------------------------------------------------------- property


FRAGMENTS = [
    "\n", "  ", ": ", ": 3", "- 2 ", "3x ", "\t", '"', "'", "#", "hero: ", "spells:\n", "skills:\n",
    "portals:\n", "format: pioneer\n", "Ember Imp", "Scorch Shot", "Hibiki Kagura", "スコーチショット",
    "神楽 響", "Basic Gate (2)", "VZ01-007", "\U0001F525", "0", "99", "100", "x", "{", "[", "&a", "*a",
]  # fmt: skip


def test_random_edits_give_checks_diagnostics(tmp_path: Path) -> None:
    """Random incremental edits to a deck: after each batch, the server's diagnostics are the
    ones `check` gives for the same text saved as a file (small and bounded: 20 examples)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(TIMEOUT * 2)

    client = run(ClientServerConfig(server_command=SERVER).start())
    deck = tmp_path / "random.yaml"
    base = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")
    version = [1]
    try:
        run(start(client))
        run(open_doc(client, deck, base))
        edit_strategy = st.tuples(
            st.floats(0, 1), st.floats(0, 1), st.integers(0, 12),
            st.one_of(st.sampled_from(FRAGMENTS), st.text("ab :-#\n\t'\"3", max_size=6)),
        )  # fmt: skip

        @settings(
            max_examples=20,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(st.lists(edit_strategy, min_size=1, max_size=4))
        def edits_match_check(edits: list[tuple[float, float, int, str]]) -> None:
            text = base
            version[0] += 1
            run(replace_all(client, deck, text, version[0]))
            for line_at, column_at, removed, new in edits:
                lines = text.split("\n")
                line = min(int(line_at * len(lines)), len(lines) - 1)
                column = int(column_at * len(lines[line]))
                start = sum(len(x) + 1 for x in lines[:line]) + column
                end = min(start + removed, len(text))
                end_lines = text[:end].split("\n")
                end_pos = (len(end_lines) - 1, utf16(end_lines[-1]))
                version[0] += 1
                got = run(
                    edit(
                        client, deck, (line, utf16(lines[line][:column])), end_pos, new, version[0]
                    )
                )
                text = text[:start] + new + text[end:]
            deck.write_text(text, encoding="utf-8")
            assert shown(got) == expected(text, check_json(deck)), text

        edits_match_check()
        run(client.shutdown_session())
    finally:
        run(stop(client))
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
