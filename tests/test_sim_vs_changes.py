"""`sim A --vs B` lists every difference (issue 12, item 4): hero, spells, skills, portals and the
format for VARZ; leader, gate, main and IKZ decks and the format for Azuki. Before, a B differing
only in skills printed "Changes: none"."""

from __future__ import annotations

from pathlib import Path

import pytest

from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPLASH = ROOT / "examples" / "yellow-amane-red-splash.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    assert exited.value.code == 0, err
    return out


def changes_block(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Changes"))
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        block.append(line.strip())
    return block


def test_a_deck_differing_only_in_skills_lists_the_skill_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    text = SPLASH.read_text(encoding="utf-8")
    other = tmp_path / "b.yaml"
    other.write_text(
        text.replace("  Amber VAZ: 3\n", "  Amber VAZ: 4\n").replace("  Holy Ward: 1\n", ""),
        encoding="utf-8",
    )
    out = run(["sim", str(SPLASH), "--vs", str(other), "-n", "500", "--lang", "en"], capsys)
    assert "Changes: none" not in out
    assert changes_block(out) == ["Changes (vs − deck):", "skills: +1 Amber VAZ, -1 Holy Ward"]


def test_hero_format_spells_and_portals_are_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    text = SPLASH.read_text(encoding="utf-8")
    other = tmp_path / "b.yaml"
    changed = (
        text.replace("format: standard", "format: pioneer")
        .replace("hero: Kohaku Amane", "hero: Hibiki Kagura")
        .replace("  Halo Drone: 2\n", "  Halo Drone: 1\n")
        .replace("  Basic Gate (1): 1\n", "")
    )
    other.write_text(changed, encoding="utf-8")
    out = run(["sim", str(SPLASH), "--vs", str(other), "-n", "500", "--lang", "en"], capsys)
    assert changes_block(out) == [
        "Changes (vs − deck):",
        "format: standard → pioneer",
        "hero: Kohaku Amane → Hibiki Kagura",
        "spells: -1 Halo Drone",
        "portals: -1 Basic Gate (1)",
    ]


def test_the_same_deck_has_no_changes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    out = run(["sim", str(SPLASH), "--vs", str(SPLASH), "-n", "500", "--lang", "en"], capsys)
    assert "Changes: none" in out


def test_azuki_lists_leader_gate_main_and_ikz_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    other_gate = (ROOT / "examples" / "azuki" / "stt02-shao-water.yaml").read_text(encoding="utf-8")
    gate = next(line for line in other_gate.splitlines() if line.startswith("gate:"))
    text = RAIZAN.read_text(encoding="utf-8")
    other = tmp_path / "b.yaml"
    other.write_text(
        text.replace("gate: Surge Gate", gate)
        .replace("  IKZ Token: 1\n", "")
        .replace("  IKZ: 10\n", "  IKZ: 11\n")
        .replace("  Indra: 3\n", "  Indra: 2\n")
        .replace("  Ikazhuchi: 2\n", "  Ikazhuchi: 3\n"),
        encoding="utf-8",
    )
    args = ["sim", "--game", "azuki", str(RAIZAN), "--vs", str(other), "--mulligan", "none"]
    out = run([*args, "--lang", "en"], capsys)
    gate_name = gate.split(":", 1)[1].split("#")[0].strip()
    assert changes_block(out) == [
        "Changes (vs − deck):",
        f"gate: Surge Gate → {gate_name}",
        "main deck: +1 Ikazhuchi, -1 Indra",
        "IKZ deck: +1 IKZ, -1 IKZ Token",
    ]
