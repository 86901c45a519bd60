"""Row 3: card names carrying terminal escapes, C1 controls and bidi controls.

`write(folder)` writes a VARZ card database whose card names carry them, and a legal-looking
deck that lists those cards; returns (database folder, deck path). The names are written with
YAML double-quoted escapes, so this file holds no raw control character itself.
"""

from __future__ import annotations

from pathlib import Path

# Every character that must never reach output raw (escaped for YAML double quotes).
HOSTILE = {
    "esc_csi": "\\e[31m",
    "osc": "\\e]8;;http://x\\a",
    "c1_csi": "\\x9b",
    "rlo": "\\u202e",
    "alm": "\\u061c",
    "lrm": "\\u200e",
    "rlm": "\\u200f",
    "lre": "\\u202a",
    "rle": "\\u202b",
    "pdf": "\\u202c",
    "lro": "\\u202d",
    "lri": "\\u2066",
    "rli": "\\u2067",
    "fsi": "\\u2068",
    "pdi": "\\u2069",
}
SPELLS = [("Imp", 1), ("Hound", 2), ("Ogre", 4), ("Ronin", 2), ("Brawler", 3), ("Drake", 5),
          ("Lancer", 3), ("Scout", 1), ("Golem", 6), ("Pixie", 2)]  # fmt: skip
MARKS = list(HOSTILE.values())


def spell_name(i: int, name: str) -> str:
    """The YAML source of the i-th spell's hostile name (two marks around the plain name)."""
    return f"{name} {MARKS[i % len(MARKS)]}x{MARKS[(i + 5) % len(MARKS)]}"


def write(folder: Path) -> tuple[Path, Path]:
    db = folder / "db"
    db.mkdir()
    lines = [
        "cards:",
        '  - {id: T1-001, name: "Aka \\u202e\\u061c\\e[2J", type: hero, color: red, life: 12,'
        " power: 4, skill_classes: [fighter], evolution_level: 6, memory: 4}",
        '  - {id: T1-006, name: "Red \\x9b VAZ", type: skill, skill_class: generic, vaz: true,'
        " color: red}",
        '  - {id: T1-008, name: "Punch \\u2066", type: skill, skill_class: fighter}',
        '  - {id: T1-009, name: "Gate \\u200f", type: portal, shield_life: 2, color: colorless}',
        '  - {id: T1-010, name: "Big Gate", type: portal, shield_life: 3, color: colorless}',
    ]
    for i, (name, cost) in enumerate(SPELLS):
        lines.append(
            f'  - {{id: T1-1{i:02d}, name: "{spell_name(i, name)}", type: spil, color: red,'
            f" cost: {cost}, power: 1}}"
        )
    (db / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = folder / "deck.yaml"
    deck_lines = ['name: "Hostile \\u202e\\u061c\\e[1m"', "hero: T1-001", "spells:"]
    deck_lines += [f"  T1-1{i:02d}: 3" for i in range(len(SPELLS))]
    deck_lines += ["skills:", "  T1-006: 8", "  T1-008: 1", "portals:", "  T1-009: 4",
                   "  T1-010: 4"]  # fmt: skip
    deck.write_text("\n".join(deck_lines) + "\n", encoding="utf-8")
    return db, deck
