"""Quick fixes for a deck's diagnostics (docs/guides/editors.md).

- F005 unknown card: one fix per "did you mean" name, replacing the reference with it.
- F003 a card listed twice in a section: merge the repeat into the first line, which keeps its
  reference and gets the summed count (offered only when the sum is a valid count).

A short section is never "fixed" by a preferred fix: the server offers "Complete this deck"
(completing.py), the deck `varz-deck complete` prints, applied only when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from varz_deck.core.messages.i18n import msg
from varz_deck.lsp.guard import guarded
from varz_deck.lsp.lines import reference_on, valid_count, yaml_key

if TYPE_CHECKING:
    from varz_deck.core.messages.diagnostics import Diagnostic
    from varz_deck.lsp.documents import Document
    from varz_deck.lsp.lines import Ref
    from varz_deck.lsp.server import VarzServer

_REPLACE = msg("lsp", "Replace with {name}")
_MERGE = msg("lsp", "Merge into line {line} ({count} copies)")


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line,
        b.start.character,
    ) <= (a.end.line, a.end.character)


def _span(server: VarzServer, doc: Document, number: int, start: int, end: int) -> types.Range:
    line = doc.line(number)
    return types.Range(
        types.Position(number, server.units.count(line[:start])),
        types.Position(number, server.units.count(line[:end])),
    )


def _ref(server: VarzServer, doc: Document, number: int) -> Ref | None:
    game = server.deck_game(doc.uri)
    return reference_on(doc.line(number), not doc.is_text_list, game.slots)


def _arg(d: Diagnostic, name: str) -> object:
    return dict(d.args).get(name)


def did_you_mean(
    server: VarzServer, doc: Document, d: Diagnostic, shown: types.Diagnostic
) -> list[types.CodeAction]:
    names = _arg(d, "names")
    items = getattr(names, "items", None)
    if not items:
        return []
    number = shown.range.start.line
    ref = _ref(server, doc, number)
    if ref is None:
        return []
    keyed = not doc.is_text_list and ref.slot is None and ref.count is not None
    line = doc.line(number)
    quoted = ref.start > 0 and line[ref.start - 1] in "\"'"  # inside quotes already
    fixes = []
    for i, item in enumerate(items):
        name = str(getattr(item, "text", item))
        plain_scalar = (keyed or ref.slot is not None) and not doc.is_text_list and not quoted
        written = yaml_key(name) if plain_scalar else name
        edit = types.TextEdit(_span(server, doc, number, ref.start, ref.end), written)
        fixes.append(
            types.CodeAction(
                title=_REPLACE(name=name).render(server.lang),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[shown],
                is_preferred=i == 0,
                edit=types.WorkspaceEdit(changes={doc.uri: [edit]}),
            )
        )
    return fixes


def merge_repeat(
    server: VarzServer, doc: Document, d: Diagnostic, shown: types.Diagnostic
) -> list[types.CodeAction]:
    first_line = _arg(d, "line")
    if not d.section or not isinstance(first_line, int) or first_line < 1:
        return []
    repeat_number = shown.range.start.line
    first_number, _ = doc.position(doc.checker_offset(first_line, 1), server.units)
    if first_number == repeat_number:
        return []
    first, repeat = _ref(server, doc, first_number), _ref(server, doc, repeat_number)
    if first is None or repeat is None or first.count is None or repeat.count is None:
        return []
    total = first.count + repeat.count
    if not valid_count(total):
        return []
    edits = [types.TextEdit(_span(server, doc, first_number, first.count_start, first.count_end),
                            str(total))]  # fmt: skip
    if repeat_number + 1 < doc.line_count:
        gone = types.Range(types.Position(repeat_number, 0), types.Position(repeat_number + 1, 0))
    else:  # the last line: take the line break before it
        above = doc.line(repeat_number - 1)
        gone = types.Range(
            types.Position(repeat_number - 1, server.units.count(above)),
            types.Position(repeat_number, server.units.count(doc.line(repeat_number))),
        )
    edits.append(types.TextEdit(gone, ""))
    title = _MERGE(line=first_number + 1, count=total).render(server.lang)
    return [
        types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[shown],
            is_preferred=True,
            edit=types.WorkspaceEdit(changes={doc.uri: edits}),
        )
    ]


def code_actions(server: VarzServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from varz_deck.lsp.diagnostics import diagnostics_of, to_lsp

    doc = server.document(params.text_document.uri)
    if doc is None:
        return []
    actions: list[types.CodeAction] = []
    for d in diagnostics_of(server, doc.uri):
        if d.code not in ("F003", "F005"):
            continue
        shown = to_lsp(doc, d, server)
        if not _overlaps(shown.range, params.range):
            continue
        fix = did_you_mean if d.code == "F005" else merge_repeat
        actions.extend(fix(server, doc, d, shown))
    from varz_deck.lsp.completing import complete_action

    return actions + complete_action(server, doc)


def register(server: VarzServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @guarded
    def on_code_action(
        ls: VarzServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        return code_actions(ls, params) or None
