"""Diagnostics as you type: `check` for a deck buffer, `cards lint` for a card-file buffer.

Each diagnostic carries `check`'s code, severity and message (in the editor's language), at
`check`'s place turned into LSP's (0-based line, column in UTF-16 units), `source: "varz-deck"`.
The range runs from that place to the end of the line's text (a place with no line: the first
line). An edit to a card file lints its database again and, when it is clean, checks every open
deck against it; so does a change on disk (a pull, another program) to a file of a database in use,
which the server asks the editor to report (`workspace/didChangeWatchedFiles`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from varz_deck.core.messages.diagnostics import Diagnostic, Severity
from varz_deck.core.messages.i18n import Message, localized, msg, nmsg
from varz_deck.lsp.documents import Document
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.library import resolved
from varz_deck.lsp.lines import strip_comment

if TYPE_CHECKING:
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.files.source import DeckSource
    from varz_deck.lsp.library import Loaded
    from varz_deck.lsp.server import VarzServer

SOURCE = "varz-deck"
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error,
             Severity.WARNING: types.DiagnosticSeverity.Warning}  # fmt: skip
_DATABASE_UNUSABLE = nmsg(
    "lsp",
    "the card database {root} cannot be used because of {n} problem: {problem}; "
    "varz-deck cards lint {root} shows it",
    "the card database {root} cannot be used because of {n} problems, the first: {problem}; "
    "varz-deck cards lint {root} shows them all",
)
_CHANGED_ON_DISK = nmsg(
    "lsp",
    "the card files in {root} changed on disk and now have {n} problem: {problem}; decks are "
    "still checked against the cards as they were until varz-deck cards lint {root} passes",
    "the card files in {root} changed on disk and now have {n} problems, the first: {problem}; "
    "decks are still checked against the cards as they were until varz-deck cards lint {root} "
    "passes",
)
_PROBLEM = Message("", "{where}: {code} {text}")  # a place and a code: no words to translate
_PROBLEM_NOWHERE = Message("", "{code} {text}")
_NOTHING_READ = msg("lsp", "no card in it can be read")
CARD_FILE_GLOBS = ("**/*.yaml", "**/*.yml")  # card files and formats files
_WATCH_ID = "varz-deck-card-files"
log = logging.getLogger("varz_deck.lsp")


def place(doc: Document, d: Diagnostic, server: VarzServer) -> types.Range:
    """The LSP range of a checker's diagnostic in a document."""
    offset = doc.checker_offset(d.line, d.column)
    line, column = doc.position(offset, server.units)
    text = doc.line(line)
    end_text = strip_comment(text).rstrip() if d.line else text.rstrip()
    end = server.units.count(end_text)
    if end <= column:  # nothing after the place: mark one character, or the place itself
        end = column + (
            server.units.count(text[len(end_text) : len(end_text) + 1]) if d.line else 0
        )
        end = max(end, column)
    return types.Range(types.Position(line, column), types.Position(line, end))


def to_lsp(doc: Document, d: Diagnostic, server: VarzServer) -> types.Diagnostic:
    return types.Diagnostic(
        range=place(doc, d, server),
        message=localized(d, server.lang),
        severity=_SEVERITY[d.severity],
        code=d.code,
        source=SOURCE,
    )


def publish(server: VarzServer, doc: Document, found: Iterable[Diagnostic]) -> None:
    ordered = sorted(found, key=Diagnostic.sort_key)
    server.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(
            uri=doc.uri,
            version=doc.version,
            diagnostics=[to_lsp(doc, d, server) for d in ordered],
        )
    )


def first_problem(found: Sequence[Diagnostic], root: Path) -> Message:
    """The first of a database's problems (by file and line): where, its code, what is wrong."""
    first = min(found, key=lambda d: (d.file or "", d.line or 0, d.column or 0, d.code))
    text = first.text or first.message
    if not first.file:
        return _PROBLEM_NOWHERE(code=first.code, text=text)
    where = Path(first.file)
    if where.is_relative_to(root):
        where = where.relative_to(root)
    place = where.as_posix() + (f":{first.line}" if first.line else "")
    return _PROBLEM(where=place, code=first.code, text=text)


def _unusable(loaded: Loaded) -> Diagnostic:
    """The one diagnostic of a deck whose database cannot be used: its first problem."""
    from varz_deck.core.messages.diagnostics import diag

    problems = loaded.problems or (diag("F001", _NOTHING_READ),)
    first = first_problem(problems, loaded.root)
    said = _DATABASE_UNUSABLE(root=str(loaded.root), n=len(problems), problem=first)
    return diag("F001", said)


def check_deck(server: VarzServer, doc: Document) -> list[Diagnostic]:
    """`check` of the buffer: the same database, format choice and game routing."""
    from varz_deck.core.files.source import DeckSource
    from varz_deck.games import check_decks

    loaded = server.library.primary()
    if loaded.database is None:
        server.reports.pop(doc.uri, None)
        return [_unusable(loaded)]
    library = server.library
    unusable: list[Loaded] = []  # the database of the game declared above the deck, broken

    def declared(source: DeckSource) -> CardDatabase | None:
        near = library.declared(doc.path)
        if near is not None and near.database is None:
            unusable.append(near)
        return near.database if near is not None else None

    report = check_decks(
        [DeckSource.from_text(str(doc.path), doc.text)],
        loaded.database,
        server.format,
        open_other=None if library.explicit else library.bundled,
        date=server.day(),
        open_declared=None if library.explicit else declared,
    )[0]
    if unusable:
        server.reports.pop(doc.uri, None)
        return [_unusable(unusable[0])]
    server.reports[doc.uri] = report
    return list(report.diagnostics)


def lint_cards(server: VarzServer, root: Path) -> list[Diagnostic]:
    """`cards lint` of a database with its open card files' buffers; each open card file gets
    its diagnostics; a clean database replaces the one decks are checked against, and every
    open deck is checked again. The errors found."""
    open_files = {
        uri: server.docs[uri] for uri, folder in server.card_roots.items() if folder == root
    }
    texts = {doc.path: doc.text for doc in open_files.values()}
    result = server.library.relint(root, texts)
    by_path: dict[Path, list[Diagnostic]] = {}
    for shown, found in result.files.items():
        by_path.setdefault(resolved(Path(shown)), []).extend(found)
    for doc in open_files.values():
        publish(server, doc, by_path.get(resolved(doc.path), ()))
    errors = result.errors
    if not errors:
        for uri, doc in list(server.docs.items()):
            if uri not in server.card_roots:
                publish(server, doc, check_deck(server, doc))
    return errors


def watch_card_files(server: VarzServer) -> None:
    """Ask the editor to report YAML files changed on disk, where it can register a watcher."""
    workspace = server.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in CARD_FILE_GLOBS]
    registration = types.Registration(
        id=_WATCH_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    asked = server.client_register_capability(types.RegistrationParams([registration]))
    asked.add_done_callback(_said_no)


def _said_no(answer: Future[None]) -> None:
    if answer.exception() is not None:  # the editor refused: card files count when opened
        log.info("the editor does not watch card files: %s", answer.exception())


def files_changed(server: VarzServer, uris: Iterable[str]) -> None:
    """Files changed on disk: each database in use that one belongs to is linted again (with
    the open card files' buffers); when it is clean, the open decks are checked against it, and
    when it is not and none of its card files is open, a message says so."""
    roots: set[Path] = set()
    for uri in uris:
        found = to_fs_path(uri) if uri.startswith("file:") else None
        root = server.library.root_of_card_file(Path(found)) if found else None
        if root is not None and root in server.library.loaded:
            roots.add(root)
    for root in sorted(roots):
        errors = lint_cards(server, root)
        if errors and root not in server.card_roots.values():
            first = first_problem(errors, root)
            said = _CHANGED_ON_DISK(root=str(root), n=len(errors), problem=first)
            shown = said.render(server.lang)
            server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, shown))


def refresh(server: VarzServer, doc: Document) -> None:
    """Diagnostics for one document after it opened or changed."""
    root = server.card_roots.get(doc.uri)
    if root is not None:
        lint_cards(server, root)
    else:
        publish(server, doc, check_deck(server, doc))


def refresh_all(server: VarzServer) -> None:
    """After the settings changed: every open document again."""
    roots = set(server.card_roots.values())
    for root in roots:
        lint_cards(server, root)
    for uri, doc in list(server.docs.items()):
        if uri not in server.card_roots:
            publish(server, doc, check_deck(server, doc))


def _range(change: types.TextDocumentContentChangeEvent) -> tuple[
    tuple[int, int] | None, tuple[int, int] | None
]:  # fmt: skip
    if isinstance(change, types.TextDocumentContentChangePartial):
        r = change.range
        return (r.start.line, r.start.character), (r.end.line, r.end.character)
    return None, None


def register(server: VarzServer) -> None:
    @server.feature(types.INITIALIZED)
    @guarded
    def initialized(ls: VarzServer, params: types.InitializedParams) -> None:
        watch_card_files(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded
    def changed_on_disk(ls: VarzServer, params: types.DidChangeWatchedFilesParams) -> None:
        files_changed(ls, (change.uri for change in params.changes))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded
    def did_open(ls: VarzServer, params: types.DidOpenTextDocumentParams) -> None:
        refresh(ls, ls.open_document(params.text_document))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded
    def did_change(ls: VarzServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is None:
            return
        for change in params.content_changes:
            start, end = _range(change)
            doc.apply(start, end, change.text, ls.units)
        doc.version = params.text_document.version
        refresh(ls, doc)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    def did_close(ls: VarzServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        root = ls.card_roots.get(uri)
        doc = ls.document(uri)
        ls.close_document(uri)
        if doc is not None:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )
        if root is not None:  # the file on disk counts again
            lint_cards(ls, root)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded
    def did_save(ls: VarzServer, params: types.DidSaveTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is not None and params.text is not None:
            doc.set_text(params.text)
        if doc is not None:
            refresh(ls, doc)


def diagnostics_of(server: VarzServer, uri: str) -> Sequence[Diagnostic]:
    """The checker's diagnostics of a deck's last check (for the quick fixes)."""
    report = server.reports.get(uri)
    return report.diagnostics if report is not None else ()
