"""The language server uses pygls through its public API only (docs/guides/editors.md, "How the
server is built"): pygls's own loop (`pygls.io_.run_async`) reads the frames varz_deck.lsp.frames
cleans, with a subclass of pygls's `StdinAsyncReader`; the protocol subclass of
varz_deck.lsp.protocol answers what does not fit; and no module touches a private pygls attribute
or overrides one of pygls's built-in handlers.

The session below runs pygls's real loop in this process on a byte stream: it fails on a pygls
upgrade that changes what the server relies on (how the loop reads a frame: a header line, a
blank line, `readexactly` of the body; that every message goes through `structure_message` and
`handle_message`; that an exception a handler raises is the request's error answer; that the
`shutdown` handler runs).
"""

from __future__ import annotations

import ast
import io
import json
import logging
import re
from pathlib import Path
from typing import Any

import pygls
import pytest
from test_lsp_frames import INITIALIZE, frame, hover

from varz_deck.lsp.main import build_server

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "varz_deck"
_FRAME = re.compile(rb"Content-Length: ([0-9]+)\r\n(?:[A-Za-z-]+: [^\r\n]*\r\n)*\r\n")


def answers(data: bytes) -> list[dict[str, Any]]:
    out, at = [], 0
    while (found := _FRAME.match(data, at)) is not None:
        end = found.end() + int(found.group(1))
        out.append(json.loads(data[found.end() : end]))
        at = end
    assert at == len(data), data[at:]
    return out


class Kept(io.BytesIO):
    """stdout: pygls closes it at exit; what was written stays readable."""

    def close(self) -> None:
        self.written = self.getvalue()


def session(*frames: bytes) -> tuple[list[dict[str, Any]], Any]:
    """Run the server on these bytes with pygls's own loop: its answers, and the server."""
    from varz_deck.lsp.frames import FrameStream

    server = build_server()
    stdout = Kept()
    server.start_io(FrameStream(io.BytesIO(b"".join(frames)).read), stdout)
    return answers(getattr(stdout, "written", stdout.getvalue())), server


def test_a_session_through_pyglss_own_loop() -> None:
    not_open = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {
            "textDocument": {"uri": "file:///never/opened.yaml", "version": 2},
            "contentChanges": [{"text": "hero: x\n"}],
        },
    }
    got, server = session(
        b"garbage\r\n\r\n",
        frame(INITIALIZE, "content-length:{n}\r\nContent-Type: x\r\n\r\n"),
        frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        frame(hover(1, line=-1)),  # params that do not fit: -32602
        frame({k: v for k, v in hover(2).items() if k != "jsonrpc"}),  # not JSON-RPC: -32600
        frame({**hover(3), "jsonrpc": "1.0"}),  # not JSON-RPC 2.0: -32600
        frame({**hover(0), "id": [4]}),  # an id that is no id: nothing to answer
        frame([1, 2]),
        frame(not_open),
        frame({"jsonrpc": "2.0", "id": 5, "method": "$/varz-deck/refused", "params": {}}),
        frame(hover(6)),
        frame({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}),
        frame({"jsonrpc": "2.0", "method": "exit"}),
    )
    by_id = {m["id"]: m for m in got if "id" in m and "method" not in m}
    assert by_id[0]["result"]["serverInfo"]["name"] == "varz-deck"
    assert by_id[1]["error"]["code"] == -32602
    assert "position" in by_id[1]["error"]["message"] and "-1" in by_id[1]["error"]["message"]
    for request_id in (2, 3):
        assert by_id[request_id]["error"] == {
            "code": -32600,
            "message": "ignored a message that is not JSON-RPC 2.0: it needs jsonrpc set to 2.0",
        }
    assert by_id[5]["error"]["code"] == -32601  # the refusals' own method, from outside: unknown
    assert by_id[6]["result"] is None
    assert by_id[7]["result"] is None
    assert sorted(by_id) == [0, 1, 2, 3, 5, 6, 7]
    logged = [m["params"]["message"] for m in got if m.get("method") == "window/logMessage"]
    assert any("file:///never/opened.yaml" in line and "not open" in line for line in logged)
    assert not [m for m in got if m.get("method") == "window/showMessage"]
    assert server.shut_down


def test_without_shutdown_the_session_ends_with_the_stream() -> None:
    got, server = session(frame(INITIALIZE), frame(hover(1)))
    assert [m["id"] for m in got if "id" in m and "method" not in m] == [0, 1]
    assert not server.shut_down


# --------------------------------------------------------------------------- private attributes


def pygls_private_names() -> set[str]:
    """The names pygls keeps to itself: its `_`-prefixed attributes and functions, and its
    built-in handlers (`lsp_*` methods of its protocol), which a subclass must not override."""
    names: set[str] = set()
    for path in Path(pygls.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.name.startswith("lsp_") or _private(node.name)
            ):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                names.add(node.attr)
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def own_names(tree: ast.Module, pygls_classes: set[str]) -> set[str]:
    """The names a module defines itself (functions, classes, attributes its classes set on
    `self`), outside its subclasses of pygls's classes (what those set is pygls's attribute)."""
    found: set[str] = set()
    for top in tree.body:
        if isinstance(top, ast.ClassDef) and top.name in pygls_classes:
            continue
        for node in ast.walk(top):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and _is_self(target.value):
                        found.add(target.attr)
                    elif isinstance(target, ast.Name):
                        found.add(target.id)
    return found


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def uses_of(tree: ast.Module, private: set[str]) -> list[str]:
    """Where a module reads a pygls-private name or overrides a pygls built-in handler."""
    from_pygls = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pygls")
        for alias in node.names
    }
    subclasses = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id in from_pygls for base in node.bases)
    }
    own = own_names(tree, subclasses)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private and node.attr not in own:
            found.append((node.lineno, f".{node.attr}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in private
        ):
            found.append((node.lineno, f"{node.func.id}(…, {node.args[1].value!r})"))
        elif isinstance(node, ast.ClassDef) and node.name in subclasses:
            for item in node.body:
                is_method = isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                if is_method and item.name in private:
                    found.append((item.lineno, f"overrides {item.name}"))
                target = item.target if isinstance(item, ast.AnnAssign) else None
                if isinstance(target, ast.Name) and target.id in private:
                    found.append((item.lineno, f"declares {target.id}"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pygls"):
            for alias in node.names:
                if _private(alias.name) or any(_private(p) for p in node.module.split(".")):
                    found.append((node.lineno, f"imports {node.module}.{alias.name}"))
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


# pytest-lsp gives no public handle on the server's process: tests/test_lsp.py's
# `server_process` reaches pygls's client attribute, the one place outside the package that does.
ALLOWED = {"tests/test_lsp.py": {"._server"}}


def test_no_module_touches_a_private_pygls_attribute() -> None:
    private = pygls_private_names()
    assert {"_send_data", "_server", "_shutdown", "lsp_text_document__did_change"} <= private
    paths = [
        *PACKAGE.rglob("*.py"),
        *(ROOT / "tests").glob("test_lsp*.py"),
        ROOT / "benchmarks" / "bench_lsp.py",
    ]
    found = {}
    for path in sorted(paths):
        text = path.read_text("utf-8")
        if "pygls" not in text and "lsp" not in path.name and "lsp" not in path.parts:
            continue
        shown = path.relative_to(ROOT).as_posix()
        allowed = ALLOWED.get(shown, set())
        where = [w for w in uses_of(ast.parse(text), private) if w.split(": ", 1)[1] not in allowed]
        if where:
            found[shown] = where
    assert found == {}
    used = uses_of(ast.parse((ROOT / "tests" / "test_lsp.py").read_text("utf-8")), private)
    assert [w.split(": ", 1)[1] for w in used] == ["._server"]  # once: in server_process


def test_the_scan_finds_what_it_looks_for() -> None:
    private = pygls_private_names()
    code = (
        "from pygls.protocol.json_rpc import _x\n"
        "from pygls.protocol import LanguageServerProtocol as Base\n"
        "class P(Base):\n"
        "    _server: int\n"
        "    def lsp_text_document__did_change(self): ...\n"
        "def f(p):\n"
        "    p.protocol._send_data(1)\n"
        "    P()._server = 2\n"
        "    return getattr(p, '_shutdown', 0)\n"
    )
    assert uses_of(ast.parse(code), private | {"_x"}) == [
        "line 1: imports pygls.protocol.json_rpc._x",
        "line 4: declares _server",
        "line 5: overrides lsp_text_document__did_change",
        "line 7: ._send_data",
        "line 8: ._server",
        "line 9: getattr(…, '_shutdown')",
    ]


# --------------------------------------------------------------------------- the server's loop


def test_a_plain_stream_is_read_through_a_frame_stream() -> None:
    server = build_server()
    stdout = Kept()
    server.start_io(io.BytesIO(b"junk" + frame(INITIALIZE) + frame(hover(1))), stdout)  # type: ignore[arg-type]
    got = answers(stdout.getvalue())
    assert [m["id"] for m in got if "id" in m and "method" not in m] == [0, 1]


def test_a_failure_in_the_loop_is_logged_by_the_server(caplog: pytest.LogCaptureFixture) -> None:
    from varz_deck.lsp.frames import FrameStream

    server = build_server()

    def broken(message: Any) -> None:
        raise ValueError("broken\x1b")

    server.protocol.handle_message = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="varz_deck.lsp"):
        server.start_io(FrameStream(io.BytesIO(frame(INITIALIZE)).read), Kept())  # type: ignore[arg-type]
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "varz_deck.lsp"]
    assert said == [("ERROR", "Unable to handle message"), ("WARNING", "broken\\x1b")]


def test_a_connection_that_breaks_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    from varz_deck.lsp.frames import FrameStream

    def read(n: int) -> bytes:
        raise BrokenPipeError

    server = build_server()
    with caplog.at_level(logging.WARNING, logger="varz_deck.lsp"):
        server.start_io(FrameStream(read), Kept())  # type: ignore[arg-type]
    said = [r.getMessage() for r in caplog.records if r.name == "varz_deck.lsp"]
    assert said == ["the editor closed the connection"]


def test_a_failure_outside_a_request_is_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    server = build_server()
    with caplog.at_level(logging.WARNING, logger="varz_deck.lsp"):
        server.report_server_error(KeyError("file:///x\x1b"), None)
        server.report_server_error(RuntimeError(), None)
    assert [r.getMessage() for r in caplog.records] == ["'file:///x\\x1b'", "RuntimeError"]


def test_a_log_line_goes_to_the_editor_in_its_language(caplog: pytest.LogCaptureFixture) -> None:
    from varz_deck.core.messages.i18n import msg

    server = build_server()
    server.lang = "ja"
    sent: list[Any] = []
    server.window_log_message = sent.append  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO, logger="varz_deck.lsp"):
        server.log_line(msg("lsp", "no card in it can be read"))
    assert [r.getMessage() for r in caplog.records] == ["読み込めるカードがありません"]
    assert [(p.type, p.message) for p in sent] == [(4, "読み込めるカードがありません")]
