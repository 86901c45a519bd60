"""Deck hash: the canonical form, and the properties the issue asks for (hypothesis).

Rewriting a deck (order, reference style, file format, comments, printings) keeps its hash; any
single change of a count, a card, the hero or the format changes it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from varz_decks import LAYOUT, REGISTRAR, SECTIONS, DeclaredDeck, home, read_deck, read_text

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.files.source import DeckSource
from varz_deck.core.registration.canonical import (
    CanonicalDeck,
    canonical_id,
    hash_text,
    hashable,
    normalize_hash,
)
from varz_deck.core.registration.diff import diff_decks
from varz_deck.games import open_database
from varz_deck.games.varz.cards import Card

canonicalize = REGISTRAR.canonicalize

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.*"))
PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data" / "varz")


@cache
def altdb() -> CardDatabase:
    return open_database(ROOT / "tests" / "data" / "altdb")


def canonical_of(text: str, suffix: str, db: CardDatabase) -> CanonicalDeck:
    deck, problems = read_text(text, f"deck{suffix}")
    assert hashable(deck, problems), [p.message for p in problems]
    return canonicalize(deck, db)


# ---- the documented canonical form (README, "Deck hash") ----------------------------------------


# examples/blue-minase-tide.yaml written by hand in the README's canonical form: every card's id
# looked up in card_data/varz/sets/ (none of these cards has a second printing), sorted by id.
BLUE_CANONICAL = """\
varz-deck-hash v1
format:standard
hero:VZ01-002
spells:
VZ01-016 3
VZ01-017 3
VZ01-018 3
VZ01-019 3
VZ01-020 2
VZ01-021 3
VZ01-022 2
VZ01-023 2
VZ01-024 1
VZ02-009 3
VZ02-011 2
VZ02-012 2
VZ02-014 1
skills:
VZ01-071 1
VZ01-072 1
VZ01-085 1
VZ01-086 1
VZ01-087 1
VZ01-088 1
VZ01-095 3
portals:
VZ01-100 2
VZ01-101 1
VZ01-105 3
VZ01-112 1
VZ01-114 1
"""


def readme_hash(canonical_text: str) -> str:
    """The README's "Deck hash" recipe, as another implementation would write it."""
    digest = hashlib.sha256(canonical_text.encode("utf-8")).digest()
    return "v1-" + base64.b32encode(digest).decode("ascii")[:10].lower()


def test_canonical_text_of_an_example_is_exactly_the_documented_form() -> None:
    deck, _ = read_deck(src(ROOT / "examples" / "blue-minase-tide.yaml"))
    canonical = canonicalize(deck, bundled())
    assert canonical.text() == BLUE_CANONICAL
    # Changing the canonical form or the hash function is a new hash version, not a fix.
    assert canonical.hash() == readme_hash(BLUE_CANONICAL)


def test_hash_is_sha256_base32_lowercase_first_ten() -> None:
    text = "varz-deck-hash v1\nformat:standard\nhero:\nspells:\nskills:\nportals:\n"
    expected = base64.b32encode(hashlib.sha256(text.encode()).digest()).decode()[:10].lower()
    assert hash_text(text) == f"v1-{expected}"
    assert hash_text(BLUE_CANONICAL) == readme_hash(BLUE_CANONICAL)
    assert hash_text(BLUE_CANONICAL + "\n") != hash_text(BLUE_CANONICAL)


def test_canonical_id_is_the_smallest_printing_id() -> None:
    db = bundled()
    veast = db.cards["VZ01-061"]  # Stray Veast, reprinted as PR-002
    assert canonical_id(db, veast, LAYOUT.identity) == "PR-002"
    assert canonical_id(db, db.cards["VZ02-063"], LAYOUT.identity) == "VZ01-010"  # Scorch Shot


def test_printings_and_translations_give_one_line_with_the_summed_count() -> None:
    text = "hero: Hibiki Kagura\nspells:\n  VZ01-010: 1\n  VZ02-063: 1\nskills: {}\nportals: {}\n"
    canonical = canonical_of(text, ".yaml", bundled())
    assert [(c.key, c.count) for c in canonical.sections["spells"]] == [("VZ01-010", 2)]
    ja = "hero: 神楽 響\nspells:\n  スコーチショット: 2\n"
    assert canonical_of(ja, ".yaml", bundled()).hash() == canonical.hash()


def test_default_format_is_standard() -> None:
    a = canonical_of("hero: Hibiki Kagura\n", ".yaml", bundled())
    b = canonical_of("format: standard\nhero: Hibiki Kagura\n", ".yaml", bundled())
    c = canonical_of("format: pioneer\nhero: Hibiki Kagura\n", ".yaml", bundled())
    assert a.hash() == b.hash() != c.hash()


def test_unknown_and_ambiguous_references_are_kept_normalised() -> None:
    text = "format: Casual\nhero: Nobody\nspells:\n  Ｍｙｓｔｅｒｙ   Card: 2\n  狐火: 1\n"
    canonical = canonical_of(text, ".yaml", altdb())
    assert not canonical.complete
    assert canonical.format == "?casual"
    assert (hero := canonical.slots["hero"]) is not None and hero.key == "?nobody"
    keys = [c.key for c in canonical.sections["spells"]]
    assert keys == ["?mystery card", "?狐火"]  # 狐火 names two different cards in altdb
    same = "format: casual\nhero: NOBODY\nspells:\n  狐火: 1\n  mystery card: 2\n"
    assert canonical_of(same, ".yaml", altdb()).hash() == canonical.hash()


@pytest.mark.parametrize(
    "text",
    [
        "hero: [a, b]\n",  # F004
        "hero: X\nhero: Y\n",  # F003 duplicate key
        "hero: X\nspells:\n  Ember Imp: 100\n",  # F004 count
        "spells: {a: 1\n",  # F002
    ],
)
def test_a_deck_not_read_completely_has_no_hash(text: str) -> None:
    deck, problems = read_text(text)
    assert not hashable(deck, problems)


def test_missing_file_has_no_hash(tmp_path: Path) -> None:
    deck, problems = read_deck(src(tmp_path / "missing.yaml"))
    assert not hashable(deck, problems)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("v1-k7ez4ns43m", "v1-k7ez4ns43m"),
        (" V1-K7EZ4NS43M ", "v1-k7ez4ns43m"),
        ("v1-k7ez 4ns43m", "v1-k7ez4ns43m"),
        ("v1-6axy4n8ueg", "v1-6axy4nbueg"),  # 8 typed for b
        ("V1-6AXY4N8UEG", "v1-6axy4nbueg"),
        ("v1-0l1o0abc23", "v1-ollooabc23"),  # 0 typed for o, 1 for l
        ("v1-6axy4n9ueg", None),  # 9 stands for no letter
        ("v1-k7ez4ns43", None),
        ("v2-k7ez4ns43m", None),
        ("k7ez4ns43m", None),
        ("", None),
    ],
)
def test_typed_hashes_are_normalised(typed: str, expected: str | None) -> None:
    assert normalize_hash(typed) == expected


def test_every_example_reads_the_same_from_yaml_and_from_its_code() -> None:
    from varz_decks import read_code

    from varz_deck.core.registration.code import encode

    for path in EXAMPLES:
        deck, _ = read_deck(src(path))
        canonical = canonicalize(deck, bundled())
        decoded, errors = read_code(encode(canonical))
        assert errors == []
        assert canonicalize(decoded, bundled()).hash() == canonical.hash(), path


# ---- property tests: rewritings keep the hash, single changes alter it -------------------------


@dataclass
class Content:
    """A deck by meaning: format key, hero card, and copies per card name in each section."""

    format: str
    hero: Card | None
    sections: dict[str, dict[str, int]] = field(default_factory=dict)


def content_of(canonical: CanonicalDeck, db: CardDatabase) -> Content:
    assert canonical.complete
    hero = canonical.slots["hero"].card if canonical.slots["hero"] else None
    sections = {
        s: {c.name: c.count for c in canonical.sections[s] if c.card is not None} for s in SECTIONS
    }
    return Content(canonical.format, hero, sections)


def _fullwidth(text: str) -> str:
    return "".join(
        "\u3000" if ch == " " else chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text
    )


_STYLES = {
    "as is": lambda s: s,
    "upper": str.upper,
    "lower": str.lower,
    "fullwidth": _fullwidth,
    "spaces": lambda s: s.replace(" ", "   "),
}


def references(db: CardDatabase, card: Card) -> list[str]:
    """Every way to name this printing that resolves to exactly it (or to its canonical one)."""
    refs = [card.id]
    if db.canonical(card.name).id == card.id:
        refs += [card.name, *card.names.values()]
    return [r for r in dict.fromkeys(refs) if [c.name for c in db.lookup(r)] == [card.name]]


@st.composite
def written(draw: st.DrawFn, content: Content, db: CardDatabase) -> tuple[str, str]:
    """One random way to write a deck: file format, order, references, printings, comments."""
    style = draw(st.sampled_from(["yaml-map", "yaml-list", "txt"]))

    def ref(card: Card) -> str:
        base = draw(st.sampled_from(references(db, card)))
        return _STYLES[draw(st.sampled_from(sorted(_STYLES)))](base)

    def comment() -> str:
        return draw(st.sampled_from(["", "", "  # note", "   # 3 copies, ok"]))

    blocks: list[list[str]] = []
    for section in draw(st.permutations(SECTIONS)):
        lines: list[str] = []
        items: list[tuple[str, int]] = []
        for name, count in content.sections.get(section, {}).items():
            printings = db.printings[name]
            chosen = draw(
                st.lists(st.sampled_from(printings), min_size=1, unique_by=lambda c: c.id)
            )
            chosen = chosen[: max(1, min(len(chosen), count))]
            cuts: list[int] = []
            if len(chosen) > 1:
                cuts = sorted(draw(st.sets(st.integers(1, count - 1), max_size=len(chosen) - 1)))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, count], strict=True)]
            items += [(ref(card), n) for card, n in zip(chosen, parts, strict=False)]
        items = draw(st.permutations(items))
        if not items and draw(st.booleans()):
            continue  # an empty section may be left out
        for reference, count in items:
            x = draw(st.sampled_from(["", "x"]))
            if style == "yaml-map":
                lines.append(f"  {json.dumps(reference, ensure_ascii=False)}: {count}{comment()}")
            elif style == "yaml-list":
                item = json.dumps(f"{count}{x} {reference}", ensure_ascii=False)
                lines.append(f"  - {item}{comment()}")
            else:
                lines.append(f"{count}{x} {reference}{comment()}")
            if draw(st.integers(0, 9)) == 0:
                lines.append("# a comment line" if style == "txt" else "  # a comment line")
        if style == "txt":
            blocks.append([f"{draw(st.sampled_from([section.title(), section.upper()]))}:", *lines])
        elif style == "yaml-map":
            blocks.append([f"{section}:" if lines else f"{section}: {{}}", *lines])
        else:
            blocks.append([f"{section}:" if lines else f"{section}: []", *lines])
    head: list[list[str]] = []
    if content.hero is not None:
        hero = ref(content.hero)
        head.append(
            [f"Hero: {hero}" if style == "txt" else f"hero: {json.dumps(hero, ensure_ascii=False)}"]
        )
    if content.format != "standard" or draw(st.booleans()):
        head.append(
            [f"Format: {content.format}" if style == "txt" else f"format: {content.format}"]
        )
    if draw(st.booleans()):
        head.append(["# written by a test"])
    order = draw(st.permutations(head + blocks)) if style != "txt" else head + blocks
    text = "\n".join(line for block in order for line in block) + "\n"
    return text, ".txt" if style == "txt" else ".yaml"


def base_content(path: Path) -> Content:
    deck, problems = read_deck(src(path))
    assert hashable(deck, problems)
    return content_of(canonicalize(deck, bundled()), bundled())


def hash_of(content: Content, data: st.DataObject) -> tuple[str, CanonicalDeck]:
    text, suffix = data.draw(written(content, bundled()), label="deck file")
    canonical = canonical_of(text, suffix, bundled())
    return canonical.hash(), canonical


@PROPERTY_SETTINGS
@given(path=st.sampled_from(EXAMPLES), data=st.data())
def test_rewriting_a_deck_keeps_its_hash(path: Path, data: st.DataObject) -> None:
    content = base_content(path)
    expected = canonicalize(*_read(path)).hash()
    got, canonical = hash_of(content, data)
    assert got == expected
    reference = canonicalize(*_read(path))
    assert diff_decks(reference, canonical).same


def _read(path: Path) -> tuple[DeclaredDeck, CardDatabase]:
    deck, _ = read_deck(src(path))
    return deck, bundled()


@st.composite
def single_change(draw: st.DrawFn, content: Content) -> tuple[str, Content]:
    """One change to a deck's meaning: a count, a card, a section, the hero or the format."""
    db = bundled()
    sections = {s: dict(cards) for s, cards in content.sections.items()}
    filled = [s for s in SECTIONS if sections[s]]
    kind = draw(st.sampled_from(["count", "replace", "add", "move", "hero", "format"]))
    if kind in ("count", "replace", "move") and filled:
        section = draw(st.sampled_from(filled))
        name = draw(st.sampled_from(sorted(sections[section])))
        count = sections[section][name]
        if kind == "count":
            new = draw(st.integers(0, 99).filter(lambda n: n != count))
            if new:
                sections[section][name] = new
            else:
                del sections[section][name]
        elif kind == "replace":
            others = sorted(n for n in db.printings if n not in sections[section])
            other = draw(st.sampled_from(others))
            del sections[section][name]
            sections[section][other] = count
        else:
            target = draw(st.sampled_from([s for s in SECTIONS if s != section]))
            del sections[section][name]
            sections[target][name] = sections[target].get(name, 0) + count
        return kind, replace(content, sections=sections)
    if kind == "hero":
        heroes = [c for c in db.cards.values() if c.type == "hero"]
        choices = [
            None,
            *(h for h in heroes if content.hero is None or h.name != content.hero.name),
        ]
        return kind, replace(content, hero=draw(st.sampled_from(choices)))
    if kind == "format":
        other = draw(st.sampled_from(sorted(set(db.formats) - {content.format})))
        return kind, replace(content, format=other)
    section = draw(st.sampled_from(SECTIONS))
    fitting = sorted(
        n
        for n, ps in db.printings.items()
        if home(ps[0].type) == section and n not in sections[section]
    )
    sections[section][draw(st.sampled_from(fitting))] = draw(st.integers(1, 3))
    return "add", replace(content, sections=sections)


@PROPERTY_SETTINGS
@given(path=st.sampled_from(EXAMPLES), data=st.data())
def test_any_single_change_alters_the_hash(path: Path, data: st.DataObject) -> None:
    content = base_content(path)
    kind, changed = data.draw(single_change(content), label="change")
    before, registered = hash_of(content, data)
    after, presented = hash_of(changed, data)
    assert before != after, kind
    result = diff_decks(registered, presented)
    assert not result.same
    if kind == "format":
        assert result.format is not None and not result.changes
    elif kind == "hero":
        assert result.slot("hero") is not None and not result.changes
