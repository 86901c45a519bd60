"""`varz-deck sim` as a user sees it: exit codes, outputs, plots (issue 4, SPEC §3, §5)."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import varz_deck.cli.sim
from varz_deck.cli.sim import sim

app = typer.Typer()


@app.callback()
def _root() -> None:
    """A test app with `sim` as its one subcommand."""


app.command("sim")(sim)

SPELLS = [("Imp", 1), ("Hound", 2), ("Ogre", 4), ("Ronin", 2), ("Brawler", 3), ("Drake", 5),
          ("Lancer", 3), ("Scout", 1), ("Golem", 6)]  # fmt: skip
CARDS = (
    "cards:\n"
    "  - {id: T1-001, name: Aka, type: hero, color: red, life: 12, power: 4,"
    " skill_classes: [fighter], evolution_level: 6, memory: 4}\n"
    "  - {id: T1-005, name: Wave, type: command, color: blue, cost: 2}\n"
    "  - {id: T1-006, name: Red VAZ, type: skill, skill_class: generic, vaz: true, color: red}\n"
    "  - {id: T1-007, name: Blue VAZ, type: skill, skill_class: generic, vaz: true, color: blue}\n"
    "  - {id: T1-008, name: Punch, type: skill, skill_class: fighter}\n"
    "  - {id: T1-009, name: Gate, type: portal, shield_life: 2, color: colorless}\n"
    "  - {id: T1-010, name: Big Gate, type: portal, shield_life: 3, color: colorless}\n"
    + "".join(
        f"  - {{id: T1-1{i:02d}, name: {name}, type: spil, color: red, cost: {cost}, power: 1}}\n"
        for i, (name, cost) in enumerate(SPELLS)
    )
)
DECK = (
    "name: Test Burn\nhero: Aka\nspells:\n  Imp: {imp}\n  Wave: 3\n"
    + "".join(f"  {name}: 3\n" for name, _ in SPELLS[1:])
    + "skills:\n  Red VAZ: 5\n  Blue VAZ: 3\n  Punch: 1\nportals:\n  Gate: 4\n  Big Gate: 4\n"
)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    folder.mkdir()
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def deck(tmp_path: Path, imp: int = 3, name: str = "deck.yaml") -> Path:
    path = tmp_path / name
    path.write_text(DECK.format(imp=imp), encoding="utf-8")
    return path


def run(runner: CliRunner, *args: str | Path) -> object:
    return runner.invoke(app, ["sim", *map(str, args)])


def test_json_output_same_seed_same_bytes(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    path = deck(tmp_path)
    args = (path, "--cards", db, "--games", "3000", "--seed", "7", "-o", "json")
    first, second = run(runner, *args), run(runner, *args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert doc["deck"] == str(path) and doc["games"] == 3000 and doc["seed"] == 7
    assert doc["on"] == "play" and doc["mulligan"] == "auto" and len(doc["turns"]) == 8
    assert doc["v_sync_turn"] == 3 and doc["legal"] is True
    other = run(runner, path, "--cards", db, "--games", "3000", "--seed", "8", "-o", "json")
    assert other.stdout != first.stdout


def test_text_output_shows_intervals_and_charts(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    result = run(
        runner, deck(tmp_path), "--cards", db, "-n", "2000", "--on", "draw", "--turns", "5"
    )
    assert result.exit_code == 0, result.output
    assert "±" in result.stdout and "Cost curve by colour" in result.stdout
    assert "on the draw" in result.stdout and "\x1b[" not in result.stdout
    assert result.stderr == ""


def test_illegal_deck_is_simulated_with_a_warning(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    result = run(runner, deck(tmp_path, imp=1), "--cards", db, "-n", "500", "-o", "json")
    assert result.exit_code == 0
    assert (
        "warning:" in result.stderr
        and "not legal" in result.stderr
        and "varz-deck check" in result.stderr
    )
    doc = json.loads(result.stdout)
    assert doc["legal"] is False and doc["spells"] == 28


@pytest.mark.parametrize(
    "content",
    ["hero: [unclosed\n", ""],
    ids=["yaml syntax error", "empty file"],
)
def test_unreadable_deck_exits_1(runner: CliRunner, db: Path, tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    result = run(runner, path, "--cards", db)
    assert result.exit_code == 1
    assert "bad.yaml" in result.stderr and result.stdout == ""


def test_missing_deck_and_missing_hero_exit_1(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    result = run(runner, tmp_path / "nope.yaml", "--cards", db)
    assert result.exit_code == 1 and "F001" in result.stderr
    path = tmp_path / "nohero.yaml"
    path.write_text("spells:\n  Imp: 3\n", encoding="utf-8")
    result = run(runner, path, "--cards", db)
    assert result.exit_code == 1 and "hero" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "0"],
        ["--turns", "31"],
        ["--on", "sideways"],
        ["--mulligan", "sometimes"],
        ["--output", "yaml"],
        ["--seed", "-1"],
        ["--plot", "chart.gif"],
    ],
)
def test_bad_options_exit_2(runner: CliRunner, db: Path, tmp_path: Path, args: list[str]) -> None:
    result = run(runner, deck(tmp_path), "--cards", db, *args)
    assert result.exit_code == 2, result.output


def test_invalid_database_exits_2_and_names_cards_lint(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad-db"
    bad.mkdir()
    (bad / "cards.yaml").write_text(
        "cards:\n  - {id: X-1, name: Broken, type: wizard}\n", encoding="utf-8"
    )
    result = run(runner, deck(tmp_path), "--cards", bad)
    assert result.exit_code == 2
    assert "varz-deck cards lint" in result.stderr


def test_vs_identical_decks_differ_by_zero(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    a, b = deck(tmp_path, name="a.yaml"), deck(tmp_path, name="b.yaml")
    result = run(runner, a, "--vs", b, "--cards", db, "-n", "3000", "-o", "json")
    assert result.exit_code == 0, result.output
    diff = json.loads(result.stdout)["difference"]
    assert diff["curve_score"] == 0 and diff["curve_score_se"] == 0
    assert all(t["mean_vaz_spent"] == 0 and t["mean_vaz_spent_se"] == 0 for t in diff["turns"])
    text = run(runner, a, "--vs", b, "--cards", db, "-n", "3000")
    assert text.exit_code == 0 and "Changes: none" in text.stdout


def test_svg_plot_is_valid(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    out = tmp_path / "chart.svg"
    result = run(runner, deck(tmp_path), "--cards", db, "-n", "1000", "--plot", out)
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any(t and "Cost curve" in t for t in texts)
    assert len(list(root.iter("{http://www.w3.org/2000/svg}rect"))) > 10


def test_png_plot_is_valid(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "chart.png"
    result = run(
        runner,
        deck(tmp_path),
        "--cards",
        db,
        "-n",
        "1000",
        "--plot",
        out,
        "--vs",
        deck(tmp_path, 2, "b.yaml"),
    )
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (900, 960)
    from matplotlib.image import imread

    assert imread(out).shape[:2] == (960, 900)


def test_no_progress_bar_for_json_or_a_pipe(
    runner: CliRunner, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []  # the labels of the bars made (a cold card database has its own)

    class Recorder:
        def __init__(self, label: str = "") -> None:
            made.append(label)

        def __call__(self, done: int, total: int) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(varz_deck.cli.common, "ProgressBar", Recorder)
    monkeypatch.setattr(varz_deck.cli.common, "stderr_is_terminal", lambda: True)
    result = run(runner, deck(tmp_path), "--cards", db, "-n", "500", "-o", "json")
    assert result.exit_code == 0 and not made
    json.loads(result.stdout)
    result = run(runner, deck(tmp_path), "--cards", db, "-n", "500")
    assert result.exit_code == 0 and made.count("simulating") == 1
    monkeypatch.setattr(varz_deck.cli.common, "stderr_is_terminal", lambda: False)
    result = run(runner, deck(tmp_path), "--cards", db, "-n", "500")
    assert result.exit_code == 0 and made.count("simulating") == 1


def test_progress_bar_waits_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    progress = varz_deck.cli.common.ProgressBar()
    progress(10, 100)
    assert progress._bar is None
    clock = progress._clock
    monkeypatch.setattr(progress, "_clock", lambda: clock() + 5)
    progress(20, 100)
    assert progress._bar is not None
    progress(100, 100)
    progress.close()


def _said(capsys: pytest.CaptureFixture[str], call: object, *args: object) -> tuple[int, str]:
    """(exit status, stderr) of a command-line helper that must exit."""
    with pytest.raises(typer.Exit) as done:
        call(*args)  # type: ignore[operator]
    return done.value.exit_code, capsys.readouterr().err


def test_the_plot_format_is_the_suffix_and_a_wrong_one_is_said_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from varz_deck.cli.common import plot_format

    assert plot_format(None, "en") is None
    assert plot_format(Path("Chart.SVG"), "en") == "svg"
    assert _said(capsys, plot_format, Path("chart.gif"), "ja") == (
        2,
        "varz-deck: --plot chart.gif：末尾が .svg か .png のファイル名を指定してください\n",
    )


def test_a_png_plot_without_matplotlib_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from varz_deck.cli.common import plot_format

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    assert _said(capsys, plot_format, Path("chart.png"), "en") == (
        2,
        "varz-deck: --plot: PNG needs matplotlib (pip install matplotlib); or write an .svg\n",
    )
    assert _said(capsys, plot_format, Path("chart.png"), "ja") == (
        2,
        "varz-deck: --plot：PNG には matplotlib が必要です（pip install matplotlib）。"
        "または .svg に書き出してください\n",
    )


def test_a_plot_that_cannot_be_drawn_or_written_is_said_in_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import errno

    import varz_deck.core.files.output
    from varz_deck.cli.common import write_plot
    from varz_deck.core.analysis.plot import PlotError
    from varz_deck.core.messages.i18n import msg

    def no_charts() -> str:
        raise PlotError(msg("tune", "this game has no charts"))

    plot = tmp_path / "chart.svg"
    assert _said(capsys, write_plot, plot, no_charts, "en") == (
        2,
        "varz-deck: this game has no charts\n",
    )
    assert _said(capsys, write_plot, plot, no_charts, "ja") == (
        2,
        "varz-deck: このゲームにはグラフがありません\n",
    )

    def full(path: Path, data: str | bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(varz_deck.core.files.output, "write_file_atomic", full)
    assert _said(capsys, write_plot, plot, lambda: "<svg/>", "en") == (
        2,
        f"varz-deck: cannot write {plot}: No space left on device\n",
    )
    assert _said(capsys, write_plot, plot, lambda: "<svg/>", "ja") == (
        2,
        f"varz-deck: {plot} に書き出せません：No space left on device\n",
    )

    def gone(path: Path, data: str | bytes) -> None:
        raise OSError("the disk went away")  # no errno, no strerror: the text is said

    monkeypatch.setattr(varz_deck.core.files.output, "write_file_atomic", gone)
    assert _said(capsys, write_plot, plot, lambda: "<svg/>", "en") == (
        2,
        f"varz-deck: cannot write {plot}: the disk went away\n",
    )
    assert not plot.exists()
