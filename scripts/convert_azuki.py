"""Convert the public Azuki TCG card data into varz-deck's own Azuki card files.

Usage::

    python scripts/convert_azuki.py SRC.json OUTDIR [--check]

SRC.json is the card list of SkyeGeeDev/Azuki-TCG-Battle-Bot ``data/cards.js`` (commit faee555)
as JSON (a list of card objects: id, name, category, element, cost, attack, hp, gate, mechanics,
traits, variants). OUTDIR receives one YAML file per set code in the format of
``schemas/azuki/card-file.schema.json``: ``azk01.yaml``, ``stt01.yaml`` ... ``stt04.yaml``, and
``ikz.yaml`` for the IKZ resource cards. The output is deterministic: cards sorted by id, keys in
a fixed order, no timestamps. ``--check`` writes nothing and exits 1 when OUTDIR is out of date.

Quirks of the source that are fixed here (each is a data error, not a game fact):

* category ``Enitity`` (three cards) is the entity type;
* ``element: null`` on IKZ and IKZ Token cards becomes ``neutral``: IKZ are colourless resources
  (the rules page lists five elements, Neutral included, and every card must match the Leader's
  element or be Neutral; IKZ go in every deck, so they are Neutral);
* the IKZ Token printed under several ids (IKZ-002 and the promos AZP-001, AZP-002) is ONE card:
  the lowest id in plain string order is kept (AZP-001: "AZP" sorts before "IKZ") and the others
  are listed as ``aliases`` so decks that name them still resolve; their art is kept as variants
  tagged with the printed ``id``;
* two spells filed as ``Entity`` (AZK01-055 Earth Orb, AZK01-092 Lotus of Reflection: no attack,
  health or gate power, art file type letter ``S``, Earth Orb's siblings are spells) are spells;
* keywords are lower-case snake_case; empty keywords are dropped; ``When Sacrified`` is
  ``when_sacrificed``; ``Carapace N`` is ``carapace_N``;
* traits: a comma-joined trait (``"Beanz, Earthwarden"``) is split, and traits that differ only
  in case are written in their most common spelling (``beanz`` -> ``Beanz``);
* an art URL whose file name carries another card's id (AZK01-101's art is AZK01-100's) is
  dropped, keeping the variant's rarity and label.

Exit codes: 0 done (or up to date with ``--check``); 1 the source has something this script does
not understand, or ``--check`` found differences; 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SOURCE = "SkyeGeeDev/Azuki-TCG-Battle-Bot, data/cards.js, commit faee555"

CATEGORY_TYPES: dict[str, str] = {
    "Leader": "leader",
    "Gate": "gate",
    "Entity": "entity",
    "Enitity": "entity",  # source typo on AZK01-097, AZK01-098, AZK01-099
    "Spell": "spell",
    "Weapon": "weapon",
    "IKZ": "ikz",
    "IKZ Token": "ikz_token",
}

# Cards the source files under the wrong category: id -> (category in the source, real type).
# Both have null attack/health/gate power and art named "..._S_..." (S = spell).
TYPE_FIXES: dict[str, tuple[str, str]] = {
    "AZK01-055": ("Entity", "spell"),  # Earth Orb: a [Response] Orb like the spells Water Orb
    "AZK01-092": ("Entity", "spell"),  # Lotus of Reflection: a [Main] card with no stats
}

ELEMENTS: dict[str, str] = {
    "Fire": "fire",
    "Water": "water",
    "Earth": "earth",
    "Lightning": "lightning",
    "Neutral": "neutral",
}

RESOURCE_TYPES = frozenset({"ikz", "ikz_token"})

# Every keyword the source uses (and those the rules page defines), mapped to our spelling.
# A keyword missing here stops the conversion: add it deliberately rather than guess.
KEYWORDS: dict[str, str] = {
    "After Attacking": "after_attacking",
    "Bloodlust": "bloodlust",
    "Charge": "charge",
    "Defender": "defender",
    "End of Your Turn": "end_of_your_turn",
    "Godmode": "godmode",
    "In Alley Only Ability": "in_alley_only",
    "In Garden Only Ability": "in_garden_only",
    "Infiltrate": "infiltrate",
    "Main": "main",
    "On Play": "on_play",
    "Once/Turn": "once_per_turn",
    "Response": "response",
    "Start of Each Turn": "start_of_each_turn",
    "Start of Your Turn": "start_of_your_turn",
    "Taunt": "taunt",
    "When Attacked": "when_attacked",
    "When Attacking": "when_attacking",
    "When Destroyed": "when_destroyed",
    "When Equipped": "when_equipped",
    "When Sacrificed": "when_sacrificed",
    "When Sacrified": "when_sacrificed",  # source typo on AZK01-115
}
CARAPACE = re.compile(r"^Carapace (\d+)$")

# Which game fields each type must and may have (mirrors the schema).
REQUIRED: dict[str, tuple[str, ...]] = {
    "leader": ("health",),
    "gate": (),
    "entity": ("cost", "attack", "health", "gate_power"),
    "spell": ("cost",),
    "weapon": ("cost",),
    "ikz": (),
    "ikz_token": (),
}
ALLOWED: dict[str, frozenset[str]] = {
    "leader": frozenset({"attack", "health"}),
    "gate": frozenset(),
    "entity": frozenset({"cost", "attack", "health", "gate_power"}),
    "spell": frozenset({"cost"}),
    "weapon": frozenset({"cost", "attack"}),
    "ikz": frozenset(),
    "ikz_token": frozenset(),
}
STATS = ("cost", "attack", "health", "gate_power")
CARD_KEYS = ("id", "name", "type", "elements", *STATS, "keywords", "traits", "aliases", "variants")

ID = re.compile(r"^[A-Z0-9]+-[A-Z0-9]+$")
ART_ID = re.compile(r"^(?:S\d+-)?([A-Z0-9]+-\d+)")

HEADER = (
    "# GENERATED FILE - do not edit by hand.\n"
    "# Generated by scripts/convert_azuki.py from the public Azuki TCG card data\n"
    f"# ({SOURCE}).\n"
    "# Format: schemas/azuki/card-file.schema.json. To change a card, fix the converter or its\n"
    "# source and run: python scripts/convert_azuki.py SRC.json OUTDIR\n"
)
FILE_NOTES: dict[str, str] = {
    "azk01": "# AZK01: the main set's cards that appear in the four starter decks.\n",
    "ikz": (
        "# IKZ resource cards. Element neutral: IKZ are colourless resources that every deck\n"
        "# uses (the source has element null). The IKZ Token is printed under several ids; it is\n"
        "# one card here: the lowest id is its id and the other printed ids are its aliases, so\n"
        "# decks naming any of them resolve to it. Each alias's art is a variant tagged with the\n"
        "# id printed on it.\n"
    ),
}


class ConversionError(Exception):
    """The source has something the converter does not understand."""


@dataclass
class Card:
    """One card in our format, before it is written."""

    id: str
    name: str
    type: str
    elements: list[str]
    stats: dict[str, int]
    keywords: list[str]
    traits: list[str]
    variants: list[dict[str, str]]
    aliases: list[str] = field(default_factory=list)

    def game_fields(self) -> tuple[object, ...]:
        """What must agree for two printings to be one card."""
        return (
            self.name,
            self.type,
            tuple(self.elements),
            tuple(sorted(self.stats.items())),
            tuple(self.keywords),
            tuple(self.traits),
        )

    def to_yaml_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "elements": self.elements,
        }
        out.update({k: self.stats[k] for k in STATS if k in self.stats})
        if self.keywords:
            out["keywords"] = self.keywords
        if self.traits:
            out["traits"] = self.traits
        if self.aliases:
            out["aliases"] = self.aliases
        out["variants"] = self.variants
        assert tuple(out) == tuple(k for k in CARD_KEYS if k in out)
        return out


@dataclass
class Notes:
    """What the conversion fixed, for the summary on stderr."""

    lines: list[str] = field(default_factory=list)

    def add(self, card_id: str, text: str) -> None:
        self.lines.append(f"{card_id}: {text}")


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _where(raw: dict[str, Any]) -> str:
    return str(raw.get("id", "?"))


def _whole(raw: dict[str, Any], key: str) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConversionError(f"{_where(raw)}: {key} is {value!r}, not a whole number >= 0")
    return value


def _type_of(raw: dict[str, Any], notes: Notes) -> str:
    category = raw.get("category")
    card_id = _where(raw)
    fix = TYPE_FIXES.get(card_id)
    if fix is not None and category == fix[0]:
        notes.add(card_id, f"category {category!r} -> type {fix[1]!r}")
        return fix[1]
    if not isinstance(category, str) or category not in CATEGORY_TYPES:
        raise ConversionError(f"{card_id}: unknown category {category!r}")
    if category == "Enitity":
        notes.add(card_id, "category 'Enitity' -> type 'entity'")
    return CATEGORY_TYPES[category]


def _elements(raw: dict[str, Any], card_type: str, notes: Notes) -> list[str]:
    element = raw.get("element")
    if element is None and card_type in RESOURCE_TYPES:
        notes.add(_where(raw), "element null -> neutral (IKZ are colourless resources)")
        return ["neutral"]
    values = element if isinstance(element, list) else [element]
    out: list[str] = []
    for value in values:
        if not isinstance(value, str) or value not in ELEMENTS:
            raise ConversionError(f"{_where(raw)}: unknown element {value!r}")
        if ELEMENTS[value] not in out:
            out.append(ELEMENTS[value])
    if not out or len(out) > (2 if card_type == "leader" else 1):
        raise ConversionError(f"{_where(raw)}: {_a(card_type)} cannot have elements {values!r}")
    return out


def _keywords(raw: dict[str, Any], notes: Notes) -> list[str]:
    mechanics = raw.get("mechanics") or {}
    if not isinstance(mechanics, dict):
        raise ConversionError(f"{_where(raw)}: mechanics is {mechanics!r}, not a mapping")
    out: list[str] = []
    for word in mechanics.get("keywords") or []:
        if not isinstance(word, str):
            raise ConversionError(f"{_where(raw)}: keyword {word!r} is not text")
        word = " ".join(word.split())
        if not word:
            continue  # the source writes [""] for "no keywords"
        carapace = CARAPACE.match(word)
        if carapace:
            keyword = f"carapace_{int(carapace.group(1))}"
        elif word in KEYWORDS:
            keyword = KEYWORDS[word]
            if word == "When Sacrified":
                notes.add(_where(raw), "keyword 'When Sacrified' -> when_sacrificed")
        else:
            raise ConversionError(f"{_where(raw)}: unknown keyword {word!r}; add it to KEYWORDS")
        if keyword not in out:
            out.append(keyword)
    return out


def _raw_traits(raw: dict[str, Any]) -> list[str]:
    traits = raw.get("traits") or []
    if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
        raise ConversionError(f"{_where(raw)}: traits is {traits!r}, not a list of text")
    out: list[str] = []
    for trait in traits:
        out.extend(" ".join(part.split()) for part in trait.split(","))
    return [t for t in out if t]


def _trait_spellings(cards: Iterable[dict[str, Any]]) -> dict[str, str]:
    """casefolded trait -> its most common spelling (ties: the one that sorts first)."""
    counts: Counter[str] = Counter(t for raw in cards for t in _raw_traits(raw))
    best: dict[str, str] = {}
    for spelling, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        best.setdefault(spelling.casefold(), spelling)
    return best


def _traits(raw: dict[str, Any], spellings: dict[str, str], notes: Notes) -> list[str]:
    source = raw.get("traits") or []
    out: list[str] = []
    for trait in _raw_traits(raw):
        fixed = spellings[trait.casefold()]
        if fixed not in out:
            out.append(fixed)
    if out != source:
        notes.add(_where(raw), f"traits {source!r} -> {out!r}")
    return out


def _variants(raw: dict[str, Any], notes: Notes) -> list[dict[str, str]]:
    variants = raw.get("variants") or []
    if not isinstance(variants, list) or not variants:
        raise ConversionError(f"{_where(raw)}: no variants")
    out: list[dict[str, str]] = []
    for variant in variants:
        if not isinstance(variant, dict):
            raise ConversionError(f"{_where(raw)}: variant {variant!r} is not a mapping")
        entry: dict[str, str] = {}
        for key in ("rarity", "label", "image"):
            value = variant.get(key)
            if value is None:
                continue
            if not isinstance(value, str) or not value.strip():
                raise ConversionError(f"{_where(raw)}: variant {key} is {value!r}")
            entry[key] = value.strip()
        image = entry.get("image")
        if image is not None:
            art = ART_ID.match(image.rsplit("/", 1)[-1])
            if art is not None and art.group(1) != raw["id"]:
                notes.add(_where(raw), f"art {image} belongs to {art.group(1)}: image dropped")
                del entry["image"]
        out.append(entry)
    return out


def convert_card(raw: dict[str, Any], spellings: dict[str, str], notes: Notes) -> Card:
    """One source card in our format (before IKZ Token printings are merged)."""
    card_id = raw.get("id")
    name = raw.get("name")
    if not isinstance(card_id, str) or not ID.match(card_id):
        raise ConversionError(f"card id {card_id!r} is not LETTERS-DIGITS")
    if not isinstance(name, str) or not name.strip():
        raise ConversionError(f"{card_id}: no name")
    card_type = _type_of(raw, notes)
    source_stats = {"cost": "cost", "attack": "attack", "health": "hp", "gate_power": "gate"}
    stats: dict[str, int] = {}
    for ours, theirs in source_stats.items():
        value = _whole(raw, theirs)
        if value is None:
            continue
        if ours not in ALLOWED[card_type]:
            raise ConversionError(f"{card_id}: {_a(card_type)} has no {ours} (source: {value})")
        stats[ours] = value
    missing = [k for k in REQUIRED[card_type] if k not in stats]
    if missing:
        raise ConversionError(f"{card_id}: {_a(card_type)} needs {', '.join(missing)}")
    return Card(
        id=card_id,
        name=" ".join(name.split()),
        type=card_type,
        elements=_elements(raw, card_type, notes),
        stats=stats,
        keywords=_keywords(raw, notes),
        traits=_traits(raw, spellings, notes),
        variants=_variants(raw, notes),
    )


def merge_resource_printings(cards: list[Card], notes: Notes) -> list[Card]:
    """IKZ resource cards printed under several ids become one card with aliases."""
    groups: dict[tuple[object, ...], list[Card]] = {}
    out: list[Card] = []
    for card in cards:
        if card.type in RESOURCE_TYPES:
            groups.setdefault(card.game_fields(), []).append(card)
        else:
            out.append(card)
    for printings in groups.values():
        printings.sort(key=lambda c: c.id)
        keep, others = printings[0], printings[1:]
        for other in others:
            keep.aliases.append(other.id)
            keep.variants.extend({"id": other.id, **v} for v in other.variants)
        if others:
            notes.add(keep.id, f"one card with aliases {keep.aliases} (same {keep.name})")
        out.append(keep)
    return out


def convert(source: list[Any], notes: Notes) -> list[Card]:
    """All source cards in our format, checked for duplicate ids and names of resources."""
    if not all(isinstance(raw, dict) for raw in source):
        raise ConversionError("the source must be a JSON list of card objects")
    spellings = _trait_spellings(source)
    cards = [convert_card(raw, spellings, notes) for raw in source]
    seen: Counter[str] = Counter(c.id for c in cards)
    doubled = sorted(i for i, n in seen.items() if n > 1)
    if doubled:
        raise ConversionError(f"ids listed twice: {', '.join(doubled)}")
    cards = merge_resource_printings(cards, notes)
    names = Counter(c.name.casefold() for c in cards if c.type in RESOURCE_TYPES)
    clash = sorted(n for n, k in names.items() if k > 1)
    if clash:
        raise ConversionError(f"resource cards with one name and different fields: {clash}")
    return sorted(cards, key=lambda c: c.id)


def file_key(card: Card) -> str:
    """The output file of a card: its set code, or ``ikz`` for the resource cards."""
    if card.type in RESOURCE_TYPES:
        return "ikz"
    return card.id.split("-", 1)[0].lower()


class _Dumper(yaml.SafeDumper):
    """Block style for mappings, flow style for lists of plain values, indented lists."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(not isinstance(item, (dict, list)) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def render(key: str, cards: list[Card]) -> str:
    """The text of one output file."""
    doc: dict[str, Any] = {}
    if key != "ikz":
        doc["set"] = {"code": key.upper()}
    doc["cards"] = [card.to_yaml_dict() for card in cards]
    body = yaml.dump(
        doc,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=4096,
        indent=2,
    )
    body = body.replace("\n  - id: ", "\n\n  - id: ").replace("\ncards:", "\n\ncards:", 1)
    return HEADER + FILE_NOTES.get(key, _starter_note(key, cards)) + "\n" + body


def _starter_note(key: str, cards: list[Card]) -> str:
    leaders = [c for c in cards if c.type == "leader"]
    if not leaders:
        return ""
    leader = leaders[0]
    return (
        f"# {key.upper()}: the starter deck of the Leader {leader.name} "
        f"({'/'.join(leader.elements)}). The source has no set names.\n"
    )


def outputs(cards: list[Card]) -> dict[str, str]:
    """File name -> text, for every output file."""
    by_file: dict[str, list[Card]] = {}
    for card in cards:
        by_file.setdefault(file_key(card), []).append(card)
    return {f"{key}.yaml": render(key, by_file[key]) for key in sorted(by_file)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="convert_azuki.py",
        description="Convert the public Azuki TCG card JSON into varz-deck Azuki card files.",
    )
    parser.add_argument("source", type=Path, help="the card JSON (a list of card objects)")
    parser.add_argument("outdir", type=Path, help="folder for the card files (created if needed)")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if OUTDIR is out of date"
    )
    args = parser.parse_args(argv)
    try:
        source = json.loads(args.source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"convert_azuki: cannot read {args.source}: {exc}", file=sys.stderr)
        return 1
    if not isinstance(source, list):
        print(f"convert_azuki: {args.source}: expected a JSON list of cards", file=sys.stderr)
        return 1
    notes = Notes()
    try:
        cards = convert(source, notes)
    except ConversionError as exc:
        print(f"convert_azuki: {args.source}: {exc}", file=sys.stderr)
        return 1
    files = outputs(cards)
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (args.outdir / name).is_file()
            or (args.outdir / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"convert_azuki: {args.outdir / name} is out of date", file=sys.stderr)
        return 1 if stale else 0
    try:
        args.outdir.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (args.outdir / name).write_text(text, encoding="utf-8", newline="\n")
    except OSError as exc:
        print(f"convert_azuki: cannot write {args.outdir}: {exc}", file=sys.stderr)
        return 1
    for line in notes.lines:
        print(f"fixed {line}", file=sys.stderr)
    print(
        f"wrote {len(cards)} cards ({len(source)} printings) to {len(files)} files in {args.outdir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
