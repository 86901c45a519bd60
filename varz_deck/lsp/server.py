"""The language server every feature is handed: settings, open documents, card databases, the
last reports (docs/guides/editors.md).

It knows no feature: each one (diagnostics, completion, hover, definition, actions) is a module
with a `register(server)` that adds its handlers, and varz_deck.lsp.main puts them together. The
features import this module; this module imports none of them. Every feature calls the same check
and lint code as the command line, and reaches a game only through its `Game` object.

The server is pygls's `LanguageServer`, used through its public API: pygls's loop
(`pygls.io_.run_async`) serves it, reading the frames of varz_deck.lsp.frames with a subclass of
pygls's reader (that module says why); its protocol is varz_deck.lsp.protocol's, which answers what
does not fit; a failure outside a request is a line in the log (stderr), never a pop-up. The open
documents are the server's own (varz_deck.lsp.documents says why).
"""

from __future__ import annotations

import asyncio
import datetime
import threading
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from varz_deck import __version__
from varz_deck.core.messages.i18n import Message
from varz_deck.core.messages.sanitize import safe
from varz_deck.lsp.documents import Document, Units
from varz_deck.lsp.frames import FrameStdin, FrameStream
from varz_deck.lsp.guard import log
from varz_deck.lsp.library import Library
from varz_deck.lsp.protocol import REFUSED, VarzProtocol, answer_refusal
from varz_deck.lsp.settings import Settings, check_date, database_folder, language, read_settings

if TYPE_CHECKING:
    from pygls.server import ServerErrors

    from varz_deck.core.analysis.parts import Part
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.game import Game

_SUFFIX_OF_LANGUAGE = {"plaintext": ".txt", "text": ".txt"}


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
        self.date: datetime.date | None = None  # the day the editor's settings name, if any
        self.locale: str | None = None
        self.lang = language(self.settings, None)
        self.units = Units()
        self.workspace_folder: Path | None = None
        self.docs: dict[str, Document] = {}
        self.reports: dict[str, DeckReport] = {}
        self.figures: dict[str, tuple[str, tuple[Part, ...]]] = {}  # uri -> (text, tune's parts)
        self.card_roots: dict[str, Path] = {}  # uri -> database folder, for open card files
        self.library = Library(database_folder(cards, self.settings, None))
        self.shut_down = False  # the editor asked for `shutdown` (then `exit` ends with 0)
        self.feature(REFUSED)(answer_refusal)

    # ------------------------------------------------------------------ settings

    def configure(self, options: object) -> None:
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

    def day(self) -> datetime.date:
        """The day a check is as of: the editor's `varz-deck.date`, else today (decided here,
        at each check: an editor stays open past midnight)."""
        from varz_deck.core.dates import on_date

        return self.date if self.date is not None else on_date()

    # ------------------------------------------------------------------ messages

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve the frames of stdin (a FrameStream, or a stream to find them in) until it ends
        or the editor says exit: pygls's `start_io`, with the reader of varz_deck.lsp.frames."""
        import sys

        source = stdin or sys.stdin.buffer
        frames = source if isinstance(source, FrameStream) else FrameStream(source.read)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        serving = run_async(
            stop_event=threading.Event(),  # the loop ends at the stream's end, or exit's SystemExit
            reader=FrameStdin(frames, self.thread_pool),
            protocol=self.protocol,
            logger=log,
            error_handler=self.report_server_error,
        )
        try:
            asyncio.run(serving)
        except BrokenPipeError:
            log.error("the editor closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
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
    """A card file (or formats file, or the game.yaml declaring the game) rather than a deck
    kept in a database folder."""
    from varz_deck.core.game.yamlgame import GAME_FILE
    from varz_deck.core.lint.database import FORMATS_NAMES

    if path.name in FORMATS_NAMES or path.name == GAME_FILE:
        return True
    return any(line.startswith(("cards:", "set:")) for line in text.splitlines())
