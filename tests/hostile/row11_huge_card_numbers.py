"""Row 11: card numbers far beyond any card (a cost of 10^23), which lint let through and the
simulator overflowed on.

`write(folder, field, value)` copies the bundled VARZ card files into `folder` and sets `field`
of Scorch Shot (VZ01-010, a command in examples/red-kagura-festival.yaml) to `value`; returns
the line of that field. `BOUNDED` lists every bounded number of the VARZ and Azuki card schemas
with its range.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"
CARD = "VZ01-010"

# A valid card of each kind the bounded fields belong to.
SAMPLES = {
    "spil": {"id": "VZ01-001", "name": "X", "type": "spil", "color": "red", "cost": 1, "power": 1},
    "hero": {
        "id": "VZ01-001",
        "name": "X",
        "type": "hero",
        "color": "red",
        "life": 9,
        "power": 1,
        "skill_classes": ["fighter"],
        "evolution_level": 3,
        "memory": 5,
        "v_sync": {"name": "Y", "power": 1},
    },
    "portal": {"id": "VZ01-001", "name": "X", "type": "portal", "color": "red", "shield_life": 1},
    "entity": {
        "id": "AZ-1",
        "name": "X",
        "type": "entity",
        "elements": ["fire"],
        "cost": 1,
        "attack": 1,
        "health": 1,
        "gate_power": 1,
    },
}
# (card schema, sample card, path of the field inside the card, lowest, highest)
BOUNDED = [
    ("card", "spil", ("cost",), 0, 99),
    ("card", "spil", ("power",), 0, 99),
    ("card", "hero", ("life",), 1, 99),
    ("card", "portal", ("shield_life",), 1, 99),
    ("card", "hero", ("evolution_level",), 1, 99),
    ("card", "hero", ("memory",), 0, 99),
    ("card", "hero", ("v_sync", "power"), 0, 99),
    ("azuki-card", "entity", ("cost",), 0, 99),
    ("azuki-card", "entity", ("attack",), 0, 99),
    ("azuki-card", "entity", ("health",), 1, 99),
    ("azuki-card", "entity", ("gate_power",), 0, 99),
]


def write(folder: Path, field: str, value: str) -> int:
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", folder / "sets")
    path = folder / "sets" / "vz01.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {CARD}")
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("- id:")),
        len(lines),
    )
    for i in range(start, end):
        if lines[i].strip().startswith(f"{field}:"):
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines[i] = f"{indent}{field}: {value}\n"
            path.write_text("".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{CARD} has no {field}")
