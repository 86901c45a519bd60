"""Card files and formats.yaml against their schemas (C001), and the game formats.yaml names."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from varz_deck.core.files.strictyaml import Document, Path
from varz_deck.core.messages.code import Scope
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Joined, Quoted, msg
from varz_deck.core.messages.rulebook import check_code


def schema_violations(name: str, doc: Document, shown: str) -> tuple[list[Diagnostic], set[Path]]:
    """card file or formats.yaml does not match its schema"""
    # also the paths the diagnostics are about: the other checks skip those
    from varz_deck.core.files.schemaexplain import schema_problems

    return schema_problems(name, doc, shown)


C001 = check_code(
    "C001",
    "card-schema-violation",
    "card data",
    schema_violations,
    scope=Scope.CARDS,
    fix="Fix the field the message names, as the schema says (`varz-deck schema NAME`).",
)


def game_not_installed(doc: Document, shown: str, games: Sequence[str]) -> Iterator[Diagnostic]:
    """C001: formats.yaml's `game:` names no installed game (`games`, their keys)."""
    data = doc.data
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(game, str) or not games or game in games:
        return
    yield diag(
        C001,
        msg("C001", "game is one of the installed games: {games} (got {value})")(
            games=Joined(tuple(games)), value=Quoted(game)
        ),
        doc.mark(("game",)),
        file=shown,
    )
