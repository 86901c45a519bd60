"""Issue 24, row 7: `sim` and `tune` on a deck far over its sections' sizes answer in seconds.

A `.txt` of repeated `99 Ember Imp` lines is F003 (a card listed twice) and tens of thousands of
copies: `tune` ran for minutes, `sim` for minutes and over 1 GiB (Azuki's sim: 19 GB on 4 KB).
Both now refuse a section of more than 4 × its size (120 spells, 36 skills, 32 portals; Azuki 200
main-deck cards, 44 IKZ) with exit 2 and a message that says what to do. `stats` only counts, so it
still answers. Each command runs in a child process with a time limit and an address-space limit,
so a regression fails here instead of taking the machine's memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from varz_deck.core.analysis.capabilities import SimRequest
from varz_deck.core.analysis.tuning import SIZE_FACTOR, DeckTooLarge
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import get_game, open_database
from varz_deck.games.varz.sim.goldfish import load_model

VARZ = get_game("varz")
VARZ_TUNER = VARZ.tuner

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
STT01 = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
MEMORY_LIMIT = 2 << 30  # bytes of address space for the child (NumPy reserves some up front)
TIME_LIMIT = 60  # seconds; each refusal takes about one (the 1 MiB file about two)
IMPS = "99 Ember Imp\n"
HEAD = "Hero: Hibiki Kagura\nSpells:\n"


def _limits() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def varz_deck(*args: str | Path, cwd: Path) -> tuple[int, str, str, float]:
    env = {
        **os.environ,
        "VARZ_DECK_LANG": "en",
        "NO_COLOR": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "varz_deck", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=TIME_LIMIT,
        preexec_fn=_limits if sys.platform != "win32" else None,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - started


def imps(path: Path, size: int, head: str = HEAD) -> Path:
    """A .txt list of `99 Ember Imp` lines, `size` bytes at most."""
    path.write_text(head + IMPS * ((size - len(head)) // len(IMPS)), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["tune"], ["tune", "--mulligan", "auto"], ["sim"]])
def test_4_kb_of_repeated_lines_is_refused_quickly(tmp_path: Path, command: list[str]) -> None:
    deck = imps(tmp_path / "imps.txt", 4096)
    status, out, err, seconds = varz_deck(*command, deck, cwd=tmp_path)
    assert status == 2, err
    assert out == "" and "Traceback" not in err
    # what is wrong (the section, its count, the most) and what to do
    copies = 99 * ((4096 - len(HEAD)) // len(IMPS))  # 312 lines
    assert "spells" in err and f"{copies:,}" in err and "120" in err and "30" in err
    assert "F003" in err and "varz-deck check" in err
    assert seconds < 10


@pytest.mark.parametrize("command", ["sim", "tune"])
def test_1_mib_of_repeated_lines_is_refused_quickly(tmp_path: Path, command: str) -> None:
    deck = imps(tmp_path / "imps.txt", 1 << 20)
    assert deck.stat().st_size <= 1 << 20  # under the file-size limit: it is read
    status, _, err, seconds = varz_deck(command, deck, cwd=tmp_path)
    assert status == 2, err
    copies = 99 * (((1 << 20) - len(HEAD)) // len(IMPS))
    assert f"{copies:,}" in err and "Traceback" not in err
    assert seconds < 10


def test_stats_still_counts_a_huge_deck(tmp_path: Path) -> None:
    deck = imps(tmp_path / "imps.txt", 4096)
    status, out, err, seconds = varz_deck("stats", deck, cwd=tmp_path)
    assert status == 0, err
    assert str(99 * ((4096 - len(HEAD)) // len(IMPS))) in out and seconds < 10


def test_sim_vs_a_huge_deck_is_refused(tmp_path: Path) -> None:
    deck = imps(tmp_path / "imps.txt", 4096)
    status, _, err, _ = varz_deck("sim", KAGURA, "--vs", deck, cwd=tmp_path)
    assert status == 2 and f"{99 * ((4096 - len(HEAD)) // len(IMPS)):,}" in err


@pytest.mark.parametrize("command", ["sim", "tune"])
def test_azuki_huge_main_deck_is_refused(tmp_path: Path, command: str) -> None:
    """Before: `sim --game azuki` on 4 KB took over 100 s and 19 GB; on 1 MiB, MemoryError."""
    head = "Leader: STT01-001\nGate: Surge Gate\nMain Deck:\n"
    deck = tmp_path / "az.txt"
    line = "99 Crate Rat Kurobo\n"
    deck.write_text(head + line * ((4096 - len(head)) // len(line)), encoding="utf-8")
    status, out, err, seconds = varz_deck(command, "--game", "azuki", deck, cwd=tmp_path)
    assert status == 2, err
    assert out == "" and "main" in err and "200" in err and "Traceback" not in err
    assert seconds < 10


def _kagura_with(tmp_path: Path, cards: int, section: str = "spells") -> Path:
    """examples/red-kagura-festival.yaml as a .txt list whose `section` has `cards` cards: the
    extra copies (of Ember Imp or Crimson VAZ) on lines of their own (F003, still counted)."""
    deck = yaml.safe_load(KAGURA.read_text(encoding="utf-8"))
    extra = {"spells": ("Ember Imp", cards - 30), "skills": ("Crimson VAZ", cards - 9)}[section]
    lines = [f"Hero: {deck['hero']}"]
    for name in ("spells", "skills", "portals"):
        lines.append(f"{name.capitalize()}:")
        lines += [f"{n} {card}" for card, n in deck[name].items()]
        if name == section:
            left = extra[1]
            while left > 0:
                lines.append(f"{min(left, 99)} {extra[0]}")
                left -= min(left, 99)
    path = tmp_path / f"{section}-{cards}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("section", "size"), [("spells", 30), ("skills", 9), ("portals", 8)])
def test_the_bound_is_four_times_the_section(tmp_path: Path, section: str, size: int) -> None:
    db = open_database(ROOT / "card_data" / "varz")
    most = SIZE_FACTOR * size
    assert SIZE_FACTOR == 4
    if section == "portals":
        text = KAGURA.read_text(encoding="utf-8")
        at_most, over = tmp_path / "p32.yaml", tmp_path / "p33.yaml"
        at_most.write_text(text.replace("Crimson Gate: 4", "Crimson Gate: 28"), "utf-8")
        over.write_text(text.replace("Crimson Gate: 4", "Crimson Gate: 29"), "utf-8")
    else:
        at_most, over = (
            _kagura_with(tmp_path, most, section),
            _kagura_with(tmp_path, most + 1, section),
        )
    model, _, _ = load_model(VARZ, src(at_most), db, date=on_date())
    if section != "portals":
        assert (model.n_spells if section == "spells" else model.n_skills) == most
    VARZ_TUNER.tune(src(at_most), db, target=0.9, on="play", mulligan="auto", date=on_date())
    with pytest.raises(DeckTooLarge) as caught:
        load_model(VARZ, src(over), db, date=on_date())
    assert caught.value.message is not None
    text = caught.value.message.render()
    assert f"{most + 1}" in text and f"{most}" in text and str(size) in text
    with pytest.raises(DeckTooLarge):
        VARZ_TUNER.tune(src(over), db, target=0.9, on="play", mulligan="none", date=on_date())
    assert (
        VARZ_TUNER.stats(src(over), db, date=on_date()) is not None
    )  # stats only counts: it still answers


def test_the_azuki_bound(tmp_path: Path) -> None:
    from varz_deck.games import get_game

    game = get_game("azuki")
    GOLDFISH, TUNER = game.goldfish, game.tuner
    assert GOLDFISH is not None and TUNER is not None

    db = open_database(ROOT / "card_data" / "azuki")
    text = STT01.read_text(encoding="utf-8")
    for extra, refused in ((150, False), (151, True)):
        deck = tmp_path / f"az{extra}.txt"
        main = "".join(f"{n} {card}\n" for card, n in yaml.safe_load(text)["main"].items())
        main += "".join(
            "50 Lightning Orb\n" for _ in range(extra // 50)
        ) + f"{extra % 50} Lightning Orb\n" * (extra % 50 > 0)
        deck.write_text(f"Leader: STT01-001\nGate: Surge Gate\nMain Deck:\n{main}", "utf-8")
        request = SimRequest(src(deck), 1000, 1, 8, "play", "auto", date=on_date())
        if refused:
            with pytest.raises(DeckTooLarge, match="201"):
                TUNER.tune(src(deck), db, target=0.9, on="play", mulligan="none", date=on_date())
            with pytest.raises(DeckTooLarge, match="201"):
                GOLDFISH.simulate(request, db)
        else:
            TUNER.tune(src(deck), db, target=0.9, on="play", mulligan="none", date=on_date())
            GOLDFISH.simulate(request, db)
