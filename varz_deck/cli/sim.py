"""`varz-deck sim`: goldfish statistics for a deck (SPEC §3, §5, §6); the core is varz_deck.games.varz.sim.

`varz_deck.cli` adds the command to the app; the `--lang` option comes from it at the end of this
module, so either module can be imported first.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from varz_deck.core.i18n import N_, Message, msg, nmsg
from varz_deck.games import DEFAULT_GAME

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from varz_deck.core.cards import CardDatabase
    from varz_deck.games.varz.sim import Model

EXIT_UNREADABLE, EXIT_USAGE = 1, 2
PROGRESS_AFTER = 1.0
SIM_HELP = N_(
    "Goldfish a deck: draw odds, VAZ spent per turn, V-Sync turn; exact where a closed form exists."
)


class On(str, Enum):
    play = "play"
    draw = "draw"


class Mulligan(str, Enum):
    none = "none"
    auto = "auto"


class SimOutput(str, Enum):
    text = "text"
    json = "json"


def _fail(message: Message, code: int, lang: str) -> typer.Exit:
    from varz_deck.core.diagnostics import safe

    typer.echo(f"varz-deck: {safe(message.render(lang))}", err=True)
    return typer.Exit(code)


def _database(cards: Path | None, lang: str, game: str | None = None) -> CardDatabase:
    from varz_deck.core.database import DatabaseError, open_database, resolve_root
    from varz_deck.games import game_keys

    if game is not None and game not in game_keys():
        unknown = msg("cli", "unknown game {game}; known: {known}")
        raise _fail(unknown(game=repr(game), known=", ".join(game_keys())), EXIT_USAGE, lang)
    root = resolve_root(cards, game)
    try:
        return open_database(root)
    except DatabaseError as err:
        count = len(err.diagnostics)
        invalid = nmsg(
            "sim",
            "card database {root} is invalid ({n} problem); "
            "run `varz-deck cards lint {root}` to see them",
            "card database {root} is invalid ({n} problems); "
            "run `varz-deck cards lint {root}` to see them",
        )
        raise _fail(invalid(root=str(root), n=count), EXIT_USAGE, lang) from None


def _model(path: Path, database: CardDatabase, lang: str) -> tuple[Model, bool]:
    """The deck's model and whether the deck is legal; exits 1 when it cannot be simulated."""
    from varz_deck.core.diagnostics import safe
    from varz_deck.core.i18n import localized
    from varz_deck.games.varz.check import check_parsed
    from varz_deck.games.varz.deck import read_deck
    from varz_deck.games.varz.sim import ModelError, build_model

    deck, problems = read_deck(path)
    unreadable = [d for d in problems if d.code in ("F001", "F002")]
    if unreadable or not deck.readable:
        for d in unreadable or problems:
            place = f":{d.line}:{d.column}" if d.line else ""
            text = safe(localized(d, lang))
            typer.echo(f"{safe(d.file or path)}{place}: {d.code} {text}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    report = check_parsed(deck, problems, database)
    if report.view is None:
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        model = build_model(report.view)
    except ModelError as err:
        no_hero = msg("sim", "{path}: {problem}; name a Hero card under `hero:`")
        raise _fail(no_hero(path=str(path), problem=err.message), EXIT_UNREADABLE, lang) from None
    if report.errors:
        not_legal = nmsg(
            "sim",
            "{path}: deck is not legal ({n} problem; run varz-deck check); simulating anyway",
            "{path}: deck is not legal ({n} problems; run varz-deck check); simulating anyway",
        )
        warning = msg("sim", "warning: {message}")(
            message=not_legal(path=str(path), n=report.errors)
        )
        typer.echo(warning.render(lang), err=True)
    return model, report.legal


def _other_game(
    deck: Path,
    database: CardDatabase,
    games: int,
    seed: int,
    turns: int,
    on: str,
    mulligan: str,
    output: SimOutput,
    lang: str,
) -> None:
    """`sim` for a game other than VARZ: the game's goldfish document, as JSON or a table."""
    import json
    import sys

    from varz_deck.games import get_game

    document, ok = get_game(database.game).goldfish(
        deck, database, games=games, seed=seed, turns=turns, on=on, mulligan=mulligan
    )
    if not ok:
        empty = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")
        raise _fail(empty(path=str(deck)), EXIT_UNREADABLE, lang)
    if output is SimOutput.json:
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        return
    title = msg("sim", "{path}: P(drawn by turn t), P(castable on turn t); mulligan {mulligan}")
    lines = [title(path=str(deck), mulligan=mulligan).render(lang)]
    heads = "".join(f" {'T' + str(t['turn']):>4}" for t in document["turns"])
    lines.append(f"{'':32} {'':>4} {'':>5}{heads}")
    lines.append(
        f"{'IKZ':32} {'':>4} {'':>5}" + "".join(f" {t['ikz']:>4}" for t in document["turns"])
    )
    for card in document["cards"]:
        drawn = "".join(f" {p:4.0%}" for p in card["p_drawn_by_turn"])
        castable = "".join(f" {p:4.0%}" for p in card["p_castable_by_turn"])
        label = f"{card['copies']}x {card['name']}"[:32]
        lines.append(f"{label:32} {card['cost']:>4} {card['p_in_opening_hand']:5.0%}{drawn}")
        lines.append(f"{'':32} {'':>4} {'':>5}{castable}")
    sys.stdout.write("\n".join(lines) + "\n")


def _stderr_is_terminal() -> bool:
    import sys

    return sys.stderr.isatty()


class _Progress:
    """A progress bar on stderr, shown only once a run has taken more than a second."""

    def __init__(self) -> None:
        import time

        self.label = "simulating"  # the caller puts it in the chosen language
        self._clock = time.monotonic
        self._start = self._clock()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total or self._clock() - self._start < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        if self._task is not None:
            self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def sim(
    deck: Annotated[
        Path, typer.Argument(help=N_("Deck file (.yaml, .yml or .txt)."), show_default=False)
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help=N_("Games to simulate."))
    ] = 100_000,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help=N_("Random seed: same seed, same output."))
    ] = 1,
    turns: Annotated[int, typer.Option("--turns", min=1, max=30, help=N_("Turns per game."))] = 8,
    on: Annotated[On, typer.Option("--on", help=N_("Go first (play) or second (draw)."))] = On.play,
    mulligan: Annotated[
        Mulligan,
        typer.Option(
            "--mulligan", help=N_("auto: send back a hand with no turn-1 play; none: keep all.")
        ),
    ] = Mulligan.auto,
    output: Annotated[
        SimOutput,
        typer.Option("--output", "-o", help=N_("Output format (JSON stays in English).")),
    ] = SimOutput.text,
    vs: Annotated[
        Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.10
        typer.Option(
            "--vs",
            help=N_("Compare with this deck on the same random numbers."),
            show_default=False,
        ),
    ] = None,
    plot: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--plot", help=N_("Also write the charts to FILE.svg or FILE.png."), show_default=False
        ),
    ] = None,
    cards: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--cards",
            help=N_("Card database folder (default: $VARZ_DECK_CARDS, else the bundled database)."),
            show_default=False,
        ),
    ] = None,
    game: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--game",
            help=N_("Without --cards: use the bundled card database of this game (varz, azuki)."),
            show_default=False,
        ),
    ] = None,
    lang: LangOption = None,
    debug: Annotated[bool, typer.Option("--debug", hidden=True, help="Print timings.")] = False,
) -> None:
    """Goldfish a deck: draw odds, VAZ spent per turn, V-Sync turn; exact where a closed form exists.

    JSON output stays in English (it is for programs); the text report follows --lang.
    """
    import os
    import sys
    import time

    chosen = language(lang)
    fmt = plot.suffix.lower().lstrip(".") if plot is not None else None
    if fmt is not None:
        from varz_deck.games.varz.sim.plot import FORMATS

        if fmt not in FORMATS:
            wrong = msg("sim", "--plot {file}: give a file name ending in .svg or .png")
            raise _fail(wrong(file=str(plot)), EXIT_USAGE, chosen)
        if fmt == "png":
            try:
                import matplotlib  # noqa: F401
            except ImportError:
                no_png = msg(
                    "sim",
                    "--plot: PNG needs matplotlib (pip install 'varz-deck[plot]'); or write an .svg",
                )
                raise _fail(no_png, EXIT_USAGE, chosen) from None
    database = _database(cards, chosen, game)
    if database.game != DEFAULT_GAME:
        _other_game(deck, database, games, seed, turns, on.value, mulligan.value, output, chosen)
        return
    model, legal = _model(deck, database, chosen)
    other = _model(vs, database, chosen) if vs is not None else None

    from varz_deck.games.varz import sim as core

    options = core.Options(
        games=games, seed=seed, turns=turns, on=on.value, mulligan=mulligan.value
    )
    progress = _Progress() if output is SimOutput.text and _stderr_is_terminal() else None
    if progress is not None:
        progress.label = msg("sim", "simulating").render(chosen)
    started = time.perf_counter()
    try:
        if other is None:
            result = core.simulate(model, options, progress)
            results = [result]
        else:
            comparison = core.compare(model, other[0], options, progress)
            results = [comparison.a, comparison.b]
    finally:
        if progress is not None:
            progress.close()
    elapsed = time.perf_counter() - started
    if debug:
        typer.echo(f"debug: {games * len(results):,} games in {elapsed:.2f} s", err=True)
    if output is SimOutput.json:
        document = (
            core.to_json(result, legal)
            if other is None
            else core.compare_to_json(comparison, (legal, other[1]))
        )
        sys.stdout.write(core.dumps(document))
    else:
        color = (
            sys.stdout.isatty()
            and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb"
        )
        width = os.get_terminal_size().columns if sys.stdout.isatty() else 100
        text = (
            core.render_text(result, color=color, width=width, lang=chosen)
            if other is None
            else core.render_compare_text(comparison, color=color, width=width, lang=chosen)
        )
        sys.stdout.write(text)
    if plot is not None and fmt is not None:
        from varz_deck.games.varz.sim.plot import PlotError
        from varz_deck.games.varz.sim.plot import plot as draw

        try:
            plot.write_bytes(draw(results, fmt, chosen))
        except PlotError as err:
            raise _fail(err.message, EXIT_USAGE, chosen) from None
        except OSError as err:
            cannot = msg("sim", "cannot write {file}: {error}")
            raise _fail(
                cannot(file=str(plot), error=err.strerror or str(err)), EXIT_USAGE, chosen
            ) from None


# Last, so that `varz_deck.cli` (which adds `sim` to the app) can be imported before or after this
# module: the option's type is read when the command line is built, not when this module loads.
from varz_deck.cli import LangOption, language  # noqa: E402
