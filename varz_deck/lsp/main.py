"""`varz-deck lsp`: the Language Server (stdio) for deck and card files (docs/guides/editors.md).

This module puts the server together: the server of varz_deck.lsp.server, the session and
settings handlers, and each feature module's handlers (its `register(server)`), as esbonio puts
its language features on its server. Only this module imports the features, so no feature and the
server import each other. A handler never lets an exception reach the editor: a failure is logged
and the request gets no answer rather than a broken server.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import BinaryIO, cast

from lsprotocol import types
from pygls.uris import to_fs_path

from varz_deck.core.messages.sanitize import safe
from varz_deck.lsp import actions, completion, definition, diagnostics, hover
from varz_deck.lsp.documents import Units
from varz_deck.lsp.frames import FrameStream
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.server import VarzServer

FEATURES = (diagnostics, completion, hover, definition, actions)


class _Brief(logging.Formatter):
    """One line a record, escaped, without tracebacks (the editor's log is no place for one;
    VARZ_DECK_DEBUG=1 keeps them)."""

    def format(self, record: logging.LogRecord) -> str:
        import os

        if os.environ.get("VARZ_DECK_DEBUG"):
            return f"varz-deck lsp: {super().format(record)}"
        error = record.exc_info[1] if record.exc_info else None
        record = logging.makeLogRecord(record.__dict__)
        text = record.getMessage().split("\n", 1)[0]
        record.msg = safe(f"{text} ({type(error).__name__})" if error is not None else text)
        record.args = None
        record.exc_info = record.exc_text = record.stack_info = None
        return f"varz-deck lsp: {super().format(record)}"


def build_server(cards: Path | None = None) -> VarzServer:
    """The server with every feature registered."""
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

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: VarzServer, params: None) -> None:
        ls.shut_down = True

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded
    def changed_configuration(ls: VarzServer, params: types.DidChangeConfigurationParams) -> None:
        ls.configure(params.settings)
        diagnostics.refresh_all(ls)

    for module in FEATURES:
        module.register(server)
    return server


def serve(cards: Path | None = None) -> None:
    """Speak LSP on stdin/stdout until the editor says exit, then end the process: 0 after
    `shutdown`, 1 without it (LSP). pygls's loop reads the frames of varz_deck.lsp.frames. The
    process's own streams are used (the command line wraps sys.stdout for text; the protocol is
    bytes), and the editor has closed them at exit, so the process ends here rather than
    flushing them again on the way out."""
    import os
    import sys

    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(_Brief())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    stdin, stdout = sys.__stdin__, sys.__stdout__
    if stdin is None or stdout is None:
        return
    server = build_server(cards)
    source = cast(BinaryIO, stdin.buffer)
    frames = FrameStream(getattr(source, "read1", source.read))
    server.start_io(cast(BinaryIO, frames), cast(BinaryIO, stdout.buffer))
    if sys.__stderr__ is not None:
        sys.__stderr__.flush()
    os._exit(0 if server.shut_down else 1)
