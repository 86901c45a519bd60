"""The protocol's answers to what does not fit (varz_deck/lsp/protocol.py), in this process:
which message is answered, with which code, and what the answer says, word for word.
tests/test_lsp_pygls.py runs the same through pygls's loop, tests/test_lsp_frames.py through the
real process; the expected texts are written by hand here."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

from varz_deck.core.messages.i18n import msg
from varz_deck.lsp.documents import Document
from varz_deck.lsp.protocol import REFUSED, Refusal, _problem, answer_refusal, refusal
from varz_deck.lsp.server import VarzServer

PROBLEM = msg("lsp", "no card in it can be read")


def hover(position: Any, request_id: Any = 1, method: Any = "textDocument/hover") -> dict:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {"textDocument": {"uri": "file:///x.yaml"}, "position": position},
    }


@pytest.mark.parametrize(
    ("data", "request_id"),
    [
        ({"id": 3, "method": "m"}, 3),
        ({"id": "a", "method": "m"}, "a"),
        ({"id": True, "method": "m"}, None),  # a bool is no id
        ({"id": [3], "method": "m"}, None),
        ({"id": 3}, None),  # a response: nothing to answer
        ({"id": 3, "method": 5}, 3),
        ({"method": "m"}, None),  # a notification
        ([1, 2], None),
        ("text", None),
    ],
)  # fmt: skip
def test_a_refusal_is_answered_when_it_is_a_request(data: Any, request_id: Any) -> None:
    assert refusal(data, -32600, PROBLEM) == Refusal(-32600, PROBLEM, request_id)


@pytest.mark.parametrize(
    ("position", "said"),
    [
        ({"line": -1, "character": 0},
         "Position.line should be in range [0:2147483647], but was -1. @ $.params.position"),
        ({"line": "a", "character": "b"},
         "invalid literal for int() with base 10: 'a' @ $.params.position.line; "
         "invalid literal for int() with base 10: 'b' @ $.params.position.character"),
        ({"line": 0}, "required field missing @ $.params.position.character"),
        ({"line": [], "character": 0}, "invalid value for type, expected int @ $.params.position.line"),
    ],
)  # fmt: skip
def test_params_that_do_not_fit_say_what_does_not(position: dict, said: str) -> None:
    found = VarzServer().protocol.structure_message(hover(position))
    assert found == Refusal(-32602, found.problem, 1)
    assert found.problem.render() == f"invalid params for textDocument/hover: {said}"


@pytest.mark.parametrize("method", [5, {"a": 1}, ["x"], None])
def test_a_method_that_is_not_text_is_refused(method: Any) -> None:
    for data, request_id in (
        ({"jsonrpc": "2.0", "id": 1, "method": method, "params": {}}, 1),
        ({"jsonrpc": "2.0", "method": method, "params": {}}, None),
    ):
        found = VarzServer().protocol.structure_message(data)
        assert found == Refusal(-32600, found.problem, request_id)
        assert found.problem.render() == (
            "ignored a message whose method is not text: JSON-RPC 2.0 names a method with a string"
        )


def test_a_response_that_does_not_fit_names_no_method() -> None:
    protocol = VarzServer().protocol
    protocol.send_request("workspace/configuration", None, msg_id="c1")  # no writer: not sent
    found = protocol.structure_message({"jsonrpc": "2.0", "id": "c1", "result": 5})
    assert found.request_id is None
    assert found.problem.render().startswith("invalid params for ?: ")


def test_jsonrpc_other_than_2_0_and_objects_inside_a_message() -> None:
    protocol = VarzServer().protocol
    old = protocol.structure_message({"jsonrpc": "1.0", "id": 2, "method": "shutdown"})
    assert old.code == -32600 and old.request_id == 2
    assert old.problem.render() == (
        "ignored a message that is not JSON-RPC 2.0: it needs jsonrpc set to 2.0"
    )
    inside = {"line": 1, "character": 2}
    assert protocol.structure_message(inside) is inside


def test_the_problem_of_an_error_without_a_cattrs_account() -> None:
    assert _problem(JsonRpcException("the text\x1b")) == "the text\\x1b"
    assert _problem(JsonRpcException()) == "JsonRpcException"
    assert _problem(JsonRpcInternalError("")) == "Internal Error"


def test_the_refused_method_answers_in_the_editors_language() -> None:
    server = VarzServer()
    server.lang = "zh"
    with pytest.raises(JsonRpcException) as raised:
        answer_refusal(server, Refusal(-32600, PROBLEM, 1))
    assert (raised.value.code, raised.value.message) == (-32600, "其中没有可读取的卡牌")
    with pytest.raises(JsonRpcException) as raised:
        answer_refusal(server, {"sent": "by a client"})
    assert raised.value.code == -32601 and REFUSED in raised.value.message


def test_a_refusal_with_nothing_to_answer_is_a_log_line_in_the_editors_language(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = VarzServer()
    server.lang = "zh"
    with caplog.at_level(logging.WARNING, logger="varz_deck.lsp"):
        server.protocol.handle_message([1, 2])
    assert [r.getMessage() for r in caplog.records] == [
        msg(
            "lsp", "ignored a message that is not JSON-RPC 2.0: it needs jsonrpc set to 2.0"
        ).render("zh")
    ]


def test_a_change_is_handled_only_for_an_open_document(tmp_path: Path) -> None:
    from lsprotocol import types as t

    server = VarzServer()
    logged: list[Any] = []
    server.log_line = logged.append  # type: ignore[method-assign]
    changed: list[str] = []
    server.feature(t.TEXT_DOCUMENT_DID_CHANGE)(
        lambda ls, params: changed.append(params.text_document.uri)
    )
    path = tmp_path / "d.yaml"
    change = t.DidChangeTextDocumentNotification(
        params=t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=2, uri=path.as_uri()),
            [t.TextDocumentContentChangeWholeDocument(text="hero: x\n")],
        )
    )
    server.protocol.handle_message(change)
    (said,) = logged
    assert said.render() == (
        f"textDocument/didChange for {path.as_uri()} was ignored: that document is not open "
        "(the editor sends textDocument/didOpen first)"
    )
    assert changed == []
    server.docs[path.as_uri()] = Document(path.as_uri(), path, "hero: y\n")
    server.protocol.handle_message(change)  # open: on to pygls (not initialized here: it fails)
    assert len(logged) == 1
