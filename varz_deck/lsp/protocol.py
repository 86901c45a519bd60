"""What the server does with a message that does not fit, through pygls's public API.

pygls's loop reads each frame's JSON with `structure_message` as the object hook and hands the
result to `handle_message`; both are methods of the protocol class a server is built with
(`protocol_cls`), and this module's subclass overrides them:

- a request whose params do not fit its method is answered with JSON-RPC's error -32602 saying
  what does not fit (pygls only logs it, and the editor waits for an answer that never comes);
- a message that is not JSON-RPC 2.0 is answered with error -32600 when it is a request, and is a
  line in the log otherwise (pygls fails on it with an AttributeError);
- a change to a document that is not open is a line in the editor's log (pygls raises KeyError).

An answer is sent the way pygls sends every answer: the refusal is dispatched as a request of
the method REFUSED, whose handler raises the error (pygls answers a request whose handler raises a
JsonRpcException with that error). REFUSED sent by a client is an unknown method (-32601).

pygls calls the object hook for every JSON object of a message, not only the message itself, so
`structure_message` leaves an object without a `jsonrpc` member as it is; tests/test_lsp_pygls.py
runs pygls's own loop over a session of such messages, and fails on an upgrade that changes this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cattrs import Converter
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcMethodNotFound
from pygls.protocol import JsonRPCRequestMessage, LanguageServerProtocol

from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.messages.sanitize import safe
from varz_deck.lsp.guard import log

if TYPE_CHECKING:
    from varz_deck.lsp.documents import Document

REFUSED = "$/varz-deck/refused"
_INVALID_PARAMS = msg("lsp", "invalid params for {method}: {problem}")
_NOT_JSON_RPC = msg(
    "lsp", "ignored a message that is not JSON-RPC 2.0: it needs jsonrpc set to 2.0"
)
_METHOD_NOT_TEXT = msg(
    "lsp", "ignored a message whose method is not text: JSON-RPC 2.0 names a method with a string"
)
_NOT_OPEN = msg(
    "lsp",
    "{method} for {uri} was ignored: that document is not open (the editor sends "
    "textDocument/didOpen first)",
)


class Host(Protocol):
    """What the protocol needs of its server (varz_deck.lsp.server's, which imports this)."""

    lang: str

    def document(self, uri: str) -> Document | None: ...

    def log_line(self, message: Message) -> None: ...


@dataclass(frozen=True)
class Refusal:
    """A message the server cannot handle: the JSON-RPC error code and what is wrong."""

    code: int
    problem: Message
    request_id: int | str | None  # None: nothing to answer (a notification, or no usable id)


def refusal(data: Any, code: int, problem: Message) -> Refusal:
    """The refusal of a message (its JSON value): answered when it is a request with an id."""
    request_id = data.get("id") if isinstance(data, dict) else None
    is_id = isinstance(request_id, (int, str)) and not isinstance(request_id, bool)
    is_request = is_id and "method" in data
    return Refusal(code, problem, request_id if is_request else None)


class VarzProtocol(LanguageServerProtocol):
    """pygls's protocol; what does not fit is refused, a change to a closed document logged."""

    def __init__(self, server: Any, converter: Converter) -> None:  # a LanguageServer and a Host
        super().__init__(server, converter)
        self.host: Host = server

    def structure_message(self, data: dict[str, Any]) -> object:
        """pygls's message object; a Refusal for a message that does not fit."""
        if "jsonrpc" not in data:  # an object inside a message, or not JSON-RPC (handle_message)
            return data
        if data["jsonrpc"] != "2.0":
            return refusal(data, JsonRpcInvalidRequest.CODE, _NOT_JSON_RPC)
        method = data.get("method", "?")  # "?": a response to the server's request
        if not isinstance(method, str):
            return refusal(data, JsonRpcInvalidRequest.CODE, _METHOD_NOT_TEXT)
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            problem = _problem(error)
            return refusal(data, error.code, _INVALID_PARAMS(method=safe(method), problem=problem))

    def handle_message(self, message: Any) -> None:
        if not isinstance(message, Refusal) and getattr(message, "jsonrpc", None) != "2.0":
            message = refusal(message, JsonRpcInvalidRequest.CODE, _NOT_JSON_RPC)
        if isinstance(message, Refusal):
            self._refuse(message)
            return
        if isinstance(message, types.DidChangeTextDocumentNotification):
            uri = message.params.text_document.uri
            if self.host.document(uri) is None:
                self.host.log_line(_NOT_OPEN(method=message.method, uri=uri))
                return
        super().handle_message(message)

    def _refuse(self, refused: Refusal) -> None:
        if refused.request_id is None:
            log.warning("%s", refused.problem.render(self.host.lang))
            return
        request = JsonRPCRequestMessage(
            id=refused.request_id, method=REFUSED, jsonrpc="2.0", params=refused
        )
        super().handle_message(request)


def answer_refusal(ls: Host, params: object) -> None:
    """REFUSED's handler: the refusal's error, for pygls to send as the request's answer."""
    if not isinstance(params, Refusal):  # sent by the client: no such method
        raise JsonRpcMethodNotFound.of(REFUSED)
    raise JsonRpcException(params.problem.render(ls.lang), params.code)


def _problem(error: JsonRpcException) -> str:
    """What in a message's params does not fit (cattrs's account of it), or the error's text."""
    from cattrs import transform_error
    from cattrs.errors import ClassValidationError

    cause = error.__cause__

    def described(exc: BaseException, type_: type | None) -> str:
        if isinstance(exc, ValueError) and not isinstance(exc, ClassValidationError):
            return str(exc)
        from cattrs.v import format_exception

        return format_exception(exc, type_)

    if isinstance(cause, ClassValidationError):
        return safe("; ".join(transform_error(cause, format_exception=described)))
    return safe(error.message or type(error).__name__)
