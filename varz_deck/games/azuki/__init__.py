"""Azuki TCG, the second game: cards, deck file (leader, gate, main, ikz), rules A101–A107, sim.

Everything Azuki is in this package; the core reaches it through `varz_deck.games.get_game`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from varz_deck.games.azuki.cards import BUILTIN_FORMATS, AzukiCard, AzukiDatabase

if TYPE_CHECKING:
    from varz_deck.core.cards import CardDatabase, Format
    from varz_deck.core.check import DeckReport
    from varz_deck.core.diagnostics import Diagnostic
    from varz_deck.core.rulebook import Rule
    from varz_deck.core.strictyaml import Document
    from varz_deck.games.azuki.deck import AzukiView


class Azuki:
    """The Azuki TCG."""

    key = "azuki"
    name = "Azuki TCG"
    card_schema = "azuki-card"
    deck_schema = "azuki-deck"
    sections: tuple[str, ...] = ("main", "ikz")
    slots: tuple[str, ...] = ("leader", "gate")

    def builtin_formats(self) -> dict[str, Format]:
        return dict(BUILTIN_FORMATS)

    def make_card(
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> AzukiCard:
        return AzukiCard.from_raw(raw, set_code, file, line)

    def card_from_json(self, data: Mapping[str, Any]) -> AzukiCard:
        return AzukiCard.from_json(data)

    def make_database(self, cards: list[Any], formats: Mapping[str, Format] | None) -> CardDatabase:
        return AzukiDatabase(cards, formats)

    def identity(self, card: Any) -> str:
        return str(card.id)

    def game_fields(self, card: Any) -> dict[str, Any]:
        return dict(card.game_fields())

    def vocabulary(
        self, entries: list[Any], doc: Document, bad_paths: set[Any]
    ) -> Iterator[Diagnostic]:
        return iter(())  # the card schema closes every Azuki vocabulary (elements, types)

    def check_deck(
        self, path: Path, database: CardDatabase, format_key: str | None, shown: str | None
    ) -> DeckReport:
        from varz_deck.core.check import DeckReport
        from varz_deck.core.diagnostics import Diagnostic
        from varz_deck.games.azuki.deck import read_deck, resolve
        from varz_deck.games.azuki.rules import run_rules

        assert isinstance(database, AzukiDatabase)
        deck, problems = read_deck(path, shown)
        fmt = format_key or deck.format or "standard"
        if not deck.readable:
            found = tuple(sorted(problems, key=Diagnostic.sort_key))
            return DeckReport(
                deck.path, deck.name, fmt, None, counts(None), found, game=self.key, lead="leader"
            )
        view, resolved = resolve(deck, database, format_key)
        diagnostics = sorted([*problems, *resolved, *run_rules(view)], key=Diagnostic.sort_key)
        return DeckReport(
            deck.path,
            deck.name,
            fmt,
            view.leader,
            counts(view),
            tuple(diagnostics),
            game=self.key,
            lead="leader",
        )

    def goldfish(
        self,
        path: Path,
        database: CardDatabase,
        *,
        games: int,
        seed: int,
        turns: int,
        on: str,
        mulligan: str,
    ) -> tuple[dict[str, Any], bool]:
        """The `sim --output json` document, and whether the deck file could be read."""
        from varz_deck.games.azuki.sim import build_model, simulate

        model, report = build_model(path, database)
        document = simulate(
            model, games=games, seed=seed, turns=turns, on=on, mulligan=mulligan, legal=report.legal
        )
        return document, model.size > 0

    def rules(self) -> Mapping[str, Rule[AzukiView]]:
        from varz_deck.games.azuki.rules import RULES

        return RULES


def counts(view: Any) -> dict[str, int]:
    """The deck's counts in `check --output json`: main deck and IKZ area sizes."""
    if view is None:
        return {"main": 0, "ikz": 0}
    return {"main": view.size("main"), "ikz": view.size("ikz")}


GAME = Azuki()
