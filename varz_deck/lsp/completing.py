"""The "Complete this deck" code action (docs/guides/editors.md): on a deck with a section short
of its size, the edit that makes it the deck `varz-deck complete` prints, the player's lines
kept in place (the cards added go after each section's last line, a count raised in place).
Not offered when a card written would have to go, nor when no legal deck keeps them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from varz_deck.core.messages.i18n import msg
from varz_deck.lsp.lines import reference_on, yaml_key

if TYPE_CHECKING:
    from varz_deck.core.decks.check import DeckReport
    from varz_deck.core.game.complete import Completed
    from varz_deck.lsp.documents import Document
    from varz_deck.lsp.server import VarzServer

COMPLETE = msg("lsp", "Complete this deck ({n} cards added)")


def _short(report: DeckReport) -> bool:
    """Whether a section of the deck holds fewer cards than its game's declaration asks."""
    view = report.view
    declaration = getattr(view, "declaration", None)
    if view is None or declaration is None:
        return False
    for section in declaration.sections:
        want = section.size.exact if section.size.exact is not None else section.size.minimum
        if want is not None and view.counted(section.key) and view.size(section.key) < want:
            return True
    return False


def complete_action(server: VarzServer, doc: Document) -> list[types.CodeAction]:
    """The action, or none (the deck is not short, or cannot be completed as written)."""
    from varz_deck.core.files.source import DeckSource
    from varz_deck.core.game.complete import DeckNotUsable, NoCompletion, complete
    from varz_deck.games import get_game

    report = server.reports.get(doc.uri)
    if report is None or report.view is None or not _short(report):
        return []
    game: Any = get_game(report.game)
    if getattr(game, "completion", None) is None or not hasattr(game, "declaration"):
        return []
    source = DeckSource.from_text(str(doc.path), doc.text)
    try:
        done = complete(
            game, source, report.view.database, server.format, server.day(), game.completion
        )
    except (DeckNotUsable, NoCompletion):
        return []
    if done.dropped:
        return []  # a card written would go: `varz-deck complete` says which, and why
    edits = _edits(server, doc, done)
    if not edits:
        return []
    added = sum(line.added for _section, line in done.added())
    return [
        types.CodeAction(
            title=COMPLETE(n=added).render(server.lang),
            kind=types.CodeActionKind.QuickFix,
            is_preferred=False,  # never applied unasked: it chooses cards
            edit=types.WorkspaceEdit(changes={doc.uri: edits}),
        )
    ]


def _written(doc: Document, name: str, count: int, like: str | None) -> str:
    """One line of a section in the document's own style (that of the line `like`)."""
    if doc.is_text_list:
        return f"{count} {name}"
    indent = "  "
    if like is not None:
        indent = like[: len(like) - len(like.lstrip())] or "  "
        if like.lstrip().startswith("- "):
            return f"{indent}- {count} {name}"
    return f"{indent}{yaml_key(name)}: {count}"


def _edits(server: VarzServer, doc: Document, done: Completed) -> list[types.TextEdit]:
    from varz_deck.core.game.complete import ref_of

    database = done.draft.database
    slots = done.draft.declaration.slot_keys
    edits: list[types.TextEdit] = []
    inserts: dict[tuple[int, int], str] = {}  # insertions by place, in the deck's order
    tail: list[str] = []
    for section in done.draft.declaration.sections:
        lines = done.draft.lines[section.key]
        last: int | None = None
        for line in lines:
            if line.entry is None or line.entry.mark is None:
                continue
            number, _ = doc.position(
                doc.checker_offset(line.entry.mark.line, line.entry.mark.column), server.units
            )
            last = max(last or 0, number)
            if line.added:
                ref = reference_on(doc.line(number), not doc.is_text_list, slots)
                if ref is None or ref.count is None:
                    return []
                text = doc.line(number)
                span = types.Range(
                    types.Position(number, server.units.count(text[: ref.count_start])),
                    types.Position(number, server.units.count(text[: ref.count_end])),
                )
                edits.append(types.TextEdit(span, str(line.count)))
        new = [
            (ref_of(database, line.card), line.count)
            for line in lines
            if line.entry is None and line.count
        ]
        if not new:
            continue
        if last is None:  # the section is not written yet: at the end of the document
            head = section.key.capitalize() + ":" if doc.is_text_list else section.key + ":"
            tail += ["", head] if doc.is_text_list else [head]
            tail += [_written(doc, name, count, None) for name, count in new]
            continue
        like = doc.line(last)
        text = "".join(_written(doc, name, count, like) + "\n" for name, count in new)
        at = types.Position(last + 1, 0)
        if last + 1 >= doc.line_count:  # the last line: after its end, with a line break
            at = types.Position(last, server.units.count(like))
            text = "\n" + text.rstrip("\n")
        inserts[(at.line, at.character)] = inserts.get((at.line, at.character), "") + text
    if tail:
        end_line = doc.line_count - 1
        end = (end_line, server.units.count(doc.line(end_line)))
        lead = "" if doc.line(end_line) == "" else "\n"
        inserts[end] = inserts.get(end, "") + lead + "\n".join(tail) + "\n"
    for (line_number, character), text in inserts.items():  # one edit per place: no order
        at = types.Position(line_number, character)
        edits.append(types.TextEdit(types.Range(at, at), text))
    return edits
