"""`varz-deck lsp`: the Language Server (stdio) for deck files and card files (SPEC §10).

One pygls server; each editor feature is its own module that registers its handlers here
(diagnostics, completion, hover, definition, actions), and every one of them calls the same check
and lint code as the command line (varz_deck.games). A handler never lets an exception reach the
editor: a failure is logged and the request gets no answer rather than a broken server.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from varz_deck import __version__
from varz_deck.lsp.documents import Document, Units
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.library import Library
from varz_deck.lsp.settings import Settings, database_folder, language, read_settings

if TYPE_CHECKING:
    from varz_deck.core.check import DeckReport
    from varz_deck.core.game import Game

_SUFFIX_OF_LANGUAGE = {"plaintext": ".txt", "text": ".txt"}


class VarzServer(LanguageServer):
    """The server's state: settings, open documents, the card databases, the last reports."""

    def __init__(self, cards: Path | None = None) -> None:
        super().__init__(
            "varz-deck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental
        )
        self.command_line_cards = cards
        self.settings = Settings()
        self.locale: str | None = None
        self.lang = language(self.settings, None)
        self.units = Units()
        self.workspace_folder: Path | None = None
        self.docs: dict[str, Document] = {}
        self.reports: dict[str, DeckReport] = {}
        self.card_roots: dict[str, Path] = {}  # uri -> database folder, for open card files
        self.library = Library(database_folder(cards, self.settings, None))

    # ------------------------------------------------------------------ settings

    def configure(self, options: Any) -> None:
        """Take the editor's settings; a new database folder is opened on next use."""
        self.settings = read_settings(options, self.settings)
        self.lang = language(self.settings, self.locale)
        folder = database_folder(self.command_line_cards, self.settings, self.workspace_folder)
        if folder != self.library.folder:
            self.library = Library(folder)

    @property
    def format(self) -> str | None:
        return self.settings.format

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
    from varz_deck.core.database import FORMATS_NAMES

    if path.name in FORMATS_NAMES:
        return True
    return any(line.startswith(("cards:", "set:")) for line in text.splitlines())


class _Brief(logging.Formatter):
    """Log lines without tracebacks (the editor's log is no place for one; VARZ_DECK_DEBUG=1
    keeps them)."""

    def format(self, record: logging.LogRecord) -> str:
        import os

        if record.exc_info and not os.environ.get("VARZ_DECK_DEBUG"):
            error = record.exc_info[1]
            record = logging.makeLogRecord(record.__dict__)
            record.msg = f"{record.getMessage()} ({type(error).__name__})"
            record.args = None
            record.exc_info = record.exc_text = record.stack_info = None
        return f"varz-deck lsp: {super().format(record)}"


def build_server(cards: Path | None = None) -> VarzServer:
    """The server with every feature registered."""
    from varz_deck.lsp import actions, completion, definition, diagnostics, hover

    server = VarzServer(cards)

    @server.feature(types.INITIALIZE)
    @guarded
    def initialize(ls: VarzServer, params: types.InitializeParams) -> None:
        ls.locale = params.locale
        ls.units = Units(str(ls.workspace.position_encoding or "utf-16"))
        folders = params.workspace_folders or []
        root_uri = folders[0].uri if folders else params.root_uri
        if root_uri and root_uri.startswith("file:"):
            found = to_fs_path(root_uri)
            ls.workspace_folder = Path(found) if found else None
        ls.configure(params.initialization_options)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded
    def changed_configuration(ls: VarzServer, params: types.DidChangeConfigurationParams) -> None:
        ls.configure(params.settings)
        diagnostics.refresh_all(ls)

    for module in (diagnostics, completion, hover, definition, actions):
        module.register(server)
    return server


def serve(cards: Path | None = None) -> None:
    """Speak LSP on stdin/stdout until the editor says exit, then end the process: 0 after
    `shutdown`, 1 without it (LSP). The process's own streams are used (the command line wraps
    sys.stdout for text; the protocol is bytes), and the editor has closed them at exit, so the
    process ends here rather than flushing them again on the way out."""
    import os
    import sys

    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(_Brief())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    stdin, stdout = sys.__stdin__, sys.__stdout__
    if stdin is None or stdout is None:
        return
    server = build_server(cards)
    server.start_io(cast(BinaryIO, stdin.buffer), cast(BinaryIO, stdout.buffer))
    if sys.__stderr__ is not None:
        sys.__stderr__.flush()
    os._exit(0 if getattr(server.protocol, "_shutdown", False) else 1)
