"""The language server every feature is handed: settings, open documents, card databases, the
last reports, and the loop that reads the editor's messages (SPEC §10).

It knows no feature: each one (diagnostics, completion, hover, definition, actions) is a module
with a `register(server)` that adds its handlers, and varz_deck.lsp.main puts them together. The
features import this module; this module imports none of them. Every feature calls the same check
and lint code as the command line, and reaches a game only through its `Game` object.

Frames are read by varz_deck.lsp.frames (not pygls's reader); a request whose params do not fit
its method is answered with JSON-RPC's error -32602, and any other failure around a message is a
line in the log (stderr), never a pop-up.
"""

from __future__ import annotations

import asyncio
import datetime
import threading
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from varz_deck import __version__
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.messages.sanitize import safe
from varz_deck.lsp.documents import Document, Units
from varz_deck.lsp.frames import END, FrameReader
from varz_deck.lsp.guard import log
from varz_deck.lsp.library import Library
from varz_deck.lsp.settings import Settings, check_date, database_folder, language, read_settings

if TYPE_CHECKING:
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.game import Game

_SUFFIX_OF_LANGUAGE = {"plaintext": ".txt", "text": ".txt"}
_INVALID_PARAMS = msg("lsp", "invalid params for {method}: {problem}")
_NOT_JSON_RPC = msg(
    "lsp", "ignored a message that is not JSON-RPC 2.0: it needs jsonrpc set to 2.0"
)
_NOT_OPEN = msg(
    "lsp",
    "{method} for {uri} was ignored: that document is not open (the editor sends "
    "textDocument/didOpen first)",
)


class VarzProtocol(LanguageServerProtocol):
    """pygls's protocol, but a change to a document that is not open is a log line."""

    _server: VarzServer

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        if uri not in self._server.docs:
            self._server.log_line(_NOT_OPEN(method=types.TEXT_DOCUMENT_DID_CHANGE, uri=uri))
            return
        yield from super().lsp_text_document__did_change(params)


class VarzServer(LanguageServer):
    """The server's state: settings, open documents, the card databases, the last reports."""

    def __init__(self, cards: Path | None = None) -> None:
        super().__init__(
            "varz-deck",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=VarzProtocol,
        )
        self.command_line_cards = cards
        self.settings = Settings()
        self.date: datetime.date | None = None  # the day decks are checked as of (None: today)
        self.locale: str | None = None
        self.lang = language(self.settings, None)
        self.units = Units()
        self.workspace_folder: Path | None = None
        self.docs: dict[str, Document] = {}
        self.reports: dict[str, DeckReport] = {}
        self.figures: dict[str, tuple[str, tuple[Any, ...]]] = {}  # uri -> (text, tune's parts)
        self.card_roots: dict[str, Path] = {}  # uri -> database folder, for open card files
        self.library = Library(database_folder(cards, self.settings, None))

    # ------------------------------------------------------------------ settings

    def configure(self, options: Any) -> None:
        """Take the editor's settings; a new database folder is opened on next use; a date that
        is not a day is said once (a warning), and decks are checked as of today."""
        before = self.settings
        self.settings = read_settings(options, self.settings)
        self.lang = language(self.settings, self.locale)
        self.date, problem = check_date(self.settings)
        if problem is not None and self.settings.date != before.date:
            said = problem.render(self.lang)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, said))
        folder = database_folder(self.command_line_cards, self.settings, self.workspace_folder)
        if folder != self.library.folder:
            self.library = Library(folder)

    @property
    def format(self) -> str | None:
        return self.settings.format

    # ------------------------------------------------------------------ messages

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on the streams until they end or the editor says exit (pygls's loop, with the
        frame reader of varz_deck.lsp.frames)."""
        import sys

        source = stdin or sys.stdin.buffer
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        frames = FrameReader(getattr(source, "read1", source.read))
        try:
            asyncio.run(self._serve(frames))
        except BrokenPipeError:
            log.error("the editor closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve(self, frames: FrameReader) -> None:
        loop = asyncio.get_running_loop()
        stop = self._stop_event
        while stop is None or not stop.is_set():
            message = await loop.run_in_executor(self.thread_pool, frames.next)
            if frames.skipped:
                log.warning("skipped %d bytes that were not an LSP message", frames.skipped)
                frames.skipped = 0
            if message is END:
                return
            self.receive(message)

    def receive(self, data: Any) -> None:
        """One message: handled; a request whose params do not fit its method answered with
        error -32602; anything that is not JSON-RPC 2.0 logged (and a request answered -32600)."""
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            self._refuse(data, JsonRpcInvalidRequest.CODE, _NOT_JSON_RPC)
            return
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException as error:
            method = data.get("method")
            shown = safe(method) if isinstance(method, str) else "?"
            self._refuse(data, error.code, _INVALID_PARAMS(method=shown, problem=_problem(error)))
            return
        try:
            self.protocol.handle_message(message)
        except Exception:
            log.exception("%s failed", safe(data.get("method", "a message")))

    def _refuse(self, data: Any, code: int, problem: Message) -> None:
        """Answer a request that cannot be handled with an error; log anything else."""
        text = problem.render(self.lang)
        request_id = data.get("id") if isinstance(data, dict) else None
        is_id = isinstance(request_id, (int, str)) and not isinstance(request_id, bool)
        if is_id and isinstance(data.get("method"), str):
            error = types.ResponseError(code, text)
            self.protocol._send_data(types.ResponseErrorMessage(id=request_id, error=error))
        else:
            log.warning("%s", text)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A failure outside a request: a log line, not a pop-up (pygls shows one)."""
        log.warning("%s", safe(error) or type(error).__name__)

    def log_line(self, message: Message) -> None:
        """A quiet line in the editor's log (window/logMessage) and in stderr."""
        text = message.render(self.lang)
        log.info("%s", text)
        self.window_log_message(types.LogMessageParams(types.MessageType.Log, text))

    # ------------------------------------------------------------------ documents

    def document(self, uri: str) -> Document | None:
        return self.docs.get(uri)

    def open_document(self, item: types.TextDocumentItem) -> Document:
        path = _path_of(item.uri, item.language_id)
        doc = Document(item.uri, path, item.text, item.version, item.language_id)
        self.docs[item.uri] = doc
        root = self.library.root_of_card_file(path)
        if root is not None and _is_card_file(path, item.text):
            self.card_roots[item.uri] = root
        return doc

    def close_document(self, uri: str) -> None:
        self.docs.pop(uri, None)
        self.reports.pop(uri, None)
        self.figures.pop(uri, None)
        self.card_roots.pop(uri, None)

    def is_card_file(self, uri: str) -> bool:
        return uri in self.card_roots

    def deck_game(self, uri: str) -> Game:
        """The game of an open deck: the one its last check was for."""
        from varz_deck.games import get_game

        report = self.reports.get(uri)
        if report is not None:
            return get_game(report.game)
        primary = self.library.primary().database
        return get_game(primary.game if primary is not None else None)


def _path_of(uri: str, language_id: str) -> Path:
    """The file a document stands for; an unsaved one gets a name its language suggests."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path:
        return Path(path)
    return Path(f"untitled{_SUFFIX_OF_LANGUAGE.get(language_id, '.yaml')}").absolute()


def _is_card_file(path: Path, text: str) -> bool:
    """A card file (or formats file) rather than a deck kept in a database folder."""
    from varz_deck.core.lint.database import FORMATS_NAMES

    if path.name in FORMATS_NAMES:
        return True
    return any(line.startswith(("cards:", "set:")) for line in text.splitlines())


def _problem(error: JsonRpcException) -> str:
    """What in a message's params does not fit (cattrs's account of it), or the error's text."""
    from cattrs import transform_error
    from cattrs.errors import ClassValidationError

    cause = error.__cause__

    def described(exc: BaseException, type_: Any) -> str:
        if isinstance(exc, ValueError) and not isinstance(exc, ClassValidationError):
            return str(exc)
        from cattrs.v import format_exception

        return format_exception(exc, type_)

    if isinstance(cause, ClassValidationError):
        return safe("; ".join(transform_error(cause, format_exception=described)))
    return safe(error.message or type(error).__name__)
