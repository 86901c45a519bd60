"""Row 9: a deck of tens of thousands of unknown names, against a 100,000-card database.

`names(n)` makes n distinct card names from syllables (deterministic); `database(n)` a VARZ
card database of n such cards; `write_deck(path, size)` a plain-text deck of about `size` bytes
whose every spell line names no card ("1 Kamorizen Velith 00042"), each a near miss of nothing
in particular; `typo(name, seed)` one or two edits of a name.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

SYLLABLES = [
    "ka",
    "ri",
    "mo",
    "zen",
    "tor",
    "vel",
    "ash",
    "ur",
    "lin",
    "dra",
    "go",
    "mi",
    "sha",
    "ku",
    "ren",
    "fal",
    "bor",
    "ith",
    "nye",
    "qua",
    "sol",
    "ter",
    "vek",
    "yor",
    "zal",
    "ein",
    "hol",
    "pra",
    "sti",
    "wun",
]


def names(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        first = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
        second = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        name = f"{first.capitalize()} {second.capitalize()}"
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def database(n: int) -> Any:
    """A VARZ database of n commands with generated names (built in memory: linting 100,000
    cards from YAML would take most of a minute and is not what this row measures)."""
    from varz_deck.games import get_game
    from varz_deck.games.varz.cards import Card

    cards = [
        Card(id=f"GEN-{i:06d}", name=name, type="command", set="GEN", color="red", cost=1)
        for i, name in enumerate(names(n))
    ]
    return get_game("varz").make_database(cards, None)


def write_deck(path: Path, size: int, seed: int = 11) -> int:
    """A deck of unknown names, as close to `size` bytes as whole lines allow; the number of
    spell lines it has."""
    rng = random.Random(seed)
    head = "Hero: Hibiki Kagura\n\nSpells:\n"
    lines: list[str] = []
    total = len(head)
    while True:
        word = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
        line = f"1 {word} {len(lines):05d}\n"
        if total + len(line) > size:
            break
        lines.append(line)
        total += len(line)
    path.write_text(head + "".join(lines), encoding="utf-8")
    return len(lines)


def typo(name: str, seed: int) -> str:
    """The name with one or two letters changed, dropped or added."""
    rng = random.Random(seed)
    chars = list(name)
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(1, len(chars))
        kind = rng.choice("cda")
        if kind == "c":
            chars[i] = rng.choice("abcdefghijklmnopqrstuvwxyz")
        elif kind == "d":
            del chars[i]
        else:
            chars.insert(i, rng.choice("abcdefghijklmnopqrstuvwxyz"))
    return "".join(chars)
