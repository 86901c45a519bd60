"""core.analysis.analyse, in process: what it asks each capability of the deck's game, on which
day, and what it says when a game lacks one. Expected values are written by hand (the settings
sentence, the parts' keys) or are the arguments the spies record."""

from __future__ import annotations

import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from varz_deck.core.analysis.analyse import NO_SIM, NO_TUNER, analyse
from varz_deck.core.analysis.parts import Omitted
from varz_deck.core.files.source import DeckSource
from varz_deck.games import get_game, open_database
from varz_deck.games.library import bundled_root

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
DAY = datetime.date(2026, 12, 3)


class Spy:
    """A capability that records each call's keyword arguments, then does the real work."""

    def __init__(self, real: Any, options: frozenset[str] | None = None) -> None:
        self.real, self.calls = real, []
        self.options = real.options if options is None else options

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            return getattr(self.real, name)(*args, **kwargs)

        return call


def game_with(key: str, tuner: Any = "real", goldfish: Any = "real") -> Any:
    real = get_game(key)
    return SimpleNamespace(
        key=real.key,
        name=real.name,
        check_deck=real.check_deck,
        tuner=Spy(real.tuner) if tuner == "real" else tuner,
        goldfish=Spy(real.goldfish) if goldfish == "real" else goldfish,
    )


def run(game: Any, deck: Path, **kwargs: Any) -> Any:
    database = open_database(bundled_root(game.key))
    return analyse(game, DeckSource.from_path(deck), database, **kwargs)


def test_every_capability_is_asked_on_the_day_given() -> None:
    game = game_with("varz")
    done = run(game, KAGURA, date=DAY, games=200)
    assert [(name, kw) for name, _, kw in game.tuner.calls] == [
        ("stats", {"date": DAY}),
        ("tune", {"target": 0.9, "on": "play", "mulligan": "auto", "date": DAY}),
    ]
    ((name, (request, _db), _),) = game.goldfish.calls
    assert name == "simulate"
    assert (request.games, request.seed, request.turns, request.on, request.mulligan) == (
        200, 1, 8, "play", "auto"
    )  # fmt: skip
    assert request.date == DAY and request.deck.name == str(KAGURA)
    (settings,) = done.settings
    assert (
        settings.render("en") == "Goldfish: 200 games, seed 1, 8 turns, on the play, mulligan auto."
    )
    assert done.verdict.legal is True and done.verdict.format == "standard"
    assert (done.game, done.game_name, done.date) == ("varz", "VARZ", DAY)


def test_the_answer_holds_every_capabilitys_sentences_in_order() -> None:
    game = game_with("varz")
    done = run(game, KAGURA, date=DAY, games=200, seed=7, on="draw")
    stats = game.tuner.real.stats(
        DeckSource.from_path(KAGURA), open_database(bundled_root("varz")), date=DAY
    )
    first = [m.render("en") for m in stats.answer()]
    said = [m.render("en") for m in done.answer]
    assert first and said[: len(first)] == first and len(said) > len(first) + 1
    assert (
        done.settings[0]
        .render("en")
        .startswith("Goldfish: 200 games, seed 7, 8 turns, on the draw")
    )
    assert [p.key for p in done.parts][: len(stats.parts())] == [p.key for p in stats.parts()]


def test_a_game_without_mulligans_is_tuned_with_none() -> None:
    game = game_with("azuki")
    run(game, RAIZAN, date=DAY, games=200)
    assert [kw.get("mulligan") for name, _, kw in game.tuner.calls if name == "tune"] == ["none"]


def test_the_day_changes_the_verdict() -> None:
    # VZ02 is released on 2025-12-01 (card_data/README.md); Kagura plays VZ02 cards
    early = run(game_with("varz"), KAGURA, date=datetime.date(2025, 7, 1), games=200)
    assert early.verdict.legal is False
    assert "V118" in {d.code for d in early.verdict.diagnostics}


def test_a_game_without_tune_or_sim_says_so_in_their_places() -> None:
    real = get_game("varz").tuner
    stats_only = Spy(real, options=frozenset())
    done = run(game_with("varz", tuner=stats_only, goldfish=None), KAGURA, date=DAY)
    assert [name for name, _, _ in stats_only.calls] == ["stats"]
    omitted = [p for p in done.parts if isinstance(p, Omitted)]
    assert [(p.key, p.title.render("en"), p.reason) for p in omitted][-2:] == [
        ("tune", "On-curve odds", NO_TUNER),
        ("sim", "Goldfish figures", NO_SIM),
    ]
    assert done.settings == ()
    bare = run(game_with("varz", tuner=None, goldfish=None), KAGURA, date=DAY)
    assert [(p.key, p.reason) for p in bare.parts] == [("tune", NO_TUNER), ("sim", NO_SIM)]
    assert bare.answer == () and bare.deck == str(KAGURA)
    for shown in (omitted[-2:], bare.parts):
        assert [p.title.render("ja") for p in shown] == ["カーブターンの確率", "一人回しの数値"]


def test_card_name_takes_the_names_given_else_the_english_name_unquoted() -> None:
    from varz_deck.core.analysis.parts import card_name
    from varz_deck.core.messages.i18n import CardName

    named = CardName("Ember Imp", (("ja", "エンバーインプ"),), quote=False)
    assert card_name({"id": "VZ01-007", "name": "Ember Imp"}, {"VZ01-007": named}) is named
    assert card_name({"id": "VZ01-999", "name": "Nobody"}, {"VZ01-007": named}) == CardName(
        "Nobody", (), False
    )
