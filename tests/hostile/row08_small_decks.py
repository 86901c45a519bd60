"""Row 8: drafts smaller than a hand and a mulligan need (VARZ and Azuki), for `sim`."""

from __future__ import annotations

from pathlib import Path

# (file name, text): spells/entities only, 1 to 6 cards in all.
DECKS = [
    ("varz_six.yaml", "hero: Shizuku Minase\nspells:\n  Tide Sprite: 3\n  Glitch Fox: 3\n"),
    ("varz_one.yaml", "hero: Shizuku Minase\nspells:\n  Tide Sprite: 1\n"),
    ("varz_six_one_card.yaml", "hero: Shizuku Minase\nspells:\n  Tide Sprite: 6\n"),
    ("varz_list.txt", "Hero: Shizuku Minase\nSpells:\n2 Tide Sprite\n2 Glitch Fox\n2 Mirror Koi\n"),
    ("varz_no_hero.yaml", "spells:\n  Tide Sprite: 3\n  Glitch Fox: 3\n"),
    ("azuki_six.yaml", "leader: STT01-001\nmain:\n  Alley Guy: 3\n  Crate Rat Kurobo: 3\n"),
    ("azuki_one.yaml", "leader: STT01-001\nmain:\n  Alley Guy: 1\n"),
]


def write(folder: Path) -> list[Path]:
    paths = []
    for name, text in DECKS:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
