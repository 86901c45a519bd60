"""`varz-deck stats` (SPEC §11, issue 14): the figures recounted from the deck file and the card
files directly, the JSON shape, exit codes and 80 columns in English and Japanese."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.cells import cell_len
from typer.testing import CliRunner

from varz_deck.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
AZUKI = sorted((ROOT / "examples" / "azuki").glob("*.yaml"))
runner = CliRunner()


def _cards() -> dict[str, dict[str, Any]]:
    """Every VARZ card of the bundled card files by id and by name (any language), read with
    PyYAML."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted((ROOT / "card_data" / "varz" / "sets").glob("*.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            out[card["id"]] = card
            for name in (card["name"], *(card.get("names") or {}).values()):
                out.setdefault(name.lower(), card)
    return out


def _entries(section: Any) -> list[tuple[str, int]]:
    if isinstance(section, dict):
        return [(str(k), int(v)) for k, v in section.items()]
    out = []
    for line in section or []:
        count, name = str(line).split(" ", 1)
        out.append((name, int(count.rstrip("x"))))
    return out


@pytest.mark.parametrize(
    "deck", [p for p in EXAMPLES if p.name != "illegal.yaml"], ids=lambda p: p.stem
)
def test_stats_recounted_from_the_files(deck: Path) -> None:
    cards = _cards()
    raw = yaml.safe_load(deck.read_text(encoding="utf-8"))

    def card(ref: str) -> dict[str, Any]:
        return cards.get(ref) or cards[ref.lower()]

    by_type: dict[str, int] = {"spil": 0, "command": 0, "slash": 0}
    curve: dict[int, dict[str, int]] = {}
    for ref, n in _entries(raw["spells"]):
        c = card(ref)
        by_type[c["type"]] += n
        curve.setdefault(c["cost"], {}).setdefault(c["color"], 0)
        curve[c["cost"]][c["color"]] += n
    vaz: dict[str, int] = {}
    used = 0
    for ref, n in _entries(raw["skills"]):
        c = card(ref)
        if c.get("vaz"):
            vaz[c["color"]] = vaz.get(c["color"], 0) + n
        else:
            used += n
    life = sum(card(ref)["shield_life"] * n for ref, n in _entries(raw.get("portals") or {}))
    hero = card(raw["hero"])

    result = runner.invoke(app, ["stats", str(deck), "--output", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["version"] == 1 and doc["deck"] == str(deck)
    assert doc["counts"]["by_type"] == by_type
    assert doc["counts"]["spells"] == sum(by_type.values()) == 30
    assert {e["cost"]: e["by_color"] for e in doc["curve"]} == curve
    assert doc["vaz"] == vaz
    assert doc["memory"] == {"used": used, "max": hero["memory"]}
    assert doc["shield_life"] == life
    assert doc["hero"]["id"] == hero["id"]
    assert doc["off_class"] == []


@pytest.mark.parametrize("deck", [*EXAMPLES, *AZUKI], ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_stats_text_fits_80_columns(deck: Path, lang: str) -> None:
    result = runner.invoke(app, ["stats", str(deck), "--lang", lang])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert any("│" in line for line in lines)  # the cost curve chart


def test_azuki_stats_counts_the_main_deck() -> None:
    deck = AZUKI[0]
    raw = yaml.safe_load(deck.read_text(encoding="utf-8"))
    doc = json.loads(runner.invoke(app, ["stats", str(deck), "-o", "json"]).stdout)
    assert doc["counts"]["main"] == sum(raw["main"].values())
    assert doc["counts"]["ikz"] == sum(raw["ikz"].values())
    assert sum(e["copies"] for e in doc["curve"]) == doc["counts"]["main"]


def test_stats_exit_codes(tmp_path: Path) -> None:
    assert runner.invoke(app, ["stats", "missing.yaml"]).exit_code == 1
    broken = tmp_path / "broken.yaml"
    broken.write_text("hero: [unclosed\n", encoding="utf-8")
    assert runner.invoke(app, ["stats", str(broken)]).exit_code == 1
    assert runner.invoke(app, ["stats", str(EXAMPLES[0]), "--output", "xml"]).exit_code == 2
    target = tmp_path / "curve.svg"
    assert runner.invoke(app, ["stats", str(EXAMPLES[0]), "--plot", str(target)]).exit_code == 0
    assert "<svg" in target.read_text(encoding="utf-8")
