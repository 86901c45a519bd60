"""The language server knows no game (issue 25): it asks the `Game` object for a deck's words,
the slot or section of a card, a card's colours and the game's bundled database, and its modules
import one another without a cycle, type-only imports included."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import grimp
import pytest

from varz_deck.lsp import completion
from varz_deck.lsp.library import Library

LSP = Path(__file__).resolve().parent.parent / "varz_deck" / "lsp"

# --------------------------------------------------------------------------- the package's shape


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        "varz_deck", include_external_packages=False, exclude_type_checking_imports=False
    )


def test_no_import_cycle_in_the_lsp_type_only_imports_included(graph: grimp.ImportGraph) -> None:
    cycles = []
    for module in sorted(m for m in graph.modules if m.startswith("varz_deck.lsp")):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycles.append(" -> ".join((module, *back)))
    assert cycles == []


def test_the_cycle_probe_sees_type_only_imports(graph: grimp.ImportGraph) -> None:
    # completion names the server class only under TYPE_CHECKING
    source = (LSP / "completion.py").read_text(encoding="utf-8")
    assert "if TYPE_CHECKING:\n" in source
    assert "from varz_deck.lsp.server import VarzServer" in source.split("if TYPE_CHECKING:\n")[1]
    assert graph.direct_import_exists(
        importer="varz_deck.lsp.completion", imported="varz_deck.lsp.server"
    )


_GAME_WORDS = re.compile(
    r"\b(varz|azuki|hero(es)?|leaders?|gates?|portals?|ikz|elements)\b", re.IGNORECASE
)


@pytest.mark.parametrize("path", sorted(LSP.glob("*.py")), ids=lambda p: p.name)
def test_the_lsp_names_no_game(path: Path) -> None:
    """No game's key, words or modules in the code, docstrings or comments of varz_deck/lsp."""
    text = path.read_text(encoding="utf-8").replace("varz-deck", "")
    assert _GAME_WORDS.findall(text) == []
    assert re.findall(r"\.key\s*[!=]=|importlib|GAME_MODULES|games\.\w+\.", text) == []


# --------------------------------------------------------------------------- a game of its own


class Toy:
    """A game the language server has never heard of."""

    key = "toy"
    sections = ("deck", "reserve")
    slots = ("captain",)
    list_words = SimpleNamespace(sections={"main deck": "deck", "side": "reserve"})

    def section_of(self, card: Any) -> str | None:
        return {"boss": "captain", "extra": "reserve"}.get(card.type, "deck")

    def colours_of(self, card: Any) -> tuple[str, ...]:
        return tuple(card.suits)


def card(type_: str, suits: tuple[str, ...] = (), cost: int | None = None) -> Any:
    return SimpleNamespace(id="T-1", type=type_, suits=suits, cost=cost, color="red")


def test_header_words_are_the_game_s_sections_slots_and_list_words() -> None:
    assert completion.section_words(Toy()) == {  # type: ignore[arg-type]
        "deck": "deck",
        "reserve": "reserve",
        "captain": "captain",
        "main deck": "deck",
        "side": "reserve",
    }


def test_a_place_takes_the_cards_the_game_puts_there() -> None:
    game: Any = Toy()
    assert completion.fits(game, None) is None
    in_captain = completion.fits(game, "captain")
    assert in_captain(card("boss")) is True
    assert in_captain(card("minion")) is False
    in_reserve = completion.fits(game, "reserve")
    assert [in_reserve(card(t)) for t in ("extra", "boss", "minion")] == [True, False, False]


def test_the_detail_shows_the_colours_the_game_gives() -> None:
    game: Any = Toy()
    assert (
        completion.detail(game, card("boss", ("cups", "coins"), 2))
        == "T-1 · boss · cost 2 · cups/coins"
    )
    assert completion.detail(game, card("minion")) == "T-1 · minion"


def test_a_game_s_bundled_database_is_its_card_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a named database a deck of another game is checked against that game's own
    bundled database, wherever the game keeps it."""
    import varz_deck.games

    own = tmp_path / "somewhere" / "toy-cards"
    default = tmp_path / "default-cards"
    games = {"toy": SimpleNamespace(card_data=own), None: SimpleNamespace(card_data=default)}
    opened: list[Path] = []

    def open_database(root: Path) -> Any:
        opened.append(root)
        return SimpleNamespace(game="toy" if root == own.resolve() else "other")

    monkeypatch.setattr(varz_deck.games, "get_game", lambda key=None: games[key])
    monkeypatch.setattr(varz_deck.games, "open_database", open_database)
    library = Library(None)
    assert library.primary_root() == default.resolve()
    assert library.of_game("toy").root == own.resolve()
    assert library.bundled("toy").game == "toy"
    assert opened == [default.resolve(), own.resolve()]
